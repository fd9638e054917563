"""The evidence guard: a value enters the profile only when the user's own words support it.

Both extractors report `value` + `evidence` per field. The guard checks that the evidence occurs
in what the user wrote (after Unicode/width/space normalisation), that it supports the field — a
number written as a quantity whose unit fits the field, not a digit inside a product name ("RTX
4090" is never a context length); a catalog name that resolves to the id; a word of the value's
own vocabulary, not negated, for formats, links, workloads, modes, priorities and flags ("不在乎延遲"
is never a latency priority, "8x H100" never says NVLink) — anything else is dropped with a reason.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from rules.ids import INTERCONNECTS, PRIORITIES, SERVING_MODES, WORKLOADS, is_quant

INT_FIELDS = ("count", "nodes", "input_tokens", "output_tokens", "context_length", "concurrency",
              "users", "lora_adapters")
FLOAT_FIELDS = ("params_b", "active_params_b", "memory_gb")
BOOL_FIELDS = ("shared_prefix", "structured_output", "streaming")
ENUMS: dict[str, tuple[str, ...]] = {
    "interconnect": INTERCONNECTS, "serving_mode": SERVING_MODES, "workload": WORKLOADS,
    "priority": PRIORITIES,
}
GUARDED_FIELDS = ("hardware", "model", "quantization", *ENUMS, *INT_FIELDS, *FLOAT_FIELDS, *BOOL_FIELDS)


def normalize(text: str) -> str:
    """Casefolded NFKC text with runs of whitespace collapsed (full-width digits become ASCII)."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("×", "x")
    return _SPACES.sub(" ", text).strip()


_SPACES = re.compile(r"\s+")


def occurs(evidence: str | None, text: str) -> bool:
    """True when non-empty `evidence` is a substring of `text` after normalisation (spaces ignored)."""
    ev = normalize(evidence or "").replace(" ", "")
    return bool(ev) and ev in normalize(text).replace(" ", "")


_NUM = re.compile(r"(\d+(?:[.,]\d+)*)\s*([km萬万千]?)", re.IGNORECASE)
_SCALE = {"k": 1000, "m": 1_000_000, "千": 1000, "萬": 10_000, "万": 10_000, "": 1}


_WORDS = {"one": 1, "single": 1, "two": 2, "pair": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "dozen": 12,
          "一": 1, "兩": 2, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
          "九": 9, "十": 10}
_WORD_RE = re.compile(r"\b(" + "|".join(w for w in _WORDS if w.isascii()) + r")\b|([一兩两二三四五六七八九十])")


def numbers_in(text: str) -> set[float]:
    """Every number written in `text` (digits with K/M/萬 multipliers, K also as 1024; small number words)."""
    norm = normalize(text)
    out: set[float] = {float(_WORDS[a or b]) for a, b in _WORD_RE.findall(norm)}
    for digits, suffix in _NUM.findall(norm):
        try:
            base = float(digits.replace(",", ""))
        except ValueError:
            continue
        out.add(base)
        out.add(base * _SCALE[suffix.lower()])
        if suffix.lower() == "k":
            out.add(base * 1024)
    return out


_POWER = re.compile(r"\d\s*(?:[eE][+-]?\d|\^|\*\*)")


def parse_number(text: str) -> float | None:
    """The first number written in `text`, with a K/M/萬 multiplier applied (K = 1000); None for
    exponent or power notation ("1e999", "10^9"), which is never the number's leading digits."""
    if _POWER.search(text):
        return None
    for digits, suffix in _NUM.findall(normalize(text)):
        try:
            return float(digits.replace(",", "")) * _SCALE[suffix.lower()]
        except ValueError:
            continue
    return None


# The units a number may carry to stand for each field (None: a bare number also may).
FIELD_UNITS = {"context_length": ("tokens", "context"), "input_tokens": ("tokens",), "output_tokens": ("tokens",),
               "concurrency": ("people", "org", "conc", "req"), "users": ("people", "org"), "count": ("dev",),
               "nodes": ("node",), "lora_adapters": ("lora", "org"), "params_b": ("params",),
               "active_params_b": ("params",), "memory_gb": ("memory",)}
_NOT_A_QUANTITY = {"product": "part of a product name", "version": "a version number", "year": "a year",
                   "denominator": "a denominator ('per ...')"}


def _same_number(q: Any, value: float) -> bool:
    if abs(q.value - value) < 1e-6 * max(1.0, value):
        return True
    return q.suffixed and abs(q.value / 1000 * 1024 - value) < 1e-6 * max(1.0, value)   # "80K" read as 81920


def _places(norm_text: str, norm_evidence: str) -> list[int]:
    """Where the evidence occurs in the text (case-insensitive), possibly several times."""
    low, needle = norm_text.casefold(), norm_evidence.casefold().strip()
    out, pos = [], 0
    while needle and (i := low.find(needle, pos)) >= 0:
        out.append(i)
        pos = i + 1
    return out


def supports_number(field: str, value: float, evidence: str, text: str) -> str | None:
    """Why `evidence` does not state `value` for `field` (None when it does).

    The number must be written in the evidence as a quantity — not inside a device or model name
    ("RTX 4090" is never a context length), not a version, year or denominator — and its unit, when
    it has one, must fit the field ("12 people" is users or concurrency, never a context length).
    Read in the user's whole text, so a number quoted without its neighbours is still judged by them.
    """
    from agent.extract_aliases import hardware_index
    from agent.extract_base import overlaps
    from agent.extract_model import model_names
    from agent.extract_quantity import quantities
    from agent.extract_text import normalize as norm_text
    full, piece = norm_text(text).norm, norm_text(evidence).norm
    where = _places(full, piece)
    windows = [(full, i, i + len(piece)) for i in where] or [(piece, 0, len(piece))]
    reason = f"the number does not appear in {evidence!r}"
    for hay, start, end in windows:
        names = [(h.start, h.end) for h in (*hardware_index().find(hay), *model_names(hay))]
        for q in quantities(hay):
            if not (start <= q.start and q.end <= end) or not _same_number(q, value):
                continue
            if q.kind != "quantity":
                reason = f"{hay[q.start:q.end]!r} in {evidence!r} is {_NOT_A_QUANTITY.get(q.kind, q.kind)}"
            elif overlaps((q.start, q.end), names) and field not in ("params_b", "active_params_b", "memory_gb"):
                reason = f"{hay[q.start:q.end]!r} in {evidence!r} is part of a device or model name"
            elif q.unit is not None and q.unit not in FIELD_UNITS.get(field, ()):
                reason = f"{hay[q.start:q.unit_end]!r} counts something else than {field}"
            else:
                return None
    return reason


def _resolve(field: str, value: Any) -> str | None:
    from rules import catalog
    resolver = catalog.resolve_hardware if field == "hardware" else catalog.resolve_model
    return resolver(str(value))


def _names(field: str, ident: str) -> list[str]:
    """The id, display name and aliases a catalog entry is known by."""
    from rules import catalog
    try:
        entry = catalog.hardware(ident) if field == "hardware" else catalog.model(ident)
    except Exception:  # unknown id: only the id itself names it
        return [ident]
    return [ident, getattr(entry, "name", ident), *(getattr(entry, "aliases", None) or [])]


def coerce(field: str, value: Any) -> Any:
    """The value as the profile's type and vocabulary; ValueError when it cannot be."""
    if value is None or value == "":
        raise ValueError("empty value")
    if field in ("hardware", "model"):
        resolved = _resolve(field, value)
        if resolved is None:
            raise ValueError(f"'{value}' is not in the {field} catalog")
        return resolved
    if field == "quantization":
        q = str(value).strip().lower().replace(" ", "_")
        if not is_quant(q):
            raise ValueError(f"'{value}' is not a quantization id")
        return q
    if field in ENUMS:
        v = str(value).strip().lower()
        if v not in ENUMS[field]:
            raise ValueError(f"'{value}' is not one of {', '.join(ENUMS[field])}")
        return v
    if field in BOOL_FIELDS:
        if isinstance(value, bool):
            return value
        if str(value).strip().lower() in ("true", "yes"):
            return True
        if str(value).strip().lower() in ("false", "no"):
            return False
        raise ValueError(f"'{value}' is not true/false")
    if field in INT_FIELDS or field in FLOAT_FIELDS:
        num = float(value) if isinstance(value, (int, float)) else parse_number(str(value))
        if num is None:
            raise ValueError(f"'{value}' is not a number")
        if num != num or num in (float("inf"), float("-inf")):   # an LLM's 1e999 or NaN: dropped, not a crash
            raise ValueError(f"'{value}' is not a finite number")
        return int(num) if field in INT_FIELDS else float(num)
    raise ValueError(f"'{field}' is not a field the extractor may set")


def check(field: str, value: Any, evidence: str | None, text: str, strict: bool = True) -> str | None:
    """Why the (coerced) value is not supported by the user's words, or None when it is.

    Every value needs its evidence in `text`; `strict` (for LLM output) also needs numbers to
    appear in the evidence and catalog ids to be named by it.
    """
    if not occurs(evidence, text):
        return f"{field}={value!r}: evidence {evidence!r} is not in the user's words"
    if not strict:
        return None
    ev = normalize(evidence or "")
    if field in INT_FIELDS or field in FLOAT_FIELDS:
        why = supports_number(field, float(value), evidence or "", text)
        if why:
            return f"{field}={value!r}: {why}"
    if field in ("hardware", "model"):
        named = any(normalize(n) in ev for n in _names(field, value) if n) or _resolve(field, ev) == value
        if not named:
            return f"{field}={value!r}: {evidence!r} does not name it"
    if field == "quantization" or field in ENUMS or field in BOOL_FIELDS:
        why = supports_word(field, value, evidence or "", text)
        if why:
            return f"{field}={value!r}: {why}"
    return None


def _vocabulary(field: str, value: Any) -> list[str]:
    """Patterns that name `value` for a word-valued field (the extractor's own lexicon, both languages)."""
    from agent import lexicon
    word = [re.escape(str(value)).replace("\\-", "[\\s_-]?").replace("_", "[\\s_-]?")]
    if field == "quantization":
        pats = [p for v, p in lexicon.QUANT if v == value]
        return word + pats + ([lexicon.EXL] if str(value).startswith("exl") else [])
    if field == "interconnect":
        extra = {"unified": [r"\bApple\b", r"\bMac", r"\bM[1-5]\s*(?:Max|Ultra|Pro)?\b", r"unified\s+memory", r"統一記憶體"],
                 "none": [r"\b(?:one|single|a)\s+(?:GPU|card|device)\b", r"\bjust\s+one\b", r"單卡", r"一張", r"一台", r"單張"]}
        return word + lexicon.INTERCONNECT.get(value, []) + extra.get(value, [])
    if field == "priority":
        return word + lexicon.PRIORITY.get(value, []) + lexicon.PRIORITY_TOPIC.get(value, [])
    if field == "workload":
        return word + lexicon.WORKLOAD.get(value, [])
    if field == "serving_mode":
        return word + [p for table in (lexicon.SERVING_STRONG, lexicon.SERVING_WEAK, lexicon.AUDIENCE) for p in table.get(value, [])]
    return list(_flags()[field][0])


def _flags() -> dict[str, tuple[list[str], list[str]]]:
    from agent import lexicon
    return {"shared_prefix": lexicon.SHARED_PREFIX, "structured_output": lexicon.STRUCTURED, "streaming": lexicon.STREAMING}


def supports_word(field: str, value: Any, evidence: str, text: str) -> str | None:
    """Why `evidence` does not name `value` for a word-valued field (None when it does).

    Some word of the value's vocabulary must occur in the evidence, read in the user's whole text and
    not negated there ("no NVLink" names PCIe between several cards, never NVLink; "不在乎延遲" is no
    latency priority). A flag set to False needs its vocabulary negated (or its explicit negative).
    """
    from agent import lexicon
    from agent.extract_base import negated
    from agent.extract_text import normalize as norm_text
    full, piece = norm_text(text).norm, norm_text(evidence).norm
    windows = [(full, i, i + len(piece)) for i in _places(full, piece)] or [(piece, 0, len(piece))]
    want_negated = field in BOOL_FIELDS and value is False
    for hay, start, end in windows:
        if want_negated and any(re.search(p, hay[start:end], re.I) for p in _flags()[field][1]):
            return None
        for pattern in _vocabulary(field, value):
            for m in re.finditer(pattern, hay[start:end], re.I):
                a, b = start + m.start(), start + m.end()
                is_negated = negated(hay, a, b, post=True)
                if is_negated == want_negated or (field == "quantization" and value == "bf16"):
                    return None
        if field == "interconnect" and value == "pcie":   # "no NVLink" between cards is PCIe
            for pattern in lexicon.INTERCONNECT["nvlink"]:
                for m in re.finditer(pattern, hay[start:end], re.I):
                    if negated(hay, start + m.start(), start + m.end(), post=True):
                        return None
    return f"{evidence!r} does not say {value!r} (or says it negated)"
