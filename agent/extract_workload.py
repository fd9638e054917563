"""Workload shape, lengths, users and concurrency, flags, LoRA, price, serving mode and priorities.

"80K context", "prompts around 6K tokens", "輸入 2000 tokens", "50 個併發" (concurrency),
"about 100 employees" (users, not concurrency), "same system prompt", "JSON schema",
"30 LoRA adapters", "地端 RAG", "PoC", "對外上線", "low latency", "成本優先".
"""
from __future__ import annotations

import re

from agent import extract_rollout, lexicon
from agent.extract_base import Finding, clause_after, clause_before, negated, overlaps
from agent.extract_numbers import NUM, parse_number

_F = re.I | re.ASCII
_FILL = (r"(?:\s+|of|about|around|roughly|approx(?:imately|\.)?|~|≈|up\s+to|at\s+least|typically|usually|average|avg\.?"
         r"|mostly|are|is|be|will\s+be|:|=|约|約|大約|大概|平均|通常|為|是|要|需要|長度|左右|最多|最長|達到?|到|在|約莫"
         r"|often|very|很短|很長|有|lengths?|sizes?|windows?|\(|support|serve|handle|支援|服務|處理|撐|可能|會"
         r"|maybe|perhaps|long|short|tiny|in|,)*")
_NOT_TOKENS = r"(?:pages?|頁|files?|seconds?|secs?|ms\b|minutes?|%|GB|users?|people|人)"
_TOK = r"(?:\s*(?:個\s*)?(?:tokens?|toks?|字))?"
_CTX = r"(?:context(?:[\s-]+(?:window|length|size|len))?|ctx|上下文(?:長度|窗口)?|context\s*長度)"
_IN = r"(?:prompts?|inputs?|input\s+(?:length|size)|prompt\s+(?:length|size)|documents?|docs|輸入(?:長度)?|prompt\s*長度|提示詞?|文件)"
_OUT = r"(?:outputs?|answers?|responses?|replies|completions?|generations?|summaries|輸出(?:長度)?|回答|回覆|生成)"


def _length(kw: str, bare: str) -> re.Pattern:
    """"6K-token prompts", "4k prompts", "1K input", "prompts around 6K tokens" (bare: words a number may precede alone)."""
    return re.compile(
        rf"(?P<c>\d+(?:\.\d+)?\s?[kK])\s+{kw}"
        rf"|(?P<a>{NUM})\+?\s*(?:-?\s*tokens?\s*(?:of\s+)?{kw}|{bare})"
        rf"|{kw}\s*{_FILL}\s*(?P<b>{NUM})(?!\s*-?\s*{_NOT_TOKENS})\+?{_TOK}", _F)


_LENGTHS = {"context_length": _length(_CTX, _CTX), "input_tokens": _length(_IN, r"(?:input|prompt|輸入)(?!s)"),
            "output_tokens": _length(_OUT, r"(?:output|輸出)(?!s)")}
_CTX_PAREN = re.compile(rf"{_CTX}[^\d.,;。，]{{0,30}}?\(\s*(?P<b>{NUM})\+?\s*(?:tokens?)?\s*\)", _F)
_CONC = re.compile(
    rf"(?P<a>{NUM})\+?\s*(?:個|位|名|多)?\s*"
    r"(?:人|用戶|使用者|業務|同事|員工|工程師|客戶|people|users?|requests?|sessions?|streams?|clients?)?\s*"
    rf"(?:同時|併發|並發|concurrent(?:ly)?|simultaneous(?:ly)?|in\s+parallel|at\s+(?:the\s+same\s+time|once)|parallel\b)"
    r"|(?:concurrency|併發數?|並發數?|同時(?:在線|上線|使用|連線)?(?:人數|用戶數?|使用者)?"
    r"|concurrent\s+(?:users|requests|sessions|streams)|parallel\s+requests)"
    rf"\s*{_FILL}\s*(?P<b>{NUM})", _F)
_USERS = re.compile(
    rf"(?P<a>{NUM})\+?[\s-]*(?:個|位|名|多)?\s*(?:(?:internal|active|daily|monthly|total|registered|end|business|sales)[\s-]+)*"
    r"(?:users?|people|persons?|employees|staff|engineers|developers|customers|clients|analysts|seats|members|researchers"
    r"|students|reps|representatives|salespeople|colleagues|coworkers|testers"
    r"|(?:業務|研發|客服|行銷|門市|內部)\s*(?:同仁|同事|人員|員工)|人|用戶|使用者|員工|同事|工程師|業務|客戶|同仁)"
    rf"|\bteam\s+of\s+(?P<b>{NUM})"
    rf"|(?P<d>{NUM})\s+[a-z]+s\s+(?:(?:will\s+)?(?:be\s+)?using|use|who\s+use)\b"   # "15 lawyers using it"
    rf"|(?:users?|用戶數|使用者人數)\s*{_FILL}\s*(?P<c>{NUM})(?!\s*%)", _F)
_LORA = re.compile(
    rf"(?P<a>{NUM})\s*(?:個|組|套)?\s*(?:different\s+|fine[\s-]?tuned\s+|custom\s+)?(?:LoRAs?\b|adapters?\b)"
    rf"|LoRA\s*(?:adapters?)?\s*(?:數量|count)?\s*{_FILL}\s*(?P<b>{NUM})", _F)
_PRICE = re.compile(
    r"\$\s?(?P<a>\d+(?:\.\d+)?)\s*(?:/|per|an?)\s*(?:GPU[\s-]?|device[\s-]?|card[\s-]?)?(?:hour|hr|h)\b"
    r"|(?P<b>\d+(?:\.\d+)?)\s*(?:USD|美元|美金)\s*(?:/|每|per|一)\s*(?:GPU[\s-]?|卡)?(?:小時|hour|hr|h)"
    r"|每(?:張卡)?(?:小時|hr)\s*(?P<c>\d+(?:\.\d+)?)\s*(?:USD|美元|美金)", _F)


# Cheap keyword gates: the number patterns above run only when their words occur at all.
_GATES = {
    "context_length": re.compile(_CTX, _F), "input_tokens": re.compile(_IN, _F), "output_tokens": re.compile(_OUT, _F),
    "concurrency": re.compile(r"concurren|simultaneous|parallel|at\s+once|same\s+time|同時|併發|並發", _F),
    "users": re.compile(r"user|people|person|employee|staff|engineer|developer|customer|analyst|seat|member|researcher"
                        r"|rep|client|colleague|coworker|tester"
                        r"|student|team|\bus(?:e|ing)|人|用戶|使用者|員工|同事|工程師|業務|客戶|同仁", _F),
    "lora_adapters": re.compile(r"lora|adapter", _F), "device_hour_usd": re.compile(r"\$|USD|美元|美金", _F),
}


_DEMO_MAX_USERS = 10   # DESIGN.md: a demo serves at most about ten people
_EXPLICIT_CONC = re.compile(r"併發|並發|concurren|simultaneous|parallel|at\s+once|same\s+time", _F)
_ONLINE = re.compile(r"在線|線上|online|logged\s+in", _F)
_UNIT = re.compile(r"tokens?|toks?|字|\d\s?[kKM萬千]", _F)


def _rx(table: dict[str, list[str]]) -> list[tuple[str, re.Pattern]]:
    return [(v, re.compile("|".join(p), _F)) for v, p in table.items()]


_WORKLOAD = _rx(lexicon.WORKLOAD)
_STRONG, _WEAK = _rx(lexicon.SERVING_STRONG), _rx(lexicon.SERVING_WEAK)
_PRIORITY, _TOPIC = _rx(lexicon.PRIORITY), _rx(lexicon.PRIORITY_TOPIC)
_STANCE = re.compile(lexicon.STANCE, _F)
_FLAGS = {f: (re.compile("|".join(pos), _F), re.compile("|".join(neg), _F))
          for f, (pos, neg) in (("shared_prefix", lexicon.SHARED_PREFIX), ("structured_output", lexicon.STRUCTURED),
                                ("streaming", lexicon.STREAMING))}


def _group(m: re.Match) -> str | None:
    return next((g for g in ("a", "b", "c", "d") if g in m.re.groupindex and m.group(g)), None)


def _matches(field: str, rx: re.Pattern, text: str, taken: list[tuple[int, int]]) -> list[tuple[Finding, re.Match]]:
    """Every plausible number `rx` reads for `field`, left to right."""
    out = []
    for m in rx.finditer(text):
        g = _group(m)
        value = parse_number(m.group(g)) if g else None
        if value is None or overlaps(m.span(g), taken):
            continue
        if field in ("context_length", "input_tokens") and value < 256 and not _UNIT.search(m.group(0)):
            continue
        if field == "output_tokens" and value < 16 and not _UNIT.search(m.group(0)):
            continue
        if "," in m.group(0)[:m.start(g) - m.start()] and not _UNIT.search(m.group(0)):
            continue   # a number across a comma counts only with its unit ("answers, 50 users" is not a length)
        out.append((Finding(field, value if field == "device_hour_usd" else int(round(value)), m.start(), m.end()), m))
    return out


def _concurrency(found: list[tuple[Finding, re.Match]]) -> list[Finding]:
    """Explicit concurrency ("併發 150") beats people online at once ("同時在線 1000 人", then users)."""
    if not found:
        return []
    best = next((f for f, m in found if _EXPLICIT_CONC.search(m.group(0))), found[0][0])
    online = [f for f, m in found if f is not best and _ONLINE.search(m.group(0))]
    return [best] + [Finding("users", f.value, f.start, f.end) for f in online[:1]]


def _numbers(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """Lengths, concurrency, users, LoRA count and device price."""
    out: list[Finding] = []
    for field, rx in (*_LENGTHS.items(), ("context_length", _CTX_PAREN), ("concurrency", _CONC), ("users", _USERS),
                      ("lora_adapters", _LORA), ("device_hour_usd", _PRICE)):
        if any(f.field == field for f in out) or not _GATES[field].search(text):
            continue
        found = _matches(field, rx, text, taken)
        chosen = _concurrency(found) if field == "concurrency" else [f for f, _ in found[:1]]
        out += chosen
        taken = taken + [(f.start, f.end) for f in chosen]
    return out


def _first(text: str, table: list[tuple[str, re.Pattern]], start: int = 0, end: int | None = None) -> list[tuple[str, re.Match]]:
    """(value, first non-negated match in text[start:end]) for each value of a keyword table, in table order."""
    out = []
    for value, rx in table:
        m = next((m for m in rx.finditer(text, start, len(text) if end is None else end) if not negated(text, m.start())), None)
        if m:
            out.append((value, m))
    return out


def _serving_mode(text: str, start: int = 0, end: int | None = None, weak: list | None = None) -> Finding | None:
    """The highest mode named by a strong word in text[start:end], else by a weak one."""
    for table in (_STRONG, weak or _WEAK):
        found = _first(text, table, start, end)
        if found:
            value, m = max(found, key=lambda f: lexicon.SERVING_RANK.index(f[0]))
            return Finding("serving_mode", value, m.start(), m.end())
    return None


def _retarget(text: str, taken: list[tuple[int, int]], out: list[Finding],
              mode: Finding | None) -> tuple[list[Finding], Finding | None]:
    """After a pilot, the rollout's users, concurrency and serving mode win: they are the target state."""
    seg = extract_rollout.segment(text)
    if seg is None:
        return out, mode
    start, end = seg
    inside = [f for f in _numbers(text, taken + [(0, start), (end, len(text))]) if f.field in ("users", "concurrency")]
    target = _serving_mode(text, start, end, weak=_WEAK + extract_rollout.AUDIENCE)
    users = next((f.value for f in inside if f.field == "users"), 0)
    if target is None and mode is not None and mode.value in ("personal", "demo") and users > _DEMO_MAX_USERS:
        mode = None   # the pilot's mode is stale and the rollout's is not said: leave it to the interview
    replaced = {f.field for f in inside}
    return [f for f in out if f.field not in replaced] + inside, target or mode


def priorities(text: str, stance: bool = True) -> list[Finding]:
    """priority (the first stated) and priorities (all stated, in the user's order).

    With `stance=False` (a reply to "what do you optimise for?") a bare topic word counts too.
    """
    hits: list[tuple[int, int, str]] = []
    for value, rx in _PRIORITY + _TOPIC:
        for m in rx.finditer(text):
            topic = (value, rx) in _TOPIC
            if topic and stance and not (_STANCE.search(clause_before(text, m.start(), 24)) or _STANCE.search(clause_after(text, m.end(), 36))):
                continue
            if not negated(text, m.start(), m.end(), post=True):
                hits.append((m.start(), m.end(), value))
    hits.sort()
    order = list(dict.fromkeys(v for _, _, v in hits))
    if not order:
        return []
    return [Finding("priority", order[0], hits[0][0], hits[0][1]),
            Finding("priorities", order, hits[0][0], max(e for _, e, _ in hits))]


def _flags(text: str) -> list[Finding]:
    """shared_prefix / structured_output / streaming: stated yes or no."""
    out = []
    for field, (pos, neg) in _FLAGS.items():
        m = neg.search(text)
        if m:
            out.append(Finding(field, False, m.start(), m.end()))
            continue
        m = pos.search(text)
        if m:
            out.append(Finding(field, not negated(text, m.start(), m.end(), post=True), m.start(), m.end()))
    return out


def find(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """All workload findings in `text`; numbers inside `taken` spans (model names, counts) are skipped."""
    out, mode = _retarget(text, taken, _numbers(text, taken), _serving_mode(text))
    found = _first(text, _WORKLOAD)
    if found:
        value, m = found[0]
        out.append(Finding("workload", value, m.start(), m.end()))
    if mode:
        out.append(mode)
    return out + priorities(text) + _flags(text)
