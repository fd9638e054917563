"""Held out while fixing (report the figure): the same two classes on other hardware and models."""
from __future__ import annotations

import pytest
from planhelp import planned


def test_heldout_small_dense_model_on_8_h100_gets_eight_replicas():
    # a 7B chat model on an 8x H100 SXM node for ~200 concurrent users
    _, plan, _ = planned(dict(hardware="h100_sxm", count=8, model="qwen2.5-7b", concurrency=200))
    lay = plan.chosen.layout
    assert (lay.tp, lay.pp, lay.ep, lay.dp) == (1, 1, 1, 8), lay


def test_heldout_big_moe_on_4_h100_batch_runs_fp8():
    # Mixtral 8x22B offline batch on 4x H100 SXM, format not said: BF16 leaves almost no KV room
    _, plan, _ = planned(dict(hardware="h100_sxm", count=4, model="mixtral-8x22b", workload="batch",
                              input_tokens=1024, output_tokens=512))
    assert plan.feasible and plan.chosen.quantization == "fp8", plan.chosen


@pytest.mark.xfail(reason="held-out miss on first run (plan7): at the assumed 8K window a BF16 copy per L40S holds ~8 "
                   "requests, so TP=2 is kept; FP8 replicas on Ada are what an expert would try. Not tuned to after it was seen.",
                   strict=True)
def test_heldout_14b_on_l40s_pair_no_tp():
    # Qwen2.5-14B on 2x L40S (PCIe) serving 40 users: one copy per card
    _, plan, _ = planned(dict(hardware="l40s", count=2, model="qwen2.5-14b", concurrency=40))
    assert plan.chosen.layout.tp == 1 and plan.chosen.layout.dp == 2, plan.chosen.layout
