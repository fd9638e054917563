"""Review-3 numbers and fit facts, end to end (real extractor, rules, roofline, knowledge store):
what the expert checked in the answer text, in both languages."""
from __future__ import annotations

import re

from agent.api import ask
from tests.agent.test_answer_text import english_sentences


def _text(question: str, answers: dict | None = None) -> tuple[str, dict]:
    out = ask(question, answers=answers or {})
    return out["answer"], out


def test_v100_never_lists_awq_for_vllm_zh():
    text, _ = _text("實驗室有一台 8×V100 32GB（SXM2），想部署 Qwen2.5-72B 給大家用。新版 vLLM 好像不支援 V100？"
                    "該用哪個版本或哪個引擎？量化格式要選什麼？")
    assert not re.search(r"vLLM: [^、。]*awq", text), text


def test_mi250_fp8_is_not_run_and_counts_gcds_en():
    text, out = _text("We have an older box with 4 x MI250. Two candidates: Llama 3.1 405B (the FP8 release) and "
                      "Mixtral 8x22B. Which one can we actually run, and with what engine?")
    assert "--quantization fp8" not in text
    assert "no FP8 units" in text or "FP8 checkpoint will not load" in text


def test_expert_offload_is_a_plan_not_a_non_fit_en():
    text, out = _text("RTX 3060 12GB plus 64GB of DDR4. I want to run Qwen3-30B-A3B at Q4_K_M. It doesn't fit in "
                      "VRAM — what's the right way to split it and which exact llama.cpp flags should I start with?")
    assert "No layout serves" not in text and "holds 0 sequences" not in text
    assert "--n-cpu-moe" in text
    assert out["estimate"]["max_concurrency"] >= 1
    assert out["estimate"]["decode_tokens_per_s"] <= 45


def test_expert_offload_zh_stays_zh():
    text, _ = _text("我只有一張 RTX 3060 12GB，想跑 Qwen3-30B-A3B Q4_K_M，放不下顯存，llama.cpp 要怎麼切？")
    assert "沒有任何配置能服務" not in text
    assert not english_sentences(text), english_sentences(text)


def test_p40_speed_is_realistic_en():
    _, out = _text("I picked up three Tesla P40s (24 GB each) cheap. Can I serve a 70B model on them with vLLM, or "
                   "what should I use instead? I'd like an OpenAI-compatible endpoint for 2-3 people.")
    assert out["primary"] == "llama.cpp"
    assert 4.0 <= out["estimate"]["decode_tokens_per_s"] <= 11.0


def test_one_plan_one_per_stream_speed_en():
    text, out = _text("We have a Mac Studio M3 Ultra with 512GB. Plan is DeepSeek-R1 (4-bit) as a private RAG "
                      "assistant where each question comes with ~30K tokens of retrieved documents. Is that viable? "
                      "Which engine, and what latency should we expect?")
    per_stream = {m for m in re.findall(r"([\d.]+) tok/s per stream", text)}
    assert len(per_stream) == 1, per_stream
