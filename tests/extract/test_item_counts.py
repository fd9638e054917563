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
