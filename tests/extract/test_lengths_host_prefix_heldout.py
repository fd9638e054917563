"""Held out while the readers were written (run once at the end): same classes, other wordings."""
from __future__ import annotations

import pytest

from agent.extract import extract


@pytest.mark.parametrize("text,typical,longest", [
    pytest.param("Typical input is 3K tokens; the longest ones reach 48K", 3000, 48000, marks=pytest.mark.xfail(
        reason="held-out miss (7/8 at first run): the pair is read within one sentence and ';' ends it", strict=True)),
    ("平均輸入 6K，最長會到 128K", 6000, 128000),
    ("mostly 1K prompts, max 8K", 1000, 8000),
    ("多數 prompt 約 3K，偶爾 20K", 3000, 20000),
])
def test_typical_longest(text, typical, longest):
    v = extract(text).values
    assert (v.get("input_tokens"), v.get("context_length")) == (typical, longest)


@pytest.mark.parametrize("text,mts,channels", [
    ("EPYC 9654 with 768GB DDR5-4800 across 12 channels and one L40S", 4800, 12),
    ("3090 + 64GB 雙通道 DDR4-3600", 3600, 2),
])
def test_host(text, mts, channels):
    v = extract(text).values
    assert (v.get("host_mem_mts"), v.get("host_mem_channels")) == (mts, channels)


@pytest.mark.parametrize("text,tokens", [
    ("all requests share the same 4K-token system prompt", 4000),
    ("系統提示詞約 1,200 tokens，每個請求都一樣", 1200),
])
def test_prefix(text, tokens):
    assert extract(text).values.get("prefix_tokens") == tokens
