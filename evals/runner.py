"""Run eval suites, print one line per case and a table of failures, export JSON."""
from __future__ import annotations

import importlib
import json
import time
from pathlib import Path
from typing import Any, TextIO

from evals.suite import SuiteReport

SUITES = ("golden", "retrieval", "extraction", "estimator")


def run_suites(names: list[str], cases_dir: Path | None = None, model: str | None = None,
               splits: tuple[str, ...] | None = None) -> list[SuiteReport]:
    """Run the named suites in order (`splits`: only those splits of the extraction suite)."""
    reports = []
    for name in names:
        module = importlib.import_module(f"evals.suites.{name}")
        opts: dict[str, Any] = {"model": model}
        if name == "golden" and cases_dir is not None:
            opts["cases_dir"] = cases_dir
        if name == "extraction" and splits:
            opts["splits"] = splits
        reports.append(module.run(**opts))
    return reports


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def print_report(reports: list[SuiteReport], out: TextIO, elapsed_s: float) -> None:
    """One line per case, each suite's metrics, a Markdown table of failures, the closing line."""
    for rep in reports:
        print(f"## suite {rep.name}", file=out)
        for case in rep.cases:
            mark = "PASS" if case.passed else "FAIL"
            print(f"{mark} {rep.name}/{case.id}", file=out)
        if rep.metrics:
            shown = ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in rep.metrics.items())
            print(f"metrics {rep.name}: {shown}", file=out)
        for line in rep.summary:
            print(f"summary {rep.name}: {line}", file=out)
    failed = [(r.name, c) for r in reports for c in r.cases if not c.passed]
    if failed:
        print("\n| suite | case | expectation that failed (what came back) |", file=out)
        print("|---|---|---|", file=out)
        for suite, case in failed:
            for reason in case.failures or ["failed"]:
                print(f"| {suite} | {_cell(case.id)} | {_cell(reason)} |", file=out)
    passed = sum(r.passed for r in reports)
    nfail = sum(r.failed for r in reports)
    print(f"\n(took {elapsed_s:.1f} s)", file=out)
    print(f"{passed} passed, {nfail} failed", file=out)


def to_json(reports: list[SuiteReport]) -> dict[str, Any]:
    """The `advisor eval --json` object of DESIGN.md (plus per-suite metrics)."""
    cases = [
        {"id": c.id if len(reports) == 1 else f"{r.name}/{c.id}", "suite": r.name, "passed": c.passed,
         "failures": c.failures, "questions": c.questions, "result": c.result}
        for r in reports for c in r.cases
    ]
    return {
        "passed": sum(r.passed for r in reports),
        "failed": sum(r.failed for r in reports),
        "metrics": {r.name: r.metrics for r in reports},
        "cases": cases,
    }


def main(suite: str, cases_dir: Path | None, json_path: Path | None, model: str | None, out: TextIO,
         splits: tuple[str, ...] | None = None) -> int:
    """Run, print and export; 0 only when no case failed."""
    names = list(SUITES) if suite == "all" else [suite]
    t0 = time.perf_counter()
    reports = run_suites(names, cases_dir, model, splits)
    print_report(reports, out, time.perf_counter() - t0)
    if json_path is not None:
        json_path.write_text(json.dumps(to_json(reports), ensure_ascii=False, indent=2, default=str), encoding="utf-8")
    return 0 if all(r.failed == 0 for r in reports) else 1
