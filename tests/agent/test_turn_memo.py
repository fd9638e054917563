"""The graph's turn scope: pure work asked twice in one turn is done once, and nothing is shared
between turns (issue 16: the answer turn's CPU; a cross-turn cache would only flatter the benchmark)."""
from __future__ import annotations

from collections import Counter

from agent import extract_aliases
from agent.api import Advisor
from rules import facts as facts_module
from rules import memo

FULL = ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, chat for an internal team of 400 with 64 concurrent "
        "requests, 4K prompts and 500-token answers, 8K context.")
PROBED = "4 張 4090 沒有 NVLink，Llama 3.3 70B AWQ，內部 60 人，20 個併發。"


def _counting(monkeypatch):
    derived, devices = Counter(), Counter()
    derive, find = facts_module._derive_facts, extract_aliases.DeviceIndex._find

    def counted_derive(profile):
        derived[profile.model_dump_json()] += 1
        return derive(profile)

    def counted_find(self, text):
        devices[text] += 1
        return find(self, text)

    monkeypatch.setattr(facts_module, "_derive_facts", counted_derive)
    monkeypatch.setattr(extract_aliases.DeviceIndex, "_find", counted_find)
    return derived, devices


def test_an_answer_turn_derives_each_profiles_facts_and_finds_the_devices_once(monkeypatch):
    derived, devices = _counting(monkeypatch)
    out = Advisor().turn("memo-1", FULL)
    assert out.question is None and out.advice.decision.primary
    assert derived and max(derived.values()) == 1, derived     # rules, planner and options share the facts
    assert devices[FULL] == 1                                  # extractor and topic finder share the names
    assert not memo.active()                                   # the scope closed with the turn


def test_each_turn_computes_afresh_and_gives_the_same_answer(monkeypatch):
    """The same question in a new thread: the same answer (also one-shot), every result computed again."""
    derived, _ = _counting(monkeypatch)
    adv = Advisor()
    first = adv.turn("memo-2", PROBED)
    per_turn = sum(derived.values())
    second = adv.turn("memo-3", PROBED)
    assert sum(derived.values()) == 2 * per_turn       # nothing carried from the first turn to the next
    assert first.advice.dump() == second.advice.dump()
    from agent.api import advise
    assert advise(PROBED).decision == first.advice.decision
