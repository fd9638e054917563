"""What the CLI writes to stdout: with `--json`, exactly one valid JSON document.

While a `--json` command runs, `sys.stdout` points at stderr, so anything a library prints (litellm's
"Give Feedback" banner, progress lines) cannot corrupt the JSON; `print_json` writes the document to
the real stdout with NaN/Infinity replaced by null (`rules.inputs.dumps`).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Iterator

_real_stdout = None


@contextmanager
def json_mode(enabled: bool) -> Iterator[None]:
    """Route stray prints to stderr for the duration (when `enabled`)."""
    global _real_stdout
    if not enabled:
        yield
        return
    _real_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout, _real_stdout = _real_stdout, None


def print_json(obj: Any, indent: int | None = 2) -> None:
    """One JSON document on the real stdout (valid JSON: no NaN/Infinity)."""
    from rules.inputs import dumps
    out = _real_stdout or sys.stdout
    out.write(dumps(obj, indent=indent) + "\n")
    out.flush()


def print_text(text: str) -> None:
    """Text on the real stdout (a JSON document already serialised, or any output in json_mode)."""
    out = _real_stdout or sys.stdout
    out.write(text + "\n")
    out.flush()
