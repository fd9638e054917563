"""`Figure`: a number together with the formula (numbers filled in) that produced it."""
from __future__ import annotations

from typing import NamedTuple


class Figure(NamedTuple):
    """A computed value and how it was computed, so a reader can check it by hand."""

    value: float
    why: str


def gb(nbytes: float) -> float:
    """Bytes -> GB (10^9), as vendors quote memory and bandwidth."""
    return nbytes / 1e9


def fmt(x: float) -> str:
    """Compact human number for formulas (3 significant digits, thousands separators)."""
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.4g}"
