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

from collections.abc import Callable, Hashable, Iterator, Mapping
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


def once_per_object(name: str, obj: object, compute: Callable[[], T]) -> T:
    """`compute()` once per turn for this very object (its identity, not its value: a state's
    profile dict is read into the same Profile by every node that never replaced it). The object is
    held until the turn ends, so its id cannot be taken by another; it must not change meanwhile."""
    memo = _TURN.get()
    if memo is None:
        return compute()
    key = ("per-object", name, id(obj))
    found = memo.get(key)
    if found is not None and found[0] is obj:
        return found[1]
    value = compute()
    memo[key] = (obj, value)
    return value


def dumped(data: T, model: object) -> T:
    """Note that `data` is `model`'s dump, for `typed` later in this turn; returns `data`."""
    memo = _TURN.get()
    if memo is not None and isinstance(data, dict):
        memo[("dumped", id(data))] = (data, model)
        memo[("dump-of", id(model))] = (model, data)
    return data


def dump_of(model: object) -> dict | None:
    """The dict `dumped` noted for this very object in this turn (None if none): a dump of something
    that holds it can reuse that dict instead of walking the object again."""
    memo = _TURN.get()
    found = memo.get(("dump-of", id(model))) if memo is not None else None
    return found[1] if found is not None and found[0] is model else None


def typed(cls: type, data: Mapping):
    """`cls.model_validate(data)`, or, when `data` is this very dict that `dumped` noted in this turn
    as the dump of a `cls`, that object (a tool result dumped into the state and read back by a later
    node: validating the dump again gives what was dumped). The dict must not have been changed since;
    the object is shared, so it must be treated as read-only (as every tool result is)."""
    memo = _TURN.get()
    found = memo.get(("dumped", id(data))) if memo is not None else None
    if found is not None and found[0] is data and type(found[1]) is cls:
        return found[1]
    return cls.model_validate(data)


_MISSING = object()


class _Reading(dict):
    """A copy of a facts dict that notes every key read (and its value): what a result depended on.
    Reading it whole (iterating, copying) notes every key."""

    def __init__(self, facts: Mapping):
        super().__init__(facts)
        self.read: dict = {}

    def get(self, key, default=None):
        self.read[key] = dict.get(self, key, _MISSING)
        return dict.get(self, key, default)

    def __getitem__(self, key):
        self.read[key] = dict.get(self, key, _MISSING)
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        self.read[key] = dict.get(self, key, _MISSING)
        return dict.__contains__(self, key)

    def _whole(self):
        self.read.update(dict.items(self))

    def __iter__(self):
        self._whole()
        return dict.__iter__(self)

    def __len__(self):
        self._whole()
        return dict.__len__(self)

    def keys(self):
        self._whole()
        return dict.keys(self)

    def values(self):
        self._whole()
        return dict.values(self)

    def items(self):
        self._whole()
        return dict.items(self)

    def copy(self):
        self._whole()
        return dict(dict.items(self))


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b   # 1 and True are equal, but not the same fact


def once_by_reads(name: str, facts: Mapping, compute: Callable[[Mapping], T]) -> T:
    """`compute(facts)` once per turn for the facts it actually reads: the first call runs it on a
    copy that notes each key read, and a later call whose facts agree on those keys gets the same
    value (a probe that changes only the workload reuses the kernel table of the profile it varies).
    Exact whatever `compute` reads, as long as it reads the facts only through the mapping."""
    memo = _TURN.get()
    if memo is None:
        return compute(facts)
    seen = memo.setdefault(("by-reads", name), [])
    for reads, value in seen:
        if all(_same(facts.get(k, _MISSING), v) for k, v in reads.items()):
            return value
    reading = _Reading(facts)
    value = compute(reading)
    seen.append((dict(reading.read), value))
    return value


def active() -> bool:
    """True inside a turn scope."""
    return _TURN.get() is not None
