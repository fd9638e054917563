"""Condition trees: validation of shapes and evaluation with the facts that made them hold."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.conditions import Condition, evaluate


def cond(data: dict) -> Condition:
    return Condition.model_validate(data)


FACTS = {"hw_class": "apple", "device_count": 1, "serving_mode": None, "long_context": True, "quant": "exl2-4.0"}


@pytest.mark.parametrize("data, expected", [
    ({"field": "hw_class", "op": "eq", "value": "apple"}, True),
    ({"field": "hw_class", "op": "ne", "value": "apple"}, False),
    ({"field": "hw_class", "op": "in", "value": ["consumer", "apple"]}, True),
    ({"field": "device_count", "op": "gte", "value": 1}, True),
    ({"field": "device_count", "op": "gt", "value": 1}, False),
    ({"field": "device_count", "op": "lt", "value": 2}, True),
    ({"field": "device_count", "op": "lte", "value": 0}, False),
    ({"field": "serving_mode", "op": "is_null"}, True),
    ({"field": "serving_mode", "op": "not_null"}, False),
    ({"field": "quant", "op": "contains", "value": "exl2"}, True),
])
def test_leaf_operators(data, expected):
    assert evaluate(cond(data), FACTS) is expected


def test_unknown_fact_never_fires_a_comparison():
    for op, value in (("eq", "team"), ("ne", "team"), ("in", ["team"]), ("contains", "t")):
        assert evaluate(cond({"field": "serving_mode", "op": op, "value": value}), FACTS) is False
    assert evaluate(cond({"field": "serving_mode", "op": "gte", "value": 1}), FACTS) is False
    # ... so `not` over it holds: we do not know the mode is team.
    assert evaluate(cond({"not": {"field": "serving_mode", "op": "eq", "value": "team"}}), FACTS) is True


def test_numeric_ops_ignore_booleans():
    assert evaluate(cond({"field": "long_context", "op": "gte", "value": 0}), FACTS) is False


def test_all_any_not_and_recorded_values():
    tree = cond({"all": [
        {"field": "hw_class", "op": "eq", "value": "apple"},
        {"any": [{"field": "device_count", "op": "gt", "value": 4}, {"field": "long_context", "op": "eq", "value": True}]},
        {"not": {"field": "serving_mode", "op": "eq", "value": "production"}},
    ]})
    seen: dict = {}
    assert evaluate(tree, FACTS, seen) is True
    # the false branch of `any` (device_count) is not part of why it fired
    assert seen == {"hw_class": "apple", "long_context": True, "serving_mode": None}


def test_failing_all_short_circuits():
    tree = cond({"all": [{"field": "hw_class", "op": "eq", "value": "cpu"}, {"field": "device_count", "op": "eq", "value": 1}]})
    assert evaluate(tree, FACTS) is False
    tree = cond({"any": [{"field": "hw_class", "op": "eq", "value": "cpu"}, {"field": "device_count", "op": "eq", "value": 2}]})
    assert evaluate(tree, FACTS) is False


@pytest.mark.parametrize("data, message", [
    ({}, "exactly one"),
    ({"all": [], "field": "x", "op": "eq", "value": 1}, "exactly one"),
    ({"all": []}, "at least one child"),
    ({"field": "x"}, "needs an op"),
    ({"field": "x", "op": "eq"}, "needs a value"),
    ({"field": "x", "op": "is_null", "value": 1}, "takes no value"),
    ({"field": "x", "op": "in", "value": "a"}, "list value"),
    ({"field": "x", "op": "gte", "value": "8"}, "needs a number"),
    ({"field": "x", "op": "between", "value": 1}, "op"),
    ({"all": [{"field": "x", "op": "eq", "value": 1}], "op": "eq"}, "belong to a leaf"),
])
def test_bad_shapes_are_rejected(data, message):
    with pytest.raises(ValidationError, match=message):
        cond(data)


def test_leaves_lists_every_leaf():
    tree = cond({"any": [{"field": "a", "op": "is_null"}, {"not": {"all": [{"field": "b", "op": "eq", "value": 1}]}}]})
    assert [leaf.field for leaf in tree.leaves()] == ["a", "b"]
