"""Read AIPerf's `profile_export_aiperf.json`.

Schema source: AIPerf docs/reference/json-export-schema.md (schema 1.0-1.5) and
src/aiperf/common/models/export_models.py `JsonExportData`: one top-level block per metric tag
(`time_to_first_token`, `inter_token_latency`, `request_latency`, `output_token_throughput`,
`request_throughput`, `request_count`, `error_request_count`, `benchmark_duration`, ...), each
{`unit`, `avg`, `min`, `max`, `p1`...`p99`, `std`, and from 1.1 `count`, `sum`}; derived
metrics carry only `unit` + `avg`. Also `schema_version`, `aiperf_version`, `input_config` (the
resolved configuration, which holds the concurrency), `run_info`, `start_time`, `end_time`.
`unit` is authoritative: seconds are converted to ms. `inter_token_latency` is this spec's TPOT.
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.readers.base import RunResult, from_name, integer, missing, number

_PCTS = ("p50", "p90", "p95", "p99")
_TO_MS = {"ms": 1.0, "s": 1000.0, "sec": 1000.0, "us": 0.001, "ns": 1e-6}


def looks_like(data: dict[str, Any]) -> bool:
    """True for an AIPerf summary export."""
    return any(isinstance(v, dict) and "unit" in v for v in data.values()) and (
        "time_to_first_token" in data or "request_throughput" in data or "aiperf_version" in data)


def _latency(path: str, data: dict[str, Any], tag: str, required: bool = True) -> dict[str, float]:
    block = data.get(tag)
    if not isinstance(block, dict) or block.get("p50") is None or block.get("p99") is None:
        if required:
            raise missing(path, "aiperf", [f"{tag}.p50", f"{tag}.p99"])
        return {}
    scale = _TO_MS.get(str(block.get("unit", "ms")), 1.0)
    out = {p: v * scale for p in _PCTS if (v := number(block.get(p))) is not None}
    if (avg := number(block.get("avg"))) is not None:
        out["mean"] = avg * scale
    return out


def _avg(data: dict[str, Any], tag: str) -> float | None:
    block = data.get(tag)
    return number(block.get("avg")) if isinstance(block, dict) else None


def _seconds(data: dict[str, Any], tag: str) -> float | None:
    value, block = _avg(data, tag), data.get(tag)
    if value is None or not isinstance(block, dict):
        return None
    return value * _TO_MS.get(str(block.get("unit", "sec")), 1000.0) / 1000


def _at(obj: Any, *keys: str) -> Any:
    for key in keys:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def _concurrency(data: dict[str, Any], named: dict[str, Any]) -> int | None:
    """The measured phase's concurrency: older exports keep it under `loadgen`, newer ones under
    `phases.profiling`; sweep runs also record it in `run_info.variation_values`."""
    cfg = data.get("input_config")
    for value in (_at(cfg, "loadgen", "concurrency"), _at(cfg, "phases", "profiling", "concurrency")):
        if integer(value):
            return integer(value)
    swept = _at(data, "run_info", "variation_values") or {}
    hits = [integer(v) for k, v in swept.items() if str(k).endswith("concurrency") and integer(v)]
    return hits[0] if hits else named.get("concurrency")


def read(path: str, data: dict[str, Any]) -> list[RunResult]:
    """One result per export file."""
    throughput = _avg(data, "output_token_throughput")
    if throughput is None:
        raise missing(path, "aiperf", ["output_token_throughput.avg"])
    named = from_name(path)
    failed = _avg(data, "error_request_count")
    return [RunResult(
        file=path, harness="aiperf", engine=named.get("engine"), run=named.get("run"),
        concurrency=_concurrency(data, named),
        completed=integer(_avg(data, "request_count")),
        failed=int(failed) if failed is not None else None,
        duration_s=_seconds(data, "benchmark_duration"),
        ttft_ms=_latency(path, data, "time_to_first_token"),
        tpot_ms=_latency(path, data, "inter_token_latency"),
        itl_ms=_latency(path, data, "inter_chunk_latency", required=False),
        e2e_ms=_latency(path, data, "request_latency", required=False),
        output_tokens_per_s=throughput, requests_per_s=_avg(data, "request_throughput"),
    )]
