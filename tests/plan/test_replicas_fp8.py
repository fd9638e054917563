"""Two layout choices an inference engineer rejects, from real questions (restated):

- A model that fits one card, served to many users on NVLink-joined cards, gets one replica per card
  behind a load balancer, not TP over all of them (vllm-project/vllm#293: "for small models just use
  one GPU and start several replicas; TP is for models that do not fit"; Tlntin/Qwen-TensorRT-LLM#72:
  Qwen-14B on 4 A800s under 50-100 concurrent requests). TP stays for what does not fit one card.
- A large model on FP8-capable cards (Hopper), format left open, whose 16-bit weights leave the KV
  cache little room, is planned in FP8 (deepseek-ai/DeepSeek-V2#35: 8x H800 PCIe stuck at 1,500
  tok/s in BF16; the paper's figure is FP8 weights), with the 16-bit plan still compared. Cards without
  FP8 compute (Ampere A800) and a stated format keep the 16-bit weights.
Held-out cases are in test_replicas_fp8_heldout.py.
"""
from __future__ import annotations

import pytest

from planhelp import planned


def _layout(plan):
    lay = plan.chosen.layout
    return lay.tp, lay.pp, lay.ep, lay.dp


@pytest.mark.parametrize("entry", [
    # Qwen-14B, 4x A800 SXM (NVLink), online chat at 50-100 concurrent (Qwen-TensorRT-LLM#72)
    dict(hardware="a800_sxm", count=4, model="qwen2.5-14b", concurrency=100, input_tokens=1024, output_tokens=300),
    # a 7-8B model on a 4-GPU NVLink box serving a team (vllm#293: replicas, not TP)
    dict(hardware="a100_sxm_80gb", count=4, model="llama-3.1-8b", concurrency=64),
])
def test_model_that_fits_one_card_gets_replicas_on_nvlink(entry):
    _, plan, _ = planned(entry)
    assert plan.feasible
    tp, pp, ep, dp = _layout(plan)
    assert (tp, pp, ep, dp) == (1, 1, 1, entry["count"]), plan.chosen.layout
    assert plan.runner_up is not None and plan.runner_up.layout.replica_devices > 1   # the split is still compared
    for lang in ("en", "zh"):
        assert any("NVLink" in line or "replica" in line or "副本" in line for line in plan.why[lang]), plan.why[lang]


def test_model_too_big_for_one_card_keeps_tp_on_nvlink():
    _, plan, _ = planned(dict(hardware="h100_sxm", count=4, model="llama-3.1-70b", quantization="bf16", concurrency=32))
    assert plan.chosen.layout.tp * plan.chosen.layout.pp > 1


def test_stated_latency_priority_may_split():
    # a stated latency priority is the user's call: replicas are not forced on them
    _, forced, _ = planned(dict(hardware="a800_sxm", count=4, model="qwen2.5-14b", concurrency=8, priority="latency"))
    assert forced.chosen.layout.tp > 1


def test_deepseek_v2_on_h800_pcie_batch_runs_fp8_not_pure_pp():
    # DeepSeek-V2#35: 8x H800 PCIe, offline synthesis 1K in / 1K out, format not said
    _, plan, _ = planned(dict(hardware="h800_pcie", count=8, model="deepseek-v2", workload="batch",
                              input_tokens=1024, output_tokens=1024))
    assert plan.feasible
    assert plan.chosen.quantization == "fp8", plan.chosen
    lay = plan.chosen.layout
    assert not (lay.pp > 1 and lay.tp == 1 and lay.ep == 1), lay   # not a bare pipeline
    assert plan.runner_up is not None
    for lang in ("en", "zh"):   # says why FP8, and what the assumed 16-bit weights would give
        line = next((x for x in plan.why[lang] if "FP8" in x and "bf16" in x), None)
        assert line is not None, plan.why[lang]
        assert "%" in line, line
    assert not plan.changes["en"], plan.changes   # not presented as a change made to make the plan work


def test_ampere_keeps_sixteen_bit_when_it_serves():
    # the same job on 8x A800 SXM: no FP8 compute, so no FP8 default
    _, plan, _ = planned(dict(hardware="a800_sxm", count=8, model="deepseek-v2", workload="batch",
                              input_tokens=1024, output_tokens=1024))
    assert plan.chosen.quantization == "bf16", plan.chosen


def test_stated_format_is_kept():
    _, plan, _ = planned(dict(hardware="h800_pcie", count=8, model="deepseek-v2", quantization="bf16",
                              workload="batch", input_tokens=1024, output_tokens=1024))
    assert plan.chosen.quantization == "bf16"


def test_small_model_with_room_keeps_bf16_on_hopper():
    _, plan, _ = planned(dict(hardware="h100_sxm", count=1, model="llama-3.1-8b", concurrency=10))
    assert plan.chosen.quantization == "bf16"
