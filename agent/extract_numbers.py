"""Numbers as users write them: "6K", "32,000", "1.5M", "2萬", "兩張", "八", "two", "a dozen".

`NUM` / `COUNT` are regex sources (no groups) to embed in larger patterns; `parse_number` reads
what they matched. Chinese numerals are read positionally (十, 百, 千, 萬).
"""
from __future__ import annotations

import re

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_WORDS = {
    "a single": 1, "single": 1, "a lone": 1, "lone": 1, "one": 1, "a pair of": 2, "a couple of": 2, "pair of": 2,
    "dual": 2, "twin": 2, "two": 2, "three": 3, "triple": 3, "quad": 4, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "dozen": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "a hundred": 100, "hundred": 100, "a thousand": 1000,
}

# "two hundred", "five thousand": a digit word times its magnitude is one number, not two
_WORDS.update({f"{w} {mag}": n * m for w, n in list(_WORDS.items()) if 2 <= n <= 9 and " " not in w and w not in ("dual", "triple", "quad")
               for mag, m in (("hundred", 100), ("thousand", 1000))})

_ARABIC = r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?"
# A whole Chinese numeral, never part of a vague one ("幾百", "數十", "上千", "十幾": no exact number).
_VAGUE = r"(?<![零〇一二兩两三四五六七八九十百千萬万幾数數])(?!(?<=[上成])[百千萬万])"
_CHINESE = rf"{_VAGUE}[零〇一二兩两三四五六七八九十百千萬万]+(?![零〇一二兩两三四五六七八九十百千萬万幾])"
_WORD = "|".join(sorted((re.escape(w) for w in _WORDS), key=len, reverse=True))
# A quantity with an optional magnitude suffix (k, M, 千, 萬); used for lengths and user counts.
NUM = (rf"(?:(?:{_ARABIC})(?:\s?[kK](?![A-Za-z])|M(?![A-Za-z0-9])|\s?[萬万千]|\s(?:million|thousand)\b)?"
       rf"|{_CHINESE}|\b(?:{_WORD})\b)")
# A small whole count (devices, nodes): no suffix, no decimals.
COUNT = rf"(?:(?<![\dA-Za-z])(?<!\d[.,])\d{{1,4}}(?!\d)(?![.,]\d)|{_VAGUE}[一二兩两三四五六七八九十]{{1,3}}(?![一二兩两三四五六七八九十百千萬万幾])|\b(?:{_WORD})\b)"

_NUM_PARTS = re.compile(rf"^(?P<a>{_ARABIC})\s?(?P<s>[kKM萬万千]|million|thousand)?$")


def _chinese(text: str) -> int | None:
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit = None
        elif ch in "萬万":
            section += digit or 0
            total += (section or 1) * 10_000
            section, digit = 0, None
        else:
            return None
    return total + section + (digit or 0)


def parse_number(text: str) -> float | None:
    """The value of a number as written ("6K" → 6000, "兩" → 2, "a dozen" → 12), else None."""
    s = text.strip()
    low = s.lower()
    if low in _WORDS:
        return float(_WORDS[low])
    m = _NUM_PARTS.match(s)
    if m:
        value = float(m.group("a").replace(",", ""))
        scale = {"k": 1e3, "K": 1e3, "M": 1e6, "千": 1e3, "萬": 1e4, "万": 1e4, "million": 1e6, "thousand": 1e3}.get(m.group("s") or "", 1)
        return value * scale
    n = _chinese(s)
    return float(n) if n is not None and n > 0 else None


def parse_int(text: str) -> int | None:
    """`parse_number` rounded to an int (None when not a number)."""
    v = parse_number(text)
    return int(round(v)) if v is not None else None
