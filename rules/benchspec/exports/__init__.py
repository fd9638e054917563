"""Harness exports: one module per harness, each `export(spec) -> str` (a shell script)."""
from __future__ import annotations

from collections.abc import Callable

from rules.benchspec.exports import aiperf, guidellm, sglang, vllm
from rules.benchspec.spec import HARNESSES, BenchSpec
from rules.errors import InputError

EXPORTERS: dict[str, Callable[[BenchSpec], str]] = {
    "vllm": vllm.export, "sglang": sglang.export, "guidellm": guidellm.export, "aiperf": aiperf.export,
}
PROGRAMS: dict[str, str] = {
    "vllm": vllm.PROGRAM, "sglang": sglang.PROGRAM, "guidellm": guidellm.PROGRAM, "aiperf": aiperf.PROGRAM,
}


def export_all(spec: BenchSpec, harness: str = "all") -> dict[str, str]:
    """Harness name → script text, for every harness or just one."""
    if harness != "all" and harness not in EXPORTERS:
        raise InputError(f"unknown harness '{harness}' (known: all, {', '.join(HARNESSES)})")
    names = HARNESSES if harness == "all" else (harness,)
    return {name: EXPORTERS[name](spec) for name in names}
