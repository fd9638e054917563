"""Facts corrected by the catalog audit (evals/facts_audit.md), pinned as the user reads them.

Each test names the engine document the fact comes from; a test fails when the catalog or the sentence
that renders it drifts from that document again."""
from __future__ import annotations

from rules import engines
from rules.decide import decide
from rules.profile import build_profile


def _avoid(profile: dict) -> dict[str, str]:
    return {a.engine: a.reason for a in decide(build_profile(profile)).avoid}


# OpenVINO system requirements list Intel x86 CPUs only; Intel support article 000093369: not AMD Ryzen.
def test_openvino_is_refused_on_an_amd_epyc_and_the_reason_says_intel_only():
    reason = _avoid(dict(hardware="epyc_genoa", count=1, model="llama-3.1-8b", serving_mode="personal"))
    assert "openvino-genai" in reason
    assert "Intel devices only" in reason["openvino-genai"] and "AMD EPYC" in reason["openvino-genai"]
    assert "system-requirements" in reason["openvino-genai"]


def test_openvino_still_runs_on_an_intel_xeon():
    v = engines.verdict("openvino-genai", "xeon_spr")
    assert v.ok and "natively" in v.en


def test_llama_cpp_is_not_refused_on_an_amd_cpu():
    assert engines.verdict("llama.cpp", "epyc_genoa").ok


# A compute capability is written as NVIDIA writes it: 7.0, never a bare 7 (the answer said "compute 7").
def test_compute_capability_reads_with_one_decimal_in_both_languages():
    v = engines.verdict("vllm", "v100_sxm2_32g")
    assert v.ok and v.caveat
    assert "compute capability 7.0" in v.en and "is 7.0)" in v.en and "need 7.5" in v.en
    assert "compute capability 7.0" in v.zh and "7.5" in v.zh
    refused = engines.verdict("sglang", "v100_sxm2_32g")
    assert not refused.ok and refused.en.endswith("has 7.0") and "7.5 or newer" in refused.en


# vLLM fp8.md: W8A8 from CC 8.9; weight-only FP8 Marlin from CC 7.5 (Turing). Volta has neither.
def test_vllm_fp8_weight_only_path_starts_at_turing_not_volta():
    assert engines.quant_kernel("vllm", "fp8", "nvidia-cuda", "7.5") == "supported"
    assert engines.quant_kernel("vllm", "fp8", "nvidia-cuda", "8.0") == "supported"
    assert engines.quant_kernel("vllm", "fp8", "nvidia-cuda", "8.9") == "optimized"
    assert engines.quant_kernel("vllm", "fp8", "nvidia-cuda", "7.0") is None


def test_fp8_on_a_v100_is_refused_with_the_capability_gate_not_a_weight_only_promise():
    reason = _avoid(dict(hardware="v100_sxm2_32g", count=1, model="llama-3.1-8b", quantization="fp8",
                         serving_mode="personal"))["vllm"]
    assert "CC ≥ 8.9" in reason and "CC 7.0" in reason
    assert "no optimized kernel" not in reason


# vLLM quantization README hardware table: INT8 W8A8 on x86 CPU and Google TPU; the Arm CPU docs list
# FP32/FP16/BF16 only.
def test_vllm_int8_platforms_follow_the_docs_table():
    assert engines.quant_kernel("vllm", "int8", "google-tpu") == "supported"   # tpu-inference: tests in progress
    assert engines.quant_kernel("vllm", "int8", "x86-cpu") == "optimized"
    assert engines.quant_kernel("vllm", "int8", "arm-cpu") is None
    # A bare "8-bit" on an AMD GPU is read as FP8 (generic_formats), not as W8A8 INT8.
    assert "amd-rocm" not in engines.quant_support("vllm", "int8").platforms


# Facts the audit found true, pinned so they stay true.
def test_vllm_minimum_is_7_5_everywhere_it_is_stated():
    spec = engines.engine("vllm")
    assert spec.min_cuda_cc.value == 7.5 and "7.5" in spec.min_cuda_cc.note
    assert spec.quantizations["awq"].min_cuda_cc == 7.5      # docs table: AWQ not on Volta
    assert spec.quantizations["int8"].min_cuda_cc == 7.5     # int8.md: Turing and newer
    assert spec.quantizations["gptq-4bit"].min_cuda_cc is None  # docs table: GPTQ on Volta


def test_vllm_rocm_targets_are_the_documented_gpus():
    targets = set(engines.engine("vllm").platforms["amd-rocm"].targets)
    assert targets == {"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1200", "gfx1201", "gfx1150",
                       "gfx1151"}
    assert not engines.verdict("vllm", "rx6800").ok and engines.verdict("vllm", "ryzen_ai_max_395").ok


def test_vllm_windows_and_mac_are_not_native():
    spec = engines.engine("vllm")
    assert spec.os["windows"].status != "native" and "WSL" in spec.os["windows"].note
    assert spec.platforms["apple-silicon"].status == "plugin" and "Metal" in spec.platforms["apple-silicon"].note


def test_tensorrt_llm_and_dynamo_start_at_ampere_and_exllamav3_is_cuda_only():
    assert not engines.verdict("tensorrt-llm", "t4").ok
    assert engines.engine("dynamo").backends.engines == ["vllm", "sglang", "tensorrt-llm"]
    assert set(engines.engine("exllamav3").platforms) == {"nvidia-cuda"}
    assert not engines.verdict("exllamav3", "rx7900xtx").ok


# TensorRT-LLM: INT8 SmoothQuant / W8A16 were legacy TensorRT-backend features (PR #15918 removed that
# backend's Python modules); the quantization page's hardware matrix has no INT8 column.
def test_tensorrt_llm_has_no_int8_path_and_says_which_format_an_8_bit_request_means():
    assert engines.quant_support("tensorrt-llm", "int8") is None
    reason = _avoid(dict(hardware="a100_80g_sxm", count=1, model="llama-3.1-8b", quantization="int8",
                         serving_mode="production", concurrency=20))["tensorrt-llm"]
    assert reason.startswith("TensorRT-LLM has no INT8 kernels; its 8-bit format is fp8")
    assert "an Ada/Hopper/Blackwell GPU" in reason and "CC 8.0" in reason


def test_tensorrt_llm_mxfp4_on_hopper_is_the_deployment_guides_triton_path():
    entry = engines.quant_support("tensorrt-llm", "mxfp4")
    assert not entry.unverified and "deployment-guide-for-gpt-oss" in entry.source
    assert engines.quant_kernel("tensorrt-llm", "mxfp4", "nvidia-cuda", "9.0") == "optimized"
    reason = _avoid(dict(hardware="a100_80g_sxm", count=1, model="gpt-oss-20b", quantization="mxfp4",
                         serving_mode="production", concurrency=20))["tensorrt-llm"]
    assert "a Hopper/Blackwell GPU" in reason   # "a", not "an", before Hopper


# SGLang fp8_utils.can_auto_enable_marlin_fp8: weight-only FP8 Marlin on SM80-SM88, not on Turing.
def test_sglang_runs_fp8_on_ampere_weight_only_but_not_on_turing():
    assert engines.quant_kernel("sglang", "fp8", "nvidia-cuda", "8.0") == "supported"
    assert engines.quant_kernel("sglang", "fp8", "nvidia-cuda", "8.6") == "supported"
    assert engines.quant_kernel("sglang", "fp8", "nvidia-cuda", "7.5") is None
    assert engines.quant_kernel("sglang", "fp8", "nvidia-cuda", "9.0") == "optimized"
    reasons = _avoid(dict(hardware="a100_80g_sxm", count=1, model="llama-3.1-8b", quantization="fp8",
                          serving_mode="production", concurrency=20))
    assert "sglang" not in reasons
    t4 = _avoid(dict(hardware="t4", count=1, model="llama-3.1-8b", quantization="fp8",
                     serving_mode="production", concurrency=20))["sglang"]
    assert "CC ≥ 8.9" in t4 and "CC 7.5" in t4


# ExLlamaV3 modules/linear.py: Linear.load tries EXL3 tensors, then load_fp16 (plain weights, cast to FP16).
def test_exllamav3_is_not_told_to_re_quantize_a_16_bit_model():
    assert engines.quant_kernel("exllamav3", "f16", "nvidia-cuda", "8.9") == "optimized"
    assert engines.quant_kernel("exllamav3", "bf16", "nvidia-cuda", "8.9") == "supported"
    for quant in ("bf16", "f16"):
        reasons = _avoid(dict(hardware="rtx4090", count=1, model="llama-3.1-8b", quantization=quant,
                              serving_mode="personal"))
        assert "exllamav3" not in reasons and "exllamav2" not in reasons
    limit = " ".join(x.text for x in engines.engine("exllamav3").limits)
    assert "Only EXL3 models" not in limit and "unquantized weights load as FP16" in limit


# Ollama import docs (after PR #14969): GGUF files import as GGUF and run on the GGML backends; ollama
# create no longer quantizes. The old "not a target of --quantize" was never a kernel difference.
def test_ollama_runs_every_gguf_k_quant_without_a_slow_path_and_no_longer_quantizes():
    for quant in ("q4_k_m", "q8_0", "q4_0", "q5_k_m", "q6_k"):
        assert engines.quant_kernel("ollama", quant, "nvidia-cuda", "8.9") == "optimized", quant
    d = decide(build_profile(dict(hardware="rtx4090", count=1, model="llama-3.1-8b", quantization="q6_k",
                                  serving_mode="personal")))
    assert not any("ollama" in w and "no optimized kernel" in w for w in d.warnings)
    spec = engines.engine("ollama")
    notes = " ".join(q.note for q in spec.quantizations.values()) + spec.generic_formats.note
    assert "--quantize q4_K_M" not in notes and "llama-quantize" in notes
