"""`advisor` — the command line. Each subcommand lives in `ui/commands/<name>.py` and exposes
`add_parser(subparsers)` and `run(args) -> int`. Those modules import heavy libraries only inside
`run`, so `advisor --help` and deterministic `advisor ask` stay fast.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from knowledge import offline

COMMANDS = ("ask", "chat", "estimate", "size", "benchspec", "ingest", "search", "eval", "web", "api", "slack", "bench",
            "catalog")


class _Parser(argparse.ArgumentParser):
    """argparse that prints one clear line (not the whole usage) and exits 2."""

    def error(self, message: str) -> None:  # noqa: D401
        self.exit(2, f"advisor {self.prog.split()[-1] if ' ' in self.prog else ''}: error: {message}\n"
                     f"(see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole CLI, built from each command module's `add_parser`."""
    parser = _Parser(prog="advisor", description="Engine Advisor: choose an LLM inference engine "
                     "from your hardware, workload and serving mode, with cited reasons.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"ui.commands.{name}")
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `advisor` console script."""
    offline.apply()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    from rules.errors import AdvisorError
    module = importlib.import_module(f"ui.commands.{args.command}")
    try:
        return int(module.run(args) or 0)
    except AdvisorError as exc:
        print(f"advisor {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # `advisor search … | head`: the reader left; not an error
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
