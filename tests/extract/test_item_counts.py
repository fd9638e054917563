"""A count of prompts or documents is a job size, not a length, when the sentence gives each item's
length ("~1M prompts, ~1K input and ~300 output tokens each", "50 萬份文件，每份約 2K tokens"). Modelled on
offline-batch threads (vLLM issue 9760 style); a bare "4k prompts" with no per-item length stays a length."""
from __future__ import annotations

import pytest

from agent.extract import extract

COUNTS = [
    ("~1M prompts, ~1K input and ~300 output tokens each", {"input_tokens": 1000, "output_tokens": 300}),
    ("about 200k documents, 2K input tokens per document and 200 output", {"input_tokens": 2000, "output_tokens": 200}),
    ("500K prompts at roughly 800 input / 150 output tokens apiece", {"input_tokens": 800, "output_tokens": 150}),
    ("總共約 100 萬個 prompts，每個輸入約 1K、輸出約 300 tokens", {"input_tokens": 1000, "output_tokens": 300}),
    ("50 萬份文件，每份輸入約 2K tokens，輸出 200 tokens", {"input_tokens": 2000, "output_tokens": 200}),
]


@pytest.mark.parametrize("text,expected", COUNTS)
def test_item_count_is_not_a_length(text, expected):
    got = extract(text).values
    for field, value in expected.items():
        assert got.get(field) == value, (text, got)


@pytest.mark.parametrize("text,expected", [
    ("4k prompts, 300 output, on one L4", {"input_tokens": 4000}),
    ("輸入 2K 輸出 500", {"input_tokens": 2000, "output_tokens": 500}),
])
def test_lengths_without_per_item_stay_lengths(text, expected):
    got = extract(text).values
    for field, value in expected.items():
        assert got.get(field) == value, (text, got)


# A token count said per conversation or per request, with no in/out label, is the window one request
# fills ("平均每次對話約 4K tokens", Qwen3 issue 933), not a number to quote back as unused.
PER_REQUEST = [
    ("我們是內部問答，平均每次對話約 4K tokens。", 4000),
    ("每個請求大約 3K tokens", 3000),
    ("internal Q&A, about 4K tokens per conversation on average", 4000),
    ("each request is roughly 6k tokens, Llama 3.1 8B on an L4", 6000),
]


@pytest.mark.parametrize("text,window", PER_REQUEST)
def test_tokens_per_request_set_the_window(text, window):
    ex = extract(text)
    assert ex.values.get("context_length") == window, (text, ex.values)
    assert not [u for u in ex.not_understood if u.kind == "number"], ex.not_understood


def test_labelled_lengths_stay_lengths():
    got = extract("each request: 3K tokens in, 400 out").values
    assert got.get("input_tokens") == 3000 and got.get("output_tokens") == 400 and "context_length" not in got
