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
# Simplified forms of the words the readers look for, folded one-to-one to their Traditional forms
# ("8 张 L20", "两张", "并发", "显存"), so one zh-Hant lexicon reads both scripts. Only characters that
# are never Traditional themselves.
_SIMPLIFIED = dict(zip("张两个并发显时节点机内户万亿这说问题长务际产应该还吗迟价钱级双单颗数对种库规录识认输训练适达开关网络卡进门实现读写费贵义无条块请单线设备显图调载异维护软件网页选择觉够够么样为",
                       "張兩個並發顯時節點機內戶萬億這說問題長務際產應該還嗎遲價錢級雙單顆數對種庫規錄識認輸訓練適達開關網絡卡進門實現讀寫費貴義無條塊請單線設備顯圖調載異維護軟件網頁選擇覺夠夠麼樣為"))
_FOLD.update(_SIMPLIFIED)
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


_KEEP = "\ue000"   # a private-use stand-in NFKC leaves alone
_DIGIT_COMMA = re.compile(r"(?<=[0-9０-９])，(?=[0-9０-９])(?![0０]{3}(?![0-9０-９]))")   # "1，000" stays a thousand


def _one(ch: str) -> str:
    if ch in _FOLD:
        return _FOLD[ch]
    out = unicodedata.normalize("NFKC", ch)
    if out and _SPACE.fullmatch(out):
        return " "
    return out


def normalize(text: str) -> Text:
    """NFKC per character (so offsets map back), dashes and tildes folded, every space a plain space."""
    # A full-width comma between digits stays a clause mark: NFKC would make "100，200 人" one number.
    whole = unicodedata.normalize("NFKC", _DIGIT_COMMA.sub(_KEEP, text)).replace(_KEEP, "，")
    if len(whole) == len(text):          # nothing expanded or merged: positions are unchanged
        return _collapse(Text(text, whole.translate(_TABLE), None))
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(_DIGIT_COMMA.sub(_KEEP, text)):
        out = "，" if ch == _KEEP else _one(ch)
        chars.append(out)
        origin.extend([i] * len(out))
    return _collapse(Text(text, "".join(chars), tuple(origin)))


MAX_DIGITS = 24
_RUN = re.compile(rf"\s{{2,}}|\d{{{MAX_DIGITS + 1},}}")


def _collapse(t: Text) -> Text:
    """Runs of whitespace become one space (or one newline when the run holds one); a run of more
    than MAX_DIGITS digits keeps its first MAX_DIGITS (still far beyond any valid value, and quoted
    whole as evidence). Patterns read both the same, and neither a wall of blanks nor a 20,000-digit
    number can make a pattern that retries inside a run scan quadratically."""
    if not _RUN.search(t.norm):
        return t
    origin = t.origin or tuple(range(len(t.norm)))
    chars: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _RUN.finditer(t.norm):
        chars.append(t.norm[pos:m.start()])
        where.extend(origin[pos:m.start()])
        run = m.group(0)
        if run[0].isdigit():
            chars.append(run[:MAX_DIGITS])
            where.extend(origin[m.start():m.start() + MAX_DIGITS - 1])
            where.append(origin[m.end() - 1])     # the last digit maps to the run's end: quoted whole
        else:
            nl = run.find("\n")
            chars.append("\n" if nl >= 0 else " ")
            where.append(origin[m.start() + max(nl, 0)])
        pos = m.end()
    chars.append(t.norm[pos:])
    where.extend(origin[pos:])
    return Text(t.original, "".join(chars), tuple(where))
