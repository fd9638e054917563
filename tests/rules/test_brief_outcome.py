"""The interview's probes run the rules in brief (`decide_outcome`): it must agree with the full
decision on every profile, or the interview would ask a different question than before. And the
turn-scoped memo must compute once inside a turn and never outlive it."""
from __future__ import annotations

from hypothesis import given

from rules import memo
from rules.conditions import evaluate, holds
from rules.decide import _ordered_rules, decide, decide_outcome, outcome
from rules.errors import AdvisorError
from rules.facts import derive_facts
from rules.profile import build_profile
from tests.rules.test_properties import SETTINGS, profiles

PROBED = {"workload": ("chat", "rag", "agent", "batch"), "serving_mode": ("personal", "team", "production"),
          "interconnect": ("nvlink", "pcie"), "concurrency": (1, 16, 128), "quantization": ("bf16", "fp8", "awq")}


def _same(p) -> None:
    try:
        full = outcome(decide(p))
    except AdvisorError as exc:
        try:
            decide_outcome(p)
        except AdvisorError as brief_exc:
            assert type(brief_exc) is type(exc)
            return
        raise AssertionError(f"decide raised {exc!r}, the brief run did not") from None
    assert decide_outcome(p) == full


@SETTINGS
@given(profiles())
def test_the_brief_run_gives_the_full_decisions_outcome(p):
    _same(p)


def test_the_brief_run_agrees_on_the_interviews_probes():
    bases = [dict(hardware="rtx4090", count=4, interconnect="pcie", model="llama-3.1-70b", quantization="awq",
                  concurrency=20, users=60, serving_mode="team"),
             dict(hardware="h100_sxm", count=8, model="llama-3.1-70b", quantization="fp8", workload="chat"),
             dict(hardware="m3_ultra", memory_gb=512, model="llama-3.1-70b", serving_mode="personal"),
             dict(hardware="rtx4090", count=1, model="qwen3-8b", workload="chat", serving_mode="personal"),
             dict(hardware="h100_sxm", count=8, nodes=2, model="deepseek-r1", quantization="fp8")]
    for base in bases:
        p = build_profile(base)
        _same(p)
        for field, values in PROBED.items():
            for value in values:
                try:
                    probe = p.with_value(field, value, assumed=True)
                except AdvisorError:
                    continue
                _same(probe)


def test_the_turn_memo_lives_for_one_turn_only():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    assert memo.once("k", compute) == 1 and memo.once("k", compute) == 2   # outside a turn: computed each time
    with memo.turn():
        assert memo.once("k", compute) == 3 and memo.once("k", compute) == 3
        with memo.turn():   # a nested turn starts empty
            assert memo.once("k", compute) == 4
        assert memo.once("k", compute) == 3
    with memo.turn():      # the next turn computes again
        assert memo.once("k", compute) == 5
    assert not memo.active()


def test_shared_facts_are_copies_each_caller_may_change():
    p = build_profile(dict(hardware="rtx4090", count=2, model="qwen3-32b"))
    with memo.turn():
        first, notes = derive_facts(p)
        first["hardware"] = "changed"
        notes.append("changed")
        again, notes_again = derive_facts(p)
    assert again == derive_facts(p)[0] and again["hardware"] == "rtx4090" and "changed" not in notes_again
    assert derive_facts(p.with_value("count", 4))[0]["device_count"] == 4   # another profile, other facts


@SETTINGS
@given(profiles())
def test_holds_is_evaluate_without_the_record(p):
    facts, _ = derive_facts(p)
    for rule in _ordered_rules():
        assert holds(rule.when, facts) == evaluate(rule.when, facts, {})


def _dump(p):
    try:
        return decide(p).model_dump(mode="json")
    except AdvisorError as exc:
        return repr(exc)


@SETTINGS
@given(profiles(), profiles())
def test_a_turns_shared_results_change_no_decision(p, other):
    """Inside a turn the facts and the kernel table are shared between calls: the decisions of a probe
    sequence (other profiles first, then the same profile twice) equal those made outside a turn."""
    alone = [_dump(other), _dump(p)]
    probes = []
    for field, values in PROBED.items():
        for value in values[:2]:
            try:
                probes.append(p.with_value(field, value, assumed=True))
            except AdvisorError:
                continue
    expected = [_dump(q) for q in probes]
    with memo.turn():
        assert [_dump(other), _dump(p)] == alone
        assert [_dump(q) for q in probes] == expected
        assert _dump(p) == alone[1]
