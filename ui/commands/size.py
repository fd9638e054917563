"""`advisor size TEXT [--json]`: the other way round, ranked hardware options for a model, a load
and latency targets (device x count, the plan, predicted figures, cost where prices are known)."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    """Register `advisor size`."""
    p = sub.add_parser(
        "size", help="what hardware to buy: ranked options for a model, a load and latency targets",
        description="Size the hardware for a model at a load: every serving device of the catalog is planned at\n"
                    "growing counts until it meets the TTFT and TPOT targets; the options are ranked.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  advisor size \"what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?\"\n"
               "  advisor size \"Qwen3 32B, 64 concurrent requests, TPOT under 40 ms\" --json\n"
               "  advisor size \"Llama 3.1 70B 要服務 100 個同時請求，首字延遲 1 秒內\"")
    p.add_argument("text", metavar="TEXT", help="the model, the load and (optionally) TTFT/TPOT targets")
    p.add_argument("--json", action="store_true", help="print the options as one JSON object")


def run(args) -> int:
    """Size and print."""
    from agent.sizing import render, size_text
    from rules.errors import InputError
    if not (args.text or "").strip():
        raise InputError("nothing to size: describe the model and the load")
    result = size_text(args.text)
    if args.json:
        from ui.output import print_json
        print_json(result)
    else:
        print(render(result), end="")
    return 0
