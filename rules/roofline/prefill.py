"""Prefill: compute-bound time to process a prompt.

FLOPs per prompt = 2 x linear params x tokens (+ lm_head for the last token) + attention
4 x layers x q_heads x head_dim x (tokens^2 / 2) (causal; sliding layers see at most their window;
linear-attention layers have no quadratic term).
Time = GEMM FLOPs / (efficiency x dense TFLOPS of the compute dtype) + attention FLOPs / (attention
efficiency x 16-bit TFLOPS) + MoE routing (local engines), never faster than streaming the weights
once. A prompt that continues a cache of `depth` tokens attends over it as well.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware, ModelSpec
from rules.errors import MissingFactError
from rules.quant import compute_dtype, quant_info
from rules.roofline import calibration as cal
from rules.roofline.figure import Figure
from rules.roofline.memory import attention_params, weight_bytes


def linear_params(model: ModelSpec) -> float:
    """Parameters multiplied per token, excluding embedding and lm_head (MoE: active experts only)."""
    emb = model.embedding_params_b * 1e9
    routed = model.routed_expert_params_b * 1e9
    dense = model.params_b * 1e9 - routed - (emb if model.tied_embeddings else 2 * emb)
    share = (model.experts_per_tok / model.experts) if model.architecture == "moe" else 0.0
    return dense + routed * share


def gemm_seconds(model: ModelSpec, hw: Hardware, quant: str, tokens: float, sampled: float, shard: int,
                 engine: str | None, family: str, weights_s: float | None = None) -> float:
    """Seconds of the weight GEMMs for `tokens` tokens (`sampled` of them through the lm_head) on `shard`
    devices. A GEMM over few tokens fills the tensor cores poorly (server family: rate x M / (M + M0));
    MoE expert GEMMs each see only tokens x k / E of them. Never slower than computing at the
    large-GEMM rate after reading the weights (`weights_s`): small GEMMs are bandwidth-bound."""
    tflops, dtype = device_tflops(hw, quant, engine)
    qfam = quant_info(quant).family
    emb = model.embedding_params_b * 1e9
    routed = model.routed_expert_params_b * 1e9
    dense = model.params_b * 1e9 - routed - (emb if model.tied_embeddings else 2 * emb)
    rate = tflops * 1e12 * shard
    big = cal.prefill_efficiency(hw, qfam, family, dtype)
    flops = 2 * dense * tokens + 2 * emb * sampled
    t = flops / (cal.prefill_efficiency(hw, qfam, family, dtype, tokens) * rate)
    t_big = flops / (big * rate)
    if model.architecture == "moe":
        per_expert = tokens * model.experts_per_tok / model.experts
        f_exp = 2 * routed * model.experts_per_tok / model.experts * tokens
        t += f_exp / (cal.prefill_efficiency(hw, qfam, family, dtype, per_expert) * rate)
        t_big += f_exp / (big * rate)
    if weights_s is not None:
        t = min(t, t_big + weights_s)
    return t


def attention_flops(model: ModelSpec, tokens: int) -> float:
    """Causal attention FLOPs for a prompt of `tokens` (QK^T and AV, 2 FLOPs per multiply-add)."""
    return attention_flops_at(model, tokens, 0)


def attention_flops_spread(model: ModelSpec, tokens: float, position: float) -> float:
    """Attention FLOPs for `tokens` prompt tokens from many prompts, at average position `position`."""
    att = model.attention
    width = model.q_heads * model.head_dim
    full = (model.layers - att.sliding_layers - att.linear_layers) * 4 * width * tokens * position
    sliding = att.sliding_layers * 4 * width * tokens * min(position, att.sliding_window or 0)
    return full + sliding


def attention_flops_at(model: ModelSpec, tokens: float, depth: float) -> float:
    """Causal attention FLOPs for `tokens` new tokens after `depth` cached ones (each attends to all
    earlier positions; sliding-window layers to at most their window)."""
    att = model.attention
    width = model.q_heads * model.head_dim
    full = (model.layers - att.sliding_layers - att.linear_layers) * 4 * width * tokens * (depth + tokens / 2)
    window = min(depth + tokens / 2, att.sliding_window or 0)
    sliding = att.sliding_layers * 4 * width * tokens * window
    return full + sliding


def prefill_flops(model: ModelSpec, tokens: int, depth: int = 0) -> Figure:
    """Total FLOPs to prefill `tokens` prompt tokens (after `depth` cached ones)."""
    lin = 2 * linear_params(model) * tokens + 2 * model.embedding_params_b * 1e9
    att = attention_flops_at(model, tokens, depth)
    return Figure(lin + att, f"2 x {linear_params(model) / 1e9:.2f}B params x {tokens:,} tokens + attention "
                             f"{att / 1e12:.2f} TFLOP = {(lin + att) / 1e12:.2f} TFLOP")


def device_tflops(hw: Hardware, quant: str, engine: str | None) -> tuple[float, str]:
    """Dense TFLOPS of the dtype prefill GEMMs run in on this device (MissingFactError if unknown)."""
    tf = hw.tflops.__dict__   # read only: a frozen model of plain numbers (its dump, without the copy)
    dtype = compute_dtype(quant, tf, engine)
    value = tf.get(dtype) or tf.get("fp16")
    if not value:
        raise MissingFactError("rules/catalog/hardware.yaml", hw.id, "tflops", "no dense TFLOPS published for this device")
    return value, dtype


def prefill_seconds(model: ModelSpec, hw: Hardware, quant: str, tokens: int, shard: int = 1,
                    engine: str | None = None, family: str = "local", depth: int = 0,
                    flash_attention: bool = True, prompts: int = 1, early: bool = False) -> Figure:
    """Expected seconds to prefill `prompts` prompts of `tokens` each (after `depth` cached ones) in one pass on
    `shard` devices working together: their GEMMs run as one batch, attention within each prompt
    (`flash_attention`: local engines run fused attention kernels, llama.cpp's default since `-fa auto`)."""
    tflops, dtype = device_tflops(hw, quant, engine)
    qfam = quant_info(quant).family
    att = prompts * attention_flops_at(model, tokens, depth)
    tokens *= prompts
    eff = cal.prefill_efficiency(hw, qfam, family, dtype, tokens)
    att_eff = cal.attention_efficiency(hw, qfam, family, flash_attention)
    att_tf = hw.tflops.bf16 or hw.tflops.fp16 or tflops  # attention runs in 16-bit
    flops = prefill_flops(model, tokens, depth)
    if prompts > 1:  # attention within each prompt, not across the pass
        lin = 2 * linear_params(model) * tokens
        flops = Figure(lin + att, f"{prompts} prompts: 2 x {linear_params(model) / 1e9:.2f}B params x {tokens:,} "
                                  f"tokens + attention {att / 1e12:.2f} TFLOP")
    stream = weight_bytes(model, quant, engine).value / (hw.mem_bw_gbs * 1e9 * shard)
    gemm = gemm_seconds(model, hw, quant, tokens, 1, shard, engine, family, stream) / cal.prefill_gemm_factor(early)
    compute = gemm + att / (att_eff * att_tf * 1e12 * shard)
    # routing runs for every token on every device of a TP group; llama.cpp splits layers, not tokens
    server = family in cal.SERVER_FAMILIES
    route = ((cal.moe_route_s(family) * tokens / (1 if server else shard) + (cal.moe_step_s(early) if server else 0.0))
             * (model.moe_layers or 0) if model.architecture == "moe" else 0.0)
    t = max(compute + route, stream)
    why = (f"{flops.why}: GEMMs at {eff:.2f} x {tflops:g} {dtype} TFLOPS, attention at {att_eff:.2f} x {att_tf:g} "
           f"16-bit TFLOPS, x {shard} devices" + (f" + MoE routing {route * 1e3:.1f} ms" if route else "")
           + f" = {t:.3f} s")
    return Figure(t, why)


def attention_dp_extra_s(model: ModelSpec, hw: Hardware, quant: str, tokens: int, shard: int,
                         engine: str | None = None, family: str = "server", early: bool = False) -> float:
    """Extra seconds one prompt takes when attention runs data-parallel (SGLang --enable-dp-attention,
    TensorRT-LLM enable_attention_dp): its attention projections and scores run on the one device that owns
    the request instead of being split over the `shard` devices of the group (the experts still are).
    `early`: the projections run in an early build's block-FP8 GEMMs (calibration.prefill_gemm_factor)."""
    if shard <= 1:
        return 0.0
    tflops, dtype = device_tflops(hw, quant, engine)
    qfam = quant_info(quant).family
    rate = cal.prefill_efficiency(hw, qfam, family, dtype, tokens) * cal.prefill_gemm_factor(early) * tflops * 1e12
    gemm = 2 * attention_params(model) * tokens / rate
    att_tf = hw.tflops.bf16 or hw.tflops.fp16 or tflops
    core = attention_flops_at(model, tokens, 0) / (cal.attention_efficiency(hw, qfam, family) * att_tf * 1e12)
    return (gemm + core) * (1 - 1 / shard)


def prefill_tokens_per_s(model: ModelSpec, hw: Hardware, quant: str, tokens: int, shard: int = 1,
                         engine: str | None = None, family: str = "local", depth: int = 0) -> Figure:
    """Prompt tokens per second for one prompt of `tokens` (after `depth` cached ones)."""
    s = prefill_seconds(model, hw, quant, tokens, shard, engine, family, depth)
    return Figure(tokens / s.value, f"{tokens:,} tokens / ({s.why})")
