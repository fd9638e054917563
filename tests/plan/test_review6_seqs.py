"""Review set 6: a launch line never caps the server at the load the user says they hit, when memory
holds more (r6-en-08: one Gaudi 2 "stuck" at 16 concurrent got --max-num-seqs 16)."""
from __future__ import annotations

import pytest

from planhelp import planned
from rules.plan.flags import flag_values


@pytest.mark.parametrize("entry, stated", [
    # one Gaudi 2, Llama-2-7B, 1K in / 256 out: the user hit 16 concurrent and asks if it is the ceiling
    (dict(hardware="gaudi2", count=1, model="llama-2-7b", concurrency=16, input_tokens=1024, output_tokens=256), 16),
    (dict(hardware="h100_sxm", count=1, model="llama-3.1-8b", users=12), 12),
])
def test_launch_admits_what_memory_holds(entry, stated):
    _, plan, est = planned(entry)
    cmd = plan.flags.get("vllm")
    assert cmd, plan.flags
    seqs = int(flag_values(cmd)["--max-num-seqs"])
    assert seqs >= stated
    held = est.max_concurrency if est is not None else None
    if held and held > stated:
        assert seqs > stated, cmd   # the cap is the memory's, not the load the user already hit


def test_attention_dp_cap_is_said_per_rank():
    # r6-zh-05 / r6-zh-04: an attention-DP line's --max-num-seqs is per rank; read as a total it looks far
    # below the load, so the remark gives ranks x each, which covers the load one instance carries
    _, plan, _ = planned(dict(hardware="h800_pcie", count=8, model="deepseek-v2", quantization="fp8",
                              concurrency=1024, context_length=2048))
    cmd = plan.flags["vllm"]
    vals = flag_values(cmd)
    assert "--tensor-parallel-size" not in vals, cmd
    ranks, each = int(vals["--data-parallel-size"]), int(vals["--max-num-seqs"])
    instances = 8 // ranks
    assert ranks * each * instances >= 1024
    for lang in ("en", "zh"):
        said = " ".join(plan.launch_notes["vllm"][lang])
        assert f"{ranks * each}" in said and str(ranks) in said, said
