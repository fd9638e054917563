"""Shared pieces of the harness exports: the script header, naming and shell formatting.

Every export is a small POSIX shell script: it asks for the server URL and model name, then runs
one command per run and concurrency level. Result files are named `<engine>-<run>-c<level>.*` so
`advisor benchspec reconcile` can tell engine, run and level apart without extra input.
"""
from __future__ import annotations

import json
import math
import shlex

from rules.benchspec.spec import BenchSpec, LengthDist, Level, Run

LINE_WIDTH = 96
RESULT_STEM = "${ENGINE}-%s-c%d"
SEED = 42
MAX_ADAPTER_NAMES = 32


def stem(run: Run, level: Level) -> str:
    """Result file stem of one run and level (contains the $ENGINE shell variable)."""
    return RESULT_STEM % (run.id, level.concurrency)


def lit(value: object) -> str:
    """A literal shell word (quoted only when needed)."""
    return shlex.quote(str(value))


def var(text: str) -> str:
    """A double-quoted shell word that may expand variables."""
    return f'"{text}"'


def as_json(obj: object) -> str:
    """Compact JSON, single-quoted for the shell."""
    return shlex.quote(json.dumps(obj, separators=(",", ":")))


def suffix(run: Run) -> LengthDist:
    """The per-request (non-shared) part of the prompt lengths."""
    p = run.shared_prefix_tokens
    return LengthDist(kind=run.input.kind, mean=max(1, run.input.mean - p),
                      min=max(1, run.input.min - p), max=max(1, run.input.max - p))


def uniform_stddev(dist: LengthDist) -> float:
    """Standard deviation of a uniform distribution over [min, max] (for normal-only harnesses)."""
    return round((dist.max - dist.min) / math.sqrt(12), 1)


def adapter_names(n: int) -> list[str]:
    """Placeholder LoRA adapter names (capped so command lines stay usable)."""
    return [f"lora-{i}" for i in range(1, min(n, MAX_ADAPTER_NAMES) + 1)]


def command(program: str, args: list[tuple[str, str | None]]) -> str:
    """One command, wrapped with line continuations; each arg is (flag, value or None)."""
    words = [f"{flag} {value}" if value is not None else flag for flag, value in args]
    lines, current = [], program
    for word in words:
        if len(current) + 1 + len(word) > LINE_WIDTH:
            lines.append(current + " \\")
            current = "    " + word
        else:
            current += " " + word
    lines.append(current)
    return "\n".join(lines)


def header(spec: BenchSpec, title: str, how: str, extra: list[str] | None = None) -> list[str]:
    """Comment block and the variables every export uses."""
    model = spec.scenario.model.name or spec.scenario.model.id or "the model"
    hw = spec.scenario.hardware
    where = f"{hw.count} x {hw.name or hw.id}" if (hw.name or hw.id) else "your hardware"
    engine = spec.scenario.engines[0].id if spec.scenario.engines else "engine"
    lines = ["#!/bin/sh",
             f"# {title}: benchmark plan for {model} on {where} (written by `advisor benchspec`).",
             f"# {how}"]
    lines += [f"# {line}" for line in (extra or [])]
    return lines + [
        "# Start the engine under test, then set BASE_URL and MODEL (ENGINE names the result files).",
        ": \"${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:8000}\"",
        ": \"${MODEL:?set MODEL to the model name the server serves}\"",
        f"ENGINE=\"${{ENGINE:-{engine}}}\"",
        "TOKENIZER=\"${TOKENIZER:-$MODEL}\"",
        "OUT=\"${OUT:-results}\"",
        "mkdir -p \"$OUT\"",
    ]


def run_comment(run: Run) -> list[str]:
    """Comment lines introducing a run."""
    out = ["", f"# --- run '{run.id}': {run.purpose}"]
    out += [f"# {note}" for note in run.notes]
    return out
