"""Sizing as an intent of the conversation: asked for the model and the load, never for hardware."""
from __future__ import annotations

from agent.api import ask
from agent.extract import extract


def test_what_to_buy_is_a_sizing_question():
    for text in ("what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?",
                 "How many H100s do we need for Qwen3 235B at 100 users?",
                 "我們要買什麼硬體跑 Llama 3.3 70B，200 人使用？",
                 "需要幾張卡才能跑 70B 給 50 人用？"):
        assert extract(text).intent == "size", text
    assert extract("8x H100, Llama 3.1 70B, 200 users").intent == "recommend"


def test_sizing_answer_ranks_hardware():
    result = ask("what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?")
    assert result["intent"] == "size" and result["questions"] == []
    sizing = result["sizing"]
    assert sizing["any_meets"] and sizing["request"]["ttft_ms"] == 2000
    first = sizing["options"][0]
    assert first["name"] in result["answer"]
    assert result["answer"].index(first["name"]) < result["answer"].index("vLLM")   # the options lead


def test_sizing_asks_for_the_model_then_answers_in_chinese():
    result = ask("我們要買什麼硬體，200 人使用，首字延遲 2 秒內？", {"model": "Llama 3.3 70B"})
    assert [q["fields"] for q in result["questions"]] == [["model"]]
    assert result["sizing"]["request"]["model"] == "llama-3.1-70b"
    assert "硬體選項" in result["answer"]


def test_named_device_limits_the_options():
    result = ask("How many H100s do we need for Qwen3 235B at 100 concurrent requests?")
    assert {o["hardware"] for o in result["sizing"]["options"]} == {"h100_sxm"}
