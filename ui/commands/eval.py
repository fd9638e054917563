"""`advisor eval` — golden Q&A and the other suites; ends with `N passed, N failed`."""
from __future__ import annotations

import argparse

SUITE_CHOICES = ("golden", "retrieval", "extraction", "estimator", "all")


def add_parser(sub) -> None:
    """Register `advisor eval`."""
    p = sub.add_parser("eval", help="run the eval suites (golden cases by default)",
                       description="Run eval cases and print one line per case, a table of failures and "
                                   "'N passed, N failed'. Exit 0 only when none failed.")
    p.add_argument("--cases", type=str, default=None, metavar="DIR",
                   help="folder of golden case YAML files (default: the shipped evals/cases)")
    p.add_argument("--suite", choices=SUITE_CHOICES, default="golden",
                   help="which suite to run (default: golden)")
    p.add_argument("--split", action="append", default=None, metavar="SPLIT",
                   help="extraction suite only: score just this split (curated, dev, heldout, forum, forum2, forum3, forum4, forum5, forum6, forum7); "
                        "repeat for several (default: all)")
    p.add_argument("--json", dest="json_path", default=None, metavar="FILE",
                   help="also write the results as JSON to FILE")
    p.add_argument("--model", default=None,
                   help="run through an LLM (a litellm model string, e.g. openai/gpt-4o-mini); "
                        "default: ADVISOR_MODEL, else deterministic mode")


def run(args: argparse.Namespace) -> int:
    """Run the suites; exit 1 when a case failed, 2 on bad input."""
    import sys
    from pathlib import Path

    from evals import runner
    from rules.errors import InputError

    cases = Path(args.cases) if args.cases else None
    if cases is not None and not cases.is_dir():
        raise InputError(f"--cases: '{args.cases}' is not a folder")
    if cases is not None and args.suite not in ("golden", "all"):
        raise InputError("--cases applies to the golden suite only")
    splits = tuple(args.split or ())
    if splits and args.suite != "extraction":
        raise InputError("--split applies to the extraction suite only")
    from evals.suites.extraction import SPLITS
    unknown = [s for s in splits if s not in SPLITS]
    if unknown:
        raise InputError(f"--split: unknown split '{unknown[0]}' (choose from {', '.join(SPLITS)})")
    json_path = Path(args.json_path) if args.json_path else None
    if json_path is not None and not json_path.parent.exists():
        raise InputError(f"--json: folder '{json_path.parent}' does not exist")
    return runner.main(args.suite, cases, json_path, args.model, sys.stdout, splits or None)
