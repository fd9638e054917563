"""Calibrated efficiency parameters: few, physical, per memory technology or software platform.

Fitted on reference/measurements.csv (single-stream llama.cpp-dominated results) by hand, never
per row; `evals/suites/estimator.py` reports how well they do. Each constant says what it stands for.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware

# Share of the datasheet bandwidth a decode step streams at (large reads, batch 1).
BW_EFFICIENCY = {
    "hbm": 0.65,     # H100/A100 rows: HBM reaches less of its peak on one stream than GDDR does
    "gddr": 0.80,    # RTX 3090/4090/5090, RTX PRO 6000, RX 7900 XTX, A10G rows
    "lpddr": 0.80,   # DGX Spark rows (LPDDR5X, CUDA)
    "apple": 0.88,   # M1-M4 base/Pro/Max: slope of decode time vs bytes across f16/q8_0/q4_0
    "ddr": 0.60,     # CPU sockets: not in the calibration file (assumption, wide error band)
}
# Apple Ultra parts are two dies joined by UltraFusion: streaming reaches less of the summed bandwidth.
ULTRA_BW_EFFICIENCY = 0.78

# Software stacks whose kernels reach less of the memory system than CUDA/ROCm/Metal do.
PLATFORM_BW_FACTOR = {"intel-gpu": 0.45}  # Arc A770 llama.cpp SYCL/Vulkan row

# Fixed time per decode step (kernel launches, sync, sampling), ms. Dominates small models on fast memory.
TOKEN_OVERHEAD_MS = {
    "nvidia-cuda": 1.5,
    "amd-rocm": 1.0,
    "apple-silicon": 5.0,
    "intel-gpu": 1.5,
    "intel-gaudi": 2.0,   # not calibrated
    "x86-cpu": 2.0,       # not calibrated
    "arm-cpu": 2.0,       # not calibrated
    "google-tpu": 2.0,    # not calibrated
    "aws-neuron": 2.0,    # not calibrated
    "huawei-ascend": 2.0,  # not calibrated
}

# Share of the dense 16-bit TFLOPS a prefill GEMM reaches, by software platform.
PREFILL_EFFICIENCY = {
    "nvidia-cuda": 0.85,   # GeForce rates are the FP32-accumulate ones; llama.cpp's int8/FP16 paths beat them
    "amd-rocm": 0.40,      # RX 7900 XTX row (WMMA peak is hard to reach)
    "apple-silicon": 0.71,  # f16 rows; ALU-only GPUs (no matrix units)
    "intel-gpu": 0.087,    # Arc A770 / B580 rows (immature SYCL kernels)
    "intel-gaudi": 0.5,    # not calibrated
    "x86-cpu": 0.5,        # not calibrated (and CPUs have no TFLOPS in the catalog)
    "arm-cpu": 0.5,
    "google-tpu": 0.5,     # not calibrated
    "aws-neuron": 0.5,     # not calibrated
    "huawei-ascend": 0.5,  # not calibrated
}
# Weight-only quantized GEMMs dequantize on ALUs; GPUs without int matrix paths lose some rate.
APPLE_QUANT_PREFILL_FACTOR = 0.84  # q4_0/q8_0 vs f16 medians on the Apple rows
# Per token per MoE layer cost of routing, top-k and gathering activations in prefill (s).
MOE_ROUTE_S = 3.0e-6  # gpt-oss-20b on RTX 3090/4090/5090 all leave ~2-3 us per token-layer

# Interconnect: per-step latency (s) of a collective on each link kind; bandwidth is the catalog's.
LINK_LATENCY_S = {"nvlink": 5e-6, "infinity-fabric": 5e-6, "pcie": 10e-6, "pcie-no-p2p": 15e-6,
                  "infiniband": 10e-6, "ethernet": 20e-6, "unified": 30e-6, "none": 0.0}

# Decode-step compute efficiency once a big batch makes decode compute-bound.
DECODE_COMPUTE_EFFICIENCY = 0.5  # sanity-checked, not fitted: TRT-LLM max-load rows of measurements_batched.csv within ~15 %


def memory_class(hw: Hardware) -> str:
    """hbm | gddr | lpddr | apple | ddr, from the memory type and platform."""
    mt = hw.memory_type.upper()
    if hw.platform == "apple-silicon":
        return "apple"
    if "HBM" in mt:
        return "hbm"
    if "GDDR" in mt:
        return "gddr"
    if "LPDDR" in mt:
        return "lpddr"
    return "ddr"


def bandwidth_efficiency(hw: Hardware) -> tuple[float, str]:
    """Share of datasheet bandwidth one decode stream reaches, and why."""
    cls = memory_class(hw)
    eff = ULTRA_BW_EFFICIENCY if cls == "apple" and "Ultra" in hw.name else BW_EFFICIENCY[cls]
    eff *= PLATFORM_BW_FACTOR.get(hw.platform, 1.0)
    return eff, f"{cls} memory on {hw.platform}: {eff:.2f} of peak bandwidth"


def token_overhead_s(hw: Hardware) -> float:
    """Fixed seconds per decode step on this platform."""
    return TOKEN_OVERHEAD_MS[hw.platform] / 1000


def prefill_efficiency(hw: Hardware, quant_family: str) -> float:
    """Share of dense TFLOPS prefill reaches on this platform for this weight format."""
    eff = PREFILL_EFFICIENCY[hw.platform]
    if hw.platform == "apple-silicon" and quant_family in ("gguf", "int", "microscaling", "exl"):
        eff *= APPLE_QUANT_PREFILL_FACTOR
    return eff

# Absolute % error of the estimator on the calibration file, by platform (rows = measurements).
# Recomputed by evals/suites/estimator.py; tests/roofline checks these stay in step with it.
ERROR_BAND: dict[str, dict[str, float]] = {
    "amd-rocm": {"rows": 3, "decode_p50": 9.7, "decode_p90": 12.4, "prefill_p50": 0.7},
    "apple-silicon": {"rows": 81, "decode_p50": 4.0, "decode_p90": 8.2, "prefill_p50": 9.4},
    "intel-gpu": {"rows": 3, "decode_p50": 5.4, "decode_p90": 5.4, "prefill_p50": 19.9},
    "nvidia-cuda": {"rows": 27, "decode_p50": 7.9, "decode_p90": 13.6, "prefill_p50": 10.7},
}
