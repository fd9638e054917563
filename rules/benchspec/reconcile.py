"""Reconcile measured results with the plan: achieved vs predicted vs bound, SLOs, verdict.

Per result: decode speed per stream (1000 / TPOT p50) against the roofline's expected figure and
its bandwidth bound (the ratio to the bound is the bandwidth utilisation), p99 TTFT/TPOT against
the SLOs, and findings that say what a gap suggests. Per engine: does it meet the SLOs at the
user's peak, where throughput stops scaling, and whether the recommendation still stands.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.benchspec import prediction
from rules.benchspec.criteria import BOUND_FRACTION, PREDICTION_MARGIN
from rules.benchspec.readers import RunResult
from rules.benchspec.spec import BenchSpec, Slo
from rules.ids import ENGINES
from rules.profile import Profile

TAIL_RATIO = 3.0
"""p99 / p50 above this means requests queue behind others."""
BETTER_BY = 1.15
"""An alternative must deliver this much more at the peak (within SLO) to overturn the pick."""


class _Model(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")


class RunCheck(_Model):
    """One result set against the prediction and the SLO."""

    engine: str | None
    run: str | None
    concurrency: int | None
    harness: str
    file: str
    ttft_p50_ms: float | None = None
    ttft_p99_ms: float | None = None
    tpot_p50_ms: float | None = None
    tpot_p99_ms: float | None = None
    output_tokens_per_s: float | None = None
    requests_per_s: float | None = None
    failed: int | None = None
    kv_cache_hit_rate: float | None = None
    decode_tokens_per_s: float | None = None
    """Achieved decode speed per stream: 1000 / TPOT p50."""
    predicted_decode_tokens_per_s: float | None = None
    bound_decode_tokens_per_s: float | None = None
    bandwidth_utilisation: float | None = None
    vs_prediction: float | None = None
    predicted_limit: str | None = None
    """What the estimator says binds at this level (its `binding_constraint`)."""
    slo_ttft_ok: bool | None = None
    slo_tpot_ok: bool | None = None
    findings: list[str] = Field(default_factory=list)


class EngineVerdict(_Model):
    """What the results say about one engine."""

    engine: str
    meets_slo_at_peak: bool | None = None
    peak_output_tokens_per_s: float | None = None
    highest_level_within_slo: int | None = None
    single_stream_utilisation: float | None = None
    knee: int | None = None
    """First level where adding concurrency no longer raises throughput much."""
    findings: list[str] = Field(default_factory=list)


class Reconciliation(_Model):
    """The whole reconcile report (the `--json` output)."""

    runs: list[RunCheck]
    engines: list[EngineVerdict]
    primary: str | None = None
    peak_concurrency: int | None = None
    slo: Slo | None = None
    stands: bool | None = None
    verdict: str
    notes: list[str] = Field(default_factory=list)


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def _predict(r: RunResult, planned: Profile | None, primary: str | None,
             cache: dict[tuple, Any], notes: list[str], layout: dict[str, Any] | None = None) -> dict[str, Any] | None:
    if planned is None or r.concurrency is None:
        return None
    engine = r.engine if r.engine in ENGINES else primary
    key = (engine, r.concurrency)
    if key not in cache:
        cache[key] = prediction.estimate_at(planned, engine, r.concurrency, notes, layout)   # the spec's own layout
    return cache[key]


def _findings(c: RunCheck) -> list[str]:
    out = []
    util = c.bandwidth_utilisation
    low = util is not None and c.concurrency == 1 and util < BOUND_FRACTION
    if low and c.vs_prediction is not None and c.vs_prediction >= PREDICTION_MARGIN:
        out.append(f"Single-stream decode reaches {c.bandwidth_utilisation:.0%} of the bandwidth bound, as "
                   f"predicted ({c.predicted_limit or 'see the estimate'}): a property of this setup, "
                   "not of the engine.")
    elif low:
        out.append(f"Single-stream decode reaches {c.bandwidth_utilisation:.0%} of the bandwidth bound: "
                   "investigate kernels, quantization support and CUDA graphs before buying hardware.")
    if c.vs_prediction is not None and c.vs_prediction < PREDICTION_MARGIN:
        out.append(f"Decode runs at {c.vs_prediction:.0%} of the predicted speed: compare batch limit, "
                   "chunked prefill and KV-cache settings with the scenario.")
    if c.vs_prediction is not None and c.vs_prediction > 1.25:
        out.append(f"Decode runs at {c.vs_prediction:.0%} of the prediction: check that output length "
                   "was forced and lengths match the plan; otherwise the estimate is conservative here.")
    queued = (c.concurrency or 1) > 1 and c.ttft_p50_ms and c.ttft_p99_ms
    if queued and c.ttft_p99_ms > TAIL_RATIO * c.ttft_p50_ms:
        out.append(f"TTFT p99 is {c.ttft_p99_ms / c.ttft_p50_ms:.1f}x the median: requests queue behind "
                   "prefills (chunked prefill, a lower batch limit or more replicas).")
    if c.tpot_p50_ms and c.tpot_p99_ms and c.tpot_p99_ms > 2 * c.tpot_p50_ms:
        out.append(f"TPOT p99 is {c.tpot_p99_ms / c.tpot_p50_ms:.1f}x the median: decode steps stall "
                   "(prefill interference or preemption).")
    if c.failed:
        out.append(f"{c.failed} requests failed: this level exceeds what the server accepts "
                   "(KV-cache capacity, limits or timeouts).")
    return out


def check_run(r: RunResult, est: dict[str, Any] | None, slo: Slo | None) -> RunCheck:
    """One result against its prediction and the SLO."""
    tpot50 = r.tpot_ms.get("p50")
    achieved = round(1000 / tpot50, 2) if tpot50 else None
    expected = prediction_value(est, "decode_tokens_per_s")
    bound = prediction_value(est, "decode_tokens_per_s_bound")
    c = RunCheck(
        engine=r.engine, run=r.run, concurrency=r.concurrency, harness=r.harness, file=r.file,
        ttft_p50_ms=r.ttft_ms.get("p50"), ttft_p99_ms=r.ttft_ms.get("p99"), tpot_p50_ms=tpot50,
        tpot_p99_ms=r.tpot_ms.get("p99"), output_tokens_per_s=r.output_tokens_per_s,
        requests_per_s=r.requests_per_s, failed=r.failed, kv_cache_hit_rate=r.kv_cache_hit_rate,
        decode_tokens_per_s=achieved, predicted_decode_tokens_per_s=expected,
        bound_decode_tokens_per_s=bound, bandwidth_utilisation=_ratio(achieved, bound),
        vs_prediction=_ratio(achieved, expected),
        predicted_limit=(est or {}).get("binding_constraint"))
    if slo is not None and r.run == "main":
        c.slo_ttft_ok = c.ttft_p99_ms <= slo.ttft_p99_ms if c.ttft_p99_ms is not None else None
        c.slo_tpot_ok = c.tpot_p99_ms <= slo.tpot_p99_ms if c.tpot_p99_ms is not None else None
    c.findings = _findings(c)
    return c


def prediction_value(est: dict[str, Any] | None, key: str) -> float | None:
    """A numeric estimate field, or None."""
    value = (est or {}).get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _within(c: RunCheck) -> bool | None:
    if c.slo_ttft_ok is None or c.slo_tpot_ok is None:
        return None
    return c.slo_ttft_ok and c.slo_tpot_ok and not c.failed


def engine_verdict(engine: str, checks: list[RunCheck], peak: int | None) -> EngineVerdict:
    """Peak SLO attainment, knee and single-stream utilisation of one engine."""
    main = sorted((c for c in checks if c.run == "main" and c.concurrency), key=lambda c: c.concurrency)
    at_peak = [c for c in main if c.concurrency == peak]
    v = EngineVerdict(engine=engine)
    if at_peak:
        oks = [_within(c) for c in at_peak]
        v.meets_slo_at_peak = None if None in oks else all(oks)
        tps = [c.output_tokens_per_s for c in at_peak if c.output_tokens_per_s is not None]
        v.peak_output_tokens_per_s = min(tps) if tps else None
    within = [c.concurrency for c in main if _within(c)]
    v.highest_level_within_slo = max(within) if within else None
    singles = [c.bandwidth_utilisation for c in checks if c.concurrency == 1 and c.run == "decode"
               and c.bandwidth_utilisation is not None]
    v.single_stream_utilisation = min(singles) if singles else None
    for prev, cur in zip(main, main[1:]):
        both = prev.output_tokens_per_s and cur.output_tokens_per_s
        if both and cur.concurrency >= 1.5 * prev.concurrency \
                and cur.output_tokens_per_s < 1.1 * prev.output_tokens_per_s:
            v.knee = prev.concurrency
            v.findings.append(f"Throughput stops scaling after concurrency {prev.concurrency}: "
                              "the server is saturated there.")
            break
    return v


def _verdict(primary: str | None, verdicts: dict[str, EngineVerdict], peak: int | None,
             have_slo: bool) -> tuple[bool | None, str]:
    if not have_slo or peak is None:
        return None, "No profile given: results are summarised, but SLOs and the pick are not judged."
    if not primary:
        return None, "The plan names no primary engine: compare the engines' rows directly."
    pv = verdicts.get(primary)
    if pv is None or pv.meets_slo_at_peak is None:
        return None, f"Not enough data: run the main run of {primary} at the peak ({peak})."
    ok = [v for e, v in verdicts.items() if e != primary and v.meets_slo_at_peak]
    if pv.meets_slo_at_peak:
        better = [v for v in ok if v.peak_output_tokens_per_s and pv.peak_output_tokens_per_s
                  and v.peak_output_tokens_per_s >= BETTER_BY * pv.peak_output_tokens_per_s]
        if better:
            b = max(better, key=lambda v: v.peak_output_tokens_per_s or 0)
            return False, (f"Reconsider: {b.engine} also meets the SLOs at {peak} and delivers "
                           f"{b.peak_output_tokens_per_s / pv.peak_output_tokens_per_s:.0%} of "
                           f"{primary}'s throughput.")
        return True, f"The recommendation stands: {primary} meets the SLOs at your peak ({peak})."
    if ok:
        return False, (f"Reconsider: {primary} misses the SLOs at {peak} but "
                       f"{', '.join(v.engine for v in ok)} meets them.")
    return False, (f"No engine meets the SLOs at {peak}: the plan, not the engine, is the limit "
                   "(more devices or bandwidth, quantization, shorter context, or looser SLOs).")


def reconcile(results: list[RunResult], spec: BenchSpec | None = None,
              profile: Profile | None = None) -> Reconciliation:
    """Compare results with the spec's predictions and SLOs; without a spec, just normalise them."""
    notes: list[str] = []
    slo = spec.slos[0] if spec and spec.slos else None
    peak = spec.workload.peak_concurrency if spec else None
    primary = next((e.id for e in spec.scenario.engines if e.role == "primary"), None) if spec else None
    planned = None
    if spec is not None and profile is not None:
        wl = spec.workload
        planned = prediction.planned_profile(profile, peak, wl.input.mean, wl.output.mean,
                                             wl.input.max + wl.output.max)
    cache: dict[tuple, Any] = {}
    layout = prediction.layout_of(((spec.prediction or {}).get("peak") if spec else None))
    checks = [check_run(r, _predict(r, planned, primary, cache, notes, layout), slo) for r in results]
    engines = sorted({c.engine or "unknown" for c in checks})
    verdicts = {e: engine_verdict(e, [c for c in checks if (c.engine or "unknown") == e], peak)
                for e in engines}
    stands, text = _verdict(primary, verdicts, peak, slo is not None)
    if any(c.engine is None for c in checks):
        notes.append("Some results name no engine: name files <engine>-<run>-c<level>.* as the "
                     "exported plans do.")
    return Reconciliation(runs=checks, engines=list(verdicts.values()), primary=primary,
                          peak_concurrency=peak, slo=slo, stands=stands, verdict=text,
                          notes=list(dict.fromkeys(notes)))
