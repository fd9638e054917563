"""`advisor` — the command line. Each subcommand lives in `ui/commands/<name>.py` and exposes
`add_parser(subparsers)` and `run(args) -> int`. Those modules import heavy libraries only inside
`run`, so `advisor --help` and deterministic `advisor ask` stay fast.
"""
from __future__ import annotations

import argparse
import importlib
import re
import sys

from knowledge import offline

COMMANDS = ("ask", "chat", "estimate", "size", "benchspec", "ingest", "search", "eval", "web", "api", "slack", "bench",
            "catalog")


class _Parser(argparse.ArgumentParser):
    """argparse that prints one clear line (not the whole usage) and exits 2."""

    def error(self, message: str) -> None:  # noqa: D401
        self.exit(2, f"advisor {self.prog.split()[-1] if ' ' in self.prog else ''}: error: {message} "
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


def _tolerant_streams() -> None:
    """Text that cannot be encoded (a lone surrogate from invalid UTF-8 in argv or a file name) is
    replaced on output instead of raising UnicodeEncodeError; invalid UTF-8 on stdin is read."""
    for stream, errors in ((sys.stdout, "replace"), (sys.stderr, "replace"), (sys.stdin, "surrogateescape")):
        try:   # stdin: invalid UTF-8 typed into `advisor chat` arrives as surrogates, cleaned per turn
            stream.reconfigure(errors=errors)
        except (AttributeError, ValueError):
            pass


def _json_requested(args) -> bool:
    return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `advisor` console script."""
    offline.apply()
    _tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    from rules.errors import AdvisorError
    from ui.output import json_mode
    module = importlib.import_module(f"ui.commands.{args.command}")
    try:
        with json_mode(_json_requested(args)):   # library chatter → stderr; stdout holds only the JSON
            return int(module.run(args) or 0)
    except AdvisorError as exc:   # in the language of what the user wrote
        print(f"advisor {args.command}: {exc.message(_input_lang(args))}", file=sys.stderr)
        return 2
    except BrokenPipeError:   # `advisor search … | head`: the reader left; not an error
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:      # the environment, not a bug: a read-only or full data directory
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"advisor {args.command}: {exc.strerror or type(exc).__name__}{where}; check that the data "
              "directory (ADVISOR_HOME) is writable and has space", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"advisor {args.command}: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"advisor {args.command}: the input is too large to process", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _input_lang(args: argparse.Namespace) -> str:
    """zh when the text the user gave (a question, a chat message, a query) is Traditional Chinese."""
    words = " ".join(str(v) for k, v in vars(args).items() if k in ("text", "query", "question") and v)
    return "zh" if re.search(r"[\u3400-\u9fff]", words) else "en"


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
