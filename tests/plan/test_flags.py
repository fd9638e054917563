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
        if engine in ("vllm", "dynamo") and group > 1:
            assert flags["--tensor-parallel-size"] == str(group)
        if engine in ("vllm", "dynamo") and lay.pp > 1:
            assert flags["--pipeline-parallel-size"] == str(lay.pp)
        if engine == "sglang" and group > 1:
            assert flags["--tp-size"] == str(group)
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
