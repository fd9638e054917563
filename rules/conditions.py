"""Condition trees of the rules (`all` / `any` / `not` / leaf) and their evaluation with a trace.

A leaf compares one fact: `{field: hw_class, op: eq, value: apple}`. A leaf on an unknown fact
(None) is false for every operator except `is_null`, so "we don't know" never fires a rule by
accident; `not` over such a leaf is true (we do not know that it holds).
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Op = Literal["eq", "ne", "in", "gte", "lte", "gt", "lt", "is_null", "not_null", "contains"]
_NUMERIC_OPS = {"gte", "lte", "gt", "lt"}
_NO_VALUE_OPS = {"is_null", "not_null"}


class Condition(BaseModel):
    """One node of a condition tree: exactly one of `all`, `any`, `not` or a leaf (`field`+`op`)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", populate_by_name=True, frozen=True)
    all: list["Condition"] | None = None
    """True when every child is true."""
    any: list["Condition"] | None = None
    """True when at least one child is true."""
    not_: "Condition | None" = Field(default=None, alias="not")
    """True when the child is false."""
    field: str | None = None
    """The fact a leaf reads (a name from `rules.facts.Facts`)."""
    op: Op | None = None
    value: Any = None

    @model_validator(mode="after")
    def _one_shape(self) -> "Condition":
        shapes = [n for n, v in (("all", self.all), ("any", self.any), ("not", self.not_), ("field", self.field))
                  if v is not None]
        if len(shapes) != 1:
            raise ValueError(f"a condition needs exactly one of all/any/not/field, got {shapes or 'none'}")
        if self.field is None:
            if self.op is not None or self.value is not None:
                raise ValueError("op/value belong to a leaf (with field)")
            if self.all is not None and not self.all or self.any is not None and not self.any:
                raise ValueError("all/any need at least one child")
            return self
        if self.op is None:
            raise ValueError(f"leaf on '{self.field}' needs an op")
        if self.op in _NO_VALUE_OPS:
            if self.value is not None:
                raise ValueError(f"op {self.op} takes no value")
        elif self.value is None:
            raise ValueError(f"op {self.op} needs a value")
        elif self.op == "in" and not isinstance(self.value, list):
            raise ValueError("op 'in' needs a list value")
        elif self.op in _NUMERIC_OPS and (isinstance(self.value, bool) or not isinstance(self.value, (int, float))):
            raise ValueError(f"op {self.op} needs a number")
        return self

    def leaves(self) -> list["Condition"]:
        """Every leaf of the tree, in order (for load-time validation)."""
        if self.field is not None:
            return [self]
        kids = self.all or self.any or [self.not_]
        return [leaf for kid in kids for leaf in kid.leaves()]


def _compare(op: str, fact: Any, value: Any) -> bool:
    if op == "is_null":
        return fact is None
    if op == "not_null":
        return fact is not None
    if fact is None:
        return False
    if op == "eq":
        return fact == value
    if op == "ne":
        return fact != value
    if op == "in":
        return fact in value
    if op == "contains":
        return value in fact
    if isinstance(fact, bool) or not isinstance(fact, (int, float)):
        return False
    return {"gte": fact >= value, "lte": fact <= value, "gt": fact > value, "lt": fact < value}[op]


def compile_condition(cond: Condition) -> Callable[[dict[str, Any]], bool]:
    """`evaluate(cond, facts)` as a function of the facts, without recording what was read: the
    rule engine tests every rule with it (most do not fire) and records the facts of those that do.
    Built once per rule; each leaf keeps `_compare`'s meaning (an unknown fact fails every operator
    but `is_null`; a number compares only with a number that is not a bool)."""
    if cond.field is not None:
        return _leaf(cond.field, cond.op, cond.value)
    if cond.not_ is not None:
        inner = compile_condition(cond.not_)
        return lambda facts: not inner(facts)
    kids = tuple(compile_condition(k) for k in (cond.all if cond.all is not None else cond.any))
    if cond.all is not None:
        def every(facts: dict[str, Any]) -> bool:
            for kid in kids:
                if not kid(facts):
                    return False
            return True
        return every

    def some(facts: dict[str, Any]) -> bool:
        for kid in kids:
            if kid(facts):
                return True
        return False
    return some


def _number(x: Any) -> bool:
    return x is not None and not isinstance(x, bool) and isinstance(x, (int, float))


def _leaf(field: str, op: str, value: Any) -> Callable[[dict[str, Any]], bool]:
    if op == "is_null":
        return lambda f: f.get(field) is None
    if op == "not_null":
        return lambda f: f.get(field) is not None
    if op == "eq":
        return lambda f: (x := f.get(field)) is not None and x == value
    if op == "ne":
        return lambda f: (x := f.get(field)) is not None and x != value
    if op == "in":
        return lambda f: (x := f.get(field)) is not None and x in value
    if op == "contains":
        return lambda f: (x := f.get(field)) is not None and value in x
    compare = {"gte": operator.ge, "lte": operator.le, "gt": operator.gt, "lt": operator.lt}[op]
    return lambda f: _number(x := f.get(field)) and compare(x, value)


def evaluate(cond: Condition, facts: dict[str, Any], seen: dict[str, Any] | None = None,
             _every: bool = False) -> bool:
    """Evaluate `cond` over `facts`; the facts read on the deciding path are added to `seen`."""
    seen = {} if seen is None else seen
    if cond.field is not None:
        fact = facts.get(cond.field)
        seen[cond.field] = fact
        return _compare(cond.op, fact, cond.value)
    if cond.not_ is not None:
        # Under `not`, whatever was read is what made it hold: keep every read.
        return not evaluate(cond.not_, facts, seen, True)
    kids, want = (cond.all, False) if cond.all is not None else (cond.any, True)
    for kid in kids:
        scratch: dict[str, Any] = {}
        hit = evaluate(kid, facts, scratch, _every)
        if _every or hit:
            seen.update(scratch)
        if hit == want:
            return want
    return not want
