"""A monthly or daily token volume in a reply is a volume, never a head count or a load.

Found when a reply to "what workload, how many at once?" said "internal chat plus nightly batch summarization,
50-200M output tokens per month": the reply reader took 200M as the concurrency and the whole answer stopped
with "outside what the advisor can plan for"."""
from __future__ import annotations

import pytest

from agent.extract import extract_answer
from agent.extract_volume import volume


@pytest.mark.parametrize("text", [
    "internal chat plus nightly batch summarization, 50-200M output tokens per month",
    "mostly RAG, roughly 30M input tokens a day",
    "每月大約 5000 萬 tokens 的輸出，主要是客服",
    "batch jobs, 1.2B generated tokens per month",
])
def test_volume_reply_is_not_a_load(text):
    ex = extract_answer(text, ["workload", "concurrency"])
    assert "concurrency" not in ex.values and "users" not in ex.values, ex.values


@pytest.mark.parametrize("text,total", [
    ("50-200M output tokens per month", 200e6),
    ("about 30m input tokens a day", None),   # a daily figure: per_day, the monthly total is derived
    ("200M tokens per month", 200e6),
])
def test_kind_word_before_tokens_is_read(text, total):
    v = volume(text.lower())
    assert v is not None
    if total is not None:
        assert v.tokens_per_month == total


def test_a_stated_load_in_the_same_reply_is_still_read():
    ex = extract_answer("chat, about 40 at once, 100M tokens per month", ["workload", "concurrency"])
    assert ex.values.get("concurrency") == 40
