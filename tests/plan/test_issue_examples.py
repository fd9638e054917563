"""The examples of issue 13, as a new user would ask them: the answer's layout must not be one the
advisor's own estimator rates far worse than another layout of the same devices."""
from __future__ import annotations

import pytest

from agent.api import ask
from rules.roofline import estimate


def _latency(e: dict) -> float:
    return e["ttft_s"] + e["output_tokens"] * e["tpot_ms"] / 1000


def _alternative(result: dict, layout: dict) -> dict | None:
    """The estimator's figures for another layout of the same setup and load (None if it does not fit)."""
    e, p = result["estimate"], result["profile"]
    alt = estimate(e["model"], e["hardware"], count=p["count"], nodes=p["nodes"], quant=e["quantization"],
                   engine=e["engine"], parallelism=layout, input_tokens=e["input_tokens"],
                   output_tokens=e["output_tokens"], context_length=e["context_length"], concurrency=e["concurrency"],
                   kv_cache_dtype=e["kv_cache_dtype"])
    return alt.model_dump() if alt.fits and alt.max_concurrency >= e["concurrency"] else None


@pytest.mark.parametrize("text, layouts", [
    ("2x H100 PCIe, Llama 3.1 70B FP8, 30 concurrent users, 8K context",
     [{"strategy": "tp", "tp": 2}, {"strategy": "pp", "pp": 2}, {"strategy": "dp", "dp": 2}]),
    ("8x H100 SXM, Llama 3.1 70B, 500 users",
     [{"strategy": "tp", "tp": 8}, {"strategy": "dp", "dp": 8}, {"strategy": "tp+dp", "tp": 2, "dp": 4}]),
    ("8x H100 SXM, Llama 3.1 70B, 200 concurrent users",
     [{"strategy": "tp", "tp": 8}, {"strategy": "dp", "dp": 8}, {"strategy": "tp+dp", "tp": 2, "dp": 4}]),
])
def test_answer_layout_is_not_beaten_by_a_simple_alternative(text, layouts):
    result = ask(text)
    est = result["estimate"]
    assert est["fits"] and est["max_concurrency"] >= est["concurrency"], est["binding_constraint"]
    for layout in layouts:
        alt = _alternative(result, layout)
        if alt is not None:
            assert _latency(est) <= 1.2 * _latency(alt), (layout, _latency(est), _latency(alt))


def test_sixteen_h100_in_two_nodes_fit_a_70b_in_bf16():
    result = ask("16x H100 SXM in two nodes with InfiniBand, Llama 3.1 70B BF16, 100 concurrent users")
    assert result["profile"]["nodes"] == 2
    assert result["estimate"]["fits"] and result["plan"]["feasible"]


def test_pcie_pair_never_answers_with_replicas_that_cannot_hold_the_load():
    """The issue's first example: DP=2 left ~1 GB for the KV cache and 6 sequences for 30 users."""
    result = ask("2x H100 PCIe, Llama 3.1 70B FP8, 30 concurrent users, 8K context")
    assert result["parallelism"]["strategy"] != "dp"
    assert result["estimate"]["max_concurrency"] >= 30
    assert result["parallelism"]["tp"] * result["parallelism"]["pp"] == 2
