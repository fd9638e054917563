"""The planner rules behind review 2's classes 2, 3 and 6: MoE layouts with DP attention, no pipeline
stages inside an unfilled NVLink domain, replicas over PCIe, capacity instead of a queueing TTFT,
the stated RAM of a CPU server shared by its sockets, and a stated shared prefix."""
from __future__ import annotations

from planhelp import planned, profile_of

from rules.catalog import model
from rules.plan import Layout, request_from_profile
from rules.plan import capacity, legality
from rules.plan.flags import flag_values
from rules.plan.search import _topology

R1_H200 = {"id": "r1", "hardware": "h200_sxm", "count": 8, "model": "deepseek-r1", "quantization": "fp8",
           "concurrency": 64, "context_length": 32768, "input_tokens": 2000, "output_tokens": 8000}


def test_mla_moe_on_one_nvlink_node_gets_a_full_group_with_dp_attention_not_pipeline_stages():
    _, plan, est = planned(R1_H200)
    lay = plan.chosen.layout
    assert lay.tp * lay.ep == 8 and lay.pp == 1 and lay.attention_dp
    assert plan.feasible and est.ttft_s is not None and est.ttft_s < 5
    vllm, sglang = flag_values(plan.flags["vllm"]), flag_values(plan.flags["sglang"])
    assert vllm["--data-parallel-size"] == "8" and "--tensor-parallel-size" not in vllm
    assert sglang["--tp-size"] == "8" and "--enable-dp-attention" in sglang and sglang["--dp-size"] == "8"


def test_dp_attention_layout_keeps_four_keys_unless_set():
    assert Layout(tp=8).model_dump() == {"tp": 8, "pp": 1, "ep": 1, "dp": 1}
    assert Layout(tp=8, attention_dp=True).model_dump()["attention_dp"] is True
    assert "DP attention" in Layout(ep=8, attention_dp=True).describe()


def test_r1_fp8_fits_two_h100_nodes_without_deep_pipelines():
    entry = {**R1_H200, "hardware": "h100_sxm", "nodes": 2, "interconnect": "infiniband", "concurrency": 32}
    _, plan, _ = planned(entry)
    assert plan.feasible and plan.chosen.figures.fits
    assert plan.chosen.layout.pp <= 2


def test_pipeline_stages_only_once_the_group_fills_the_nvlink_domain():
    req, _, _ = planned({"id": "x", "hardware": "h100_sxm", "count": 8, "model": "llama-3.1-70b",
                         "quantization": "bf16", "concurrency": 16, "context_length": 8192})
    spec, topo = req.spec(), _topology(req)
    assert legality.stage_reason(Layout(tp=4, pp=2), topo, spec) is not None
    assert legality.stage_reason(Layout(tp=8), topo, spec) is None
    pcie, _, _ = planned({"id": "y", "hardware": "l40s", "count": 8, "model": "llama-3.1-70b",
                          "quantization": "fp8", "concurrency": 16, "context_length": 8192})
    assert legality.stage_reason(Layout(tp=4, pp=2), _topology(pcie), pcie.spec()) is None


def test_a_model_one_pcie_card_holds_runs_as_replicas_and_names_the_split_as_runner_up():
    entry = {"id": "z", "hardware": "l40s", "count": 2, "interconnect": "pcie", "model": "llama-3.1-8b",
             "quantization": "bf16", "concurrency": 30, "context_length": 8192}
    _, plan, _ = planned(entry)
    assert plan.chosen.layout.dp == 2 and plan.chosen.layout.replica_devices == 1
    assert plan.runner_up is not None and plan.runner_up.layout.replica_devices > 1
    assert any("replicas" in w for w in plan.why["en"])
    _, fast, _ = planned({**entry, "priority": "latency"})   # a stated latency priority lets the estimate decide
    assert fast.chosen.layout.replica_devices >= 1


def test_a_copy_that_crowds_out_the_kv_cache_is_split_not_replicated():
    _, plan, _ = planned({"id": "w", "hardware": "h100_pcie", "count": 2, "model": "llama-3.1-70b",
                          "quantization": "fp8", "concurrency": 30, "context_length": 8192})
    assert plan.chosen.layout.replica_devices == 2


def test_over_capacity_reports_replicas_not_a_queue():
    _, plan, est = planned({"id": "c", "hardware": "l40s", "count": 1, "model": "llama-3.1-8b",
                            "quantization": "fp8", "concurrency": 500, "context_length": 8192})
    cap = plan.capacity
    assert cap is not None and cap.replicas_needed > 1 and cap.over_by > 1
    assert cap.devices_needed == cap.replicas_needed
    assert est.ttft_s is None and plan.chosen.figures.ttft_s is None
    assert any("Over capacity" in w for w in plan.why["en"]) and any("超出容量" in w for w in plan.why["zh"])


def test_per_replica_search_finds_the_largest_load_within_targets():
    class Est:
        def __init__(self, n):
            self.fits, self.in_service, self.ttft_s, self.tpot_ms = True, n, 0.1, 10 + n
    assert capacity.per_replica(Est, ttft_ms=1000, tpot_ms=50, upper=100) == 40
    assert capacity.per_replica(Est, ttft_ms=1000, tpot_ms=5, upper=100) == 0


def test_a_plan_that_does_not_fit_prints_no_ttft():
    _, plan, est = planned({**R1_H200, "hardware": "h100_sxm"})
    assert not plan.chosen.figures.fits
    assert est.ttft_s is None and plan.chosen.figures.ttft_s is None


def test_cpu_server_ram_is_shared_by_its_sockets_and_one_copy_spans_them():
    entry = {"id": "cpu", "hardware": "epyc_genoa", "count": 2, "memory_gb": 768, "model": "deepseek-v3",
             "quantization": "q4_k_m", "concurrency": 1, "context_length": 8192}
    req = request_from_profile(profile_of(entry))
    assert req.memory_gb == 384
    _, plan, est = planned(entry)
    assert plan.chosen.layout.dp == 1 and plan.chosen.layout.replica_devices == 2
    cmd = plan.flags.get("llama.cpp")
    if cmd:
        assert flag_values(cmd).get("--numa") == "distribute"
    # MoE decode reads the active experts only: far faster than 671B dense over two sockets' bandwidth
    dense_bound = 2 * 460.8e9 / (model("deepseek-v3").params_b * 1e9 * 4.5 / 8)
    assert est.decode_tokens_per_s > 3 * dense_bound


def test_shared_prefix_is_served_from_the_prefix_cache():
    base = {"id": "p", "hardware": "l40s", "count": 1, "model": "qwen2.5-14b", "quantization": "fp8",
            "concurrency": 20, "input_tokens": 6100, "output_tokens": 300, "context_length": 8192}
    _, plain, e0 = planned(base)
    _, cached, e1 = planned({**base, "shared_prefix": True, "prefix_tokens": 6000})
    assert e1.ttft_s < e0.ttft_s
    assert any("prefix" in w.lower() for w in cached.why["en"])
    _, unsized, _ = planned({**base, "shared_prefix": True})
    assert any("give the prefix length" in w for w in unsized.why["en"])


def test_an_assumed_share_of_users_is_said_to_be_an_assumption():
    _, plan, _ = planned({"id": "u", "hardware": "l40s", "count": 2, "model": "llama-3.1-8b",
                          "quantization": "bf16", "users": 300, "context_length": 8192})
    assert any("at the peak" in n and "300" in n and "tell me the real number" in n for n in plan.notes["en"])


def test_a_small_model_on_a_dual_socket_server_is_still_one_copy():
    _, plan, _ = planned({"id": "cpu2", "hardware": "xeon_spr", "count": 2, "memory_gb": 512, "model": "qwen3-30b-a3b",
                          "quantization": "q4_k_m", "concurrency": 3, "context_length": 8192})
    assert plan.chosen.layout.dp == 1 and plan.chosen.layout.replica_devices == 2


def test_a_cpu_engine_without_split_modes_still_spans_the_sockets():
    """OpenVINO GenAI lists no TP/PP mode, but one process uses every socket by itself."""
    from rules.decide import decide
    from rules.plan import plan_for_profile
    profile = profile_of({"hardware": "xeon_spr", "count": 2, "memory_gb": 512, "model": "qwen3-30b-a3b",
                          "quantization": "int8", "concurrency": 3, "context_length": 8192})
    decision = decide(profile).model_dump(mode="json")
    decision["primary"], decision["alternatives"] = "openvino-genai", []
    plan, _ = plan_for_profile(profile, decision)
    assert plan.chosen.layout.dp == 1 and plan.chosen.layout.replica_devices == 2
