"""Work the answer turn no longer repeats must give the same results: the interview's probes run
the rules in brief (`decide_outcome`), rules are tested by compiled conditions, a turn shares pure
results (rules.memo) and never past its end, and the typo test walks each word once."""
from __future__ import annotations

from hypothesis import given

from rules import memo
from rules.conditions import compile_condition, evaluate
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
def test_a_compiled_condition_is_evaluate_without_the_record(p):
    facts, _ = derive_facts(p)
    for rule in _ordered_rules():
        assert compile_condition(rule.when)(facts) is evaluate(rule.when, facts, {})


def test_compiled_leaves_keep_the_meaning_of_unknown_and_non_numbers():
    from rules.conditions import Condition
    cases = [None, 0, 1, 2.5, True, False, "x", "apple", ["a", "x"], 128]
    for op, value in [("eq", 1), ("eq", "x"), ("ne", "x"), ("in", ["x", 1]), ("contains", "x"), ("gte", 1),
                      ("lte", 1), ("gt", 0), ("lt", 2), ("is_null", None), ("not_null", None)]:
        cond = Condition(field="f", op=op, value=value)
        fn = compile_condition(cond)
        for fact in cases:
            try:
                want = evaluate(cond, {"f": fact}, {})
            except TypeError:   # e.g. "x" in 1: the compiled form raises the same
                continue
            assert fn({"f": fact}) is want, (op, value, fact)
        assert fn({}) is evaluate(cond, {}, {})


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


def _one_edit_by_slices(a: str, b: str) -> bool:
    """The typo test as first written: every single deletion tried."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:k] + long_[k + 1:] == short for k in range(len(long_)))


def test_the_one_typo_test_is_unchanged():
    from itertools import product

    from rules.hardware_index import _one_edit
    words = ["".join(p) for n in range(5) for p in product("abc", repeat=n)]
    for a in words:
        for b in words:
            assert _one_edit(a, b) == _one_edit_by_slices(a, b), (a, b)


def test_a_result_is_shared_only_by_facts_that_agree_on_what_it_read():
    calls = []

    def kernel_table(facts):
        calls.append(1)
        return (facts.get("quantization"), facts["platform"], "cc" in facts)

    a = {"quantization": "awq", "platform": "nvidia-cuda", "cc": 8.9, "workload": "chat"}
    with memo.turn():
        assert memo.once_by_reads("k", a, kernel_table) == ("awq", "nvidia-cuda", True)
        assert memo.once_by_reads("k", a | {"workload": "rag"}, kernel_table) == ("awq", "nvidia-cuda", True)
        assert len(calls) == 1                                   # the workload was never read
        assert memo.once_by_reads("k", a | {"cc": 9.0}, kernel_table) == ("awq", "nvidia-cuda", True)
        assert len(calls) == 2                                   # a key tested with `in` counts as read
        assert memo.once_by_reads("k", a | {"quantization": "fp8"}, kernel_table)[0] == "fp8"
        assert memo.once_by_reads("k", {k: v for k, v in a.items() if k != "cc"}, kernel_table)[2] is False
        assert memo.once_by_reads("k", a | {"quantization": 1}, kernel_table)[0] == 1
        assert memo.once_by_reads("k", a | {"quantization": True}, kernel_table)[0] is True   # 1 == True, not the same
        assert len(calls) == 6
        whole = memo.once_by_reads("w", a, lambda f: sorted(f))
        assert memo.once_by_reads("w", a | {"workload": "rag"}, lambda f: ["other"]) == ["other"]   # read whole
        assert whole == sorted(a)
    assert memo.once_by_reads("k", a, kernel_table) and len(calls) == 7      # outside a turn: computed
