"""Engine facts the answers state are the sourced ones (the blind review's class 5, false facts).

Each test pins one fact to what the engine's own docs say, through the text the user reads."""
from __future__ import annotations

from rules import engines
from rules.decide import decide
from rules.profile import build_profile
from rules.roofline.estimate import estimate


def _avoid(profile: dict) -> dict[str, str]:
    return {a.engine: a.reason for a in decide(build_profile(profile)).avoid}


def test_tensorrt_llm_fp8_is_gated_by_compute_capability_not_missing():
    # TensorRT-LLM's precision table lists FP8 for Ada (SM89) and Hopper (SM90), not Ampere.
    reason = _avoid(dict(hardware="a100_80g_sxm", count=1, model="llama-3.1-8b", quantization="fp8",
                         serving_mode="production", concurrency=20))["tensorrt-llm"]
    assert "no kernel" not in reason
    assert "Ada/Hopper/Blackwell" in reason and "CC ≥ 8.9" in reason and "CC 8.0" in reason


def test_fp8_gate_names_the_device_in_the_estimate_warning():
    est = estimate("llama-3.1-8b", "a100_80g_sxm", quant="fp8", engine="tensorrt-llm")
    warning = next(n for n in est.assumptions if n.startswith("WARNING"))
    assert "CC ≥ 8.9" in warning and "A100" in warning


def test_no_gate_when_the_device_has_the_capability():
    assert engines.cc_gate("tensorrt-llm", "fp8", "nvidia-cuda", "9.0") is None
    assert engines.cc_gate("tensorrt-llm", "fp8", "amd-rocm", None) is None


def test_llama_cpp_is_never_said_to_be_unable_to_offload():
    # llama.cpp keeps layers (-ngl) or MoE experts (--n-cpu-moe, -ot) in system RAM.
    reasons = _avoid(dict(hardware="rtx4090", count=1, model="llama-3.1-70b", quantization="q4_k_m",
                          serving_mode="production", concurrency=50))
    assert "llama.cpp" in reasons
    assert "cannot run layers from system RAM" not in reasons["llama.cpp"]
    assert "system RAM" in reasons["llama.cpp"] and "--n-cpu-moe" in reasons["llama.cpp"]
    vllm = reasons.get("vllm", "")
    assert not vllm or "cannot run layers from system RAM" in vllm or "system RAM" not in vllm


def test_vllm_runs_awq_on_rocm_through_an_unoptimized_kernel():
    # PR #7386 added Triton AWQ kernels so AWQ runs on ROCm; not fully optimized, so "supported".
    assert engines.quant_kernel("vllm", "awq", "amd-rocm") == "supported"
    assert engines.quant_kernel("vllm", "awq", "nvidia-cuda", "8.0") == "optimized"
    assert engines.quant_kernel("vllm", "int4", "amd-rocm") == "supported"
    assert "github.com/vllm-project/vllm/pull/7386" in engines.quant_support("vllm", "awq").source


def test_vllm_compute_capability_states_both_doc_versions_on_a_v100():
    v = engines.verdict("vllm", "v100_sxm2_32g")
    assert v.ok and "7" in v.en and "7.5" in v.en and "v0.14.0" in v.en


def test_fp8_on_ampere_says_weight_only():
    entry = engines.quant_support("vllm", "fp8")
    assert entry.min_cuda_cc == 8.9 and entry.below_min_cc == "supported"
    assert "weight-only" in entry.note


def test_the_planner_does_not_pick_fp8_on_ampere_but_does_on_hopper():
    # vLLM: W8A8 FP8 needs CC >= 8.9; an A100 would run FP8 weight-only (memory saving, no compute gain).
    from rules.plan import plan_for_setup
    # a short window, so one card holds the 8-bit weights and the KV cache (BF16 does not fit)
    a100, _ = plan_for_setup("llama-3.1-70b", "a100_80g_sxm", concurrency=4, context_length=2048, engine="vllm")
    h100, _ = plan_for_setup("llama-3.1-70b", "h100_sxm", concurrency=4, context_length=2048, engine="vllm")
    assert a100.chosen.quantization != "fp8" and h100.chosen.quantization == "fp8"
