"""A stated format no engine kernel exists for rules the engine out; unknown hardware names no vendor-tied engine."""
from __future__ import annotations

import pytest

from rules import engines
from rules.decide import SERVER_PLATFORMS, decide, hardware_specific_engines
from rules.defaults import apply_defaults
from rules.profile import build_profile


def test_stated_awq_on_a_mac_excludes_what_cannot_run_it():
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="awq")))
    for engine in ("mlx-lm", "llama.cpp", "ollama"):
        assert engines.quant_kernel(engine, "awq", "apple-silicon", None) is None
        assert engine in {a.engine for a in d.avoid} and engine not in d.recommended
    assert d.primary is None


def test_an_assumed_format_filters_like_a_stated_one():
    base = build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b"))
    assumed = decide(base.with_value("quantization", "awq", assumed=True, note="test default"))
    stated = decide(base.with_value("quantization", "awq", evidence="AWQ"))
    assert {a.engine for a in assumed.avoid} == {a.engine for a in stated.avoid}
    assert "mlx-lm" in {a.engine for a in assumed.avoid} and "quant-kernel-check" in assumed.rules


def test_a_bit_width_is_each_engines_own_format():
    d = decide(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b", quantization="int4")))
    ranked = {r.engine: r for r in d.ranking}
    for engine in ("llama.cpp", "mlx-lm", "ollama"):
        assert engine in ranked and "quant-kernel-check" not in ranked[engine].penalties
    assert not {"llama.cpp", "mlx-lm", "ollama"} & {a.engine for a in d.avoid}


def test_the_held_back_engines_are_all_but_the_run_anywhere_ones():
    # Issue 12: until the hardware is known, only what runs almost anywhere (llama.cpp, and Ollama as
    # its wrapper) is offered; a datacenter engine is never the portable choice.
    held = set(hardware_specific_engines())
    assert {"mlx-lm", "exllamav2", "exllamav3", "tensorrt-llm", "dynamo", "vllm", "sglang"} <= held
    assert not held & {"llama.cpp", "ollama"}


def test_unknown_hardware_recommends_only_portable_engines():
    d = decide(apply_defaults(build_profile(dict(model="llama-3.1-8b"))))
    assert d.primary == "llama.cpp" and not set(d.recommended) & set(hardware_specific_engines())
    held = next(e for e in d.trace if e.rule == "constraint-hardware-unknown").effects["held_back"]
    assert set(held) == set(hardware_specific_engines())
    assert any("hardware is not known" in w for w in d.warnings)
    assert not {a.engine for a in d.avoid}  # held back until the hardware is known, not "avoid"


@pytest.mark.parametrize("raw", [
    dict(model="llama-3.1-70b", serving_mode="team", users=100),   # a stated team
    dict(model="llama-3.1-8b", concurrency=50),                     # a stated load
    dict(model="llama-3.1-8b", lora_adapters=50),                   # many adapters, no user count
])
def test_unknown_hardware_keeps_the_stated_workload(raw):
    # Review class 2: with the hardware not named, a shared service is still a shared service: the
    # stand-in is a server engine that runs on NVIDIA and AMD GPU servers, never llama.cpp for one person.
    p = apply_defaults(build_profile(raw))
    d = decide(p)
    assert p.serving_mode in ("team", "production")
    assert d.primary in ("vllm", "sglang")
    assert not set(d.recommended) & set(hardware_specific_engines(SERVER_PLATFORMS))
    assert {"tensorrt-llm", "mlx-lm", "exllamav3"} <= set(hardware_specific_engines(SERVER_PLATFORMS))


@pytest.mark.parametrize("words, meant", [
    ("Q4", "int4"), ("4-bit", "int4"), ("4bit", "int4"), ("int8", "int8"), ("Q8", "int8"), ("4 位元", "int4"),
    ("Q4_K_M", "q4_k_m"), ("GGUF Q4", "q4_k_m"), (None, "q4_k_m"),
])
def test_a_bare_width_in_the_users_words_is_each_engines_own_format(words, meant):
    p = build_profile(dict(hardware="rtx3090", count=2, model="llama-3.1-70b", serving_mode="personal"))
    p = p.with_value("quantization", "q4_k_m", evidence=words)
    d = decide(p)
    assert d.facts["quantization"] == meant
    if meant == "int4":   # "Q4" does not rule out the engines whose 4-bit format is not GGUF
        assert not {"exllamav2", "exllamav3", "vllm"} & {a.engine for a in d.avoid}
