"""Review set 7: the user's key figures are used, never quoted back as "not used" (en and zh-Hant).

- A figure the user measured ("38 tok/s", "每秒接近 10 個 token") is read by the diagnosis, not listed as unused.
- "One request at a time", "single-concurrent", "單次請求", "單併發" is concurrency 1 (the load a figure was taken at).
- An arrival rate ("2 QPS", "120 requests per minute", "每秒 5 個請求") is not requests in flight: the answer converts
  it with Little's law (in flight = rate × the estimate's time per request) instead of saying it was not used.
- A lower load beside the planned peak ("three requests at once" with "3-5 simultaneous") is covered by the plan.
Phrasings follow real threads (vLLM issues 17568, 23885, 9722; LlamaFactory 3910), reworded.
"""
from __future__ import annotations

import pytest

from agent.api import advise
from agent.arrival import per_second
from agent.extract import extract
from agent.measured import read
from ui.present import markdown

_UNUSED = ("did not use", "沒有用上")


def _answer(question: str, answers: dict | None = None) -> str:
    return markdown.answer(advise(question, answers or {}, knowledge=False))


def _numbers(text: str) -> list[str]:
    return [u.text for u in extract(text).not_understood if u.kind == "number"]


@pytest.mark.parametrize("text", [
    "On two L40S with Qwen2.5-14B, one request at a time gets about 38 tok/s. Is something wrong?",
    "Running Qwen3-30B-A3B on 4 cards, a single-concurrent test gives only 32 tok/s. How do I improve it?",
    "8 張 4090 部署 DeepSeek-R1-Distill-Qwen-32B，單次請求推理速度約 30 t/s，這樣正常嗎？",
    "用 A100 跑 Llama 3 70B AWQ，單併發的時候每秒接近 10 個 token，正常嗎？",
])
def test_single_request_is_concurrency_one_and_the_figure_is_measured(text):
    ex = extract(text)
    assert ex.values.get("concurrency") == 1, ex.values
    assert _numbers(text) == [], _numbers(text)
    assert read(text), "the measured figure is read"


@pytest.mark.parametrize("text", [
    "RTX 3090 上 Qwen2.5-0.5B 每秒約 280 個 token，換到 L40S 反而只有每秒 40～60 個 token，正常嗎？",
    "On one H100 I get ~1,150 tokens/s with 64 concurrent requests and 95 tok/s for one stream. Sensible?",
])
def test_measured_figures_are_never_listed_as_unused(text):
    assert _numbers(text) == [], _numbers(text)
    assert len(read(text)) == 2


@pytest.mark.parametrize("phrase, rate", [
    ("2 QPS", 2.0), ("120 requests per minute", 2.0), ("3 req/s", 3.0), ("每秒 5 個請求", 5.0), ("每分鐘 90 個請求", 1.5),
    ("300 tokens", None),
])
def test_arrival_rate_in_requests_per_second(phrase, rate):
    assert per_second(phrase) == rate


def test_zh_rate_is_not_requests_in_flight():
    text = "8 張 A100 上跑 Qwen2.5-72B，尖峰每秒 5 個請求，平均輸出 300 tokens"
    assert extract(text).values.get("concurrency") != 5
    assert _numbers(text) == ["每秒 5 個請求"]


@pytest.mark.parametrize("question, answers, said", [
    ("We serve Mistral 7B on a single L40S and see about 2 QPS at peak, ~250 output tokens each. Which engine?",
     {}, "arrival rate"),
    ("我們用 2 張 H100 跑 Llama 3 70B 做客服，尖峰每分鐘大約 240 個請求，每個回答約 200 tokens，該用哪個引擎？",
     {}, "到達率"),
])
def test_arrival_rate_is_converted_not_unused(question, answers, said):
    text = _answer(question, answers)
    assert said in text and ("in flight" in text or "同時在跑" in text), text[-1500:]
    assert not any(u in text for u in _UNUSED), text[-800:]


def test_lower_load_beside_the_planned_peak_is_not_unused():
    text = _answer("My app calls Qwen2.5-32B on a Mac Studio M2 Ultra 192GB through LM Studio. What happens when "
                   "three requests come in at once?", {"concurrency": "3-5 simultaneous requests from the app"})
    assert "three requests" not in text.split("did not use")[-1] if "did not use" in text else True
    assert not any(u in text for u in _UNUSED), text[-800:]


def test_shared_prefix_size_is_not_the_context_window():
    ex = extract("是的，每個請求前面都有一段約 1,200 tokens 的共用系統提示")
    assert ex.values.get("prefix_tokens") == 1200 and "context_length" not in ex.values, ex.values


def test_todays_headcount_beside_the_planned_growth_is_not_unused():
    text = _answer("我用一張 RTX 4070 Ti SUPER 16GB 跑 Qwen2.5-14B，現在只有 1 人用，哪個引擎比較好？",
                   {"concurrency": "現在 1 人，明年可能 4-5 人"})
    assert not any(u in text for u in _UNUSED), text[-800:]


@pytest.mark.parametrize("text", [
    "I benchmarked SGLang on one H100 with Qwen2.5-14B using 2,000 requests of 1K-token prompts and got ~900 tok/s total.",
    "用 vLLM 在一張 L40S 上跑 Qwen2.5-7B，壓測送了 500 個請求，每個請求輸入約 2,000 tokens，總吞吐約 1,800 tok/s。",
])
def test_a_benchmark_runs_request_count_is_its_size_not_a_load(text):
    assert _numbers(text) == [], _numbers(text)
