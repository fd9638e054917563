"""Calibrated efficiency parameters: few, physical, per memory technology or software platform.

Fitted by hand, never per row, on the FIT split of the published measurements (evals/data/*.csv;
every source is split by row hash and its held-out part never used to choose a value);
`evals/suites/estimator.py` reports both splits. Each constant says what it stands for and its rows.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware

# Two kernel families (rules.roofline.runtime): 'local' = llama.cpp-style engines (llama.cpp, Ollama,
# MLX-LM, ExLlama, OpenVINO), calibrated on reference/measurements.csv single-stream rows (fit split);
# 'server' = vLLM / SGLang / TensorRT-LLM (fused kernels, CUDA graphs, big batches), calibrated on the fit
# split of evals/data/measurements_load.csv (TensorRT-LLM perf overview, NVIDIA NIM, vLLM on MI300X).

# Share of the datasheet bandwidth a local-engine decode step streams at (large reads, batch 1).
BW_EFFICIENCY = {
    "hbm": 0.55,     # H100 SXM llama.cpp rows: its decode kernels reach ~half of HBM peak (fits the PCIe parts too)
    "gddr": 0.80,    # RTX 3090/4090/5090, RTX PRO 6000, RX 7900 XTX rows
    "lpddr": 0.80,   # DGX Spark rows (LPDDR5X, CUDA)
    "apple": 0.88,   # M1-M4 base/Pro/Max: slope of decode time vs bytes across f16/q8_0/q4_0
    "ddr": 0.60,     # CPU sockets: not in the calibration file (assumption, wide error band)
}
# Apple Ultra parts are two dies joined by UltraFusion: streaming reaches less of the summed bandwidth.
ULTRA_BW_EFFICIENCY = 0.78

# Backends whose local kernels reach less of the memory system than CUDA/Metal do.
PLATFORM_BW_FACTOR = {
    "intel-gpu": 0.45,  # Arc A770 llama.cpp SYCL/Vulkan row
    "amd-rocm": 0.74,   # HIP backend: RX 7900 XTX llama 8B Q4_K_M tg64 (llama.cpp PR #26284) vs the GDDR share
}

# Fixed time per decode step of a local engine (kernel launches, sync, sampling), ms.
TOKEN_OVERHEAD_MS = {
    "nvidia-cuda": 1.5,
    "amd-rocm": 1.5,      # HIP launches cost at least what CUDA's do (RX 7900 XTX HIP rows)
    "apple-silicon": 5.0,
    "intel-gpu": 1.5,
    "intel-gaudi": 2.0,   # not calibrated
    "x86-cpu": 2.0,       # not calibrated
    "arm-cpu": 2.0,       # not calibrated
    "google-tpu": 2.0,    # not calibrated
    "aws-neuron": 2.0,    # not calibrated
    "huawei-ascend": 2.0,  # not calibrated
}

# Discrete NVIDIA datacenter/workstation cards run in servers and cloud hosts, whose CPUs clock lower than
# desktop ones: llama.cpp's per-token host work (graph build, launches) takes longer. XiongjieDai tg512-tg8192
# rows (8B vs 70B on the same GPU separate the fixed cost from the streaming time), fit split.
PRO_NVIDIA_TOKEN_OVERHEAD_MS = 2.5
# Ampere's HBM2e parts (A100) stream at a lower share than Hopper's in llama.cpp's decode kernels (same rows).
AMPERE_HBM_BW_FACTOR = 0.85

# Share of the dense 16-bit TFLOPS a local engine's prompt GEMMs reach, by software platform.
PREFILL_EFFICIENCY = {
    "nvidia-cuda": 0.85,   # GeForce: the catalog's rates are FP32-accumulate ones; llama.cpp's int8 MMQ beats them
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
# On NVIDIA workstation and datacenter parts the 16-bit tensor rate is not halved for FP32 accumulation,
# and llama.cpp's 512-token ubatches reach a share of it that depends on the architecture (CUDA compute
# capability major.minor prefix). Its kernels issue mma.sync; Hopper's full rate needs wgmma, and the
# 300-350 W Ada parts cannot hold the boost clock their peak is quoted at. F16 rows of the fit split:
LOCAL_PRO_NVIDIA_PREFILL_EFFICIENCY = {
    "8.": 0.40,   # Ampere: A100 PCIe/SXM, RTX A6000, A40 llama-bench pp512-pp1024 (XiongjieDai, fit split)
    "8.9": 0.27,  # Ada: L40S, RTX 6000/5000/4000 Ada, same source
    "9.": 0.21,   # Hopper: H100 PCIe, same source
    "": 0.31,     # Blackwell: DGX Spark (GB10) llama-bench pp2048 rows (MXFP4/Q8_0, fit split); pre-Ampere
                  # parts (V100, T4) fall back to it uncalibrated
}
# AMD APUs (Radeon 8060S in the Ryzen AI Max+ 395, gfx1151, LPDDR5X shared with the CPU) reach about half the
# share of their quoted dual-issue WMMA peak that the RX 7900 XTX row gets: llama.cpp ROCm (no rocWMMA) runs
# gpt-oss-120b MXFP4 pp2048 at 998 tok/s (lhl/strix-halo-testing#33), 2.05 s where the discrete-card share gives
# 1.05 s. One row, no held-out part (the measurement files hold no Strix Halo rows): a wide error band.
AMD_APU_PREFILL_FACTOR = 0.46
# GGUF-quantized weights run llama.cpp's int8 MMQ kernels, slower than cuBLAS on F16 weights on these parts.
NVIDIA_PRO_QUANT_PREFILL_FACTOR = 0.84  # Q4_K_M vs F16 pp512 on the same GPUs (XiongjieDai, fit split)
# Weight-only quantized GEMMs dequantize on ALUs; GPUs without int matrix paths lose some rate.
APPLE_QUANT_PREFILL_FACTOR = 0.84  # q4_0/q8_0 vs f16 medians on the Apple rows
# Attention over the cache runs in its own kernels at a lower share of peak than the weight GEMMs.
LOCAL_ATTENTION_FACTOR = 0.7   # flash attention (llama.cpp's default since -fa auto): DGX Spark -fa 1 rows at depth 4K-32K
# Without flash attention the F32 score matrix (heads x tokens x position) is written and re-read by
# separate softmax/mask kernels: long prompts cost several times their FLOPs.
LOCAL_ATTENTION_FACTOR_NO_FA = 0.18  # XiongjieDai pp4096/pp8192 vs pp512 rows (llama-bench, fa off), fit split
# Per token per MoE layer cost of routing, top-k and gathering activations in local engines' prefill (s).
MOE_ROUTE_S = 3.0e-6  # gpt-oss-20b on RTX 3090/4090/5090 (llama.cpp) all leave ~2-3 us per token-layer

# Server engines (vLLM, SGLang, TensorRT-LLM): fused GEMMs (FP8/FP4 where the device has them), grouped
# MoE kernels (routing inside the GEMM time: no separate routing term), CUDA/HIP graphs for decode.
SERVER_BW_EFFICIENCY = 0.80      # NIM Llama 3.3 70B TP2 ITL at concurrency 1 (fit split)
SERVER_GEMM_EFFICIENCY = 0.55    # TensorRT-LLM perf-overview max-load rows, FP8 on H100/H200 (fit split)
SERVER_FP4_GEMM_FACTOR = 0.6     # NVFP4 GEMMs reach less of their doubled peak: B200/GB200/RTX PRO rows (fit split)
SERVER_ATTENTION_FACTOR = 0.7    # FlashAttention-class kernels vs GEMMs
# A GEMM over few tokens cannot fill the tensor cores (tile and wave quantization): its rate grows as
# tokens / (tokens + SERVER_GEMM_HALF_TOKENS) of the large-GEMM rate (fit split, all server sources).
SERVER_GEMM_HALF_TOKENS = 128
SERVER_STEP_OVERHEAD_MS = 1.0    # scheduler + launch per step (NIM 8B-class ITL floors)
SERVER_SEQ_OVERHEAD_US = 2.0     # per sequence per step: sampling, detokenising, block tables
# Per token per MoE layer in server engines: top-k, permute/unpermute and the small grouped GEMMs'
# tail, on every device of a TP group (TensorRT-LLM Qwen3 MoE rows, fit split).
SERVER_MOE_ROUTE_S = 0.1e-6
# Per MoE layer per engine step in server engines: router, top-k, permute and the grouped-GEMM launches
# cost a fixed time whatever the batch (~10 kernels of ~10 us). Fit split of all server at-load rows
# (TensorRT-LLM perf overview, NIM, OCI, dstack DeepSeek-R1): 1e-4 s is the best of 0-3e-4.
SERVER_MOE_STEP_S = 1e-4
# Block-scaled FP8 checkpoints (DeepSeek-V3/R1 ship 128x128-block weight scales) on engine builds older than
# DeepGEMM-class kernels: DeepGEMM was published 2025-02-26 and SGLang turned it on by default on 2025-04-22
# (sgl-project/sglang PR #5628); before, block-FP8 GEMMs ran in Triton kernels (1.5-1.7x DeepGEMM's time per
# GEMM on H200 in sglang PR #3893's benchmark) and MoE layers in Triton fused_moe behind separate routing,
# token-alignment and activation-quantisation kernels. Two constants, fitted on the fit split of the dstack
# DeepSeek-R1 rows (SGLang 0.4.2-0.4.3, vLLM 0.7.3-0.7.4, TensorRT-LLM 0.17 builds of February-March 2025):
# decode steps pay a larger fixed cost per MoE layer (their GEMM rate left as calibrated: 0.7-1.0 fit alike),
# prompt passes reach a smaller share of the GEMM rate.
EARLY_BLOCK_FP8_BEFORE = "2025-04-22"
EARLY_BLOCK_FP8_PREFILL_FACTOR = 0.18  # share of the calibrated GEMM rate their prompt passes reach
EARLY_BLOCK_FP8_MOE_STEP_S = 6e-4      # per MoE layer per step (replaces SERVER_MOE_STEP_S)
# ROCm builds of vLLM (2024): OCI MI300X rows (fit split): bandwidth and GEMM rate both well below CUDA's
PLATFORM_SERVER_BW_FACTOR = {"amd-rocm": 0.6}
PLATFORM_SERVER_GEMM_FACTOR = {"amd-rocm": 0.3}

# llama.cpp's tensor split (-sm row) divides each weight matrix by rows over the GPUs and gathers every
# partial result on the main GPU through host-driven copies and events: one synchronisation per split matrix
# multiply (7 per transformer layer: q, k, v, o, gate, up, down), not two all-reduces per layer as in server
# engines. Seconds per split matmul, fitted on one report (ollama/ollama#5458: 3x Tesla P40 run a 70B at ~10
# tok/s with -sm row, ~3 tok/s without): 80 layers x 7 x 80 us = 45 ms on top of a 54 ms weight stream. No
# held-out row: the measurement files hold no llama.cpp row-split rows (wide error band).
LOCAL_ROW_SPLIT_SYNC_S = 80e-6
LOCAL_ROW_SPLIT_MATMULS_PER_LAYER = 7

# Interconnect: per-step latency (s) of a collective on each link kind; bandwidth is the catalog's.
LINK_LATENCY_S = {"nvlink": 5e-6, "infinity-fabric": 5e-6, "pcie": 10e-6, "pcie-no-p2p": 15e-6,
                  "infiniband": 10e-6, "ethernet": 20e-6, "unified": 30e-6, "none": 0.0}


# 'generic' = an engine the catalog does not know: server-style kernels, no platform-specific factors.
SERVER_FAMILIES = frozenset({"server", "generic"})


def _platform(table: dict[str, float], hw: Hardware, family: str) -> float:
    """A platform factor measured on the named server engines (not assumed for unknown engines)."""
    return table.get(hw.platform, 1.0) if family == "server" else 1.0


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


def bandwidth_efficiency(hw: Hardware, family: str = "local") -> tuple[float, str]:
    """Share of datasheet bandwidth a decode step reaches, and why."""
    cls = memory_class(hw)
    if family in SERVER_FAMILIES and cls != "apple":
        eff = SERVER_BW_EFFICIENCY * _platform(PLATFORM_SERVER_BW_FACTOR, hw, family)
        return eff, f"server-engine kernels on {cls} memory ({hw.platform}): {eff:.2f} of peak bandwidth"
    eff = ULTRA_BW_EFFICIENCY if cls == "apple" and "Ultra" in hw.name else BW_EFFICIENCY[cls]
    eff *= PLATFORM_BW_FACTOR.get(hw.platform, 1.0)
    if cls == "hbm" and (hw.cuda_cc or "").startswith("8."):
        eff *= AMPERE_HBM_BW_FACTOR
    return eff, f"{cls} memory on {hw.platform}: {eff:.2f} of peak bandwidth"


def token_overhead_s(hw: Hardware, family: str = "local", batch: int = 1) -> float:
    """Fixed seconds per decode step (plus per-sequence work in server engines)."""
    if family in SERVER_FAMILIES:
        return (SERVER_STEP_OVERHEAD_MS / _platform(PLATFORM_SERVER_BW_FACTOR, hw, family)) / 1000 \
            + SERVER_SEQ_OVERHEAD_US * 1e-6 * batch
    if hw.platform == "nvidia-cuda" and hw.hw_class in ("datacenter", "workstation") and memory_class(hw) != "lpddr":
        return PRO_NVIDIA_TOKEN_OVERHEAD_MS / 1000
    return TOKEN_OVERHEAD_MS[hw.platform] / 1000


def prefill_efficiency(hw: Hardware, quant_family: str, family: str = "local", dtype: str = "bf16",
                       tokens: float | None = None) -> float:
    """Share of dense TFLOPS (of the GEMMs' compute `dtype`) the weight GEMMs over `tokens` tokens reach
    on this platform (None = a large GEMM)."""
    if family in SERVER_FAMILIES:
        eff = SERVER_GEMM_EFFICIENCY * _platform(PLATFORM_SERVER_GEMM_FACTOR, hw, family)
        if tokens is not None:
            eff *= tokens / (tokens + SERVER_GEMM_HALF_TOKENS)
        return eff * (SERVER_FP4_GEMM_FACTOR if dtype == "fp4" else 1.0)
    eff = PREFILL_EFFICIENCY[hw.platform]
    quantized = quant_family in ("gguf", "int", "microscaling", "exl")
    if hw.platform == "nvidia-cuda" and hw.hw_class in ("datacenter", "workstation"):
        eff = pro_nvidia_prefill_efficiency(hw.cuda_cc or "")
        eff *= NVIDIA_PRO_QUANT_PREFILL_FACTOR if quantized else 1.0
    if hw.platform == "apple-silicon" and quantized:
        eff *= APPLE_QUANT_PREFILL_FACTOR
    if hw.platform == "amd-rocm" and memory_class(hw) == "lpddr":
        eff *= AMD_APU_PREFILL_FACTOR
    return eff


def pro_nvidia_prefill_efficiency(cuda_cc: str) -> float:
    """llama.cpp's share of the 16-bit tensor peak on an NVIDIA workstation/datacenter part, by architecture."""
    return next(v for k, v in sorted(LOCAL_PRO_NVIDIA_PREFILL_EFFICIENCY.items(), key=lambda kv: -len(kv[0]))
                if cuda_cc.startswith(k))


def attention_efficiency(hw: Hardware, quant_family: str, family: str = "local", flash: bool = True) -> float:
    """Share of dense 16-bit TFLOPS attention over the cache reaches (attention runs on 16-bit K/V whatever
    the weights' format; `flash` = fused flash-attention kernels, local engines only)."""
    if family in SERVER_FAMILIES:
        return prefill_efficiency(hw, quant_family, family) * SERVER_ATTENTION_FACTOR
    return prefill_efficiency(hw, "float", family) * (LOCAL_ATTENTION_FACTOR if flash else LOCAL_ATTENTION_FACTOR_NO_FA)


def moe_step_s(early: bool = False) -> float:
    """Fixed seconds per MoE layer per step in server engines (early block-FP8 builds: their Triton kernels)."""
    return EARLY_BLOCK_FP8_MOE_STEP_S if early else SERVER_MOE_STEP_S


def prefill_gemm_factor(early: bool = False) -> float:
    """Share of the calibrated server GEMM rate a build's prompt passes reach (early block-FP8 builds: less)."""
    return EARLY_BLOCK_FP8_PREFILL_FACTOR if early else 1.0


def early_block_fp8(native_dtype: str, quant: str, architecture: str, family: str, build_date: str | None) -> bool:
    """A block-FP8 MoE checkpoint (served in its native FP8) on a server-engine build dated before DeepGEMM-class
    kernels were an engine default."""
    return (bool(build_date) and build_date < EARLY_BLOCK_FP8_BEFORE and native_dtype == "fp8" and quant == "fp8"
            and architecture == "moe" and family in SERVER_FAMILIES)


def moe_route_s(family: str) -> float:
    """Seconds per token per MoE layer spent routing outside the GEMMs (per engine family: the llama.cpp
    figure is not the server engines' one)."""
    return SERVER_MOE_ROUTE_S if family in SERVER_FAMILIES else MOE_ROUTE_S

# Absolute % error of the estimator on the single-stream rows (evals/data/measurements*.csv, both
# splits), by platform. Recomputed by evals/suites/estimator.py; tests/roofline checks they stay in step.
ERROR_BAND: dict[str, dict[str, float]] = {
    "amd-rocm": {"rows": 7, "decode_p50": 5.8, "decode_p90": 32.4, "prefill_p50": 3.1},
    "apple-silicon": {"rows": 81, "decode_p50": 4.0, "decode_p90": 8.2, "prefill_p50": 9.3},
    "intel-gpu": {"rows": 3, "decode_p50": 5.4, "decode_p90": 5.4, "prefill_p50": 19.8},
    "nvidia-cuda": {"rows": 251, "decode_p50": 5.2, "decode_p90": 12.6, "prefill_p50": 7.1},
}
# Median absolute % error at load on the HELD-OUT rows of evals/data/measurements_load.csv, per model
# architecture. The MoE rows are mostly DeepSeek-R1 on early-2025 vLLM/SGLang/TensorRT-LLM builds (dstack), read
# with their build date (EARLY_BLOCK_FP8_*) and as the benchmark client ran them (synchronised waves of equal
# requests, rules.roofline.serving.wave); TTFT is the weakest figure (prefill rate of those builds).
LOAD_ERROR_BAND: dict[str, dict[str, float]] = {
    "dense": {"rows": 68, "throughput_p50": 12.0, "tpot_p50": 11.4, "ttft_p50": 6.3},
    "moe": {"rows": 110, "throughput_p50": 15.2, "tpot_p50": 7.6, "ttft_p50": 18.9},
}
