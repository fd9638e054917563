"""Grounding checks for LLM prose: engines, citations and numbers must come from the tools.

`problems(...)` returns what is wrong in words; any problem means the template answer is used.
"""
from __future__ import annotations

import math
import re
from typing import Any

from agent.names import engines_named

_MARKER = re.compile(r"\[(\d+)\]")
_CHUNK_ID = re.compile(r"\b[a-z0-9][a-z0-9_.-]*#[a-z0-9][a-z0-9-]*\b")
_LIST_ITEM = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
# A number not glued to a preceding letter/digit (so "H100", "FP8", "p99" are names, not numbers).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.#])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?([kKmM](?![a-zA-Z]))?")


def decision_engines(result: dict[str, Any]) -> set[str]:
    """Engines the decision mentions: primary, alternatives and those to avoid."""
    named = {result.get("primary"), *(result.get("alternatives") or [])}
    named |= {a.get("engine") for a in result.get("avoid") or []}
    named |= set(result.get("mentioned") or [])   # engines the catalog facts of an asked topic name
    return named - {None}


def numbers(text: str) -> list[tuple[str, float]]:
    """(as printed, value with K/M applied) for every number in `text`."""
    text = _LIST_ITEM.sub(" ", _MARKER.sub(" ", text))
    out = []
    for whole, frac, suffix in _NUMBER.findall(text):
        printed = whole + (frac or "")
        scale = {"k": 1e3, "m": 1e6}.get((suffix or "").lower(), 1.0)
        out.append((printed + (suffix or ""), float(printed.replace(",", "")) * scale))
    return out


def _digits(printed: str) -> str:
    return printed.rstrip("kKmM").replace(",", "")


def _sig_digits(printed: str) -> int:
    digits = _digits(printed)
    if "." in digits:
        return len(digits.replace(".", "").lstrip("0"))
    return len(digits.lstrip("0").rstrip("0"))


def _round_sig(x: float, sig: int) -> float:
    return round(x, sig - 1 - int(math.floor(math.log10(abs(x))))) if x else 0.0


def matches(printed: str, truth: float) -> bool:
    """True when `printed` shows `truth` up to its rounding, also as ×1000, ÷1000 or % of it."""
    digits = _digits(printed)
    base = float(digits)
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    suffix = printed[-1].lower() if printed[-1] in "kKmM" else ""
    scales = {"k": (1e3, 1024.0), "m": (1e6, 1024.0**2)}.get(suffix, (1.0,))
    sig = _sig_digits(printed)
    for t in (truth, truth * 1000, truth / 1000, truth * 100):
        for scale in scales:
            shown = t / scale
            if abs(shown - base) <= 0.5 * 10 ** -decimals + 1e-9:
                return True
            if sig >= 2 and math.isclose(_round_sig(shown, sig), base, rel_tol=1e-9):
                return True
    return False


def problems(prose: str, result: dict[str, Any], allowed_numbers: list[float]) -> list[str]:
    """Everything in `prose` the tools do not back (empty list = verified)."""
    issues = []
    extra = engines_named(prose) - decision_engines(result)
    if extra:
        issues.append(f"names engines outside the decision: {', '.join(sorted(extra))}")
    primary = result.get("primary")
    if primary and primary not in engines_named(prose):
        issues.append(f"does not name the recommended engine {primary}")
    citations = result.get("citations") or []
    bad = sorted({int(n) for n in _MARKER.findall(prose) if not 1 <= int(n) <= len(citations)})
    if bad:
        issues.append(f"cites sources that were not retrieved: {', '.join(f'[{n}]' for n in bad)}")
    ids = {c["id"] for c in citations}
    unknown = sorted(set(_CHUNK_ID.findall(prose)) - ids)
    if unknown:
        issues.append(f"cites chunk ids that were not retrieved: {', '.join(unknown)}")
    if citations and not _MARKER.search(prose):
        issues.append("cites no source")
    wrong = [p for p, _ in numbers(prose) if not any(matches(p, t) for t in allowed_numbers)]
    if wrong:
        issues.append(f"numbers not in the tools' results: {', '.join(dict.fromkeys(wrong))}")
    return issues
