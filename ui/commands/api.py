"""`advisor api` — the JSON API alone (ui.http_api), in one or more worker processes."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    """Register `advisor api`."""
    p = sub.add_parser("api", help="serve the JSON API (POST /api/turn) in worker processes",
                       description="Serve the JSON API (POST /api/turn, GET /api/advice/THREAD, /healthz, "
                                   "/readyz) on 127.0.0.1:7861. Workers share the conversation store, so "
                                   "any worker continues any conversation.")
    p.add_argument("--port", type=int, default=7861, help="port (default 7861)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2: one per core here)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from rules.errors import InputError

    if not 1 <= args.port <= 65535:
        raise InputError("--port must be between 1 and 65535")
    if not 1 <= args.workers <= 64:
        raise InputError("--workers must be between 1 and 64")
    import uvicorn

    print(f"Engine Advisor API on http://{args.host}:{args.port}/api/turn  ({args.workers} workers)", flush=True)
    uvicorn.run("ui.http_api:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                log_level="warning", access_log=False)
    return 0
