"""`advisor chat` (not built yet: its issue owns this module)."""
from __future__ import annotations


def add_parser(sub) -> None:
    """Register `advisor chat`."""
    sub.add_parser("chat", help="(not available yet)")


def run(args) -> int:
    """Not available yet."""
    from rules.errors import InputError
    raise InputError("'chat' is not available in this build yet")
