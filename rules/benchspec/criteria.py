"""Pass/fail criteria: achieved numbers against the roofline prediction and the SLOs.

The thresholds are deliberate margins, not fitted numbers: an engine that decodes at less than
half the bandwidth bound on a single stream is leaving most of the hardware unused, which is a
configuration or kernel problem to solve before buying anything.
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.spec import Criterion, Slo, Workload

BOUND_FRACTION = 0.5
"""Single-stream decode below this share of the bandwidth bound → investigate."""
PREDICTION_MARGIN = 0.8
"""Achieved below this share of the calibrated prediction → slower than it should be."""
TTFT_MARGIN = 1.5
"""Measured TTFT above this multiple of the predicted one → prefill slower than it should be."""


def _num(estimate: dict[str, Any] | None, key: str) -> float | None:
    value = (estimate or {}).get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _no_prediction(reason: str) -> str:
    return f"No roofline prediction ({reason}); record the value and compare by hand."


def decode_criteria(single: dict[str, Any] | None) -> list[Criterion]:
    """Single-stream decode against the bound and the calibrated prediction."""
    bound, expected = _num(single, "decode_tokens_per_s_bound"), _num(single, "decode_tokens_per_s")
    basis = (f"roofline bound {bound:.1f} tokens/s: memory bandwidth / bytes read per token"
             if bound else _no_prediction("bound unavailable"))
    if bound and expected and expected < BOUND_FRACTION * bound:
        basis += (f". The prediction itself is {expected:.1f} tokens/s ({expected / bound:.0%} of the bound: "
                  f"{(single or {}).get('binding_constraint') or 'overheads'}), so missing this check is "
                  "expected here; judge the engine by decode-vs-prediction")
    return [
        Criterion(id="decode-vs-bound", check="single-stream decode speed >= half the bandwidth bound",
                  run="decode", concurrency=1, metric="decode tokens/s per stream (1000 / TPOT p50)",
                  threshold=round(BOUND_FRACTION * bound, 1) if bound else None, unit="tokens/s",
                  basis=basis,
                  if_fails="Investigate before buying hardware: kernels for this quantization, CUDA "
                           "graphs, engine build and flags leave most of the bandwidth unused."),
        Criterion(id="decode-vs-prediction", check="single-stream decode within 20 % of the prediction",
                  run="decode", concurrency=1, metric="decode tokens/s per stream (1000 / TPOT p50)",
                  threshold=round(PREDICTION_MARGIN * expected, 1) if expected else None,
                  unit="tokens/s",
                  basis=(f"calibrated prediction {expected:.1f} tokens/s" if expected
                         else _no_prediction("expected decode unavailable")),
                  if_fails="Slower than comparable published setups: compare engine version and "
                           "flags with the scenario, then re-check the estimate's assumptions."),
    ]


def prefill_criteria(single: dict[str, Any] | None) -> list[Criterion]:
    """Single-stream TTFT of the prefill run against the predicted TTFT."""
    ttft_s = _num(single, "ttft_s")
    return [Criterion(
        id="prefill-vs-prediction", check="single-stream TTFT within 1.5x of the prediction",
        run="prefill", concurrency=1, metric="TTFT p50",
        threshold=round(TTFT_MARGIN * ttft_s * 1000, 1) if ttft_s else None, unit="ms",
        basis=(f"predicted TTFT {ttft_s * 1000:.0f} ms (compute-bound prefill)" if ttft_s
               else _no_prediction("TTFT unavailable")),
        if_fails="Prefill is slow: check the attention backend, chunked-prefill budget and that "
                 "prompts are not being truncated or re-tokenised.")]


def peak_criteria(peak_estimate: dict[str, Any] | None, peak: int) -> list[Criterion]:
    """Decode at the peak level against the predicted TPOT there."""
    tpot = _num(peak_estimate, "tpot_ms")
    return [Criterion(
        id="peak-tpot-vs-prediction", check="TPOT at the peak within 1.25x of the prediction",
        run="main", concurrency=peak, metric="TPOT p50",
        threshold=round(tpot * 1.25, 1) if tpot else None, unit="ms",
        basis=(f"predicted TPOT {tpot:.1f} ms at {peak} concurrent requests" if tpot
               else _no_prediction("TPOT at peak unavailable")),
        if_fails="Batching is not amortising the weight reads: check the batch limit, KV-cache "
                 "size (preemptions) and the scheduler settings recorded in the scenario.")]


def _forecast(predicted_ms: float | None, target: float, what: str) -> str:
    """A warning when the prediction already misses the target."""
    if predicted_ms is None or predicted_ms <= target:
        return ""
    return (f" The roofline predicts {what} of {predicted_ms:.0f} ms here (a typical request, not the "
            "p99), already above the target: expect a miss unless the plan changes.")


def slo_criteria(slos: list[Slo], peak_estimate: dict[str, Any] | None = None) -> list[Criterion]:
    """p99 TTFT and TPOT at the peak against the SLOs (with the prediction's forecast)."""
    ttft_s, tpot = _num(peak_estimate, "ttft_s"), _num(peak_estimate, "tpot_ms")
    out = []
    for s in slos:
        out += [
            Criterion(id="slo-ttft", check=f"TTFT p99 <= {s.ttft_p99_ms:g} ms at the peak", run="main",
                      concurrency=s.at_concurrency, metric="TTFT p99", threshold=s.ttft_p99_ms,
                      unit="ms", basis=s.basis + _forecast(ttft_s * 1000 if ttft_s else None,
                                                           s.ttft_p99_ms, "a TTFT"),
                      if_fails="Prefill or queueing dominates at your peak: chunked prefill, prefix "
                               "caching, more replicas, or prefill/decode disaggregation."),
            Criterion(id="slo-tpot", check=f"TPOT p99 <= {s.tpot_p99_ms:g} ms at the peak", run="main",
                      concurrency=s.at_concurrency, metric="TPOT p99", threshold=s.tpot_p99_ms,
                      unit="ms", basis=s.basis + _forecast(tpot, s.tpot_p99_ms, "a TPOT"),
                      if_fails="Decode is bandwidth- or batch-bound at your peak: fewer bytes per "
                               "token (quantization), more bandwidth (devices, TP), or a lower "
                               "batch limit."),
        ]
    return out


def fit_criteria(stated: dict[str, Any] | None, workload: Workload) -> list[Criterion]:
    """Whether the plan can run at the stated context, per the roofline memory check."""
    if not stated:
        return []
    run = "long-context" if any(r.id == "long-context" for r in workload.runs) else "main"
    out = []
    if stated.get("fits") is False:
        out.append(Criterion(
            id="fits", check="the model and KV cache fit the devices", run=run,
            concurrency=workload.peak_concurrency, metric="server starts and serves",
            unit="yes/no", basis=f"roofline: does not fit ({stated.get('binding_constraint')})",
            if_fails="Change the plan before benchmarking: quantization, more devices or a "
                     "shorter context."))
    cap = _num(stated, "max_concurrency")
    if cap is not None and cap < workload.peak_concurrency:
        out.append(Criterion(
            id="kv-capacity", check="no preemption or queueing at the peak", run=run,
            concurrency=workload.peak_concurrency, metric="failed or preempted requests",
            threshold=0, unit="requests",
            basis=f"roofline: about {cap:.0f} sequences fit at the stated context, below the peak",
            if_fails="The KV cache is the limit: KV-cache quantization, more memory, or shorter "
                     "contexts."))
    return out


def build_criteria(workload: Workload, slos: list[Slo], single: dict[str, Any] | None,
                   peak_estimate: dict[str, Any] | None,
                   stated: dict[str, Any] | None = None) -> list[Criterion]:
    """All criteria of the spec, in reading order (`stated`: estimate at the stated context)."""
    return (fit_criteria(stated or peak_estimate, workload) + decode_criteria(single)
            + prefill_criteria(single) + peak_criteria(peak_estimate, workload.peak_concurrency)
            + slo_criteria(slos, peak_estimate))
