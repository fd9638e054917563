"""Roofline estimator: pure formulas (memory, decode, prefill, comm, serving) and `estimate()`.

    estimate(model, hardware, count=1, ...) -> Estimate      (its model_dump() is `advisor estimate --json`)
    estimate_for_profile(profile, engine=None) -> Estimate | None
"""
from rules.roofline.decode import decode_step, decode_tokens_per_s, decode_tokens_per_s_bound
from rules.roofline.estimate import estimate, estimate_for_profile
from rules.roofline.figure import Figure
from rules.roofline.layout import Layout, build_layout
from rules.roofline.memory import kv_bytes, kv_bytes_per_token, step_weight_bytes, weight_bytes
from rules.roofline.prefill import prefill_seconds, prefill_tokens_per_s
from rules.roofline.result import Estimate

__all__ = [
    "Estimate", "Figure", "Layout", "build_layout", "decode_step", "decode_tokens_per_s",
    "decode_tokens_per_s_bound", "estimate", "estimate_for_profile", "kv_bytes", "kv_bytes_per_token",
    "prefill_seconds", "prefill_tokens_per_s", "step_weight_bytes", "weight_bytes",
]
