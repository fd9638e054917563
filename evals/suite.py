"""What every eval suite returns, so one runner can print, tabulate and export them all.

A suite is a module `evals/suites/<name>.py` with `run(**options) -> SuiteReport`.
Suites: golden (agent cases), retrieval (knowledge), extraction (agent extractor),
estimator (roofline vs measurements).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CaseOutcome:
    """One case: passed or not, and why not (one text per failed expectation)."""

    id: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None


@dataclass
class SuiteReport:
    """A suite's cases plus its headline metrics (e.g. hit@5, median error)."""

    name: str
    cases: list[CaseOutcome]
    metrics: dict[str, float] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    """Headline lines printed after the metrics (e.g. the estimator's held-out errors)."""

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def failed(self) -> int:
        return sum(not c.passed for c in self.cases)
