"""Errors the advisor shows to people.

    AdvisorError                 anything the advisor reports as one clear line
    ├── InputError               the user's input is wrong (CLI exit 2)
    │   ├── ProfileError         an impossible or inconsistent profile value (names the field)
    │   └── UnknownIdError       an id that no catalog knows (lists the closest known ones)
    └── DataError                a shipped data file is broken or lacks a fact (file, entry, field)
        └── MissingFactError     a catalog has no value for a fact a computation needs

Expected outcomes (a model that does not fit, no feasible plan) are results, never exceptions.
"""
from __future__ import annotations

import difflib


MAX_MESSAGE = 400


def _fold(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_MESSAGE else line[:MAX_MESSAGE - 1] + "…"


class AdvisorError(Exception):
    """Base class: `str(err)` is the one line shown to the user. Whatever a message quotes (a
    user's text with newlines, a 100 KB name) is folded onto one line and shortened. Errors a
    zh-Hant user can cause by what they write carry the line in zh-Hant too (`zh`)."""

    def __init__(self, *args, zh: str | None = None):
        if args and isinstance(args[0], str):
            args = (_fold(args[0]), *args[1:])
        self.zh = _fold(zh) if zh else None
        super().__init__(*args)

    def message(self, lang: str | None = "en") -> str:
        """The one line in the user's language (English when no zh-Hant line was written)."""
        return (self.zh if lang == "zh" and self.zh else None) or " ".join(str(self).split()) or type(self).__name__


class InputError(AdvisorError):
    """The user's input cannot be used as given."""


class ProfileError(InputError):
    """A profile value is impossible; `field` names it."""

    def __init__(self, field: str, message: str, zh: str | None = None):
        self.field = field
        super().__init__(f"{field}: {message}", zh=f"{field}：{zh}" if zh else None)


class UnknownIdError(InputError):
    """An id is not in a catalog; the message lists the closest known ids."""

    def __init__(self, kind: str, value: str, known: list[str] | tuple[str, ...]):
        self.kind, self.value = kind, value
        by_lower = {k.lower(): k for k in known}
        close = difflib.get_close_matches(str(value).lower(), list(by_lower), n=5, cutoff=0.3)
        self.suggestions = [by_lower[k] for k in close]   # closest first
        hint = f" Closest known: {', '.join(self.suggestions)}." if self.suggestions else ""
        super().__init__(f"unknown {kind} '{value}'.{hint}")


class DataError(AdvisorError):
    """A shipped data file is invalid; the message names file, entry and field."""

    def __init__(self, file: str, entry: str | None, field: str | None, message: str):
        self.file, self.entry, self.field = file, entry, field
        where = ":".join(p for p in (file, entry, field) if p)
        super().__init__(f"{where}: {message}")


class MissingFactError(DataError):
    """A computation needs a catalog fact that has no value (never guessed)."""
