"""A device nobody catalogued: the words are quoted back once with the closest devices, and until the
user answers the advisor offers what runs almost anywhere plus the fit arithmetic for the stated memory."""
from __future__ import annotations

from agent.api import Advisor, ask


def test_unknown_card_is_quoted_with_options_and_answered_with_run_anywhere_engines():
    r = ask("I have a Quadro M6000 24G, which engine should I use for Llama 3.1 8B?")
    assert r["not_understood"] == ["Quadro M6000"]
    assert r["profile"]["hardware"] is None and r["primary"] == "llama.cpp"
    assert set(r["alternatives"]) <= {"ollama"}
    first = r["questions"][0]
    assert "hardware" in first["fields"] and "Quadro M6000" in first["question"]
    assert "Quadro RTX 6000" in " ".join(first["options"])
    assert any("24 GB" in w and "16" in w for w in r["warnings"])          # fit arithmetic on the stated 24 GB
    assert sum("Quadro M6000" in q["question"] for q in r["questions"]) == 1   # asked once


def test_zh_question_quotes_the_words_in_traditional_chinese():
    r = ask("我有一張 Tesla K80，可以跑 Qwen2.5 7B 嗎？")
    assert r["not_understood"] == ["Tesla K80"]
    assert "「Tesla K80」" in r["questions"][0]["question"] and r["primary"] == "llama.cpp"


def test_the_answer_to_the_question_places_the_device():
    advisor = Advisor()
    out = advisor.turn("u", "Quadro M6000 24G, Llama 3.1 8B, just me")
    assert out.question is not None and out.question.get("options")
    while out.question is not None:
        reply = "an RTX A6000" if "hardware" in out.question["fields"] else "I don't know"
        out = advisor.turn("u", reply)
    assert out.result["profile"]["hardware"] == "rtxa6000"
    assert out.result["not_understood"] == []


def test_known_devices_leave_nothing_not_understood():
    r = ask("2x RTX 3090, Llama 3.1 8B for me")
    assert r["not_understood"] == [] and r["profile"]["hardware"] == "rtx3090"
