"""Replies to interview questions: short answers only make sense given the fields asked."""
from __future__ import annotations

import pytest

from agent.extract import extract, extract_answer

ANSWERS = [
    ("PCIe only", ["interconnect"], {"interconnect": "pcie"}),
    ("we have IB", ["interconnect"], {"interconnect": "infiniband"}),
    ("just one GPU", ["interconnect"], {"count": 1, "interconnect": "none"}),
    ("yes", ["shared_prefix"], {"shared_prefix": True}),
    ("有", ["shared_prefix"], {"shared_prefix": True}),
    ("nope", ["structured_output"], {"structured_output": False}),
    ("不需要", ["streaming"], {"streaming": False}),
    ("about 50", ["concurrency"], {"concurrency": 50}),
    ("五十個左右", ["concurrency"], {"concurrency": 50}),
    ("around 40 people", ["concurrency"], {"users": 40, "concurrency": 40}),
    ("32k", ["context_length"], {"context_length": 32000}),
    ("none", ["quantization"], {"quantization": "bf16"}),
    ("cost", ["priority"], {"priority": "cost"}),
    ("速度", ["priority"], {"priority": "latency"}),
    ("just me", ["serving_mode"], {"serving_mode": "personal", "users": 1}),   # "just me": one user (settled convention)
]


@pytest.mark.parametrize("text,fields,expected", ANSWERS, ids=[a[0] for a in ANSWERS])
def test_answer(text, fields, expected):
    ex = extract_answer(text, fields)
    assert ex.values == {**expected, **({"priorities": [expected["priority"]]} if "priority" in expected else {})}
    assert all(ex.evidence[f] in text for f in ex.values)


@pytest.mark.parametrize("text", ["yes", "about 50", "有"])
def test_bare_answers_mean_nothing_without_a_question(text):
    assert extract(text).values == {}


def test_a_bare_number_is_not_a_context_length():
    assert "context_length" not in extract_answer("8", ["context_length"]).values


def test_dont_know_answer_sets_no_value():
    ex = extract_answer("I don't know, please assume typical values.", ["interconnect", "concurrency"])
    assert ex.dont_know and ex.values == {}


def test_numbers_already_used_are_not_reused():
    ex = extract_answer("Llama 3.1 8B", ["concurrency"])
    assert ex.values == {"model": "llama-3.1-8b"}


@pytest.mark.parametrize("text,field", [("兩台", "concurrency"), ("兩台", "count"), ("4 張卡", "nodes"), ("32k tokens", "concurrency"),
                                        ("48 GB", "users"), ("一台有 2 張 RTX 6000 Ada 的工作站 Qwen3 32B", "concurrency")])
def test_a_number_with_another_fields_unit_does_not_answer(text, field):
    assert field not in extract_answer(text, [field]).values


@pytest.mark.parametrize("text,field,value", [("兩台", "nodes", 2), ("4 張卡", "count", 4), ("32k tokens", "context_length", 32000)])
def test_a_number_with_the_fields_own_unit_answers(text, field, value):
    assert extract_answer(text, [field]).values[field] == value
