"""decide(): the Decision's shape, trace, explanation, hard guarantees and speed."""
from __future__ import annotations

import re

import pytest

from rules import engines
from rules.facts import fill
from rules.decide import decide
from rules.errors import UnknownIdError
from rules.explain import explain
from rules.profile import build_profile
from rules.ruleset import rule_index

FAQ_8X4090 = dict(hardware="rtx4090", count=8, interconnect="pcie", model="llama-3.1-70b", quantization="fp8",
                  workload="chat", serving_mode="team", concurrency=32)


@pytest.fixture(scope="module")
def d8():
    return decide(build_profile(FAQ_8X4090))


def test_summary_has_the_ask_json_decision_keys(d8):
    s = d8.summary()
    assert set(s) == {"primary", "alternatives", "avoid", "bottleneck", "parallelism", "warnings", "assumptions",
                      "rules", "citations"}
    assert set(s["parallelism"]) == {"strategy", "tp", "pp", "ep", "dp", "reason"}
    assert all(set(a) == {"engine", "reason"} for a in s["avoid"])


def test_trace_records_the_facts_that_fired_each_rule(d8):
    entry = next(e for e in d8.trace if e.rule == "faq-8x4090-tensorrt")
    assert entry.values == {"vendor": "nvidia", "hw_class": "consumer", "device_count": 8, "fast_interconnect": False,
                            "cuda_cc": 8.9}
    assert entry.effects["score"]["tensorrt-llm"] < 0 and entry.citations == rule_index()[entry.rule].citations
    assert d8.rules == [e.rule for e in d8.trace]
    cited = [c for e in d8.trace for c in e.citations]
    assert d8.citations == list(dict.fromkeys(cited))


def test_ranking_reasons_point_to_fired_rules(d8):
    top = d8.ranking[0]
    assert top.engine == d8.primary == "vllm"
    assert set(top.reasons) <= set(d8.rules) and "serve-team" in top.reasons
    assert [r.score for r in d8.ranking] == sorted((r.score for r in d8.ranking), reverse=True)
    trt = next(r for r in d8.ranking if r.engine == "tensorrt-llm")
    assert "faq-8x4090-tensorrt" in trt.penalties and trt.score <= 0


def test_avoid_lists_rule_exclusions_before_platform_ones(d8):
    rules = [a.rule for a in d8.avoid]
    first_hw = rules.index("constraint-hardware-support")
    assert all(r == "constraint-hardware-support" for r in rules[first_hw:])
    mlx = next(a for a in d8.avoid if a.engine == "mlx-lm")
    assert "https://" in mlx.reason  # the catalog's source travels with the reason


def test_quant_kernel_warning_names_the_engines(d8):
    warning = next(w for w in d8.warnings if w.startswith("Quantization fp8"))
    assert "exllamav3" in warning and "vllm" not in warning


def test_explanation_is_built_from_the_trace(d8):
    en, zh = explain(d8, "en"), explain(d8, "zh")
    for rule in d8.rules:
        assert f"`{rule}`" in en and f"`{rule}`" in zh
    assert "**Recommended engine: vLLM**" in en and "pp=8" in en
    assert "**建議引擎: vLLM**" in zh and re.search(r"[\u4e00-\u9fff]{10}", zh)
    assert rule_index()["pitfall-tp-without-nvlink"].effects.warning.zh in zh
    assert fill(rule_index()["serve-team"].rationale.zh, d8.facts, "zh") in zh   # templates filled from the setup
    assert "{" not in en and "{" not in zh


def test_explanation_without_a_primary():
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="awq",
                                  serving_mode="personal")))   # no engine on a Mac reads AWQ
    assert d.primary is None and d.alternatives == []
    assert "No engine fits cleanly yet" in explain(d) and "目前沒有乾淨適用的引擎" in explain(d, "zh")


def test_a_crowd_on_a_mac_gets_what_runs_there_and_its_limit():
    """Issue 15: many users on a Mac get the honest answer (llama.cpp serves a small group; beyond that,
    other hardware), never "no engine" and never vLLM."""
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="int8",
                                  serving_mode="production", concurrency=100)))
    assert d.primary == "llama.cpp"
    assert any("No engine built for 100 requests at once" in w and "M3 Ultra" in w for w in d.warnings)
    assert any("100" in w and "M3 Ultra" in w for w in d.warnings_zh)


def test_recommended_engines_run_on_the_hardware_and_are_never_avoided(d8):
    avoided = {a.engine for a in d8.avoid}
    for engine in d8.recommended:
        assert engines.supports(engine, "rtx4090")[0] and engine not in avoided


def test_dynamo_only_rides_on_top_in_multi_node_production():
    single = decide(build_profile(dict(hardware="b200", count=8, model="llama-3.1-70b", serving_mode="production")))
    assert "dynamo" not in single.recommended
    multi = decide(build_profile(dict(hardware="b200", count=8, nodes=2, model="llama-3.1-405b",
                                      serving_mode="production", concurrency=500)))
    assert multi.primary != "dynamo" and multi.alternatives[-1] == "dynamo"


def test_assumptions_include_inferred_interconnect():
    d = decide(build_profile(dict(hardware="l40s", count=4, model="llama-3.1-70b")))
    assert any(a.startswith("interconnect = pcie") for a in d.assumptions)
    assert d.facts["interconnect_inferred"] is True and d.parallelism.strategy == "pp"


def test_profile_is_not_changed():
    p = build_profile(FAQ_8X4090)
    before = p.model_dump()
    decide(p)
    assert p.model_dump() == before


def test_unknown_hardware_is_a_clear_input_error():
    with pytest.raises(UnknownIdError, match="unknown hardware 'tpu9'"):
        decide(build_profile(dict(hardware="tpu9")))


def test_empty_profile_still_decides():
    d = decide(build_profile({}))
    assert d.bottleneck == "decode" and "hw-unknown" in d.rules and d.parallelism.strategy == "none"
