"""`advisor web` — the Gradio app on 127.0.0.1 (MCP tools on)."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    """Register `advisor web`."""
    p = sub.add_parser("web", help="start the web app (Gradio, MCP tools on)",
                       description="Start the chat web app on 127.0.0.1:7860 with MCP tools "
                                   "(recommend, estimate, benchmark_spec, search_knowledge).")
    p.add_argument("--port", type=int, default=7860, help="port (default 7860)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")


def run(args: argparse.Namespace) -> int:
    """Start and serve until interrupted."""
    from rules.errors import InputError

    if not 1 <= args.port <= 65535:
        raise InputError("--port must be between 1 and 65535")
    from ui import web

    print(f"Engine Advisor on http://{args.host}:{args.port}  (MCP: /gradio_api/mcp/sse; "
          "health: /healthz, /readyz)", flush=True)
    web.launch(port=args.port, host=args.host)
    return 0
