"""`advisor slack` — the Slack bot (Socket Mode or HTTP Events API)."""
from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    """Register `advisor slack`."""
    p = sub.add_parser("slack", help="run the Slack bot",
                       description="Run the Slack bot. Needs SLACK_BOT_TOKEN and either SLACK_APP_TOKEN "
                                   "(Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode, POST /slack/events). "
                                   "Create the app from ui/slack_manifest.yaml.")
    p.add_argument("--port", type=int, default=3000, help="HTTP mode port (default 3000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="HTTP mode address to bind (default 127.0.0.1; put a TLS proxy in front for Slack)")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from ui import slack_bot

    from rules.errors import InputError

    if not 1 <= args.port <= 65535:
        raise InputError("--port must be between 1 and 65535")
    slack_bot.serve(port=args.port, host=args.host)
    return 0
