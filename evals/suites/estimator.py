"""The estimator suite: the roofline against published single-stream measurements.

One case per CSV row (`metric` decode_tps or prefill_tps). A decode case passes when the expected
figure is within 40 % and the pure bound is at least 0.95 x the measurement; a prefill case when
within 50 %. Metrics: decode_median_ape, decode_p90_ape, prefill_median_ape, bound_violations
(+ per-platform medians). Run: `python -m evals.suites.estimator [CSV]` or `advisor eval --suite estimator`.
"""
from __future__ import annotations

import csv
import os
import statistics
import sys
from pathlib import Path

from evals.suite import CaseOutcome, SuiteReport

MEASUREMENTS = Path(__file__).resolve().parent.parent / "data" / "measurements.csv"
DECODE_PASS, PREFILL_PASS, BOUND_SLACK = 0.40, 0.50, 0.95
TARGETS = {"decode_median_ape": 0.15, "decode_p90_ape": 0.40, "prefill_median_ape": 0.30, "bound_violations": 0}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))]


# How measurement sources name their multi-device split, mapped to strategy ids.
_SPLIT_NAMES = {"layer": "pp", "split-mode layer": "pp", "pipeline": "pp", "row": "tp", "split-mode row": "tp",
                "tensor": "tp", "tp": "tp", "pp": "pp", "ep": "ep", "dp": "dp", "tp+pp": "tp+pp", "tp+dp": "tp+dp"}


_QUANT_NAMES = {"fp16": "f16", "float16": "f16", "bfloat16": "bf16", "q4_k": "q4_k_m", "q5_k": "q5_k_m"}


def _quant(name: str | None) -> str | None:
    """Quantization id for a row's quant column (case and common spellings normalised)."""
    q = (name or "").strip().lower()
    return _QUANT_NAMES.get(q, q) or None


def _parallelism(name: str | None, count: int) -> str | None:
    """Strategy id for a row's parallelism column (None = the estimator's default)."""
    if count == 1:
        return None
    return _SPLIT_NAMES.get((name or "").strip().lower())


def _row_estimate(row: dict):
    """The estimate for one measurement row (the row's own setup, concurrency 1)."""
    from rules.ids import ENGINES
    from rules.roofline import estimate

    count = int(row.get("count") or 1)
    engine = row.get("engine") or None
    return estimate(row["model"], row["hardware"], count=count, quant=_quant(row["quant"]),
                    engine=engine if engine in ENGINES else None, parallelism=_parallelism(row.get("parallelism"), count),
                    input_tokens=int(row.get("input") or 0), output_tokens=int(row.get("output") or 0),
                    concurrency=1)


def evaluate_row(i: int, row: dict) -> CaseOutcome:
    """One measurement -> one case with its absolute percentage error."""
    from rules.errors import AdvisorError

    case_id = f"{i:03d}-{row['model']}-{row['quant']}-{row['hardware']}x{row.get('count') or 1}-{row['metric']}"
    measured = float(row["value"])
    try:
        est = _row_estimate(row)
    except AdvisorError as exc:
        return CaseOutcome(case_id, False, [f"no estimate: {exc}"], result={"metric": row["metric"], "measured": measured})
    if row["metric"] == "decode_tps":
        pred, bound = est.decode_tokens_per_s, est.decode_tokens_per_s_bound
    elif row["metric"] == "prefill_tps":
        pred, bound = est.prefill_tokens_per_s, None
    else:
        return CaseOutcome(case_id, False, [f"unknown metric {row['metric']}"], result={"measured": measured})
    result = {"metric": row["metric"], "measured": measured, "predicted": pred, "bound": bound,
              "platform": _platform(row["hardware"]), "ape": None}
    if pred is None:
        return CaseOutcome(case_id, False, ["estimator gave no figure"], result=result)
    ape = abs(pred - measured) / measured
    result["ape"] = round(ape, 4)
    failures = []
    limit = DECODE_PASS if row["metric"] == "decode_tps" else PREFILL_PASS
    if ape > limit:
        failures.append(f"predicted {pred:.1f} vs measured {measured:.1f} ({ape:.0%} off, limit {limit:.0%})")
    if bound is not None and bound < BOUND_SLACK * measured:
        failures.append(f"bound {bound:.1f} below {BOUND_SLACK} x measured {measured:.1f}")
    return CaseOutcome(case_id, not failures, failures, result=result)


def _platform(hw_id: str) -> str:
    from rules.catalog import hardware
    from rules.errors import AdvisorError

    try:
        return hardware(hw_id).platform
    except AdvisorError:
        return "unknown"


def summarize(cases: list[CaseOutcome]) -> dict[str, float]:
    """Headline metrics over the cases (and per platform: medians and row counts)."""
    def apes(metric: str, platform: str | None = None) -> list[float]:
        return [c.result["ape"] for c in cases if c.result and c.result.get("metric") == metric
                and c.result.get("ape") is not None and (platform is None or c.result.get("platform") == platform)]
    dec, pre = apes("decode_tps"), apes("prefill_tps")
    bound_bad = sum(1 for c in cases if c.result and c.result.get("bound") is not None
                    and c.result["bound"] < BOUND_SLACK * c.result["measured"])
    metrics = {"decode_median_ape": statistics.median(dec) if dec else float("nan"),
               "decode_p90_ape": percentile(dec, 0.9) if dec else float("nan"),
               "prefill_median_ape": statistics.median(pre) if pre else float("nan"),
               "prefill_p90_ape": percentile(pre, 0.9) if pre else float("nan"),
               "bound_violations": float(bound_bad), "rows": float(len(cases)),
               "no_estimate": float(sum(1 for c in cases if not c.result or c.result.get("ape") is None))}
    for plat in sorted({c.result.get("platform") for c in cases if c.result and c.result.get("platform")}):
        d, p = apes("decode_tps", plat), apes("prefill_tps", plat)
        metrics[f"{plat}.rows"] = float(len(d) + len(p))
        if d:
            metrics[f"{plat}.decode_p50"], metrics[f"{plat}.decode_p90"] = statistics.median(d), percentile(d, 0.9)
        if p:
            metrics[f"{plat}.prefill_p50"] = statistics.median(p)
    return metrics


def run(csv_path: str | Path | None = None, **_: object) -> SuiteReport:
    """Evaluate every row of the measurements CSV (default: evals/data/measurements.csv)."""
    path = Path(csv_path or os.environ.get("ADVISOR_MEASUREMENTS") or MEASUREMENTS)
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    cases = [evaluate_row(i, row) for i, row in enumerate(rows, 1)]
    return SuiteReport("estimator", cases, summarize(cases))


def targets_met(metrics: dict[str, float]) -> list[str]:
    """The issue's targets that the metrics miss (empty = all met)."""
    return [f"{k} = {metrics[k]:.3f} (target {'<=' if k != 'bound_violations' else '='} {v})"
            for k, v in TARGETS.items() if not metrics[k] <= v]


if __name__ == "__main__":
    report = run(sys.argv[1] if len(sys.argv) > 1 else None)
    for case in report.cases:
        if not case.passed:
            print("FAIL", case.id, "; ".join(case.failures))
    for key, value in report.metrics.items():
        print(f"{key:32} {value:.3f}")
    missed = targets_met(report.metrics)
    print(f"{report.passed} passed, {report.failed} failed; targets " + ("met" if not missed else "missed: " + "; ".join(missed)))
