"""Prefill: compute-bound time to process a prompt.

FLOPs per prompt = 2 x linear params x tokens (+ lm_head for the last token) + attention
4 x layers x q_heads x head_dim x (tokens^2 / 2) (causal; sliding layers see at most their window).
Time = FLOPs / (efficiency x dense TFLOPS of the compute dtype) + MoE routing, never faster than
streaming the weights once.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware, ModelSpec
from rules.errors import MissingFactError
from rules.quant import compute_dtype, quant_info
from rules.roofline import calibration as cal
from rules.roofline.figure import Figure
from rules.roofline.memory import weight_bytes


def linear_params(model: ModelSpec) -> float:
    """Parameters multiplied per token, excluding embedding and lm_head (MoE: active experts only)."""
    emb = model.embedding_params_b * 1e9
    routed = model.routed_expert_params_b * 1e9
    dense = model.params_b * 1e9 - routed - (emb if model.tied_embeddings else 2 * emb)
    share = (model.experts_per_tok / model.experts) if model.architecture == "moe" else 0.0
    return dense + routed * share


def attention_flops(model: ModelSpec, tokens: int) -> float:
    """Causal attention FLOPs for a prompt of `tokens` (QK^T and AV, 2 FLOPs per multiply-add)."""
    att = model.attention
    width = model.q_heads * model.head_dim
    full = (model.layers - att.sliding_layers) * 4 * width * tokens * tokens / 2
    window = min(tokens, att.sliding_window or 0)
    sliding = att.sliding_layers * 4 * width * tokens * window
    return full + sliding


def prefill_flops(model: ModelSpec, tokens: int) -> Figure:
    """Total FLOPs to prefill `tokens` prompt tokens."""
    lin = 2 * linear_params(model) * tokens + 2 * model.embedding_params_b * 1e9
    att = attention_flops(model, tokens)
    return Figure(lin + att, f"2 x {linear_params(model) / 1e9:.2f}B params x {tokens:,} tokens + attention "
                             f"{att / 1e12:.2f} TFLOP = {(lin + att) / 1e12:.2f} TFLOP")


def device_tflops(hw: Hardware, quant: str, engine: str | None) -> tuple[float, str]:
    """Dense TFLOPS of the dtype prefill GEMMs run in on this device (MissingFactError if unknown)."""
    tf = hw.tflops.model_dump()
    dtype = compute_dtype(quant, tf, engine)
    value = tf.get(dtype) or tf.get("fp16")
    if not value:
        raise MissingFactError("rules/catalog/hardware.yaml", hw.id, "tflops", "no dense TFLOPS published for this device")
    return value, dtype


def prefill_seconds(model: ModelSpec, hw: Hardware, quant: str, tokens: int, shard: int = 1,
                    engine: str | None = None) -> Figure:
    """Expected seconds to prefill `tokens` on `shard` devices working together."""
    tflops, dtype = device_tflops(hw, quant, engine)
    eff = cal.prefill_efficiency(hw, quant_info(quant).family)
    flops = prefill_flops(model, tokens)
    compute = flops.value / (eff * tflops * 1e12 * shard)
    route = cal.MOE_ROUTE_S * (model.moe_layers or 0) * tokens / shard if model.architecture == "moe" else 0.0
    stream = weight_bytes(model, quant, engine).value / (hw.mem_bw_gbs * 1e9 * shard)
    t = max(compute + route, stream)
    why = (f"{flops.why} / ({eff:.2f} x {tflops:g} {dtype} TFLOPS x {shard})"
           + (f" + MoE routing {route * 1e3:.1f} ms" if route else "") + f" = {t:.3f} s")
    return Figure(t, why)


def prefill_tokens_per_s(model: ModelSpec, hw: Hardware, quant: str, tokens: int, shard: int = 1,
                         engine: str | None = None) -> Figure:
    """Prompt tokens per second for one prompt of `tokens`."""
    s = prefill_seconds(model, hw, quant, tokens, shard, engine)
    return Figure(tokens / s.value, f"{tokens:,} tokens / ({s.why})")
