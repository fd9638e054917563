"""Read `vllm bench serve --save-result` JSON.

Schema source: vllm/benchmarks/serve.py (`benchmark()` result dict and `main_async` result_json,
main branch 2026): top-level `date`, `endpoint_type`, `backend`, `label`, `model_id`,
`tokenizer_id`, `num_prompts`, `request_rate`, `burstiness`, `max_concurrency`, any `--metadata`
KEY=VALUE pairs, then `duration`, `completed`, `failed`, `total_input_tokens`,
`total_output_tokens`, `request_throughput`, `output_throughput`, `total_token_throughput`,
`max_output_tokens_per_s`, `max_concurrent_requests` and, per metric in ttft/tpot/itl/e2el,
`mean_<m>_ms`, `median_<m>_ms`, `std_<m>_ms` and `p<N>_<m>_ms` for each `--metric-percentiles`.
`--append-result` writes one object per line.
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.readers.base import RunResult, flat_stats, from_name, integer, number, require

REQUIRED = ("completed", "duration", "output_throughput", "request_throughput",
            "median_ttft_ms", "median_tpot_ms", "p99_ttft_ms", "p99_tpot_ms")


def looks_like(data: dict[str, Any]) -> bool:
    """True for a vLLM serve result object."""
    return "median_ttft_ms" in data and ("model_id" in data or "endpoint_type" in data
                                         or "tokenizer_id" in data)


def read(path: str, data: dict[str, Any]) -> list[RunResult]:
    """One result per object."""
    require(path, "vllm bench serve", data, REQUIRED)
    named = from_name(path)
    return [RunResult(
        file=path, harness="vllm",
        engine=data.get("engine") or named.get("engine"),
        run=data.get("run") or named.get("run"),
        concurrency=integer(data.get("max_concurrency")) or integer(data.get("concurrency"))
        or named.get("concurrency"),
        completed=integer(data.get("completed")), failed=integer(data.get("failed")),
        duration_s=number(data.get("duration")),
        ttft_ms=flat_stats(data, "ttft"), tpot_ms=flat_stats(data, "tpot"),
        itl_ms=flat_stats(data, "itl"), e2e_ms=flat_stats(data, "e2el"),
        output_tokens_per_s=number(data.get("output_throughput")),
        requests_per_s=number(data.get("request_throughput")),
        kv_cache_hit_rate=number(data.get("kv_cache_hit_rate")),
    )]
