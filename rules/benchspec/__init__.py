"""Benchmark specs: from the user's workload to equivalent plans for four harnesses, and back.

    build_spec(profile, decision=None, estimate=None) -> BenchSpec   the plan (+ harness exports)
    read_results(paths) -> list[RunResult]                            harness JSON → one shape
    reconcile(results, spec=None, profile=None) -> Reconciliation     achieved vs predicted vs SLO
"""
from __future__ import annotations

from rules.benchspec.build import build_spec
from rules.benchspec.readers import RunResult, read_results
from rules.benchspec.reconcile import Reconciliation, reconcile
from rules.benchspec.spec import BenchSpec

__all__ = ["BenchSpec", "Reconciliation", "RunResult", "build_spec", "read_results", "reconcile"]
