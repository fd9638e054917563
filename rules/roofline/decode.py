"""Decode: the pure bandwidth bound and the expected time of one engine step.

A step of `batch` sequences at `context` tokens reads the weights once (MoE: the experts the batch
touches) and every sequence's KV cache; under continuous batching it also carries `prefill_tokens`
prompt tokens of requests being admitted. The weight GEMMs are memory- or compute-bound, whichever
is slower; attention runs in its own kernels (decode: reading the KV cache; prompt tokens: FLOPs):
    step = max(weight bytes / (eff x BW), GEMM FLOPs of all tokens / (eff x TFLOPS))
           + KV bytes / (eff x BW) + prompt attention FLOPs / (eff x TFLOPS) + overhead + communication
Weights and compute split over the TP/EP group; the KV cache only as far as its heads do (an MLA latent is
one head: every device of a TP group reads all of it).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.catalog_schema import Hardware, ModelSpec
from rules.quant import compute_dtype, quant_info
from rules.roofline import calibration as cal
from rules.roofline.figure import Figure, gb
from rules.roofline.layout import Layout
from rules.roofline.memory import attention_weight_bytes, kv_bytes, step_weight_bytes


@dataclass(frozen=True)
class Step:
    """One decode step, split into the terms that add up to its time (seconds)."""

    weights_s: float
    kv_s: float
    compute_s: float
    """GEMM FLOPs of every token in the step (decode tokens and prompt tokens)."""
    overhead_s: float
    comm_s: float
    bytes_read: float
    notes: tuple[str, ...]
    prefill_attention_s: float = 0.0
    """Attention FLOPs of the prompt tokens the step carries."""

    @property
    def seconds(self) -> float:
        """Expected step time: weight GEMMs (memory or compute, whichever is slower) + KV reads +
        prompt attention + overhead + communication."""
        return (max(self.weights_s, self.compute_s) + self.kv_s + self.prefill_attention_s
                + self.overhead_s + self.comm_s)


def step_bytes(model: ModelSpec, quant: str, batch: int, context: int, kv_dtype: str | None,
               engine: str | None = None) -> tuple[Figure, Figure]:
    """(weight bytes, KV bytes) read by one decode step of `batch` sequences at `context` tokens."""
    w = step_weight_bytes(model, quant, batch, engine)
    kv = kv_bytes(model, context, kv_dtype)
    return w, Figure(kv.value * batch, f"{batch} x {kv.why}")


def step_flops(model: ModelSpec, batch: int) -> float:
    """FLOPs of one decode step: 2 x active params per token (attention over the cache is memory-bound)."""
    return 2 * model.active_params_b * 1e9 * batch


def gemm_flops(model: ModelSpec, tokens: float, sampled: float) -> float:
    """Weight-GEMM FLOPs for `tokens` through the layers, `sampled` of them through the lm_head."""
    from rules.roofline.prefill import linear_params
    return 2 * linear_params(model) * tokens + 2 * model.embedding_params_b * 1e9 * sampled


def compute_tflops(hw: Hardware, quant: str, engine: str | None) -> float | None:
    """Dense TFLOPS GEMMs on these weights run at (FP8/FP4 where engine and device have them)."""
    tf = hw.tflops.__dict__   # read only: a frozen model of plain numbers (its dump, without the copy)
    return tf.get(compute_dtype(quant, tf, engine)) or tf.get("fp16")


def decode_tokens_per_s_bound(model: ModelSpec, hw: Hardware, quant: str, context: int = 0,
                              kv_dtype: str | None = None, shard: int = 1, engine: str | None = None) -> Figure:
    """Pure roofline for one stream: shard x bandwidth / bytes per token (no overhead, 100 % bandwidth)."""
    w, kv = step_bytes(model, quant, 1, context, kv_dtype, engine)
    total = w.value + kv.value
    tps = shard * hw.mem_bw_gbs * 1e9 / total
    return Figure(tps, f"{shard} x {hw.mem_bw_gbs:g} GB/s / {gb(total):.2f} GB per token = {tps:.1f} tokens/s")


def kv_read_split(model: ModelSpec, layout: Layout, attention_dp: bool = False) -> int:
    """Devices of a TP/EP group that each read a distinct part of the KV cache in a step: KV heads split up
    to kv_heads; an MLA latent is one head every device holds and reads whole. With attention data-parallel
    each device keeps and reads only its own requests' cache."""
    if attention_dp:
        return layout.shard
    if model.attention.kind == "mla":
        return 1
    return min(layout.shard, model.kv_heads or layout.shard)


def decode_step(model: ModelSpec, hw: Hardware, quant: str, batch: int, context: int, layout: Layout,
                kv_dtype: str | None = None, engine: str | None = None, comm_s: float = 0.0,
                prefill_tokens: float = 0.0, prefill_context: int = 0, family: str = "local",
                attention_dp: bool = False, early: bool = False) -> Step:
    """Expected engine step (per-stream token time) for `batch` sequences on one model replica,
    carrying `prefill_tokens` prompt tokens (average position `prefill_context`) besides the decodes.

    With pipeline parallelism the batch runs as min(pp, batch) micro-batches, each in a different
    stage at once: a token still crosses every stage (weights read once per token, so single-stream
    speed does not improve), but each stage only handles its micro-batch's KV and compute.
    With `attention_dp` (attention data-parallel over the TP/EP group) every device holds and reads the whole
    attention projections for its own requests, and only its own requests' KV cache.
    """
    from rules.roofline.prefill import attention_flops_spread, gemm_seconds
    micro = max(1, min(layout.pp, batch))
    batch = -(-batch // micro)
    prefill_tokens /= micro
    w, kv = step_bytes(model, quant, batch, context, kv_dtype, engine)
    eff, eff_why = cal.bandwidth_efficiency(hw, family)
    bw = eff * hw.mem_bw_gbs * 1e9 * layout.shard  # pp stages run one after another
    # every device reads the KV heads it holds: an MLA latent (one shared head) or GQA heads fewer than the
    # TP group are replicated, so each device streams the whole (or a larger share of the) cache
    kv_bw = eff * hw.mem_bw_gbs * 1e9 * kv_read_split(model, layout, attention_dp)
    # attention data-parallel: each device streams the full attention projections, not 1/shard of them
    att_extra = attention_weight_bytes(model, quant, engine) * (layout.shard - 1) / bw if attention_dp else 0.0
    tflops = compute_tflops(hw, quant, engine)
    qfam = quant_info(quant).family
    compute = (gemm_seconds(model, hw, quant, batch + prefill_tokens, batch, layout.shard, engine, family, w.value / bw)
               if tflops else 0.0)
    if model.architecture == "moe" and family in cal.SERVER_FAMILIES:  # local engines: in the per-step overhead
        compute += (cal.moe_route_s(family) * (model.moe_layers or 0) * (batch + prefill_tokens)
                    + cal.moe_step_s(early) * (model.moe_layers or 0))
    attn = 0.0
    if prefill_tokens and tflops:
        att_tf = (hw.tflops.bf16 or hw.tflops.fp16 or tflops) * 1e12
        attn = (attention_flops_spread(model, prefill_tokens, prefill_context)
                / (cal.attention_efficiency(hw, qfam, family) * att_tf * layout.shard))
    notes = (w.why, kv.why, eff_why)
    if prefill_tokens:
        notes += (f"each step also carries {prefill_tokens:,.0f} prompt tokens of newly admitted requests",)
    if micro > 1:
        notes += (f"pipeline: {micro} micro-batches of {batch} in flight",)
    if att_extra:
        notes += (f"attention data-parallel: each device reads all {gb(attention_weight_bytes(model, quant, engine)):.1f}"
                  f" GB of attention weights (+{att_extra * 1e3:.2f} ms) and only its own requests' KV cache",)
    # a token crosses every pipeline stage, and each stage's step pays its own launch overhead
    overhead = cal.token_overhead_s(hw, family, batch) * layout.pp
    return Step(weights_s=w.value / bw + att_extra, kv_s=kv.value / kv_bw, compute_s=compute,
                overhead_s=overhead, comm_s=comm_s, bytes_read=w.value + kv.value,
                notes=notes, prefill_attention_s=attn)


def decode_tokens_per_s(model: ModelSpec, hw: Hardware, quant: str, context: int = 0,
                        kv_dtype: str | None = None, engine: str | None = None) -> Figure:
    """Expected single-stream decode tokens/s on one device (efficiency + per-token overhead)."""
    s = decode_step(model, hw, quant, 1, context, Layout("none"), kv_dtype, engine)
    return Figure(1 / s.seconds, f"1 / ({s.weights_s * 1e3:.2f} ms weights + {s.kv_s * 1e3:.2f} ms KV + "
                                 f"{s.overhead_s * 1e3:.1f} ms overhead) = {1 / s.seconds:.1f} tokens/s")
