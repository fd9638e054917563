"""A shared prompt's size and a typical-vs-longest prompt reach the plan (review set 6).

r6-en-17: Mistral-7B on one A10G, 10-20 chats, every request carries the same ~3,000-token system prompt. The
prefix cache holds that part once, so the sequences hold only their own tokens and BF16 serves the load; the
expert's fit is ~14.5 GB of weights and ~6-7 GB of KV for 10-20 chats of a few K tokens. Before, the size was
dropped, every sequence was sized at the whole window and the plan fell back to INT4.
r6-zh-01: "一般 8K，少數長文件 32K 以上" on 8 x 4090 at 30-50 concurrent: the window is 32K, each request's load 8K
(a TTFT of minutes came from reading every prompt as 32K)."""
from __future__ import annotations

from planhelp import planned
from rules.plan.flags import flag_values


def test_shared_system_prompt_keeps_native_bf16():
    entry = dict(hardware="a10g", count=1, model="mistral-7b", workload="rag", concurrency=20,
                 shared_prefix=True, prefix_tokens=3000)
    req, plan, est = planned(entry)
    assert req.cached_prefix == 3000 and req.prompt_stated
    assert est.quantization == "bf16" and est.in_service >= 20, (est.quantization, est.in_service)
    assert any("shared 3,000-token prefix" in f for f in est.formulas), est.formulas
    # without the prefix's size the same load is sized at the whole window
    _, _, blind = planned({k: v for k, v in entry.items() if k != "prefix_tokens"})
    assert blind.quantization != "bf16" or blind.in_service < 20


def test_typical_prompt_sizes_the_load_longest_the_window():
    entry = dict(hardware="rtx4090", count=8, model="deepseek-r1-distill-qwen-32b", concurrency=50,
                 input_tokens=8000, context_length=32000, quantization="awq")
    _, plan, est = planned(entry)
    assert est.input_tokens == 8000 and est.context_length == 32000
    assert est.ttft_s is not None and est.ttft_s < 60, est.ttft_s
    cmd = next(iter(plan.flags.values()))
    vals = flag_values(cmd)
    window = vals.get("--max-model-len") or vals.get("--context-length")
    assert window == "32000", cmd
