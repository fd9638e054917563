"""A stated format no engine kernel exists for rules the engine out; unknown hardware names no vendor-tied engine."""
from __future__ import annotations

from rules import engines
from rules.decide import decide, hardware_specific_engines
from rules.defaults import apply_defaults
from rules.profile import build_profile


def test_stated_awq_on_a_mac_excludes_what_cannot_run_it():
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="awq")))
    for engine in ("mlx-lm", "llama.cpp", "ollama"):
        assert engines.quant_kernel(engine, "awq", "apple-silicon", None) is None
        assert engine in {a.engine for a in d.avoid} and engine not in d.recommended
    assert d.primary is None


def test_an_assumed_quantization_never_excludes():
    p = build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b"))
    p = p.with_value("quantization", "awq", assumed=True, note="test default")
    d = decide(p)
    assert d.primary == "mlx-lm" and "quant-kernel-check" not in d.rules


def test_a_bit_width_only_ranks_down():
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="int4")))
    ranked = {r.engine: r for r in d.ranking}
    assert "llama.cpp" in ranked and "quant-kernel-check" in ranked["llama.cpp"].penalties
    assert "llama.cpp" not in {a.engine for a in d.avoid}


def test_the_held_back_engines_are_all_but_the_run_anywhere_ones():
    # Issue 12: until the hardware is known, only what runs almost anywhere (llama.cpp, and Ollama as
    # its wrapper) is offered; a datacenter engine is never the portable choice.
    held = set(hardware_specific_engines())
    assert {"mlx-lm", "exllamav2", "exllamav3", "tensorrt-llm", "dynamo", "vllm", "sglang"} <= held
    assert not held & {"llama.cpp", "ollama"}


def test_unknown_hardware_recommends_only_portable_engines():
    for raw in (dict(model="llama-3.1-8b"), dict(model="llama-3.1-70b", serving_mode="team", users=100)):
        d = decide(apply_defaults(build_profile(raw)))
        assert d.primary == "llama.cpp" and not set(d.recommended) & set(hardware_specific_engines())
        held = next(e for e in d.trace if e.rule == "constraint-hardware-unknown").effects["held_back"]
        assert set(held) == set(hardware_specific_engines())
        assert any("hardware is not known" in w for w in d.warnings)
    personal = decide(apply_defaults(build_profile(dict(model="llama-3.1-8b"))))
    assert not {a.engine for a in personal.avoid}  # held back until the hardware is known, not "avoid"
