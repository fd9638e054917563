"""Decode: the pure bandwidth bound and the expected step time of one decode step.

A step of `batch` sequences at `context` tokens reads the weights once (MoE: the experts the batch
touches) and every sequence's KV cache. Expected time = max(bytes / (efficiency x bandwidth),
FLOPs / (efficiency x TFLOPS)) + fixed per-step overhead + communication.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.catalog_schema import Hardware, ModelSpec
from rules.quant import compute_dtype
from rules.roofline import calibration as cal
from rules.roofline.figure import Figure, gb
from rules.roofline.layout import Layout
from rules.roofline.memory import kv_bytes, step_weight_bytes


@dataclass(frozen=True)
class Step:
    """One decode step, split into the terms that add up to its time (seconds)."""

    weights_s: float
    kv_s: float
    compute_s: float
    overhead_s: float
    comm_s: float
    bytes_read: float
    notes: tuple[str, ...]

    @property
    def seconds(self) -> float:
        """Expected step time: memory or compute (whichever is slower) + overhead + communication."""
        return max(self.weights_s + self.kv_s, self.compute_s) + self.overhead_s + self.comm_s


def step_bytes(model: ModelSpec, quant: str, batch: int, context: int, kv_dtype: str | None,
               engine: str | None = None) -> tuple[Figure, Figure]:
    """(weight bytes, KV bytes) read by one decode step of `batch` sequences at `context` tokens."""
    w = step_weight_bytes(model, quant, batch, engine)
    kv = kv_bytes(model, context, kv_dtype)
    return w, Figure(kv.value * batch, f"{batch} x {kv.why}")


def step_flops(model: ModelSpec, batch: int) -> float:
    """FLOPs of one decode step: 2 x active params per token (attention over the cache is memory-bound)."""
    return 2 * model.active_params_b * 1e9 * batch


def compute_tflops(hw: Hardware, quant: str, engine: str | None) -> float | None:
    """Dense TFLOPS GEMMs on these weights run at (FP8/FP4 where engine and device have them)."""
    tf = hw.tflops.model_dump()
    return tf.get(compute_dtype(quant, tf, engine)) or tf.get("fp16")


def decode_tokens_per_s_bound(model: ModelSpec, hw: Hardware, quant: str, context: int = 0,
                              kv_dtype: str | None = None, shard: int = 1, engine: str | None = None) -> Figure:
    """Pure roofline for one stream: shard x bandwidth / bytes per token (no overhead, 100 % bandwidth)."""
    w, kv = step_bytes(model, quant, 1, context, kv_dtype, engine)
    total = w.value + kv.value
    tps = shard * hw.mem_bw_gbs * 1e9 / total
    return Figure(tps, f"{shard} x {hw.mem_bw_gbs:g} GB/s / {gb(total):.2f} GB per token = {tps:.1f} tokens/s")


def decode_step(model: ModelSpec, hw: Hardware, quant: str, batch: int, context: int, layout: Layout,
                kv_dtype: str | None = None, engine: str | None = None, comm_s: float = 0.0) -> Step:
    """Expected decode step (per-stream token time) for `batch` sequences on one model replica.

    With pipeline parallelism the batch runs as min(pp, batch) micro-batches, each in a different
    stage at once: a token still crosses every stage (weights read once per token, so single-stream
    speed does not improve), but each stage only handles its micro-batch's KV and compute.
    """
    micro = max(1, min(layout.pp, batch))
    batch = -(-batch // micro)
    w, kv = step_bytes(model, quant, batch, context, kv_dtype, engine)
    eff, eff_why = cal.bandwidth_efficiency(hw)
    bw = eff * hw.mem_bw_gbs * 1e9 * layout.shard  # pp stages run one after another
    tflops = compute_tflops(hw, quant, engine)
    compute = step_flops(model, batch) / (cal.DECODE_COMPUTE_EFFICIENCY * tflops * 1e12 * layout.shard) if tflops else 0.0
    return Step(weights_s=w.value / bw, kv_s=kv.value / bw, compute_s=compute,
                overhead_s=cal.token_overhead_s(hw), comm_s=comm_s, bytes_read=w.value + kv.value,
                notes=(w.why, kv.why, eff_why) + ((f"pipeline: {micro} micro-batches of {batch} in flight",)
                                                   if micro > 1 else ()))


def decode_tokens_per_s(model: ModelSpec, hw: Hardware, quant: str, context: int = 0,
                        kv_dtype: str | None = None, engine: str | None = None) -> Figure:
    """Expected single-stream decode tokens/s on one device (efficiency + per-token overhead)."""
    s = decode_step(model, hw, quant, 1, context, Layout("none"), kv_dtype, engine)
    return Figure(1 / s.seconds, f"1 / ({s.weights_s * 1e3:.2f} ms weights + {s.kv_s * 1e3:.2f} ms KV + "
                                 f"{s.overhead_s * 1e3:.1f} ms overhead) = {1 / s.seconds:.1f} tokens/s")
