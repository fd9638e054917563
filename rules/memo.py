"""Results shared within one turn.

A turn asks some pure questions more than once: the rule engine and the planner both derive the
facts of the same profile, and retrieval checks that the knowledge store is current before the
lookup and again before the search. Inside `with turn():` (the graph opens one around each of its
steps) `once(key, compute)` computes such a result the first time and hands the same value back
after. The scope is the turn and nothing else: it is dropped when the step ends, so no result is
carried into the next turn or another conversation (an edited catalog or corpus is seen on the next
turn exactly as before), and outside a turn `once` simply computes.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

_TURN: ContextVar[dict | None] = ContextVar("advisor_turn_memo", default=None)


@contextmanager
def turn() -> Iterator[None]:
    """Open a fresh turn scope (a nested one starts empty and ends with its block)."""
    token = _TURN.set({})
    try:
        yield
    finally:
        _TURN.reset(token)


def once(key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, computed once per turn for `key` (every call outside a turn computes). A call
    that raises stores nothing. The value is shared: callers must not mutate it."""
    memo = _TURN.get()
    if memo is None:
        return compute()
    if key in memo:
        return memo[key]
    value = memo[key] = compute()
    return value


def active() -> bool:
    """True inside a turn scope."""
    return _TURN.get() is not None
