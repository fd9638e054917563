"""Read a GuideLLM JSON report (`--output kind=json`).

Schema source: GuideLLM source, release 0.7.3 (`GenerativeBenchmarksReport` in
src/guidellm/benchmark/schemas/report.py, dumped with `model_dump(mode="json")`): top-level
`metadata` (`version` 2, `guidellm_version`, ...), `config` (the scenario, with
`metadata.labels` from `--label`) and `benchmarks`, a list of `GenerativeBenchmark`
(schemas/benchmark.py) each with `config.strategy` (`type_`, `streams` for concurrent),
`metrics` (schemas/metrics.py `GenerativeMetrics`: `request_totals` {successful, errored,
incomplete, total}; `requests_per_second`, `request_concurrency`, `request_latency` (s),
`time_to_first_token_ms`, `inter_token_latency_ms`, `time_per_output_token_ms`,
`output_tokens_per_second`, ... as StatusDistributionSummary {successful, errored, incomplete,
total} of DistributionSummary {mean, median, ..., percentiles {p50, p90, p95, p99, ...}}) and
`duration`. Throughput is read like GuideLLM's console: the `total` mean; latencies from
`successful`. `inter_token_latency_ms` is this spec's TPOT (first token excluded).
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.readers.base import RunResult, from_name, integer, missing, number

_PCTS = ("p50", "p90", "p95", "p99")


def looks_like(data: dict[str, Any]) -> bool:
    """True for a GuideLLM report."""
    return isinstance(data.get("benchmarks"), list) and "metadata" in data


def _dist(path: str, metrics: dict[str, Any], key: str, status: str = "successful") -> dict[str, float]:
    block = (metrics.get(key) or {}).get(status)
    if not isinstance(block, dict) or not isinstance(block.get("percentiles"), dict):
        raise missing(path, "guidellm", [f"metrics.{key}.{status}.percentiles"])
    out = {p: v for p in _PCTS if (v := number(block["percentiles"].get(p))) is not None}
    if (mean := number(block.get("mean"))) is not None:
        out["mean"] = mean
    return out


def _mean(path: str, metrics: dict[str, Any], key: str) -> float:
    value = number(((metrics.get(key) or {}).get("total") or {}).get("mean"))
    if value is None:
        raise missing(path, "guidellm", [f"metrics.{key}.total.mean"])
    return value


def _one(path: str, bench: dict[str, Any], labels: dict[str, Any], named: dict[str, Any]) -> RunResult:
    metrics = bench.get("metrics")
    if not isinstance(metrics, dict):
        raise missing(path, "guidellm", ["benchmarks[].metrics"])
    strategy = (bench.get("config") or {}).get("strategy") or {}
    totals = metrics.get("request_totals") or {}
    e2e = {k: v * 1000 for k, v in _dist(path, metrics, "request_latency").items()}
    return RunResult(
        file=path, harness="guidellm", engine=labels.get("engine") or named.get("engine"),
        run=labels.get("run") or named.get("run"),
        concurrency=integer(strategy.get("streams")) or named.get("concurrency"),
        completed=integer(totals.get("successful")),
        failed=integer(totals.get("errored")), duration_s=number(bench.get("duration")),
        ttft_ms=_dist(path, metrics, "time_to_first_token_ms"),
        tpot_ms=_dist(path, metrics, "inter_token_latency_ms"), e2e_ms=e2e,
        output_tokens_per_s=_mean(path, metrics, "output_tokens_per_second"),
        requests_per_s=_mean(path, metrics, "requests_per_second"),
    )


def read(path: str, data: dict[str, Any]) -> list[RunResult]:
    """One result per benchmark in the report (one per concurrency level)."""
    if not data["benchmarks"]:
        raise missing(path, "guidellm", ["benchmarks (the list is empty)"])
    labels = ((data.get("config") or {}).get("metadata") or {}).get("labels") or {}
    named = from_name(path)
    return [_one(path, b, labels, named) for b in data["benchmarks"]]
