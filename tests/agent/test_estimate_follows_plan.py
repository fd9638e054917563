"""The numbers in an answer describe the layout the answer recommends (not a default TP layout)."""
from __future__ import annotations

import pytest

from agent.api import ask
from rules.roofline import estimate
from rules.roofline.layout import layout_from_plan
from rules.errors import InputError


@pytest.mark.parametrize("text", [
    "8x RTX 4090 without NVLink, Llama 3.3 70B, 50 concurrent users, internal team",
    "8x AMD MI300X, Llama 3.1 8B, external production API, 200 concurrent requests",
])
def test_estimate_uses_the_decided_parallelism(text):
    result = ask(text)
    plan, est = result["parallelism"], result["estimate"]
    assert plan and est
    assert {k: est["parallelism"][k] for k in ("strategy", "tp", "pp", "ep", "dp")} == \
        {k: plan[k] for k in ("strategy", "tp", "pp", "ep", "dp")}


def test_pipeline_micro_batches_raise_throughput_not_single_stream_speed():
    one = estimate("llama-3.1-70b", "rtx4090", count=8, quant="awq", parallelism="pp", concurrency=1)
    many = estimate("llama-3.1-70b", "rtx4090", count=8, quant="awq", parallelism="pp", concurrency=32)
    single = estimate("llama-3.1-70b", "rtx6000ada", count=1, quant="awq", concurrency=1)
    # a token still crosses every stage: PP single-stream speed is that of one card holding it all
    assert one.step.weights_ms == pytest.approx(single.step.weights_ms * 960 / 1008, rel=0.05)
    assert many.aggregate_tokens_per_s > 8 * one.aggregate_tokens_per_s


def test_a_plan_needing_more_devices_than_exist_is_refused():
    with pytest.raises(InputError, match="needs 8 devices; there are 4"):
        layout_from_plan({"strategy": "tp", "tp": 8}, count=4)
