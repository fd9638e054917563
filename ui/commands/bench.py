"""`advisor bench` — the performance benchmark (JSON on stdout)."""
from __future__ import annotations

import argparse

PARTS = ("cold_ask", "warm_turn", "answer_turn", "retrieval", "golden_suite", "web_idle", "api_concurrency",
         "api_in_web", "web_concurrency", "web_shared", "mcp", "llm")


def add_parser(sub) -> None:
    """Register `advisor bench`."""
    p = sub.add_parser("bench", help="measure cold ask, warm turns, retrieval, golden suite, web RSS",
                       description="Performance benchmark: medians over repeated runs, as JSON, with the "
                                   "machine described and each figure beside its target.")
    p.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    p.add_argument("--skip", action="append", default=[], choices=PARTS, help="skip a part (repeatable)")
    p.add_argument("--only", action="append", default=[], choices=PARTS,
                   help="measure only this part (repeatable); the others are skipped")
    p.add_argument("--out", default=None, metavar="FILE", help="also write the JSON to FILE")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark."""
    from pathlib import Path

    from evals import bench
    from rules.errors import InputError

    if args.repeat < 1 or args.repeat > 1000:
        raise InputError("--repeat must be between 1 and 1000")
    skip = tuple(args.skip) + tuple(p for p in PARTS if args.only and p not in args.only)
    return bench.main(args.repeat, skip, Path(args.out) if args.out else None)
