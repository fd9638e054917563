"""The model (a catalog id, or a size: "a 32B model", "70B 模型", "100B MoE with 10B active"),
its quantization ("4-bit AWQ", "Q4_K_M", "EXL2 4.0bpw", "NVFP4") and KV-cache dtype ("FP8 KV cache").
"""
from __future__ import annotations

import re

from agent import lexicon
from agent.extract_base import Finding, clause_after, clause_before, negated, negated_adjacent, overlaps
from agent.extract_numbers import parse_number
from rules import model_resolve

_F = re.I | re.ASCII
_SIZE = re.compile(
    r"(?<![\w.$])(?P<p>\d+(?:\.\d+)?)\s?(?:B(?![A-Za-z0-9/])|billion\b)(?!\s*(?:tokens?|params?\s+active|active))"
    r"(?:[\s-]*A(?P<a>\d+(?:\.\d+)?)B(?![A-Za-z0-9]))?", _F)
_ACTIVE = re.compile(
    r"(?P<a>\d+(?:\.\d+)?)\s?B\s+(?:params?\s+)?active\b|\bactive(?:\s+param(?:eter)?s?)?\s*(?:of\s+)?~?(?P<b>\d+(?:\.\d+)?)\s?B\b"
    r"|(?:激活|啟用|活躍)(?:參數)?\s*(?P<c>\d+(?:\.\d+)?)\s?B", _F)
_ARCH = [(v, re.compile("|".join(p), _F)) for v, p in lexicon.ARCHITECTURE.items()]
_QUANT = [(v, re.compile(p, _F)) for v, p in lexicon.QUANT]
_EXL = re.compile(lexicon.EXL, _F)
_BARE_GGUF = re.compile(r"^Q\d$", _F)
_QUARTER = re.compile(r"(?:\b(?:in|by|this|next|last|during|of|until|before|after)\s+$)|(?:今年|明年|去年)\s*$", _F)
_QUARTER_AFTER = re.compile(r"^\s*(?:'?\d{2}\b|20\d\d|FY|of\s+20\d\d)", _F)
_KV_AFTER = re.compile(r"^[\s-]*(?:KV\b|kv[\s-]?cache)", _F)
_KV_BEFORE = re.compile(r"(?:\bKV|kv[\s-]?cache)\s*(?:in|at|as|to|dtype|quant(?:ization|ized)?(?:\s+(?:to|in|with|at))?"
                        r"|(?:想|要|會|可以|打算)?(?:用|量化成?|設成|改成|跑)|[:=])?\s*$", _F)


def _models(text: str) -> tuple[list[Finding], list[tuple[int, int]]]:
    """The first catalog model named (not negated) and the spans of every model name."""
    hits = model_resolve.find(text)
    spans = [(h.start, h.end) for h in hits]
    live = [h for h in hits if not negated_adjacent(text, h.start)]
    return ([Finding("model", live[0].id, live[0].start, live[0].end)] if live else []), spans


def _size(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """params_b / active_params_b / architecture of a model given by its size."""
    out: list[Finding] = []
    for m in _SIZE.finditer(text):
        if overlaps(m.span(), taken):
            continue
        out.append(Finding("params_b", float(m.group("p")), m.start("p"), m.end() if not m.group("a") else m.start("a") - 1))
        if m.group("a"):
            out.append(Finding("active_params_b", float(m.group("a")), m.start("a") - 1, m.end()))
            out.append(Finding("architecture", "moe", m.start("a") - 1, m.end()))
        break
    if out and not any(f.field == "active_params_b" for f in out):
        act = _ACTIVE.search(text)
        if act and not overlaps(act.span(), taken):
            g = next(k for k in ("a", "b", "c") if act.group(k))
            out.append(Finding("active_params_b", float(act.group(g)), act.start(), act.end()))
    if not any(f.field == "architecture" for f in out):
        for value, rx in _ARCH:
            m = rx.search(text)
            if m and not negated(text, m.start()):
                out.append(Finding("architecture", value, m.start(), m.end()))
                break
    return out


def _quarter(text: str, m: re.Match) -> bool:
    """A bare "Q4" that names a quarter of the year ("in Q4", "Q4 2025"), not a GGUF quant."""
    return bool(_QUARTER.search(text[max(0, m.start() - 12):m.start()]) or _QUARTER_AFTER.match(text, m.end()))


def _exl(m: re.Match) -> str:
    fmt = (m.group("fmt") or m.group("fmt2")).lower()
    bpw = parse_number(m.group("bpw") or m.group("bpw2"))
    return f"{fmt}-{bpw:g}" if bpw % 1 else f"{fmt}-{bpw:.1f}"


def _is_kv(text: str, m: re.Match) -> bool:
    """A dtype said of the KV cache ("FP8 KV cache", "KV cache in q8_0")."""
    return bool(_KV_AFTER.match(clause_after(text, m.end(), 14)) or _KV_BEFORE.search(clause_before(text, m.start(), 24)))


def _quant(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """quantization (most specific format mentioned) and kv_cache_dtype."""
    weights: list[tuple[int, Finding]] = []
    kv: list[Finding] = []
    for m in _EXL.finditer(text):
        weights.append((0, Finding("quantization", _exl(m), m.start(), m.end())))
    for rank, (value, rx) in enumerate(_QUANT, start=1):
        for m in rx.finditer(text):
            if overlaps(m.span(), taken) or (_BARE_GGUF.match(m.group(0)) and _quarter(text, m)):
                continue
            if value != "bf16" and negated(text, m.start()):
                continue
            finding = Finding("quantization", value, m.start(), m.end())
            if _is_kv(text, m):
                kv.append(Finding("kv_cache_dtype", value, m.start(), m.end()))
            else:
                weights.append((rank, finding))
    out = [min(weights, key=lambda w: (w[0], w[1].start))[1]] if weights else []
    return out + kv[:1]


def find(text: str) -> list[Finding]:
    """All model findings in `text` (already normalised to half-width)."""
    named, spans = _models(text)
    out = list(named)
    if not named:
        out += _size(text, spans)
    out += _quant(text, spans)
    return out
