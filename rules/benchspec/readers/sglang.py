"""Read `python -m sglang.bench_serving --output-file` JSONL.

Schema source: SGLang docs (docs/developer_guide/bench_serving.md, "JSONL output format": one
object appended per run) and python/sglang/bench_serving.py (`benchmark()` result dict):
`backend`, `dataset_name`, `request_rate`, `max_concurrency`, `sharegpt_output_len`,
`random_input_len`, `random_output_len`, `random_range_ratio`, `duration`, `completed`,
`total_input_tokens`, `total_output_tokens`, `total_output_tokens_retokenized`,
`request_throughput`, `input_throughput`, `output_throughput`, `mean/median/std/p99_e2e_latency_ms`,
`mean/median/std/p99_ttft_ms`, `mean/median/std/p99_tpot_ms`, `mean/median/std/p95/p99_itl_ms`,
`concurrency` (measured: total request time / wall time) and `accept_length`. Newer releases add
more percentiles under the same `p<N>_<metric>_ms` pattern, which are read as well.
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.readers.base import RunResult, flat_stats, from_name, integer, number, require

REQUIRED = ("completed", "duration", "output_throughput", "request_throughput",
            "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms", "p99_tpot_ms")


def looks_like(data: dict[str, Any]) -> bool:
    """True for an SGLang bench_serving result line."""
    return "median_ttft_ms" in data and ("dataset_name" in data
                                         or "total_output_tokens_retokenized" in data)


def read(path: str, data: dict[str, Any]) -> list[RunResult]:
    """One result per JSONL line."""
    require(path, "sglang.bench_serving", data, REQUIRED)
    named = from_name(path)
    return [RunResult(
        file=path, harness="sglang", engine=named.get("engine"), run=named.get("run"),
        concurrency=integer(data.get("max_concurrency")) or named.get("concurrency"),
        completed=integer(data.get("completed")), duration_s=number(data.get("duration")),
        ttft_ms=flat_stats(data, "ttft"), tpot_ms=flat_stats(data, "tpot"),
        itl_ms=flat_stats(data, "itl"), e2e_ms=flat_stats(data, "e2e_latency"),
        output_tokens_per_s=number(data.get("output_throughput")),
        requests_per_s=number(data.get("request_throughput")),
    )]
