"""Latency targets from the user's words: "TTFT p95 < 2 s", "TPOT under 50 ms", "首字延遲 2 秒內",
"at least 20 tokens/s per user". Returns milliseconds with the evidence substring.

A range bounds at its upper end ("around 2-2.5 s", "首字 1~2 秒內" -> 2.5 s, 2 s) and an approximation
("~300ms", "roughly", "大約 ... 左右") is read as its figure: both are what the user will accept at most."""
from __future__ import annotations

import re

_F = re.I
_UNIT_WORD = r"(?:ms|milliseconds?|毫秒|s\b|secs?\b|seconds?|秒)"
_NUM = (r"(?:\d+(?:\.\d+)?\s*" + _UNIT_WORD + r"?\s*(?:-|–|—|~|～|to|到|至)\s*)?"   # a range's lower end: the upper bounds
        r"(?P<num>\d+(?:\.\d+)?)")
_UNIT = r"\s*(?P<unit>ms|milliseconds?|毫秒|s\b|secs?\b|seconds?|秒)"
_APPROX = r"around|about|approximately|approx\.?|roughly|~|～|≈|≲|大約|大概|約|左右|最好|in\s+the"
_BOUND = (r"(?:\s*(?:p\d{2}|p99\.9|p50))?\s*(?:(?:<=|≤|<|=|under|below|within|of|at\s+most|less\s+than|小於|低於|不超過"
          r"|控制在|壓在|在|要|需要|需|必須|得|must|should|stay|stays|be|is|in|" + _APPROX + r")\s*){0,4}")
"""Bound and approximation words may stack ("要在 50 毫秒以內", "must stay around 2-2.5 s")."""
_LEAD = r"(?:(?:<=|≤|<|under|below|within|at\s+most|less\s+than|" + _APPROX + r")\s*)*"
"""Words before a figure that names its metric after it ("under ~300ms per token", "<200ms time to first token")."""
_TTFT = re.compile(r"(?:TTFT|time[\s-]+to[\s-]+first[\s-]+token|first[\s-]+token|首字(?:延遲)?|首個\s*token)"
                   + _BOUND + _NUM + _UNIT, _F)
_TPOT = re.compile(r"(?:TPOT|ITL|time[\s-]+per[\s-]+output[\s-]+token|inter[\s-]+token[\s-]+latency|每個?\s*(?:輸出\s*)?token)"
                   + _BOUND + _NUM + _UNIT, _F)
_TTFT_AFTER = re.compile(_LEAD + _NUM + _UNIT + r"\s*(?:for\s+(?:the\s+)?)?(?:TTFT|time[\s-]+to[\s-]+first[\s-]+token|"
                         r"(?:to\s+(?:the\s+)?)?first[\s-]+token)", _F)
_TPOT_AFTER = re.compile(r"(?<![\d.])" + _LEAD + _NUM + _UNIT + r"\s*(?:per|/|a|each|for\s+each)\s*"
                         r"(?:output\s+|generated\s+|decode\s+)?token\b", _F)
"""The figure first: "~30 ms per output token", "40 ms/token", "<200ms time to first token"."""
_RATE = re.compile(r"(?:at\s+least\s+|>=?\s*|≥\s*|至少\s*)?" + _NUM
                   + r"\s*(?:tokens?|tok)\s*/\s*s(?:ec)?\s*(?:per\s+(?:user|stream|request)|每人|每個使用者)"
                   r"|(?:每人|每個使用者|per\s+(?:user|stream))\s*(?:至少|at\s+least)?\s*" + _NUM.replace("num", "num2")
                   + r"\s*(?:tokens?|tok)\s*/\s*s"
                   r"|(?:每人|每個使用者|每位使用者)\s*每秒\s*(?:至少|要|需要|能有)?\s*" + _NUM.replace("num", "num3")
                   + r"\s*(?:個\s*)?(?:tokens?|tok)"
                   r"|(?:at\s+least\s+)?" + _NUM.replace("num", "num4")
                   + r"\s*(?:tokens?|tok)\s+(?:per|a)\s+second\s+(?:per|for\s+each|each)\s+(?:user|stream|request)", _F)


def _ms(m: re.Match) -> float:
    value, unit = float(m.group("num")), m.group("unit").lower()
    return value if unit in ("ms", "毫秒") or unit.startswith("millisecond") else value * 1000


def latency_targets(text: str) -> tuple[dict[str, float], dict[str, str]]:
    """({ttft_ms, tpot_ms} found, {field: evidence}) — only what the text states."""
    values: dict[str, float] = {}
    evidence: dict[str, str] = {}
    m = _TTFT.search(text) or _TTFT_AFTER.search(text)
    if m:
        values["ttft_ms"], evidence["ttft_ms"] = _ms(m), m.group(0).strip()
    m = _TPOT.search(text) or _TPOT_AFTER.search(text)
    if m:
        values["tpot_ms"], evidence["tpot_ms"] = _ms(m), m.group(0).strip()
    else:
        m = _RATE.search(text)
        rate = float(next(g for g in m.group("num", "num2", "num3", "num4") if g)) if m else 0.0
        if rate > 0:
            values["tpot_ms"], evidence["tpot_ms"] = round(1000 / rate, 2), m.group(0)
    return values, evidence
