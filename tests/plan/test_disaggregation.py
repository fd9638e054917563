"""Prefill/decode disaggregation at scale: pools sized by matching rates, named engines that run it."""
from __future__ import annotations

from rules.decide import decide
from rules.plan import plan_for_profile
from rules.plan.disagg import _queue_limit, runners
from rules.profile import build_profile
from rules import catalog

AGENTS = dict(hardware="h100_sxm", count=8, nodes=2, interconnect="infiniband", model="llama-3.1-70b",
              quantization="fp8", workload="agent", input_tokens=16000, output_tokens=800, context_length=32768,
              concurrency=200, priority="latency")


def _plan(**fields):
    p = build_profile(fields)
    return plan_for_profile(p, decide(p))[0]


def test_split_is_recommended_when_the_aggregated_plan_misses_the_targets():
    plan = _plan(**AGENTS)
    d = plan.disaggregation
    assert d is not None and not d.aggregated_meets_targets and d.recommended
    assert d.prefill_workers >= 1 and d.decode_workers >= 1
    assert d.devices <= 16
    assert d.ttft_s * 1000 <= d.ttft_target_ms and d.tpot_ms <= d.tpot_target_ms
    assert "dynamo" in d.run_with and "sglang" in d.run_with
    assert any("NVIDIA Dynamo" in line for line in plan.why["en"])
    assert any("Dynamo" in line for line in plan.why["zh"])


def test_no_split_advised_when_the_aggregated_plan_meets_the_targets():
    plan = _plan(hardware="h100_sxm", count=8, model="llama-3.1-8b", quantization="bf16", workload="chat",
                 input_tokens=1000, output_tokens=300, context_length=4096, concurrency=32)
    assert plan.disaggregation is None or not plan.disaggregation.recommended
    assert not any("prefill workers" in line for line in plan.why["en"])


def test_small_setups_are_not_split():
    plan = _plan(hardware="h100_sxm", count=4, model="llama-3.1-70b", quantization="fp8", concurrency=64,
                 context_length=8192, workload="agent")
    assert plan.disaggregation is None


def test_runners_follow_the_catalog_platforms():
    assert "dynamo" not in runners("amd-rocm", catalog.hardware("mi300x"))
    assert "sglang" in runners("amd-rocm", catalog.hardware("mi300x"))


def test_prefill_queue_limit_keeps_ttft_within_target():
    t, target = 0.4, 1.0
    rho = _queue_limit(t, target)
    assert 0 < rho < 1
    assert t * (1 + rho / (2 * (1 - rho))) <= target + 1e-9
    assert _queue_limit(1.2, 1.0) == 0.0
