"""Helpers of the reliability suite: call an entry point, classify the outcome, count CPU time."""
from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field

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


class _Hang(BaseException):
    """Raised by the CPU-time alarm in count-only mode (a BaseException: code that catches
    Exception broadly must not swallow it)."""


def _alarm(signum, frame):
    raise _Hang()


def call(suite: str, fn, *args, **kwargs):
    """Run `fn`; an AdvisorError is the expected one-line refusal, anything else is a crash.
    Returns ("ok", value) or ("error", message); records CPU time. In count-only mode a call is
    stopped after 3x the CPU limit and counted as a hang (an older build can then be measured)."""
    tally = TALLIES.setdefault(suite, Tally())
    tally.tried += 1
    # the calling thread's CPU only: servers left running by other tests in this process (tests/web)
    # would otherwise be billed to this call
    start = time.thread_time()
    if COUNT_ONLY:
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, 3 * CPU_LIMIT_S)
    try:
        outcome = ("ok", fn(*args, **kwargs))
    except AdvisorError as exc:
        outcome = ("error", str(exc))
    except _Hang:
        outcome = ("hang", None)
    except Exception as exc:  # noqa: BLE001 - the point of the suite
        tally.crashes.append(f"{type(exc).__name__}: {str(exc)[:120]} <- {args!r:.80}")
        outcome = ("crash", exc)
    finally:
        if COUNT_ONLY:
            signal.setitimer(signal.ITIMER_PROF, 0)
    cpu = time.thread_time() - start
    tally.max_cpu = max(tally.max_cpu, cpu)
    if cpu > CPU_LIMIT_S:
        tally.slow.append(f"{cpu:.1f}s <- {args!r:.80}")
    return outcome


COUNT_ONLY = os.environ.get("RELIABILITY_COUNT_ONLY") == "1"
"""Tally crashes without failing (to measure an older build: how many crashes, not the first)."""


def assert_clean(suite: str, outcome) -> None:
    """Not a crash; an error is one line."""
    kind, value = outcome
    if COUNT_ONLY:
        return
    assert kind != "crash", f"{suite}: {type(value).__name__}: {value}"
    if kind == "error":
        assert "\n" not in value.strip(), f"{suite}: error is not one line: {value!r}"
        assert "Traceback" not in value
