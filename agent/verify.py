"""Grounding and safety checks for LLM prose: what the user reads must come from the tools.

`problems(...)` returns what is wrong in words; any problem means the template answer is used.
Grounding: engines named are the decision's and the recommendation is the decision's (never an
engine it avoids or an alternative), citations were retrieved, numbers are the tools' (shown in
another unit only when that unit is written: s as ms, ms as s, GB as MB, a fraction as %). Safety: prose is shown on the
web and in Slack, so it carries no markup of its own — no HTML, no Slack mentions or links, no
images, no links except to the cited sources, no invisible direction controls — is not over
MAX_CHARS, and never repeats the advisor's own prompts.
"""
from __future__ import annotations

import math
import re
from typing import Any

from agent.names import engines_named

MAX_CHARS = 5000   # the composer is asked for at most 250 words; anything far longer is not an answer

_MARKER = re.compile(r"\[(\d+)\]")
_CHUNK_ID = re.compile(r"\b[a-z0-9][a-z0-9_.-]*#[a-z0-9][a-z0-9-]*\b")
_LIST_ITEM = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
# A number not glued to a preceding letter/digit (so "H100", "FP8", "p99" are names, not numbers).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.#])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?([kKmM](?![a-zA-Z]))?")


# Markup: HTML tags and comments, Slack's <!channel> <@U…> <#C…> <http…|…>, autolinks <https://…>.
_MARKUP = re.compile(r"<\s*[A-Za-z!@#/?]|&lt;\s*[!@#]")
_PLAIN_MENTION = re.compile(r"(?<![\w@])@(channel|here|everyone)\b", re.I)
_IMAGE = re.compile(r"!\[[^\]]*\]")
_MD_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)")
_REF_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$", re.M)
_URL = re.compile(r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>()\[\]\"'`]+", re.I)
_SCHEME = re.compile(r"\b(?:javascript|data|vbscript|file):", re.I)
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]")
# A recommendation stated as a label ("Recommendation: X", "建議：X"): its first engine must be the pick.
_REC_LABEL = re.compile(r"(?:recommend(?:ation|ed(?: engine)?)?|our pick|best choice|建議|推薦|首選)\s*\**\s*[:：]"
                        r"\s*\**\s*([^\n]{0,80})", re.I)
# Recommending in words: a strong cue anywhere in the sentence, or a verb right before the engine
# ("use Ollama", not "Ollama is for personal use").
_REC_CUE = re.compile(r"\b(?:recommend\w*|suggest\w*|best (?:choice|option|fit))\b|建議|推薦|首選|選用|改用", re.I)
_REC_VERB = re.compile(r"\b(?:use|try|deploy|switch to|go with|go for|pick|choose|run it on)\b|使用", re.I)
_NEGATION = re.compile(r"\b(?:avoid\w*|not|never|no|instead of|rather than|over|unsuitable|skip|against|than)\b|n't|"
                       r"避免|不要|不建議|不適合|而非|不是|別", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|[。！？\n]")   # "llama.cpp" and "3.5" stay whole
# Unit views a number may take, by the unit written after it: a tool's seconds shown in ms (×1000),
# its ms shown in seconds (÷1000), its GB shown in MB (×1000), a fraction shown in % (×100).
_UNIT_VIEWS = ((re.compile(r"\s*(?:ms\b|millisec\w*|毫秒)"), 1000.0),
               (re.compile(r"\s*(?:s\b|sec\b|secs\b|seconds?\b|秒)"), 0.001),
               (re.compile(r"\s*(?:MB|MiB)\b"), 1000.0),
               (re.compile(r"\s*(?:%|percent|個百分點)"), 100.0))
_SHINGLE = 8   # words in a row shared with a prompt that count as echoing it


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _prompt_shingles() -> set[tuple[str, ...]]:
    """Every run of _SHINGLE words in the advisor's fixed prompt text (placeholders left out)."""
    from agent import prompts
    out: set[tuple[str, ...]] = set()
    for template in (prompts.EXTRACT_SYSTEM, prompts.COMPOSE_SYSTEM, prompts.VALIDATION_RETRY):
        for piece in re.split(r"\{[a-z_]+\}", template.replace("{{", "{").replace("}}", "}")):
            w = _words(piece)
            out |= {tuple(w[i:i + _SHINGLE]) for i in range(len(w) - _SHINGLE + 1)}
    return out


def decision_engines(result: dict[str, Any]) -> set[str]:
    """Engines the decision mentions: primary, alternatives and those to avoid."""
    named = {result.get("primary"), *(result.get("alternatives") or [])}
    named |= {a.get("engine") for a in result.get("avoid") or []}
    named |= set(result.get("mentioned") or [])   # engines the catalog facts of an asked topic name
    return named - {None}


def numbers(text: str) -> list[tuple[str, float]]:
    """(as printed, value with K/M applied) for every number in `text`."""
    return [(printed, value) for printed, value, _ in numbers_in_context(text)]


def numbers_in_context(text: str) -> list[tuple[str, float, str]]:
    """(as printed, value with K/M applied, the text right after it) for every number in `text`."""
    text = _LIST_ITEM.sub(" ", _MARKER.sub(" ", text))
    out = []
    for m in _NUMBER.finditer(text):
        whole, frac, suffix = m.groups()
        printed = whole + (frac or "")
        scale = {"k": 1e3, "m": 1e6}.get((suffix or "").lower(), 1.0)
        try:
            value = float(printed.replace(",", "")) * scale
        except OverflowError:
            value = math.inf
        out.append((printed + (suffix or ""), value, text[m.end():m.end() + 16]))
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


def matches(printed: str, truth: float, views: tuple[float, ...] = (1.0, 1000.0, 0.001, 100.0)) -> bool:
    """True when `printed` shows `truth` up to its rounding, also as one of its `views` (×1000, ÷1000, %)."""
    digits = _digits(printed)
    base = float(digits)
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    suffix = printed[-1].lower() if printed[-1] in "kKmM" else ""
    scales = {"k": (1e3, 1024.0), "m": (1e6, 1024.0**2)}.get(suffix, (1.0,))
    sig = _sig_digits(printed)
    if len(digits.replace(".", "")) > 30:   # no tool prints a number this long
        return False
    for t in (truth * v for v in views):
        for scale in scales:
            shown = t / scale
            if abs(shown - base) <= 0.5 * 10 ** -decimals + 1e-9:
                return True
            if sig >= 2 and math.isclose(_round_sig(shown, sig), base, rel_tol=1e-9):
                return True
    return False


def _views(after: str) -> tuple[float, ...]:
    """The unit views a printed number may take, from the unit written after it (a bare number: none)."""
    return (1.0, *(factor for unit, factor in _UNIT_VIEWS if unit.match(after)))


def _source_urls(citations: list[dict[str, Any]]) -> set[str]:
    return {str(c.get("source") or "").rstrip("/") for c in citations if "://" in str(c.get("source") or "")}


def safety_problems(prose: str, citations: list[dict[str, Any]]) -> list[str]:
    """Markup, mentions, images, outside links, hidden characters, length and echoed prompts."""
    issues = []
    if len(prose) > MAX_CHARS:
        issues.append(f"is {len(prose):,} characters long (limit {MAX_CHARS:,})")
        prose = prose[: MAX_CHARS * 2]   # the checks below need not read a flood
    if _MARKUP.search(prose):
        issues.append("contains markup (HTML, Slack mentions or Slack links)")
    if _PLAIN_MENTION.search(prose):
        issues.append("mentions a whole channel (@channel/@here/@everyone)")
    if _IMAGE.search(prose):
        issues.append("contains an image")
    if _SCHEME.search(prose):
        issues.append("contains a script, data or file link")
    if _INVISIBLE.search(prose):
        issues.append("contains invisible direction or zero-width characters")
    allowed = _source_urls(citations)
    links = [*_MD_LINK.findall(prose), *_REF_DEF.findall(prose), *_URL.findall(prose)]
    outside = sorted({u.rstrip(".,;:!?)").rstrip("/") for u in links} - allowed)
    if outside:
        issues.append(f"links outside the cited sources: {', '.join(outside[:3])}")
    words = _words(prose)
    shingles = _prompt_shingles()
    if any(tuple(words[i:i + _SHINGLE]) in shingles for i in range(len(words) - _SHINGLE + 1)):
        issues.append("repeats the advisor's instructions")
    return issues


def contradictions(prose: str, result: dict[str, Any]) -> list[str]:
    """Statements that recommend something other than the decision's pick."""
    primary = result.get("primary")
    avoided = {a.get("engine") for a in result.get("avoid") or []} - {None}
    issues = []
    for m in _REC_LABEL.finditer(prose):
        named = _first_engine(m.group(1))
        if named and named != primary:
            issues.append(f"presents {named} as the recommendation (the decision: {primary or 'none'})")
    for sentence in _SENTENCE_END.split(prose):
        if _NEGATION.search(sentence):
            continue
        pushed = engines_named(sentence) if _REC_CUE.search(sentence) else set()
        for verb in _REC_VERB.finditer(sentence):
            pushed |= engines_named(sentence[verb.end():verb.end() + 40])
        bad = pushed & avoided
        if bad:
            issues.append(f"recommends {', '.join(sorted(bad))}, which the decision avoids")
    return list(dict.fromkeys(issues))


def _first_engine(text: str) -> str | None:
    """The engine named first in `text` (by position), or None."""
    best = None
    for engine in engines_named(text):
        from agent.names import engine_names
        names = [engine_names().get(engine, engine), engine]
        pos = min((text.lower().find(n.lower()) for n in names if text.lower().find(n.lower()) >= 0), default=len(text))
        if best is None or pos < best[0]:
            best = (pos, engine)
    return best[1] if best else None


def problems(prose: str, result: dict[str, Any], allowed_numbers: list[float]) -> list[str]:
    """Everything in `prose` the tools do not back, or that is unsafe to show (empty list = verified)."""
    citations = result.get("citations") or []
    issues = safety_problems(prose, citations)
    if len(prose) > MAX_CHARS:
        return issues
    issues += contradictions(prose, result)
    extra = engines_named(prose) - decision_engines(result)
    if extra:
        issues.append(f"names engines outside the decision: {', '.join(sorted(extra))}")
    primary = result.get("primary")
    if primary and primary not in engines_named(prose):
        issues.append(f"does not name the recommended engine {primary}")
    bad = sorted({int(n) for n in _MARKER.findall(prose) if not 1 <= int(n) <= len(citations)})
    if bad:
        issues.append(f"cites sources that were not retrieved: {', '.join(f'[{n}]' for n in bad)}")
    ids = {c["id"] for c in citations}
    unknown = sorted(set(_CHUNK_ID.findall(prose)) - ids)
    if unknown:
        issues.append(f"cites chunk ids that were not retrieved: {', '.join(unknown)}")
    if citations and not _MARKER.search(prose):
        issues.append("cites no source")
    wrong = [p for p, _, after in numbers_in_context(prose)
             if not any(matches(p, t, _views(after)) for t in allowed_numbers)]
    if wrong:
        issues.append(f"numbers not in the tools' results: {', '.join(dict.fromkeys(wrong))}")
    return issues
