"""Shared pieces of the extractor: a finding (field, value, span), negation and clause helpers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Finding:
    """One value read from the user's text, with the span it came from."""

    field: str
    value: Any
    start: int
    end: int


# A clause boundary: negation and attachment never reach across one.
_F = re.I | re.ASCII
_CLAUSE = re.compile(r"[,;:!?，。；：！？、\n()（）]|\.(?![\w])|\s[-–—]\s|\bbut\b|\bhowever\b|\bwhile\b|但是?|不過|可是", _F)
_PRE_NEG = re.compile(
    r"(?:\bno\b|\bnot\b(?!\s+sure)|n't\b|\bnever\b|\bwithout\b|\bnon-?|\black(?:s|ing)?\b|\bforget(?:\s+about)?\b|\bnever\s+mind\b"
    # an A-not-A question ("有沒有", "要不要", "會不會") asks; it does not negate
    r"|(?<!有)沒有|(?<![有沒])沒|没有|無(?!論)|不是|不用|不需要|(?<!要)不要|(?<!會)不會|不支援|不支持|並非|不想|不打算|不希望|不願意?|避免|別(?:用|跑|上)"
    r"|不(?:太|怎麼|是很)?(?:在乎|在意|重視|介意|關心|考慮|看重)|不管|不用管|沒那麼在意)", _F
)
_POST_NEG = re.compile(
    r"^\s*(?:(?:is|are|was|'s|does|do)(?:\s+not\b|n't\b)|not\b|(?:(?:is|are|'s)\s+)?no\s+(?:concern|issue|problem)"
    r"|(?:is|are|'s)\s+(?:a\s+)?(?:non[\s-]?issue|irrelevant|secondary\s+at\s+best)"
    r"|(?:doesn't|does\s+not|don't)\s+matter|irrelevant|unimportant)"
    r"|^\s*(?:不重要|不是(?:主要)?(?:重點|考量|顧慮|問題)|沒差|無所謂|不在意|不在乎|沒關係|不用考慮|其次)"
    r"|^\s*[:：]?\s*(?:沒有|沒|無|none|no)\s*$", _F
)


def clause_before(text: str, start: int, window: int = 18) -> str:
    """The text just before `start`, cut at the last clause boundary."""
    head = text[max(0, start - window):start]
    cuts = list(_CLAUSE.finditer(head))
    return head[cuts[-1].end():] if cuts else head


def clause_after(text: str, end: int, window: int = 24) -> str:
    """The text just after `end`, cut at the first clause boundary."""
    tail = text[end:end + window]
    m = _CLAUSE.search(tail)
    return tail[:m.start()] if m else tail


def negation_cue(text: str, start: int) -> int | None:
    """Where a negation of the words at `start` begins ("no NVLink" → index of "no"), else None."""
    head = clause_before(text, start)
    cues = list(_PRE_NEG.finditer(head))
    return start - len(head) + cues[-1].start() if cues else None


def negated(text: str, start: int, end: int | None = None, post: bool = False) -> bool:
    """True when the words at [start, end) are negated ("no NVLink", "沒有 GPU", "latency is not ...")."""
    if negation_cue(text, start) is not None:
        return True
    return bool(post and end is not None and _POST_NEG.search(clause_after(text, end)))


def overlaps(a: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """True when span `a` overlaps any of `spans`."""
    return any(a[0] < e and s < a[1] for s, e in spans)


_ADJ_NEG = re.compile(
    r"(?:\bno\b|\bnot\b|n't\s+(?:have|own|use|got)\b|\bwithout\b|沒有|沒|没有|無|不是|並非)"
    r"\s*(?:any\s+|an?\s+|the\s+)?$", _F
)


def negated_adjacent(text: str, start: int) -> bool:
    """Stricter `negated`: the cue sits right before `start` ("no H100", "沒有 H100")."""
    return bool(_ADJ_NEG.search(text[max(0, start - 16):start]))


# Cues that what follows is the setup left behind ("used to run 2x 4090", "moving from", "以前用", "從"),
# up to a few words before a name and never across "to"/"with"/"到" (the new one follows those).
FORMER = re.compile(
    r"(?:\bused\s+to\s+(?:run|have|use|be\s+on)|\bpreviously|\bformerly|\b(?:mov|upgrad|migrat|switch|com|go)(?:e|ed|ing|es)?\s+from"
    r"|\breplac(?:e|ed|ing)(?:\s+(?:our|the|my))?|\bcompared\s+(?:to|with)|\binstead\s+of|以前(?:用|是|跑)?|之前(?:用|是|跑)?|原本(?:用|是|跑)?|原先(?:用|是|跑)?|(?:一開始|起初|最早)(?:用|是|跑)|從)"
    r"(?:(?!\bto\b|\bwith\b|到|成|→|->)[^,;.，；。]){0,14}$", _F)
