"""The conversation rules of issue 14 with the real extractor (fake decide/estimate/search):
what was not understood is said, a new situation starts a new profile, a follow-up amends it,
topics reach the result, and a given fact is never asked again — in English and zh-Hant."""
from __future__ import annotations

import pytest
from agentfakes import fake_decide, fake_default_for, fake_estimate, fake_get_chunks, fake_search, fake_spec
from langgraph.checkpoint.memory import InMemorySaver

from agent.api import Advisor, ask
from agent.extract import extract, extract_answer
from agent.tools import Tools


def tools() -> Tools:
    return Tools(extract=extract, extract_answer=extract_answer, decide=fake_decide, estimate=fake_estimate,
                 build_spec=fake_spec, search=fake_search, get_chunks=fake_get_chunks, default_for=fake_default_for)


def advisor() -> Advisor:
    return Advisor(tools=tools(), checkpointer=InMemorySaver())


FULL = {"en": "8x H100 SXM, Llama 3.1 70B in FP8, chat for an internal team, 64 concurrent requests, 8K context, "
              "low latency matters most.",
        "zh": "8 張 H100 SXM，跑 Llama 3.1 70B FP8，內部團隊聊天用，64 個併發，context 8K，最在意延遲。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_request_has_no_profile_change(lang):
    r = ask(FULL[lang], tools=tools())
    assert r["profile_change"] is None and r["profile"]["hardware"] == "h100_sxm"


@pytest.mark.parametrize("lang, text, word", [
    ("en", "We have 4 Biren BR100 cards and want to serve Llama 3.1 8B for 20 people at once. Which engine?", "BR100"),
    ("zh", "我們有 4 張 Biren BR100，想跑 Llama 3.1 8B，20 個併發，推薦哪個引擎？", "BR100"),
])
def test_a_device_the_catalog_does_not_know_is_quoted_back(lang, text, word):
    r = ask(text, tools=tools())
    assert any(word in n for n in r["not_understood"])
    assert r["profile"]["hardware"] is None and r["profile"]["count"] == 4
    assert word in r["answer"]
    assert ("did not recognise" in r["answer"]) if lang == "en" else ("沒有認出" in r["answer"])


@pytest.mark.parametrize("lang, text", [
    ("en", "We run GLM-5.1 on 8x H100. Which engine should we use?"),
    ("zh", "我們在 8 張 H100 上跑 GLM-5.1，該用哪個引擎？"),
])
def test_the_question_says_what_was_not_understood(lang, text):
    out = advisor().turn("t", text)
    assert out.question is not None and "model" in out.question["fields"]
    assert "GLM-5.1" in out.question["question"]


def test_a_price_in_another_currency_is_not_used_and_is_said():
    r = ask(FULL["en"] + " We pay 2.8 €/h per GPU.", tools=tools())
    assert any("2.8" in n for n in r["not_understood"])
    assert "2.8" in r["answer"]


@pytest.mark.parametrize("lang, follow_up", [
    ("en", "Now 2×H100, Qwen3 32B, just me."),
    ("zh", "現在改成 2 張 H100，跑 Qwen3 32B，只有我自己用。"),
])
def test_a_new_situation_starts_a_new_profile(lang, follow_up):
    adv = advisor()
    first = adv.turn("t", FULL[lang])
    assert first.result is not None
    out = adv.turn("t", follow_up)
    r = out.result or adv.turn("t", "I don't know").result
    assert r["profile_change"]["kind"] == "new"
    p = r["profile"]
    assert p["count"] == 2 and p["model"] == "qwen3-32b" and p["serving_mode"] == "personal"
    assert p["concurrency"] is None and p["quantization"] != "fp8"     # nothing carried over
    assert ("new profile" in r["answer"]) if lang == "en" else ("新的設定" in r["answer"])


@pytest.mark.parametrize("lang, follow_up", [
    ("en", "What if we use AWQ instead?"),
    ("zh", "如果改用 AWQ 呢？"),
])
def test_a_follow_up_amends_the_profile_and_says_so(lang, follow_up):
    adv = advisor()
    adv.turn("t", FULL[lang])
    r = adv.turn("t", follow_up).result
    assert r is not None and r["questions"] == []          # nothing new to ask
    change = r["profile_change"]
    assert change["kind"] == "amended" and change["fields"] == ["quantization"] and change["values"] == {"quantization": "awq"}
    assert r["profile"]["hardware"] == "h100_sxm" and r["profile"]["concurrency"] == 64
    assert "AWQ" in r["answer"]                             # the format by name, not its id
    assert ("updated" in r["answer"]) if lang == "en" else ("更新" in r["answer"])


def test_topics_reach_the_result():
    r = ask(FULL["en"] + " Does SGLang support speculative decoding, and is an FP8 KV cache worth it?", tools=tools())
    assert {"speculative-decoding", "kv-quantization"} <= set(r["topics"])
    r = ask(FULL["zh"] + "要用 TP 還是 PP？每百萬 token 成本多少？", tools=tools())
    assert {"parallelism", "cost-per-token"} <= set(r["topics"])


def test_a_fact_given_in_the_opening_is_not_asked():
    out = advisor().turn("t", "Two RTX 3090 with NVLink, Qwen3 32B AWQ, for our team of 30, 10 concurrent requests, chat, "
                              "8K context, cost matters most.")
    asked = [f for q in ([out.question] if out.question else out.result["questions"]) for f in q["fields"]]
    assert not {"hardware", "model", "interconnect", "quantization", "concurrency", "workload",
                "context_length", "priority"} & set(asked)
