"""Facts the user gave reach the plan (issue 15, review 3): a fact filed under a field the advisor did
not ask is still said, "I don't know" never erases a stated fact, the load for N people follows the
stated peak rule, a stated latency target is judged, a token volume is costed with its idle hours,
and nothing understood is quoted back as "not used" — in English and zh-Hant. Real rules, real
extractor, no retrieval (the plan is what is checked)."""
from __future__ import annotations

import pytest

from agent.api import advise, unasked_answers
from agent.extract_volume import volume
from evals.langcheck import english_runs
from rules.cost import at_volume
from rules.serving import busy_hour_load


def _advise(text, answers=None):
    return advise(text, answers, knowledge=False)


def test_answers_to_fields_never_asked_are_found():
    answers = {"workload": "mixed chat, ~2K in / 1K out, 100+ concurrent requests", "concurrency": "not sure"}
    assert unasked_answers([{"fields": ["concurrency"]}], answers) == [answers["workload"]]
    assert unasked_answers([{"fields": ["concurrency", "workload"]}], answers) == []


def test_a_load_filed_under_workload_is_planned_for_and_launched():
    a = _advise("We rent an 8x MI300X node. Goal: serve DeepSeek-R1 (official FP8 weights) to our internal apps "
                "with high throughput. SGLang or vLLM on ROCm? Give me a launch command.",
                {"workload": "mixed chat, ~2K in / 1K out, 100+ concurrent requests"})
    assert a.profile.summary.concurrency >= 100 and "concurrency" not in a.profile.summary.assumed
    launch = next(c.command for c in a.plan.launch if c.engine == a.decision.primary)
    dp = a.plan.layout.dp * (a.plan.layout.tp * a.plan.layout.ep if a.plan.layout.attention_dp else 1)
    seqs = int(launch.split("--max-num-seqs ")[1].split()[0]) if "--max-num-seqs" in launch else \
        int(launch.split("--max-running-requests ")[1].split()[0]) // max(1, dp)
    assert seqs * max(1, dp) >= 100   # the cap covers the stated load over the replicas/ranks


def test_when_nothing_is_asked_the_filed_facts_join_the_request():
    a = _advise("How many H100s do I need to serve Llama 3.3 70B to 1000 users?",
                {"concurrency": "1000 employees, peak ~80 concurrent requests",
                 "workload": "prompts: avg 3K in / 400 out; slo: TTFT < 2 s, at least 15 tok/s per user"})
    req = a.sizing["request"]
    assert req["concurrency"] == 80 and req["ttft_ms"] == 2000 and round(req["tpot_ms"]) == 67
    assert "did not give one" not in a.answer


@pytest.mark.parametrize("text, answers", [
    ("8x H100 SXM, Llama 3.1 70B, 120 concurrent requests for an internal team. Which engine?", {}),
    ("8 張 H100 SXM，跑 Llama 3.1 70B，內部團隊 120 個併發，用哪個引擎？", {}),
    ("8x H100 SXM, Llama 3.1 70B, 120 concurrent requests. Which engine?", {"concurrency": "not sure"}),
])
def test_dont_know_never_erases_a_stated_fact(text, answers):
    a = _advise(text, answers)
    s = a.profile.summary
    assert s.concurrency == 120 and s.count == 8 and "concurrency" not in s.assumed


@pytest.mark.parametrize("users, load", [(1, 1), (5, 2), (10, 4), (20, 6), (500, 66), (1000, 123)])
def test_the_load_for_a_head_count_is_the_busy_hour_peak(users, load):
    assert busy_hour_load(users) == load


@pytest.mark.parametrize("text, words", [
    ("Our team of 20 shares one RTX A6000 (48GB) running Mistral Small 3.1 24B. Which engine?", ("20 users", "99%")),
    ("我們 20 人的團隊共用一張 RTX A6000 48GB，跑 Mistral Small 3.1 24B，用哪個引擎？", ("20 人", "99%")),
])
def test_the_team_size_assumption_is_said_with_its_rule(text, words):
    a = _advise(text)
    assert a.estimate.concurrency == 6   # planned for the peak, whether the load was asked or not
    assert all(w in a.answer for w in words)


@pytest.mark.parametrize("text, lang", [
    ("8x H100 SXM, Llama 3.1 70B, 64 concurrent users, p99 TTFT under 500 ms and TTFT < 2 s. Which engine?", "en"),
    ("8 張 H100 SXM 跑 Llama 3.1 70B，64 個併發，首字 2 秒內、每人每秒至少 20 token，用哪個引擎？", "zh"),
])
def test_a_stated_latency_target_is_judged_in_the_summary(text, lang):
    a = _advise(text)
    assert a.slo and "ttft_ms" in a.slo
    head = a.answer.split("###")[0]
    if lang == "en":
        assert "Your target" in head and ("meets it" in head or "misses it" in head)
        assert "did not give one" not in a.answer
    else:
        assert "您的延遲目標" in head and ("符合" in head or "未達" in head)
        assert not english_runs(head)


@pytest.mark.parametrize("text, total, out", [
    ("Our volume is about 300M tokens/month (250M in, 50M out).", 3e8, 5e7),
    ("我們每月大約 5 億 tokens（4 億輸入、1 億輸出）", 5e8, 1e8),
    ("about 10 million tokens a day", 10e6 * 365 / 12, None),
])
def test_a_token_volume_is_read(text, total, out):
    from agent.extract_text import normalize
    v = volume(normalize(text).norm)
    assert v is not None and round(v.tokens_per_month) == round(total) and v.output_per_month == out


def test_the_cost_at_a_volume_pays_for_idle_hours():
    c = at_volume(2, 2.5, 1000.0, tokens=3e8, output_tokens=5e7)
    assert c.monthly_usd == 3650 and round(c.per_1m_tokens, 2) == 12.17
    assert c.full_per_1m_output == round(5 / 3.6, 4) and c.busy_share < 0.05


@pytest.mark.parametrize("text, lang", [
    ("Finance wants numbers: Llama 3.3 70B self-hosted on rented H100s at $2.50/GPU-hr vs a hosted API. Our volume "
     "is about 300M tokens/month (250M in, 50M out). What's our cost per 1M tokens each way?", "en"),
    ("老闆想自架 Llama 3.3 70B，租 H100 一小時 2.5 美金。我們每月大約 3 億 tokens（2.5 億輸入、0.5 億輸出）。"
     "跟 API 比，每百萬 tokens 成本各是多少？", "zh"),
])
def test_the_cost_answer_uses_the_volume_and_never_calls_it_unused(text, lang):
    a = _advise(text)
    assert a.volume and not any("token" in n.text.lower() for n in a.not_understood)
    lead = a.answer.split("###")[0]
    if lang == "en":
        assert "At your volume" in lead and "a month" in lead and "I did not use" not in a.answer
    else:
        assert "以您的用量算" in lead and "沒有用上" not in a.answer
        assert not english_runs(lead)


def test_a_stated_target_replaces_the_default_in_the_capacity_check():
    from rules.plan import request_from_profile
    from rules.plan.search import targets
    from rules.profile import build_profile
    p = build_profile({"hardware": "h100_sxm", "count": 1, "model": "llama-3.1-8b", "concurrency": 64})
    assert targets(request_from_profile(p)) == (1000, 100)   # the chat defaults
    assert targets(request_from_profile(p, slo={"ttft_ms": 2000, "tpot_ms": 50})) == (2000, 50)


@pytest.mark.parametrize("text, count", [
    ("We have 2-socket Xeon servers with AMX (Sapphire Rapids). Llama 3.1 8B for 20 users?", 2),
    ("a two-socket EPYC 9334 box, 384GB DDR5, Llama 3.1 8B", 2),
])
def test_a_socket_count_is_the_device_count(text, count):
    from agent.extract import extract
    e = extract(text)
    assert e.values.get("count") == count and not e.not_understood


@pytest.mark.parametrize("text", [
    "雲端有單張 MI300X（192GB）可租。想跑 Llama 3.3 70B，同時大概 100 人使用。一張夠嗎？",
    "One node, 8x H100 SXM, Llama 3.1 70B. Is one node enough for 200 users?",
    "How many H100s for Llama 3.3 70B to 1000 users?\n1000 employees, peak ~80 concurrent requests",
])
def test_a_number_that_was_understood_is_not_quoted_back(text):
    from agent.extract import extract
    assert extract(text).not_understood == []


def test_unused_numbers_are_said_once_at_the_end_not_in_the_question():
    from agent.api import Advisor
    from langgraph.checkpoint.memory import InMemorySaver
    text = "We pay 2.8 €/h per GPU for a node. Which engine for our team?"
    out = Advisor(checkpointer=InMemorySaver()).turn("t", text)
    assert out.question is not None and "2.8" not in out.question["question"]
    a = _advise(text)
    assert a.answer.count("'2.8 €'") == 1 and a.answer.index("'2.8 €'") > a.answer.index("Recommendation")


@pytest.mark.parametrize("text, generic", [
    ("8x H100 SXM, Llama 3.3 70B, 120 concurrent requests for an internal team. Which engine?", "Local-first servers"),
    ("8x H100 SXM, Llama 3.3 70B, 120 concurrent requests for an internal team. Which engine?", "Published numbers usually"),
    ("8 張 H100 SXM，跑 Llama 3.3 70B，內部團隊 120 個併發，用哪個引擎？", "本地優先的 server（Ollama"),
])
def test_generic_warnings_about_another_setup_are_left_out(text, generic):
    a = _advise(text)
    assert generic not in a.answer
    assert any(generic in w for w in a.warnings)   # still in the decision (ask --json keeps them)


def test_a_listed_api_price_is_compared_with_the_month_bill():
    from rules.cost import api_monthly, listed_api_price
    price = listed_api_price("gpt-oss-120b")
    assert price is not None and price.source.startswith("https://") and api_monthly(price, 4e8, 1e8) == 215.0
    a = _advise("老闆想自架 gpt-oss-120b，租一張 H100 一小時 2.5 美金。我們每月大約 5 億 tokens（4 億輸入、1 億輸出）。"
                "跟直接用 API 比，每百萬 tokens 成本各是多少？哪個划算？")
    lead = a.answer.split("###")[0]
    assert "$215" in lead and "API 便宜" in lead and price.source in lead and not english_runs(lead)


@pytest.mark.parametrize("text, ttft, tpot", [
    ("TTFT < 2 s", 2000, None), ("p99 TTFT under 500 ms", 500, None), ("首字 2 秒內", 2000, None),
    ("每人每秒至少 20 token", None, 50), ("每個 token 要在 50 毫秒以內", None, 50),
    ("首字延遲要控制在 1.5 秒內", 1500, None), ("at least 20 tokens per second per user", None, 50),
])
def test_slo_phrasings_are_read(text, ttft, tpot):
    from agent.slo_check import stated_slo
    found = stated_slo([text]) or {}
    assert found.get("ttft_ms") == ttft and found.get("tpot_ms") == tpot


def test_a_datacenter_answer_does_not_warn_about_local_servers_nobody_named():
    plain = _advise("8x H100 SXM, Llama 3.3 70B, 120 concurrent requests for an internal team. Which engine?")
    named = _advise("We run Ollama on 8x H100 SXM for Llama 3.3 70B, 120 concurrent requests. Which engine?")
    assert "Ollama: built for personal use" not in plain.answer
    assert "Ollama: built for personal use" in named.answer
    assert any(a.engine == "ollama" for a in plain.decision.avoid)   # ask --json still lists it


def test_a_sizing_answer_says_how_many_devices_first():
    a = _advise("Can one H100 serve Llama 3.1 70B in FP8 for 1000 users chatting at the same time? If not, how many GPUs do we need?")
    assert "This load needs" in a.answer.split("\n\n")[0]


@pytest.mark.parametrize("text, said", [
    ("1x H100 SXM, Llama 3.3 70B FP8, 300 concurrent requests, TTFT < 2 s. Which engine?", "over capacity"),
    ("1 張 H100 SXM 跑 Llama 3.3 70B FP8，300 個併發，首字 2 秒內，用哪個引擎？", "超出容量"),
])
def test_a_target_on_an_overloaded_plan_is_said_to_be_missed(text, said):
    head = _advise(text).answer.split("###")[0]
    assert said in head and ("misses it" in head or "達不到" in head)
