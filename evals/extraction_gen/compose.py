"""The engine that turns a grammar (slot phrasings with their labels) into labelled utterances.

A grammar module supplies one function per slot — `hardware`, `model`, `context`, `load`,
`priority`, `price`, `lora`, `quant`, `link`, `topic`, `distractor`, `closer` — each
`(rng, lang, ...) -> Clause`, plus `JOIN` (clause separators), `TYPOS` (filler-word misspellings
that never touch a labelled word) and `SLOT_P` (how often each slot appears). This module picks
slots, orders and joins the clauses, adds surface noise (case, width, spacing, punctuation, typos)
and merges the labels. Everything is drawn from one `random.Random(seed)`: same seed, same set.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

# Fields the generator controls: on a generated item every one of them is labelled (present or
# absent), so reading a value the grammar did not put there counts as a false positive.
SCORED = ("hardware", "count", "nodes", "model", "params_b", "context_length", "users", "concurrency",
          "priority", "device_hour_usd", "lora_adapters", "quantization", "interconnect")

EN_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
            10: "ten", 12: "twelve", 16: "sixteen", 20: "twenty", 30: "thirty", 40: "forty", 50: "fifty"}
_ZH_DIGITS = "零一二三四五六七八九"


@dataclass
class Clause:
    """One phrase of an utterance and what it states."""

    text: str
    values: dict[str, Any] = field(default_factory=dict)
    topics: tuple[str, ...] = ()
    unscored: tuple[str, ...] = ()
    """Fields this phrase makes ambiguous under the labelling conventions: not scored on the item."""


def zh_num(n: int, classifier: bool = True) -> str:
    """A Chinese numeral for 1..9999 ("兩" before a classifier, as people write "兩張")."""
    if n == 2 and classifier:
        return "兩"
    out, started = "", False
    for unit, name in ((1000, "千"), (100, "百"), (10, "十")):
        d, n = divmod(n, unit)
        if d:
            out += ("" if (unit == 10 and d == 1 and not started) else ("兩" if d == 2 and unit >= 100 else _ZH_DIGITS[d])) + name
            started = True
        elif started and n:
            out += "零" if not out.endswith("零") else ""
    if n:
        out += _ZH_DIGITS[n]
    return out


def en_num(rng: random.Random, n: int) -> str:
    """Digits, or the English word when there is one (half the time)."""
    return EN_WORDS[n] if n in EN_WORDS and rng.random() < 0.5 else str(n)


def grouped(n: int) -> str:
    """1000 → "1,000"."""
    return f"{n:,}"


_FULL = {**{c: c + 0xFEE0 for c in range(0x21, 0x7F)}, 0x20: 0x3000}
_FULL_DIGITS = {c: c + 0xFEE0 for c in range(0x30, 0x3A)}


def widen(text: str, digits_only: bool) -> str:
    """Full-width forms, as some Chinese input methods type them."""
    return text.translate(_FULL_DIGITS if digits_only else _FULL)


def _noise(rng: random.Random, text: str, lang: str, typos: dict[str, str]) -> str:
    """Surface noise that keeps every label recoverable: typos in filler words, case, width, spacing."""
    for word, typo in typos.items():
        if word in text and rng.random() < 0.25:   # whole words only: a typo never touches a labelled word
            text = re.sub(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", typo, text, count=1)
    r = rng.random()
    if lang == "en" and r < 0.15:
        text = text.lower()
    elif lang == "en" and r < 0.18:
        text = text.upper()
    if lang == "zh":
        r = rng.random()
        if r < 0.15:
            text = widen(text, digits_only=True)
        elif r < 0.2:
            text = widen(text, digits_only=False)
        if rng.random() < 0.3:   # "4 張 4090" → "4張4090"
            text = re.sub(r"(?<=[\d０-９])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+(?=[\dA-Za-z０-９])", "", text)
    if rng.random() < 0.1:
        text = text.rstrip("。.!?？！")
    return text


def utterance(g: Any, rng: random.Random, lang: str) -> tuple[str, dict[str, Any], list[str], list[str]]:
    """(text, labels, topics, scored fields) of one generated utterance."""
    p = g.SLOT_P
    clauses: list[Clause] = []
    hw = g.hardware(rng, lang) if rng.random() < p["hardware"] else None
    if hw:
        clauses.append(hw)
    if rng.random() < p["model"]:
        clauses.append(g.model(rng, lang))
        if rng.random() < p["quant"]:
            clauses.append(g.quant(rng, lang))
    count, nodes = (hw.values.get("count"), hw.values.get("nodes", 1)) if hw else (None, 1)
    if hw and "interconnect" not in hw.values and ((count or 0) > 1 or nodes > 1) and rng.random() < p["link"]:
        clauses.append(g.link(rng, lang, nodes))
    middle = [getattr(g, s)(rng, lang) for s in ("context", "load", "lora", "price", "priority", "distractor")
              if rng.random() < p[s]]
    rng.shuffle(middle)
    clauses += middle
    if rng.random() < p["topic"]:
        clauses.append(g.topic(rng, lang))
    if rng.random() < p["closer"] or not clauses:
        clauses.append(g.closer(rng, lang))
    text = g.join(rng, lang, [c.text for c in clauses])
    values: dict[str, Any] = {}
    topics: list[str] = []
    unscored: set[str] = set()
    for c in clauses:
        values.update(c.values)
        topics += [t for t in c.topics if t not in topics]
        unscored |= set(c.unscored)
    if values.get("nodes") == 1:
        values.pop("nodes")   # one node is the profile's default: labelled absent
    return _noise(rng, text, lang, g.TYPOS[lang]), values, sorted(topics), [f for f in SCORED if f not in unscored]


def generate(g: Any, seed: int, n: int, prefix: str) -> list[dict[str, Any]]:
    """`n` labelled utterances (half zh-Hant) as extraction-set items."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        lang = "zh" if i % 2 else "en"
        text, values, topics, scored = utterance(g, rng, lang)
        has_cjk = bool(re.search(r"[\u3400-\u9fff]", text))
        items.append({"id": f"{prefix}-{i:05d}", "lang": "zh" if has_cjk else "en", "text": text,
                      "intent": None, "values": values, "topics": topics, "scored": scored})
    return items
