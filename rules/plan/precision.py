"""Weight formats and KV-cache dtypes to try, in the order the planner may fall back to them.

The precision the user asked for (or the assumed default) comes first. Only when no layout can
serve the load does the plan store the KV cache in 8 bits, and only when the user did not state
a weight format does it try lower-bit weights: precision trades quality, which the roofline does
not see, so it is changed to make the deployment work, never to win a few percent.
"""
from __future__ import annotations

from rules import engines
from rules.catalog_schema import Hardware
from rules.quant import bits_per_weight

SERVER_KV_FP8 = frozenset({"vllm", "sglang", "tensorrt-llm", "dynamo"})
"""Engines whose catalog entry lists an FP8 KV cache (features.kv_cache_quant)."""
GGUF_KV_Q8 = frozenset({"llama.cpp", "ollama"})
"""llama.cpp's --cache-type-k/v and Ollama's OLLAMA_KV_CACHE_TYPE both take q8_0."""
WEIGHT_LADDER = ("fp8", "int8", "q8_0", "mxfp4", "nvfp4", "awq", "gptq-4bit", "int4", "q4_k_m")
"""Lower-bit formats considered, highest quality first within equal bit widths."""


def kv_fallback(engine: str | None, hw: Hardware) -> str | None:
    """An 8-bit KV-cache dtype this engine stores on this device, or None."""
    if engine is not None and not engines.engine(engine).features.kv_cache_quant.value:
        return None
    if (engine is None or engine in SERVER_KV_FP8) and hw.tflops.fp8 and hw.platform in ("nvidia-cuda", "amd-rocm"):
        return "fp8"
    if engine in GGUF_KV_Q8:
        return "q8_0"
    return None


def weight_fallbacks(engine: str | None, hw: Hardware, current: str,
                     allowed: tuple[str, ...] | None = None) -> list[str]:
    """Lower-bit formats with an optimized kernel for this engine on this device, most bits first.

    `allowed` is the platform's own ladder from rules.defaults (server GPUs keep a natively quantized
    model's format, a bare width is each engine's own format), so the plan and the decision assume
    the same formats."""
    bits = bits_per_weight(current)
    out = []
    for q in allowed if allowed is not None else WEIGHT_LADDER:
        if bits_per_weight(q) >= bits:
            continue
        if engine is None:
            ok = q != "fp8" or bool(hw.tflops.fp8)
        else:
            ok = engines.device_kernel(engine, q, hw) == "optimized"
        if ok:
            out.append(q)
    return sorted(out, key=lambda q: -bits_per_weight(q))


def tiers(engine: str | None, hw: Hardware, quant: str, kv: str | None, quant_stated: bool,
          allowed: tuple[str, ...] | None = None) -> list[tuple[int, str, str | None]]:
    """(tier, weight format, KV dtype) in fallback order."""
    out = [(0, quant, kv)]
    kv8 = kv_fallback(engine, hw) if kv is None else None
    if kv8:
        out.append((1, quant, kv8))
    if not quant_stated:
        for q in weight_fallbacks(engine, hw, quant, allowed):
            out.append((2, q, kv))
            if kv8:
                out.append((2, q, kv8))
    return out


NATIVE_FP8_PLATFORMS = ("nvidia-cuda", "amd-rocm")
FP8_WIN = 0.5
"""How much better (on the user's objective) FP8 weights must serve the load than the assumed 16-bit
weights before the plan departs from them: well beyond the few percent the roofline cannot weigh
against quality (vLLM's FP8 page: half the weight memory, up to 1.6x throughput, minimal accuracy loss
on Hopper/Ada/MI300 -- https://docs.vllm.ai/en/stable/features/quantization/fp8/)."""


def native_fp8(engine: str | None, hw: Hardware, quant: str, quant_stated: bool,
               allowed: tuple[str, ...] | None = None) -> bool:
    """FP8 weights are worth scoring beside an assumed 16-bit format: the user left the format open, the
    device computes FP8 (W8A8 on Hopper, Ada, Blackwell, MI300; Ampere only reads it weight-only), and
    the engine runs FP8 there with an optimized kernel."""
    if quant_stated or bits_per_weight(quant) < 16 or not hw.tflops.fp8 or hw.platform not in NATIVE_FP8_PLATFORMS:
        return False
    if allowed is not None and "fp8" not in allowed:
        return False
    return engine is None or engines.device_kernel(engine, "fp8", hw) == "optimized"
