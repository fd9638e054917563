"""The estimator suite: the roofline against published measurements, single-stream and under load.

Data (evals/data/, every row with its source):
- measurements.csv        single-stream decode_tps / prefill_tps (copy of shared/reference)
- measurements_depth.csv  single-stream rows at a cache depth (llama-bench `pp2048 @ d4096`, `tg32 @ d8192`)
- measurements_llamabench.csv  llama-bench pp512..pp8192 / tg512..tg8192 on NVIDIA workstation and datacenter GPUs
                          (`flash_attn` 0: run without flash attention, llama-bench's default then)
- measurements_load.csv   at load: output_tps (aggregate), ttft_s (client-seen mean, queueing included),
                          tpot_ms (mean inter-token latency), decode_agg_tps (llama-batched-bench S_TG);
                          `mode` closed (N users), offline (all requests queued; N = request count),
                          batch (N requests started together)

Every source is split into FIT and HELD-OUT rows by a hash of the row (about one in three held out);
calibration constants are chosen looking at the fit split only, and the held-out figures are the ones
to quote. Cases pass within DECODE/PREFILL/LOAD limits; the headline metrics are medians and p90s
of the absolute percentage error per split. Run: `python -m evals.suites.estimator [--split fit]`
or `advisor eval --suite estimator`.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import os
import statistics
from pathlib import Path

from evals.suite import CaseOutcome, SuiteReport

DATA = Path(__file__).resolve().parent.parent / "data"
MEASUREMENTS = DATA / "measurements.csv"
DEPTH = DATA / "measurements_depth.csv"
BENCH = DATA / "measurements_llamabench.csv"
LOAD = DATA / "measurements_load.csv"
DATA_FILES = (MEASUREMENTS, DEPTH, BENCH, LOAD)
DECODE_PASS, PREFILL_PASS, BOUND_SLACK = 0.40, 0.50, 0.95
LOAD_PASS = {"output_tps": 0.50, "total_tps": 0.50, "decode_agg_tps": 0.50, "tpot_ms": 0.50, "ttft_s": 1.00}
HELD_OUT_MODULUS = 3  # a row is held out when its hash is 0 modulo this
# The targets, on the held-out split.
TARGETS = {"held-out.single.decode_p90_ape": 0.15, "held-out.single.prefill_median_ape": 0.10,
           "held-out.load.output_tps_median_ape": 0.20, "held-out.load.tpot_ms_median_ape": 0.20,
           "held-out.load.ttft_s_median_ape": 0.20, "bound_violations": 0}
LOAD_METRICS = ("output_tps", "tpot_ms", "ttft_s", "decode_agg_tps", "total_tps")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))]


def split_of(row: dict) -> str:
    """'fit' or 'held-out': a stable hash of the row's setup and metric (so each source splits too)."""
    key = "|".join(str(row.get(k, "")) for k in ("source", "model", "quant", "hardware", "count", "engine", "input",
                                                  "output", "concurrency", "depth", "metric", "value"))
    return "held-out" if int(hashlib.sha1(key.encode()).hexdigest(), 16) % HELD_OUT_MODULUS == 0 else "fit"


def source_name(url: str) -> str:
    """A short label for a source URL (for per-source medians)."""
    u = url.lower()
    for needle, label in (("perf-overview", "trtllm-perf-overview"), ("nim/benchmarking", "nvidia-nim"),
                          ("oracle", "oci-mi300x-vllm"), ("dgx-spark", "llama.cpp-dgx-spark"),
                          ("pull/26284", "llama.cpp-rocm-pr"), ("discussions/4167", "llama.cpp-apple"),
                          ("discussions/15013", "llama.cpp-cuda"), ("discussions/10879", "llama.cpp-vulkan"),
                          ("GPU-Benchmarks-on-LLM-Inference", "xiongjiedai-llama-bench"),
                          ("dstackai/benchmarks", "dstack-deepseek-r1"), ("inferencex", "inferencex-deepseek-r1")):
        if needle in u:
            return label
    return "other"


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


def _common(row: dict) -> dict:
    count = int(row.get("count") or 1)
    return dict(model=row["model"], hardware=row["hardware"], count=count, quant=_quant(row["quant"]),
                engine=row.get("engine") or None, parallelism=_parallelism(row.get("parallelism"), count),
                kv_cache_dtype=(row.get("kv_dtype") or None))


def _serving(row: dict) -> dict:
    """Engine configuration and benchmark run an at-load row's source states: attention data-parallel, chunked
    prefill off, how many requests the client sent and whether their lengths were all equal (range ratio 1)."""
    cp = (row.get("chunked_prefill") or "").strip()
    reqs, ratio = (row.get("requests") or "").strip(), (row.get("range_ratio") or "").strip()
    return dict(attention_dp=(row.get("attention_dp") or "").strip() == "1",
                chunked_prefill=None if not cp else cp == "1",
                requests=int(reqs) if reqs else None, equal_lengths=bool(ratio) and float(ratio) == 1.0,
                engine_build=(row.get("engine_build") or "").strip() or None)


def _single_prediction(row: dict) -> tuple[float | None, float | None]:
    """(expected, pure bound) for a single-stream row; rows at a cache depth run the formulas at that depth."""
    from rules import catalog
    from rules.roofline import estimate
    from rules.roofline.prefill import prefill_seconds
    from rules.roofline.runtime import runtime

    depth = int(row.get("depth") or 0)
    inp, out = int(row.get("input") or 0), int(row.get("output") or 0)
    if row["metric"] == "decode_tps":
        est = estimate(**_common(row), input_tokens=depth, output_tokens=max(1, out), concurrency=1)
        return est.decode_tokens_per_s, est.decode_tokens_per_s_bound
    flash = row.get("flash_attn", "") != "0"  # blank = the engine's default (llama.cpp: on)
    if depth or not flash:
        est = estimate(**_common(row), input_tokens=inp, output_tokens=1, concurrency=1)
        hw = catalog.hardware(row["hardware"])
        family = runtime(row.get("engine") or None, hw.hw_class)[0].family
        t = prefill_seconds(catalog.model(row["model"]), hw, est.quantization, inp,
                            est.parallelism["tp"] * est.parallelism["ep"], est.engine, family, depth, flash).value
        return inp / t, None
    est = estimate(**_common(row), input_tokens=inp, output_tokens=out, concurrency=1)
    return est.prefill_tokens_per_s, None


def _load_prediction(row: dict) -> float | None:
    """The estimator's figure for an at-load row."""
    from rules.roofline import estimate

    static = row["mode"] == "batch"
    est = estimate(**_common(row), **_serving(row), input_tokens=int(row["input"]), output_tokens=int(row["output"]),
                   concurrency=int(row["concurrency"]), load="static" if static else "closed")
    metric = row["metric"]
    if metric == "output_tps":
        return est.aggregate_tokens_per_s
    if metric == "total_tps":  # prompt + output tokens per second (every request the same lengths)
        return est.aggregate_tokens_per_s * (int(row["input"]) + int(row["output"])) / max(1, int(row["output"]))
    if metric == "ttft_s":
        return est.ttft_s
    if metric == "tpot_ms":
        return est.tpot_ms
    if metric == "decode_agg_tps":
        return est.in_service * 1000 / est.tpot_ms if est.tpot_ms else None
    raise ValueError(metric)


def _case_id(i: int, row: dict, kind: str) -> str:
    extra = f"-c{row['concurrency']}-{row['input']}-{row['output']}" if kind == "load" else (
        f"-d{row['depth']}" if row.get("depth") not in (None, "", "0") else "")
    return f"{kind}-{i:03d}-{row['model']}-{row['quant']}-{row['hardware']}x{row.get('count') or 1}{extra}-{row['metric']}"


def evaluate_row(i: int, row: dict, kind: str = "single") -> CaseOutcome:
    """One measurement -> one case with its absolute percentage error."""
    from rules.errors import AdvisorError

    case_id = _case_id(i, row, kind)
    measured = float(row["value"])
    base = {"kind": kind, "metric": row["metric"], "measured": measured, "split": split_of(row),
            "source": source_name(row.get("source", "")), "platform": _platform(row["hardware"]),
            "engine": row.get("engine") or None, "arch": _arch(row["model"]), "ape": None, "signed": None}
    try:
        if kind == "load":
            pred, bound = _load_prediction(row), None
        elif row["metric"] in ("decode_tps", "prefill_tps"):
            pred, bound = _single_prediction(row)
        else:
            return CaseOutcome(case_id, False, [f"unknown metric {row['metric']}"], result=base)
    except AdvisorError as exc:
        return CaseOutcome(case_id, False, [f"no estimate: {exc}"], result=base)
    result = {**base, "predicted": pred, "bound": bound}
    if pred is None:
        return CaseOutcome(case_id, False, ["estimator gave no figure"], result=result)
    ape = abs(pred - measured) / measured
    result["ape"], result["signed"] = round(ape, 4), round((pred - measured) / measured, 4)
    limit = (LOAD_PASS[row["metric"]] if kind == "load"
             else DECODE_PASS if row["metric"] == "decode_tps" else PREFILL_PASS)
    failures = []
    if ape > limit:
        failures.append(f"predicted {pred:.4g} vs measured {measured:.4g} ({ape:.0%} off, limit {limit:.0%})")
    if bound is not None and bound < BOUND_SLACK * measured:
        failures.append(f"bound {bound:.1f} below {BOUND_SLACK} x measured {measured:.1f}")
    return CaseOutcome(case_id, not failures, failures, result=result)


def _arch(model_id: str) -> str:
    """'moe' or 'dense' (the at-load error band is reported per architecture)."""
    from rules.catalog import model
    from rules.errors import AdvisorError

    try:
        return model(model_id).architecture
    except AdvisorError:
        return "unknown"


def _platform(hw_id: str) -> str:
    from rules.catalog import hardware
    from rules.errors import AdvisorError

    try:
        return hardware(hw_id).platform
    except AdvisorError:
        return "unknown"


def _apes(cases: list[CaseOutcome], **where: object) -> list[float]:
    return [c.result["ape"] for c in cases if c.result and c.result.get("ape") is not None
            and all(v is None or c.result.get(k) == v for k, v in where.items())]


def summarize(cases: list[CaseOutcome]) -> dict[str, float]:
    """Headline metrics: per split (all / fit / held-out), single-stream and at-load errors; per platform
    (single-stream, all rows: the error band the estimate reports) and per at-load source."""
    metrics: dict[str, float] = {"rows": float(len(cases)),
                                 "no_estimate": float(sum(1 for c in cases if not c.result or c.result.get("ape") is None)),
                                 "bound_violations": float(sum(1 for c in cases if c.result and c.result.get("bound") is not None
                                                               and c.result["bound"] < BOUND_SLACK * c.result["measured"]))}
    for split in ("all", "fit", "held-out"):
        sp = None if split == "all" else split
        prefix = "" if split == "all" else f"{split}."
        dec = _apes(cases, kind="single", metric="decode_tps", split=sp)
        pre = _apes(cases, kind="single", metric="prefill_tps", split=sp)
        metrics[f"{prefix}single.rows"] = float(len(dec) + len(pre))
        for name, vals in (("decode", dec), ("prefill", pre)):
            if vals:
                metrics[f"{prefix}single.{name}_median_ape"] = statistics.median(vals)
                metrics[f"{prefix}single.{name}_p90_ape"] = percentile(vals, 0.9)
        metrics[f"{prefix}load.rows"] = float(len(_apes(cases, kind="load", split=sp)))
        for m in LOAD_METRICS:
            vals = _apes(cases, kind="load", metric=m, split=sp)
            if vals:
                metrics[f"{prefix}load.{m}_median_ape"] = statistics.median(vals)
                metrics[f"{prefix}load.{m}_p90_ape"] = percentile(vals, 0.9)
            for arch in ("dense", "moe"):
                by_arch = _apes(cases, kind="load", metric=m, split=sp, arch=arch)
                if by_arch:
                    metrics[f"{prefix}load.{arch}.{m}_median_ape"] = statistics.median(by_arch)
                    metrics[f"{prefix}load.{arch}.{m}_rows"] = float(len(by_arch))
    for plat in sorted({c.result.get("platform") for c in cases if c.result and c.result.get("kind") == "single"}):
        d, p = _apes(cases, kind="single", metric="decode_tps", platform=plat), _apes(cases, kind="single",
                                                                                      metric="prefill_tps", platform=plat)
        metrics[f"{plat}.rows"] = float(len(d) + len(p))
        if d:
            metrics[f"{plat}.decode_p50"], metrics[f"{plat}.decode_p90"] = statistics.median(d), percentile(d, 0.9)
        if p:
            metrics[f"{plat}.prefill_p50"] = statistics.median(p)
    for src in sorted({c.result.get("source") for c in cases if c.result and c.result.get("kind") == "load"}):
        for m in LOAD_METRICS:
            vals = _apes(cases, kind="load", metric=m, source=src)
            if vals:
                metrics[f"source.{src}.{m}_median_ape"] = statistics.median(vals)
            held = _apes(cases, kind="load", metric=m, source=src, split="held-out")
            if held:
                metrics[f"held-out.source.{src}.{m}_median_ape"] = statistics.median(held)
                metrics[f"held-out.source.{src}.{m}_rows"] = float(len(held))
    return metrics


def read_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def run(csv_path: str | Path | None = None, split: str = "all", **_: object) -> SuiteReport:
    """Evaluate every row (default: the three files in evals/data; `csv_path` or ADVISOR_MEASUREMENTS
    replaces the single-stream file). `split` keeps only 'fit' or 'held-out' rows (calibration work
    looks at 'fit' only)."""
    single = Path(csv_path or os.environ.get("ADVISOR_MEASUREMENTS") or MEASUREMENTS)
    jobs = [(row, "single") for row in read_rows(single)]
    if csv_path is None:
        jobs += [(row, "single") for row in read_rows(DEPTH) + read_rows(BENCH)] + [(row, "load") for row in read_rows(LOAD)]
    if split != "all":
        jobs = [(row, kind) for row, kind in jobs if split_of(row) == split]
    cases = [evaluate_row(i, row, kind) for i, (row, kind) in enumerate(jobs, 1)]
    return SuiteReport("estimator", cases, summarize(cases), summary=summary_lines(summarize(cases)))


def summary_lines(m: dict[str, float]) -> list[str]:
    """The headline figures, one line per split (held-out first: those are the ones to quote)."""
    out = []
    for split in ("held-out", "fit", "all"):
        p = "" if split == "all" else f"{split}."
        if not m.get(f"{p}single.rows") and not m.get(f"{p}load.rows"):
            continue

        def f(key: str) -> str:
            v = m.get(p + key)
            return "n/a" if v is None else f"{100 * v:.1f} %"
        out.append(f"{split:8} single-stream ({m.get(p + 'single.rows', 0):.0f} rows): decode median {f('single.decode_median_ape')}"
                   f", p90 {f('single.decode_p90_ape')}; prefill median {f('single.prefill_median_ape')}")
        out.append(f"{split:8} at load ({m.get(p + 'load.rows', 0):.0f} rows): throughput median {f('load.output_tps_median_ape')}"
                   f", TPOT median {f('load.tpot_ms_median_ape')}, TTFT median {f('load.ttft_s_median_ape')}, "
                   f"batched decode median {f('load.decode_agg_tps_median_ape')}, "
                   f"total (prompt + output) throughput median {f('load.total_tps_median_ape')}")
        for arch in ("dense", "moe"):
            n = {k: m.get(f"{p}load.{arch}.{k}_rows", 0) for k in ("output_tps", "tpot_ms", "ttft_s")}
            if any(n.values()):
                out.append(f"{split:8}   {arch} models: throughput {f(f'load.{arch}.output_tps_median_ape')} "
                           f"({n['output_tps']:.0f}), TPOT {f(f'load.{arch}.tpot_ms_median_ape')} ({n['tpot_ms']:.0f}), "
                           f"TTFT {f(f'load.{arch}.ttft_s_median_ape')} ({n['ttft_s']:.0f})")
    return out


def targets_met(metrics: dict[str, float]) -> list[str]:
    """The issue's targets that the metrics miss (empty = all met)."""
    return [f"{k} = {metrics.get(k, float('nan')):.3f} (target {'<=' if k != 'bound_violations' else '='} {v})"
            for k, v in TARGETS.items() if not metrics.get(k, float("inf")) <= v]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="?", help="a single-stream CSV to use instead of evals/data")
    ap.add_argument("--split", choices=("all", "fit", "held-out"), default="all")
    ap.add_argument("--failures", action="store_true", help="list the failing cases")
    args = ap.parse_args(argv)
    report = run(args.csv, split=args.split)
    if args.failures:
        for case in report.cases:
            if not case.passed:
                print("FAIL", case.id, "; ".join(case.failures))
    for line in report.summary:
        print(line)
    for key, value in report.metrics.items():
        print(f"{key:48} {value:.3f}")
    missed = targets_met(report.metrics)
    print(f"{report.passed} passed, {report.failed} failed; targets " + ("met" if not missed else "missed: " + "; ".join(missed)))


if __name__ == "__main__":
    main()
