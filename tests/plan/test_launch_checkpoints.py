"""Review set 6: launch lines that would not work as written, or recreate the user's problem.

- An AWQ/INT4 plan launched on the unquantized repo (r6-en-15, en-17, en-18): the command names a quantized
  checkpoint of the model the catalog knows (its maintainers' own, or a widely used community build), or a
  placeholder that says which format to bring; never the 16-bit repo.
- FP8 made at load time from the BF16 repo when the model ships an official FP8 checkpoint (r6-zh-06, Qwen3-235B-A22B
  on 4 x H20): the FP8 checkpoint, without --quantization fp8.
- Adapters served (r6-en-18): --enable-lora and --max-loras (vLLM LoRA docs: https://docs.vllm.ai/en/latest/features/lora.html).
- The launch window is never below the context the user stated (r6-en-19, r6-zh-06, r6-en-02).
"""
from __future__ import annotations

import pytest

from planhelp import planned
from rules.plan.flags import flag_values


def _vllm(entry):
    _, plan, _ = planned(entry)
    cmd = plan.flags.get("vllm")
    assert cmd, plan.flags
    return cmd, plan


@pytest.mark.parametrize("entry, bf16_repo, want", [
    # r6-en-15: Mistral 7B v0.1 AWQ on one T4
    (dict(hardware="t4", count=1, model="mistral-7b", quantization="awq", concurrency=5, context_length=4096),
     "mistralai/Mistral-7B-Instruct-v0.1", "AWQ"),
    # r6-en-18: Llama 3.1 8B, 4-bit on one A10G
    (dict(hardware="a10g", count=1, model="llama-3.1-8b", quantization="awq", concurrency=16, context_length=8192),
     "meta-llama/Llama-3.1-8B-Instruct", "AWQ"),
    # r6-zh-07: a 72B GPTQ-Int4 on 4 x RTX 4090 (Qwen2.5-72B in the catalog)
    (dict(hardware="rtx4090", count=4, model="qwen2.5-72b", quantization="gptq-4bit", concurrency=20,
          context_length=8192), "Qwen/Qwen2.5-72B-Instruct", "GPTQ"),
])
def test_quantized_plan_names_a_quantized_checkpoint(entry, bf16_repo, want):
    cmd, _ = _vllm(entry)
    model = cmd.split("vllm serve ", 1)[1].split(" --", 1)[0]
    assert model != bf16_repo, cmd
    assert want.lower() in model.lower(), cmd


def test_official_fp8_checkpoint_replaces_online_quantization():
    # r6-zh-06: Qwen3-235B-A22B on 4 x H20 96GB fits in FP8 only; Qwen publishes Qwen/Qwen3-235B-A22B-FP8
    cmd, _ = _vllm(dict(hardware="h20", count=4, model="qwen3-235b-a22b", quantization="fp8", concurrency=40,
                        context_length=32768))
    assert cmd.split()[2] == "Qwen/Qwen3-235B-A22B-FP8", cmd
    assert "--quantization" not in flag_values(cmd), cmd
    assert int(flag_values(cmd)["--max-model-len"]) >= 32768


def test_online_fp8_stays_where_no_fp8_checkpoint_is_known():
    # a 16-bit checkpoint with no official FP8 build: vLLM quantizes at load time (--quantization fp8)
    cmd, _ = _vllm(dict(hardware="h100_sxm", count=1, model="mistral-nemo-12b", quantization="fp8", concurrency=8,
                        context_length=8192))
    assert flag_values(cmd).get("--quantization") == "fp8", cmd


def test_adapters_served_means_lora_flags():
    # r6-en-18: many per-customer LoRA adapters on one base model
    cmd, _ = _vllm(dict(hardware="a10g", count=1, model="llama-3.1-8b", concurrency=16, context_length=8192,
                        lora_adapters=30))
    vals = flag_values(cmd)
    assert "--enable-lora" in vals and int(vals["--max-loras"]) >= 1, cmd


@pytest.mark.parametrize("entry", [
    # r6-en-19: 70B 4-bit on 4 x 3090, 16K typical / 32K documents
    dict(hardware="rtx3090", count=4, model="llama-3.1-70b", quantization="awq", concurrency=8, context_length=32768),
    # r6-en-02: 70B on 8 x 4090 for a team, 16K
    dict(hardware="rtx4090", count=8, model="llama-3.1-70b", concurrency=15, context_length=16384),
])
def test_launch_window_holds_the_stated_context(entry):
    cmd, _ = _vllm(entry)
    assert int(flag_values(cmd)["--max-model-len"]) >= entry["context_length"], cmd


def test_stated_per_token_target_caps_the_admitted_batch():
    # r6-en-07: "lowest $/Mtok while keeping ~30 ms per output token per user" on one H100, 8B FP8, 1K in / 300 out,
    # no load given (the batch fills memory): 458 in flight ran at 56 ms per token; the launch must admit the batch
    # that meets 30 ms
    from agent.extract_slo import latency_targets
    from rules.decide import decide
    from rules.plan import plan_for_profile
    from rules.profile import build_profile
    slo, _ = latency_targets("lowest $/Mtok while keeping ~30 ms per output token per user")
    assert slo == {"tpot_ms": 30.0}
    profile = build_profile(dict(hardware="h100_sxm", count=1, model="llama-3.1-8b", quantization="fp8",
                                 input_tokens=1000, output_tokens=300, priority="cost", workload="batch"))
    plan, est = plan_for_profile(profile, decide(profile), slo=slo)
    assert est.tpot_ms <= 30.0 * 1.02, est.tpot_ms
    seqs = int(flag_values(plan.flags["vllm"])["--max-num-seqs"])
    assert seqs <= est.in_service, plan.flags["vllm"]
