"""rules.asked: the engine the question is about leads, only among engines the rules recommend."""
from __future__ import annotations

from rules.asked import asked_first
from rules.decide import decide
from rules.decision import Decision, RankedEngine
from rules.engines import verdict
from rules.profile import build_profile


def _d(primary: str, alternatives: list[str]) -> Decision:
    ranked = [RankedEngine(engine=e, score=5 - i, reasons=["r"]) for i, e in enumerate([primary, *alternatives])]
    return Decision(primary=primary, alternatives=alternatives, ranking=ranked)


def test_offload_question_puts_a_hybrid_engine_first():
    d = asked_first(_d("exllamav2", ["llama.cpp", "ollama"]), ["offload"], [], False, "one RTX 4060 Ti")
    assert d.primary == "llama.cpp" and d.alternatives[0] == "exllamav2"
    assert d.trace[0].rule == "asked-offload-engine" and "RTX 4060 Ti" in d.trace[0].rationale
    assert d.ranking[0].engine == "llama.cpp" and d.ranking[0].reasons[0] == "asked-offload-engine"


def test_named_engine_with_the_feature_leads():
    d = asked_first(_d("llama.cpp", ["vllm", "sglang"]), ["structured-output"], ["vllm"], False)
    assert d.primary == "vllm" and "llama.cpp" in d.alternatives


def test_engine_the_user_leaves_is_not_promoted():
    d = asked_first(_d("vllm", ["ollama"]), ["structured-output"], ["ollama"], True)
    assert d.primary == "vllm"


def test_never_an_engine_the_rules_did_not_recommend():
    d = asked_first(_d("llama.cpp", ["ollama"]), ["structured-output"], ["vllm"], False)
    assert d.primary == "llama.cpp"
    d = asked_first(_d("llama.cpp", ["ollama"]), [], ["ollama"], False)   # a name without a question about it
    assert d.primary == "llama.cpp"


def test_real_decision_keeps_its_avoid_list():
    d = decide(build_profile(dict(hardware="rtx4060ti_16g", count=1, model="qwen3-30b-a3b", serving_mode="personal")))
    out = asked_first(d, ["offload"], [], False)
    assert out.avoid == d.avoid and out.primary in ("llama.cpp", "ollama", d.primary)


def test_pascal_refusal_names_both_floors():
    v = verdict("vllm", "p40")
    assert not v.ok and "7.5" in v.en and "7.0" in v.en and "6.1" in v.en and "no official build" in v.en


def test_engine_the_user_is_leaving_does_not_lead():
    d = asked_first(_d("ollama", ["exllamav3", "vllm"]), [], ["ollama"], True, abandoning=True, many_at_once=True)
    assert d.primary == "vllm" and d.trace[0].rule == "asked-leaving-engine"   # built for many requests at once
    d = asked_first(_d("ollama", ["exllamav3", "vllm"]), [], ["ollama"], True, abandoning=True)
    assert d.primary == "exllamav3"
    d = asked_first(_d("ollama", ["vllm"]), [], ["ollama"], True)   # "should we switch?" alone is a question, not a move
    assert d.primary == "ollama"
