"""The golden Q&A suite: each case runs a whole conversation and checks its expectations."""
from __future__ import annotations

from pathlib import Path

from evals.cases_schema import load_cases
from evals.checks import check
from evals.simulate import converse
from evals.suite import CaseOutcome, SuiteReport

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"


def run(cases_dir: Path | None = None, model: str | None = None, **_: object) -> SuiteReport:
    """Run every case of `cases_dir` (default evals/cases) through a fresh advisor."""
    from agent.api import Advisor

    cases = load_cases(Path(cases_dir) if cases_dir else CASES_DIR)
    advisor = Advisor(model=model)
    outcomes = []
    for case in cases:
        result, questions = converse(advisor, case.turns, case.answers)
        failures = check(case.expect, result, questions)
        outcomes.append(CaseOutcome(case.id, not failures, failures, questions, result))
    total = len(outcomes) or 1
    return SuiteReport("golden", outcomes, {"pass_rate": sum(o.passed for o in outcomes) / total})
