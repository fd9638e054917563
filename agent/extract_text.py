"""The user's text as the extractor reads it: NFKC-normalised, with a map back to the original.

Full-width digits, letters and brackets ("（８張）"), the ideographic space and compatibility forms
all become their plain forms before any pattern runs, so one pattern covers every width. Each
normalised character remembers the original character it came from, so evidence is always
quoted from what the user actually typed.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_FOLD = {"～": "~", "〜": "~", "−": "-", "–": "-", "—": "-", "‐": "-"}
_SPACE = re.compile(r"[^\S\n]")
# One-to-one folds applied after NFKC: the dashes and tildes above, every space but a newline.
_TABLE = {**{ord(k): v for k, v in _FOLD.items()}, **{c: " " for c in (0x09, 0x0B, 0x0C, 0x0D, 0xA0, 0x3000, 0x2009, 0x200A)}}


@dataclass(frozen=True)
class Text:
    """Normalised text and, for each of its characters, the index of the original character."""

    original: str
    norm: str
    origin: tuple[int, ...] | None
    """None when every character maps to itself (the common case: no expansion)."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of norm[start:end]."""
        if self.origin is None:
            return start, end
        if start >= end:
            pos = self.origin[start] if start < len(self.origin) else len(self.original)
            return pos, pos
        return self.origin[start], self.origin[end - 1] + 1

    def quote(self, start: int, end: int) -> str:
        """The user's own characters for norm[start:end]."""
        a, b = self.span(start, end)
        return self.original[a:b]


def _one(ch: str) -> str:
    if ch in _FOLD:
        return _FOLD[ch]
    out = unicodedata.normalize("NFKC", ch)
    if out and _SPACE.fullmatch(out):
        return " "
    return out


def normalize(text: str) -> Text:
    """NFKC per character (so offsets map back), dashes and tildes folded, every space a plain space."""
    whole = unicodedata.normalize("NFKC", text)
    if len(whole) == len(text):          # nothing expanded or merged: positions are unchanged
        return Text(text, whole.translate(_TABLE), None)
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        out = _one(ch)
        chars.append(out)
        origin.extend([i] * len(out))
    return Text(text, "".join(chars), tuple(origin))
