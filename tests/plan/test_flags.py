"""Launch commands use only flags the engines document, and express the chosen layout."""
from __future__ import annotations

import pytest
from planhelp import deployments, planned

from rules.plan.flags import DOCUMENTED, flag_values

CASES = deployments()


@pytest.mark.parametrize("entry", CASES, ids=[c["id"] for c in CASES])
def test_commands_use_documented_flags_and_state_the_layout(entry):
    _, plan, _ = planned(entry)
    lay = plan.chosen.layout
    for engine, cmd in plan.flags.items():
        flags = flag_values(cmd)
        assert set(flags) <= DOCUMENTED[engine], (engine, set(flags) - DOCUMENTED[engine])
        group = lay.tp * lay.ep
        if engine in ("vllm", "dynamo") and lay.attention_dp:   # one DP rank per device of the group
            assert flags["--data-parallel-size"] == str(group) and "--tensor-parallel-size" not in flags
            assert ("--enable-expert-parallel" in flags) == (lay.ep > 1)
        elif engine in ("vllm", "dynamo") and group > 1:
            assert flags["--tensor-parallel-size"] == str(group)
        if engine in ("vllm", "dynamo") and lay.pp > 1:
            assert flags["--pipeline-parallel-size"] == str(lay.pp)
        if engine == "sglang" and group > 1:
            assert flags["--tp-size"] == str(group)
            assert ("--enable-dp-attention" in flags) == lay.attention_dp
        if engine == "tensorrt-llm" and lay.attention_dp:
            assert "enable_attention_dp: true" in " ".join(plan.launch_notes[engine]["en"])
        if engine == "tensorrt-llm" and lay.pp > 1:
            assert flags["--pp_size"] == str(lay.pp)
        if plan.chosen.kv_cache_dtype == "fp8" and engine in ("vllm", "sglang"):
            assert "--kv-cache-dtype" in flags
        for lang in ("en", "zh"):
            for note in (plan.launch_notes.get(engine) or {}).get(lang, []):
                assert note.strip()


def test_every_shortlisted_engine_that_offers_the_splits_gets_a_command():
    _, plan, _ = planned({"id": "x", "hardware": "h100_sxm", "count": 8, "model": "llama-3.1-70b",
                          "quantization": "fp8", "concurrency": 64, "context_length": 8192, "serving_mode": "production"})
    assert {"vllm", "sglang", "tensorrt-llm"} <= set(plan.flags)


@pytest.mark.parametrize("entry, engine, expect", [
    ({"hardware": "rtx4090", "count": 1, "model": "qwen2.5-coder-14b", "quantization": "exl2-6.0", "concurrency": 1,
      "context_length": 16384}, "exllamav2", {"--backend": "exllamav2", "--max-seq-len": "16384"}),
    ({"hardware": "rtx3090", "count": 2, "interconnect": "pcie", "model": "llama-3.1-70b", "quantization": "exl3-4.0",
      "concurrency": 2, "context_length": 8192}, "exllamav3", {"--backend": "exllamav3"}),
    ({"hardware": "m3_ultra", "count": 1, "model": "llama-3.1-70b", "quantization": "q4_k_m", "concurrency": 4,
      "context_length": 8192}, "mlx-lm", {"--decode-concurrency": "4"}),
])
def test_single_host_engines_get_a_command_too(entry, engine, expect):
    """ExLlamaV2/V3 are served by TabbyAPI and MLX-LM by mlx_lm.server: the recommended engine gets a
    command the user can paste, with documented flags only."""
    from rules.decide import decide
    from planhelp import profile_of
    from rules.plan import plan_for_profile
    profile = profile_of(entry)
    decision = decide(profile).model_dump(mode="json")
    decision["primary"], decision["alternatives"] = engine, []
    plan, _ = plan_for_profile(profile, decision)
    cmd = plan.flags[engine]
    flags = flag_values(cmd)
    assert set(flags) <= DOCUMENTED[engine], (engine, set(flags) - DOCUMENTED[engine])
    assert all(flags.get(k) == v for k, v in expect.items()), cmd
    if plan.chosen.layout.tp > 1:
        assert flags.get("--tensor-parallel") == "True"
    assert plan.launch_notes[engine]["en"] and plan.launch_notes[engine]["zh"]


def test_a_cpu_only_server_gets_no_gpu_flags():
    """llama.cpp on CPU sockets: nothing to offload (-ngl) and no GPUs to split over."""
    _, plan, _ = planned({"id": "cpu", "hardware": "epyc_genoa", "count": 2, "model": "qwen3-30b-a3b",
                          "quantization": "q4_k_m", "concurrency": 2, "serving_mode": "personal"})
    cmd = plan.flags["llama.cpp"]
    assert "-ngl" not in cmd and "--split-mode" not in cmd and "--tensor-split" not in cmd
