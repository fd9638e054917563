"""Helpers of the reliability suite: call an entry point, classify the outcome, count CPU time."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest

from rules.errors import AdvisorError

CPU_LIMIT_S = 5.0          # issue 17: no call over 5 s of CPU (generous: the machine is shared)


@dataclass
class Tally:
    """What one suite saw: inputs tried, uncaught exceptions, the slowest call (CPU seconds)."""

    tried: int = 0
    crashes: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    max_cpu: float = 0.0
    max_rss_mb: float = 0.0
    """Peak resident memory of a subprocess (CLI suites only)."""


TALLIES: dict[str, Tally] = {}


def call(suite: str, fn, *args, **kwargs):
    """Run `fn`; an AdvisorError is the expected one-line refusal, anything else is a crash.
    Returns ("ok", value) or ("error", message); records CPU time."""
    tally = TALLIES.setdefault(suite, Tally())
    tally.tried += 1
    start = time.process_time()
    try:
        outcome = ("ok", fn(*args, **kwargs))
    except AdvisorError as exc:
        outcome = ("error", str(exc))
    except Exception as exc:  # noqa: BLE001 - the point of the suite
        tally.crashes.append(f"{type(exc).__name__}: {str(exc)[:120]} <- {args!r:.80}")
        outcome = ("crash", exc)
    cpu = time.process_time() - start
    tally.max_cpu = max(tally.max_cpu, cpu)
    if cpu > CPU_LIMIT_S:
        tally.slow.append(f"{cpu:.1f}s <- {args!r:.80}")
    return outcome


def assert_clean(suite: str, outcome) -> None:
    """Not a crash; an error is one line."""
    kind, value = outcome
    assert kind != "crash", f"{suite}: {type(value).__name__}: {value}"
    if kind == "error":
        assert "\n" not in value.strip(), f"{suite}: error is not one line: {value!r}"
        assert "Traceback" not in value
