"""Bits per weight of each quantization id, scale overhead included, with the source of each figure.

`bits_per_weight(q)` is the storage cost averaged over a quantized tensor (values + block scales).
`compute_dtype(q, hw)` says which dense TFLOPS column a GEMM on those weights runs at.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import InputError
from rules.ids import EXL_QUANT_RE, QUANTS_FIXED, exl_bpw


@dataclass(frozen=True)
class QuantInfo:
    """One quantization format: average bits per weight and where that number comes from."""

    id: str
    bits: float
    source: str
    family: str  # "float" | "int" | "gguf" | "microscaling" | "exl"


_GGUF = "llama.cpp tools/quantize README (bits-per-weight table for Llama 2 7B)"
_TABLE: dict[str, QuantInfo] = {q.id: q for q in (
    QuantInfo("bf16", 16.0, "IEEE/bfloat16: 2 bytes per value", "float"),
    QuantInfo("f16", 16.0, "IEEE half precision: 2 bytes per value", "float"),
    QuantInfo("fp8", 8.0, "FP8 E4M3, 1 byte per value; per-tensor or per-channel scales are negligible", "float"),
    QuantInfo("int8", 8.0, "INT8 weights with per-channel scales (negligible overhead)", "int"),
    QuantInfo("q8_0", 8.5, "ggml Q8_0: blocks of 32 int8 values + one fp16 scale = 34 bytes / 32 weights", "gguf"),
    QuantInfo("q6_k", 6.5625, _GGUF + ": Q6_K 6.56 bpw", "gguf"),
    QuantInfo("q5_k_m", 5.68, _GGUF + ": Q5_K_M 5.68 bpw (mixture of Q5_K and Q6_K tensors)", "gguf"),
    QuantInfo("q4_k_m", 4.84, _GGUF + ": Q4_K_M 4.84 bpw (mixture of Q4_K and Q6_K tensors)", "gguf"),
    QuantInfo("q4_0", 4.5, "ggml Q4_0: blocks of 32 4-bit values + one fp16 scale = 18 bytes / 32 weights", "gguf"),
    QuantInfo("int4", 4.25, "4-bit weights, group size 128 with fp16 scale and packed zero point (~0.25 bit overhead)", "int"),
    QuantInfo("awq", 4.25, "AWQ 4-bit, group size 128: fp16 scale + 4-bit zero per group (~0.25 bit overhead)", "int"),
    QuantInfo("gptq-4bit", 4.25, "GPTQ 4-bit, group size 128: fp16 scale + 4-bit zero per group (~0.25 bit overhead)", "int"),
    QuantInfo("mxfp4", 4.25, "OCP MX spec: 32 E2M1 values share one 8-bit E8M0 scale = 17 bytes / 32 values", "microscaling"),
    QuantInfo("nvfp4", 4.5, "NVIDIA NVFP4: 16 E2M1 values share one FP8 E4M3 scale = 9 bytes / 16 values", "microscaling"),
)}


def quant_info(quant: str) -> QuantInfo:
    """Facts about a quantization id (`exl2-<bpw>` / `exl3-<bpw>` state their own average bpw)."""
    if quant in _TABLE:
        return _TABLE[quant]
    bpw = exl_bpw(quant)
    if bpw is not None:
        if not 1.0 <= bpw <= 16.0:
            raise InputError(f"quantization '{quant}': bits per weight must be between 1 and 16")
        return QuantInfo(quant, bpw, "ExLlama formats are named by their average bits per weight (scales included)", "exl")
    known = ", ".join(QUANTS_FIXED) + ", exl2-<bpw>, exl3-<bpw>"
    raise InputError(f"unknown quantization '{quant}' (known: {known})")


def bits_per_weight(quant: str) -> float:
    """Average stored bits per weight of a quantization id, scales included."""
    return quant_info(quant).bits


def bytes_per_value(quant: str | None) -> float:
    """Bytes per cached value for a KV-cache dtype (None = 16-bit)."""
    return 2.0 if quant is None else bits_per_weight(quant) / 8


def compute_dtype(quant: str, tflops_available: dict[str, float | None], engine: str | None = None) -> str:
    """The TFLOPS column a prefill GEMM runs at: FP8/FP4 only where the device has it and the engine
    runs native low-precision GEMMs; weight-only formats dequantize to 16-bit."""
    gguf_engines = {"llama.cpp", "ollama", "mlx-lm", "exllamav2", "exllamav3"}
    native = engine not in gguf_engines
    if quant == "fp8" and native and tflops_available.get("fp8"):
        return "fp8"
    if quant in ("nvfp4", "mxfp4") and native and tflops_available.get("fp4"):
        return "fp4"
    if quant == "int8" and native and tflops_available.get("int8"):
        return "int8"
    return "bf16" if tflops_available.get("bf16") else "fp16"


def is_exl(quant: str) -> bool:
    """True for ExLlama formats."""
    return bool(EXL_QUANT_RE.match(quant))


_BARE_WIDTH = re.compile(r"^\s*(?:q\s*([48])|([48])\s*-?\s*bits?|int\s*([48])|([48])\s*位元)\s*$", re.I)
"""Words that name only a bit width: "Q4", "4-bit", "int8", "4 位元" (not "Q4_K_M" or "GGUF Q4")."""
GENERIC_BITS = {"int4": 4, "int8": 8}
"""Bare bit widths ("4-bit", "Q4", "int4"): each engine reads them as its own format of that width."""


def as_said(quant: str | None, evidence: str | None) -> str | None:
    """The quantization the user meant: a format id read from words that only name a width
    ("Q4" read as q4_k_m) is that width, each engine's own format of it."""
    match = _BARE_WIDTH.match(evidence or "")
    if quant is None or match is None:
        return quant
    bits = next(g for g in match.groups() if g)
    return f"int{bits}"


def is_generic(quant: str | None) -> bool:
    """True for a bit width that is not a file format (`int4`, `int8`)."""
    return quant in GENERIC_BITS


def concrete(quant: str, engine: str | None, platform: str | None = None, cuda_cc: float | str | None = None) -> str:
    """The quantization id an engine actually runs for `quant`: a bare width becomes the engine's own
    format (int4 -> q4_k_m on llama.cpp, exl2-4.0 on ExLlamaV2, awq on vLLM); anything else stays."""
    if engine is None or not is_generic(quant):
        return quant
    from rules import engines  # lazy: the engine catalog loads after this module
    if engines.engine(engine).kind == "orchestrator":
        return quant
    key = engines.own_format(engine, quant, platform, cuda_cc) or quant
    if key in ("exl2", "exl3"):
        return f"{key}-{GENERIC_BITS[quant]}.0"
    return key
