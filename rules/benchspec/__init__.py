"""Benchmark specs: from the user's workload to equivalent plans for four harnesses, and back.

    build_spec(profile, decision=None, estimate=None) -> BenchSpec   the plan (+ harness exports)
    read_results(paths) -> list[RunResult]                            harness JSON → one shape
    reconcile(results, spec=None, profile=None) -> Reconciliation     achieved vs predicted vs SLO
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from rules.benchspec.build import build_spec
from rules.benchspec.spec import BenchSpec

if TYPE_CHECKING:
    from rules.benchspec.readers import RunResult, read_results
    from rules.benchspec.reconcile import Reconciliation, reconcile

_LAZY = {"RunResult": "readers", "read_results": "readers", "Reconciliation": "reconcile", "reconcile": "reconcile"}
"""Names whose modules load on first use: reading harness results is not part of answering a question."""


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f"rules.benchspec.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'rules.benchspec' has no attribute {name!r}")


__all__ = ["BenchSpec", "Reconciliation", "RunResult", "build_spec", "read_results", "reconcile"]
