"""Held-out launch-line cases (written with the dev cases, not run while fixing): same classes as
test_launch_checkpoints.py, other models and devices."""
from __future__ import annotations

from planhelp import planned
from rules.plan.flags import flag_values


def _vllm(entry):
    _, plan, _ = planned(entry)
    cmd = plan.flags.get("vllm")
    assert cmd, plan.flags
    return cmd


def test_qwen3_32b_fp8_on_one_h100_uses_the_official_fp8_repo():
    cmd = _vllm(dict(hardware="h100_sxm", count=1, model="qwen3-32b", quantization="fp8", concurrency=16,
                     context_length=16384))
    assert cmd.split()[2] == "Qwen/Qwen3-32B-FP8" and "--quantization" not in flag_values(cmd), cmd


def test_llama70b_awq_on_two_a6000_is_not_the_bf16_repo():
    cmd = _vllm(dict(hardware="rtxa6000", count=2, model="llama-3.1-70b", quantization="awq", concurrency=10,
                     context_length=8192))
    assert "awq" in cmd.split()[2].lower() or cmd.split()[2].startswith("<"), cmd


def test_lora_on_an_h100_team_server():
    cmd = _vllm(dict(hardware="h100_sxm", count=1, model="qwen2.5-7b", concurrency=32, context_length=8192,
                     lora_adapters=200))
    vals = flag_values(cmd)
    assert "--enable-lora" in vals and "--max-loras" in vals, cmd


def test_qwen25_32b_awq_on_two_3090_names_the_awq_repo():
    cmd = _vllm(dict(hardware="rtx3090", count=2, model="qwen2.5-32b", quantization="awq", concurrency=6,
                     context_length=16384))
    assert cmd.split()[2] == "Qwen/Qwen2.5-32B-Instruct-AWQ", cmd
    assert int(flag_values(cmd)["--max-model-len"]) >= 16384
