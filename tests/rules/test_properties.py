"""Property tests over random profiles: no crash, no engine on hardware it cannot run, a bottleneck."""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import catalog, engines
from rules.decide import decide, hardware_specific_engines, likely_platforms
from rules.errors import ProfileError
from rules.explain import explain
from rules.ids import ENGINES, INTERCONNECTS, PRIORITIES, QUANTS_FIXED, SERVING_MODES, WORKLOADS
from rules.profile import build_profile

HARDWARE = sorted(catalog.all_hardware())
MODELS = sorted(catalog.all_models())
QUANTS = list(QUANTS_FIXED) + ["exl2-4.0", "exl2-2.5", "exl3-3.0"]


def _maybe(strategy):
    return st.none() | strategy


@st.composite
def profiles(draw, complete: bool = False):
    """A random profile; `complete` fills every field the decision depends on."""
    opt = (lambda s: s) if complete else _maybe
    model = draw(opt(st.sampled_from(MODELS)))
    max_ctx = catalog.model(model).max_context if model else 1_000_000
    context = draw(opt(st.integers(512, min(max_ctx, 262_144))))
    output = draw(opt(st.integers(16, 4096)))
    data = {
        "hardware": draw(opt(st.sampled_from(HARDWARE))),
        "count": draw(opt(st.sampled_from([1, 1, 2, 4, 8]))),
        "nodes": draw(st.sampled_from([1, 1, 1, 2, 4])),
        "interconnect": draw(_maybe(st.sampled_from(INTERCONNECTS))),
        "model": model,
        "quantization": draw(opt(st.sampled_from(QUANTS))),
        "workload": draw(opt(st.sampled_from(WORKLOADS))),
        "context_length": context,
        "output_tokens": output,
        "input_tokens": draw(_maybe(st.integers(1, max(1, (context or 4096) - (output or 0))))),
        "concurrency": draw(opt(st.integers(1, 2000))),
        "users": draw(_maybe(st.integers(1, 100_000))),
        "serving_mode": draw(opt(st.sampled_from(SERVING_MODES))),
        "priority": draw(_maybe(st.sampled_from(PRIORITIES))),
        "shared_prefix": draw(_maybe(st.booleans())),
        "structured_output": draw(_maybe(st.booleans())),
        "lora_adapters": draw(_maybe(st.integers(0, 64))),
        "kv_cache_dtype": draw(_maybe(st.sampled_from(["fp8", "q8_0", "int8"]))),
    }
    try:
        return build_profile({k: v for k, v in data.items() if v is not None})
    except ProfileError:
        assume(False)


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(profiles())
def test_never_recommends_an_engine_the_hardware_cannot_run(profile):
    d = decide(profile)
    avoided = {a.engine for a in d.avoid}
    assert not set(d.recommended) & avoided
    if profile.hardware:   # with the hardware unknown, what runs almost anywhere stands in even unscored (issue 12)
        positive = [r for r in d.ranking if r.score > 0 and r.engine != "dynamo"]
        if positive:
            assert all(r.score > 0 for r in d.ranking if r.engine in d.recommended)
        elif d.primary is not None:   # nothing suits the workload: the best that runs, with its limit said (issue 15)
            assert any(w.startswith("No engine built for") for w in d.warnings)
    else:
        runners = {e for e in ENGINES if e != "dynamo"}
        assert d.primary is not None or runners <= avoided   # none only when the stated setup rules every engine out
        # the engines native on the likely machine (any machine for one person, a GPU server for a shared
        # service) stand in unless the stated setup rules them all out
        stand_ins = set(ENGINES) - set(hardware_specific_engines(likely_platforms(d.facts)))
        if stand_ins - avoided:
            assert set(d.recommended) <= stand_ins
    if profile.hardware:
        hw = catalog.hardware(profile.hardware)
        for engine in d.recommended:
            ok, reason, _ = engines.supports(engine, hw)
            assert ok, f"{engine} on {hw.id}: {reason}"


@SETTINGS
@given(profiles())
def test_an_orchestrator_is_never_the_primary_nor_alone_on_a_box(profile):
    d = decide(profile)
    assert d.primary != "dynamo"
    if "dynamo" in d.alternatives:
        assert d.primary is not None
        assert profile.nodes > 1 or profile.serving_mode == "fleet"


@SETTINGS
@given(profiles(complete=True))
def test_a_complete_profile_always_gets_a_bottleneck_and_a_plan(profile):
    d = decide(profile)
    assert d.bottleneck is not None and d.parallelism is not None
    p = d.parallelism
    assert p.tp * p.pp * p.ep * p.dp <= profile.device_count
    assert explain(d, "en") and explain(d, "zh")


@SETTINGS
@given(profiles())
def test_trace_rules_and_citations_agree(profile):
    d = decide(profile)
    assert d.rules == [e.rule for e in d.trace]
    assert set(d.citations) == {c for e in d.trace for c in e.citations}
