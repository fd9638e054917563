"""Token volume and utilisation from the user's words, for the cost answer:
"about 300M tokens/month (250M in, 50M out)", "10 million tokens a day", "每月大約 5 億 tokens（4 億輸入、
1 億輸出）", "每天 2000 萬 token", "at 30% utilization", "利用率 30%".

    volume(text) -> Volume | None      tokens per month (a daily figure × 30.4), the in/out split, utilisation
    volume_spans(text) -> [(start, end)]  what was read, so it is not quoted back as "not used"
"""
from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

DAYS_PER_MONTH = 365 / 12
"""A daily volume times the average month (30.4 days)."""
_MULT = {"k": 1e3, "thousand": 1e3, "千": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "百萬": 1e6, "萬": 1e4,
         "千萬": 1e7, "b": 1e9, "bn": 1e9, "billion": 1e9, "億": 1e8, "十億": 1e9}
_NUM = r"(?P<num>\d+(?:[.,]\d+)?)\s*(?P<mult>thousand|million|billion|mn|bn|k|m|b|十億|千萬|百萬|萬|億|千)?"
_TOKENS = r"\s*(?:(?:output|input|generated|prompt|completion|輸出|輸入)\s*)?(?:tokens?|toks?)\b"   # "200M output tokens a month"
_MONTH = r"(?:/\s*(?:month|mo)\b|per\s+month|a\s+month|each\s+month|every\s+month|monthly|/月|每月|每個月|一個月)"
_DAY = r"(?:/\s*day\b|per\s+day|a\s+day|each\s+day|every\s+day|daily|/天|每天|每日|一天)"
_F = re.I
_AFTER = re.compile(_NUM + _TOKENS + r"\s*(?:(?P<m>" + _MONTH + r")|(?P<d>" + _DAY + r"))", _F)
_BEFORE = re.compile(r"(?:(?P<m>" + _MONTH + r")|(?P<d>" + _DAY + r"))\s*(?:大約|大概|約|約有|about|around|roughly|~)?\s*"
                     + _NUM + _TOKENS, _F)
_SPLIT = re.compile(r"(?P<a>" + _NUM.replace("num", "n1").replace("mult", "m1") + r")\s*(?:tokens?\s*)?"
                    r"(?P<w1>input|in|prompt|輸入)(?![a-z])\s*(?:,|、|/|and|與|和|;)?\s*"
                    r"(?P<b>" + _NUM.replace("num", "n2").replace("mult", "m2") + r")\s*(?:tokens?\s*)?"
                    r"(?P<w2>output|out|completion|輸出)(?![a-z])", _F)
# A split said as a ratio: "3:1 input:output", "a 4:1 input to output ratio", "輸入:輸出 約 4:1", "輸入輸出比 2:1"
_IO = r"(?P<w1>input|in|prompt|輸入|output|out|completion|輸出)\s*(?::|/|to|與|和|跟|對)?\s*(?:input|in|prompt|輸入|output|out|completion|輸出)"
_R = r"(?P<r1>\d+(?:\.\d+)?)\s*(?::|：|比|to)\s*(?P<r2>\d+(?:\.\d+)?)"
_RATIO = re.compile(_IO + r"(?![a-z])\s*(?:ratio|token\s+ratio|比例?)?\s*(?:of|is|=|:|：|約|大約|大概|about|around|roughly|~|為|是)?\s*" + _R
                    + "|" + _R.replace("r1", "r3").replace("r2", "r4") + r"\s*(?:ratio\s+(?:of\s+)?)?"
                    + _IO.replace("w1", "w2") + r"(?![a-z])", _F)
_OUT_FIRST = re.compile(r"output|out|completion|輸出", _F)


def _ratio_split(text: str) -> tuple[re.Match, float] | None:
    """The output share of a stated input:output ratio, with its match."""
    r = _RATIO.search(text)
    if not r:
        return None
    a, b = float(r.group("r1") or r.group("r3")), float(r.group("r2") or r.group("r4"))
    if a <= 0 or b <= 0:
        return None
    first = r.group("w1") or r.group("w2")
    out_share = a / (a + b) if _OUT_FIRST.fullmatch(first) else b / (a + b)
    return r, out_share


_UTIL = re.compile(r"(?P<u1>\d+(?:\.\d+)?)\s*%\s*(?:GPU\s+)?(?:utili[sz]ation|utili[sz]ed|busy|duty)"
                   r"|(?:utili[sz]ation|利用率|使用率)\s*(?:of|at|is|:|約|大約|~)?\s*(?P<u2>\d+(?:\.\d+)?)\s*%", _F)


class Volume(BaseModel):
    """What the user said about the tokens the service handles."""

    model_config = ConfigDict(extra="forbid")
    tokens_per_month: float | None = None
    input_per_month: float | None = None
    output_per_month: float | None = None
    per_day: bool = False
    """The user gave a daily figure (converted at 30.4 days a month)."""
    utilisation: float | None = None
    """Share of the time the devices are busy (0-1), when the user gave it."""
    work_hours_only: bool = False
    """The user said the traffic comes in business hours only (the devices could be off the rest)."""
    evidence: list[str] = []


def _value(num: str, mult: str | None) -> float:
    return float(num.replace(",", "")) * _MULT.get((mult or "").lower(), 1.0)


def _total(text: str) -> tuple[re.Match | None, float | None, bool]:
    for rx in (_AFTER, _BEFORE):
        m = rx.search(text)
        if m:
            return m, _value(m.group("num"), m.group("mult")), bool(m.group("d"))
    return None, None, False


def volume(text: str) -> Volume | None:
    """The monthly token volume (and split, utilisation) the text states, or None."""
    m, total, daily = _total(text or "")
    scale = DAYS_PER_MONTH if daily else 1.0
    evidence = [m.group(0)] if m else []
    out = Volume(per_day=daily)
    if total:
        out.tokens_per_month = total * scale
        s = _SPLIT.search(text, max(0, m.start() - 80), m.end() + 80)
        if s:
            a, b = _value(s.group("n1"), s.group("m1")), _value(s.group("n2"), s.group("m2"))
            if a + b <= total * 1.05:   # a split of the total, not an unrelated pair
                out.input_per_month, out.output_per_month = a * scale, b * scale
                evidence.append(s.group(0))
        ratio = _ratio_split(text) if out.output_per_month is None else None
        if ratio:
            out.output_per_month = out.tokens_per_month * ratio[1]
            out.input_per_month = out.tokens_per_month - out.output_per_month
            evidence.append(ratio[0].group(0))
    u = _UTIL.search(text or "")
    if u:
        share = float(u.group("u1") or u.group("u2")) / 100
        if 0 < share <= 1:
            out.utilisation = share
            evidence.append(u.group(0))
    if out.tokens_per_month is None and out.utilisation is None:
        return None
    out.evidence = evidence
    return out


WORK_HOURS = re.compile(r"\b(?:business|office|working|work)\s+hours\b|\b9\s*(?:-|to)\s*5\b|\bweekdays\s+only\b"
                        r"|上班時間|辦公時間|工作時間|營業時間", _F)
"""Words that put the traffic in the working day."""


def volume_spans(text: str) -> list[tuple[int, int]]:
    """Spans of `text` the volume reader used."""
    spans = []
    m, total, _ = _total(text)
    if m and total:
        spans.append(m.span())
        s = _SPLIT.search(text, max(0, m.start() - 80), m.end() + 80)
        if s:
            spans.append(s.span())
        ratio = _ratio_split(text)
        if ratio:
            spans.append(ratio[0].span())
    u = _UTIL.search(text)
    if u:
        spans.append(u.span())
    return spans
