"""Over capacity, the answer names the levers with numbers: what today's devices serve at once, how
many one replica serves in a smaller weight format (BF16 72B on 2x A100 keeps almost no KV cache; at
4-bit it holds tens of 4K conversations), and with prompts half as long. Modelled on Qwen2.5-72B on
2x A100 80GB at 30-50 users (Qwen3 issue 933) and an 8B on one L40S at 500 in flight."""
from __future__ import annotations

from planhelp import planned

QWEN72_A100 = {"id": "q", "hardware": "a100_80g_sxm", "count": 2, "model": "qwen2.5-72b", "quantization": "bf16",
               "interconnect": "nvlink", "concurrency": 50, "context_length": 4096}


def test_bf16_over_capacity_says_a_smaller_format_multiplies_capacity():
    _, plan, _ = planned(QWEN72_A100)
    cap = plan.capacity
    assert cap is not None
    assert cap.smaller_format is not None and cap.per_replica_smaller is not None
    assert cap.per_replica_smaller >= 5 * max(1, cap.per_replica)
    assert cap.serves_now == cap.per_replica * cap.replicas_have
    en, zh = " ".join(plan.why["en"]), " ".join(plan.why["zh"])
    assert "Levers" in en and str(cap.per_replica_smaller) in en and "fewer" in en
    assert "調整方式" in zh and str(cap.per_replica_smaller) in zh


def test_already_small_format_offers_no_smaller_one():
    _, plan, _ = planned({"id": "c", "hardware": "l40s", "count": 1, "model": "llama-3.1-8b", "quantization": "awq",
                          "concurrency": 500, "context_length": 8192})
    cap = plan.capacity
    assert cap is not None and cap.smaller_format is None
    assert "Levers" in " ".join(plan.why["en"])


def test_speed_bound_over_capacity_says_memory_holds_more():
    """DeepSeek-R1 FP8 on 4x 8xH100 at 2,000 users with a 32K window (sglang issue 6017): the replicas asked
    for come from the per-user speed target, and the answer says memory holds far more than it serves."""
    _, plan, _ = planned({"id": "r", "hardware": "h100_sxm", "count": 8, "nodes": 4, "interconnect": "infiniband",
                          "model": "deepseek-r1", "quantization": "fp8", "concurrency": 2000, "context_length": 32768,
                          "serving_mode": "production", "priority": "latency"})
    cap = plan.capacity
    assert cap is not None and cap.holds_now is not None and cap.holds_now > 10 * cap.serves_now
    assert "memory holds about" in " ".join(plan.why["en"]) and "記憶體可同時容納" in " ".join(plan.why["zh"])


def test_stated_short_requests_are_not_sized_at_a_reasoning_window():
    """The same load with the stated 2K in / 1K out: the memory holds the 2,000 (no 32K reasoning window)."""
    _, plan, est = planned({"id": "r", "hardware": "h100_sxm", "count": 8, "nodes": 4, "interconnect": "infiniband",
                            "model": "deepseek-r1", "quantization": "fp8", "concurrency": 2000, "input_tokens": 2000,
                            "output_tokens": 1000, "serving_mode": "production", "priority": "latency"})
    assert plan.context_length < 8192
    assert est.in_service >= 0.95 * 2000
