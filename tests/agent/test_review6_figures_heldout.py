"""Held-out cases for test_review6_figures.py (same classes, other setups; not run while fixing)."""
from __future__ import annotations

import re

from agent.api import advise
from agent.measured import read
from ui.present import markdown


def _answer(question: str, answers: dict | None = None) -> str:
    return markdown.answer(advise(question, answers or {}, knowledge=False))


def test_thousands_with_an_engine_named_before():
    got = read("On 4x A100 with vLLM we measure 2,400 tokens/s in total at 64 concurrent for Llama 3.1 70B")
    assert got and got[0].value == 2400.0 and got[0].kind == "throughput", got


def test_zh_single_stream_line_on_a_busy_team_server():
    text = _answer("兩張 H100 SXM 跑 Llama 3.3 70B FP8，給 200 個同事用，尖峰約 100 個併發，每個人大概能拿到多少 tok/s？",
                   {"context_length": "8K"})
    line = next(ln for ln in text.splitlines() if "頻寬上限" in ln)
    assert "單一串流" in line and "併發" in line, line
    bound = float(re.search(r"單一串流頻寬上限 ([\d,.]+)", line).group(1).replace(",", ""))
    assert bound > 60, line   # 2 x 3,350 GB/s over ~70 GB: ~95 tok/s for one stream


def test_vllm_vs_sglang_close_estimates_are_not_a_percentage_race():
    text = _answer("On one H100, is SGLang faster than vLLM for Qwen2.5-7B with 8 concurrent users?",
                   {"context_length": "4K"})
    assert "0.00%" not in text and "by about 0." not in text, text
