"""Review set 6: figures in the answer a user checks against their hardware (en and zh-Hant).

- A measured figure written with a thousands separator ("1,000 tokens/s") is read as 1000, never 0, and an
  answer never compares against 0 ("您量到的 0 tok/s … 約 inf 倍差距", r6-zh-05).
- Two engines the estimate cannot tell apart are said to be about the same, never "faster by 0.00%" (r6-zh-09).
- The estimate line names one stream alone and the per-stream figure at the load apart, with the single-stream
  bandwidth ceiling (r6-en-07: "bandwidth bound 43.8 tok/s" for an 8B FP8 on an H100 was the bound at 458 in flight).
"""
from __future__ import annotations

import re

import pytest

from agent.api import advise
from agent.measured import read
from ui.present import markdown


def _answer(question: str, answers: dict | None = None) -> str:
    return markdown.answer(advise(question, answers or {}, knowledge=False))


@pytest.mark.parametrize("text, value, kind", [
    ("用 llmperf 壓測 32 個併發，平均生成最高約 1,000 tokens/s", 1000.0, "throughput"),
    ("we get about 1,250 tok/s with 64 concurrent requests", 1250.0, "throughput"),
    ("a single request decodes at 12.5 tok/s", 12.5, "decode"),
])
def test_measured_figures_keep_their_thousands(text, value, kind):
    got = read(text)
    assert got and got[0].value == value and got[0].kind == kind, got


def test_no_comparison_against_a_zero_figure():
    # r6-zh-05 (DeepSeek-R1 issue 507): 8 x H200 NVL, vLLM, 32 concurrent, ~1,000 tokens/s
    text = _answer("我們在單台 8 張 H200 NVL 上用 vLLM 部署 671B 的 DeepSeek-R1（FP8），用 llmperf 壓測 32 個併發，"
                   "平均生成最高約 1,000 tokens/s。這台機器理論上應該跑多快？我們的數字正常嗎？",
                   {"concurrency": "尖峰 30-60 個併發", "context_length": "平均輸入 2K，輸出 2-4K"})
    assert "inf" not in text.lower().replace("info", "").replace("infra", "").replace("infin", "")
    assert not re.search(r"(?<![\d.,])0 tok/s", text), text


def test_engines_the_estimate_cannot_separate_are_about_the_same():
    # r6-zh-09: TensorRT-LLM vs vLLM on 4 x A800 for a 14B model; the two estimates were equal
    text = _answer("我們在 4 張 A800 80GB 上用 TensorRT-LLM 跑 Qwen2.5-14B，單一請求很快，但 100 個併發時速度掉很多。"
                   "TensorRT-LLM 和 vLLM 哪個比較快？", {"context_length": "2K", "concurrency": "100"})
    assert "0.00%" not in text and "0.0%" not in text, text


def test_estimate_line_names_one_stream_and_the_load_apart():
    # r6-en-07: an 8B in FP8 on one H100 for many users
    text = _answer("One H100 SXM serving Llama 3.1 8B in FP8 to about 400 concurrent users, 1K prompts, 256-token "
                   "answers. What speed per user should we expect?", {"context_length": "2K"})
    line = next(ln for ln in text.splitlines() if "bandwidth bound" in ln)
    bound = float(re.search(r"bandwidth bound \(one stream\) ([\d,.]+)", line).group(1).replace(",", ""))
    assert bound > 300, line          # 3,350 GB/s over ~8 GB of weights: ~420 tok/s for one stream
    assert "one stream alone" in line and "concurrent" in line, line
