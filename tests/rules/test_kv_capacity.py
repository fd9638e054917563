"""KV capacity against the load: counted like the roofline, for stated or assumed concurrency."""
from __future__ import annotations

from rules.decide import decide
from rules.explain import explain
from rules.facts import derive_facts, fill
from rules.profile import build_profile
from rules.roofline import estimate

TEAM_4X4090 = dict(hardware="rtx4090", count=4, interconnect="pcie", model="llama-3.1-70b", quantization="fp8",
                   workload="rag", context_length=16384, serving_mode="team", users=50)


def test_load_comes_from_the_users_when_concurrency_is_not_given():
    facts, _ = derive_facts(build_profile(TEAM_4X4090))
    assert facts["concurrency"] is None
    assert facts["load"] == 10 and facts["load_assumed"] is True   # 50 people: the busy-hour peak
    assert facts["kv_capacity"] < facts["load"] and facts["kv_fits"] is False


def test_a_stated_concurrency_is_the_load():
    facts, _ = derive_facts(build_profile({**TEAM_4X4090, "concurrency": 2}))
    assert facts["load"] == 2 and facts["load_assumed"] is False and facts["kv_fits"] is True


def test_capacity_matches_the_roofline_for_a_server_engine():
    facts, _ = derive_facts(build_profile(TEAM_4X4090))
    est = estimate("llama-3.1-70b", "rtx4090", count=4, quant="fp8", engine="vllm", context_length=16384)
    assert facts["kv_capacity"] == est.max_concurrency


def test_the_warning_says_how_many_fit_and_what_to_do():
    d = decide(build_profile(TEAM_4X4090))
    assert "bn-kv-does-not-fit" in d.rules and d.bottleneck_scores["kv-cache"] > 0
    warning = next(w for w in d.warnings if "KV cache for this context" in w)
    assert f"only {d.facts['kv_capacity']} sequences" in warning and "about 10" in warning
    assert "FP8 KV cache" in warning and "{" not in warning
    zh = explain(d, "zh")
    assert f"只夠放 {d.facts['kv_capacity']} 條序列" in zh and "{kv_capacity}" not in zh


def test_a_personal_profile_without_load_plans_for_one_sequence():
    facts, _ = derive_facts(build_profile(dict(hardware="rtx4090", model="llama-3.1-8b", context_length=8192,
                                               serving_mode="personal")))
    assert facts["load"] == 1 and facts["kv_fits"] is True


def test_fill_leaves_unknown_or_missing_placeholders():
    facts = {"kv_capacity": 1234, "load": None}
    assert fill("{kv_capacity} of {load} ({nope})", facts) == "1,234 of {load} ({nope})"
