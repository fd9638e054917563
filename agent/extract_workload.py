"""Workload shape, lengths, users and concurrency, flags, LoRA, price, serving mode and priorities.

"80K context", "prompts around 6K tokens", "輸入 2000 tokens", "50 個併發" (concurrency),
"about 100 employees" (users, not concurrency), "same system prompt", "JSON schema",
"30 LoRA adapters", "地端 RAG", "PoC", "對外上線", "low latency", "成本優先".
"""
from __future__ import annotations

import re

from agent import extract_amounts, extract_prefix, extract_rollout, lexicon
from agent.extract_base import Finding, clause_after, clause_before, negated, overlaps

_F = re.I | re.ASCII
_DEMO_MAX_USERS = 10   # DESIGN.md: a demo serves at most about ten people


def _rx(table: dict[str, list[str]]) -> list[tuple[str, re.Pattern]]:
    return [(v, re.compile("|".join(p), _F)) for v, p in table.items()]


_WORKLOAD = _rx(lexicon.WORKLOAD)
_STRONG, _WEAK = _rx(lexicon.SERVING_STRONG), _rx(lexicon.SERVING_WEAK)
_PRIORITY, _TOPIC = _rx(lexicon.PRIORITY), _rx(lexicon.PRIORITY_TOPIC)
_STANCE = re.compile(lexicon.STANCE, _F)
# "latency doesn't matter, throughput does": the verb of the contrast stands for "matters".
_ELLIPSIS = re.compile(r"\s+(?:does|do|is|are)\s*(?:[.,;!?]|\s-\s|$)", _F)
_FLAGS = {f: (re.compile("|".join(pos), _F), re.compile("|".join(neg), _F))
          for f, (pos, neg) in (("shared_prefix", lexicon.SHARED_PREFIX), ("structured_output", lexicon.STRUCTURED),
                                ("streaming", lexicon.STREAMING))}


def _numbers(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """Lengths, concurrency, users, LoRA count and device price (agent.extract_amounts)."""
    return extract_amounts.amounts(text, taken)


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


# "速度只有 80 token/s", "吞吐只有每秒兩個多 token", "throughput is only 700 tok/s": a figure measured, not a priority
_MEASURED = re.compile(r"\s*(?:(?:is|was|were|are|stays?|stayed|remains?|seems?)\s+(?:very\s+|really\s+|pretty\s+|quite\s+|still\s+)?(?:low|poor|bad|limited|terrible|awful|slow)\b"
                       r"|(?:(?:is|was|were|are)\s+)?(?:only|just|about|around|roughly|大概|大約|約|平均|只有|僅有?|才|只|~)\s*(?:到|有|剩)?\s*(?:每秒|~|about\s+)?\s*"
                       r"(?:\d|[一二兩三四五六七八九十幾]))", _F)
# "only ~140 t/s throughput", "its maximum throughput": a figure or a property named before the word, not a goal
_MEASURED_BEFORE = re.compile(r"(?:\d[\d.,]*\s*[kK]?\s*(?:t/s|tok/s|tokens?\s*/\s*s|tps|ms|s|sec|seconds?|%)\s*(?:of\s+)?(?:(?:output|total|aggregate|decode)\s+)?"
                              r"|\b(?:its|their|the\s+model's)\s+(?:max(?:imum)?|peak|top)\s+"
                              # a figure taken at a load: "2 並發首字 1.5 秒內回來"
                              r"|\d+\s*(?:並發|併發)\s*(?:時|下|的)?\s*)$", _F)
# "vLLM shows higher latency than TGI", "throughput under load is lower than without it": a comparison of measurements
_COMPARED = re.compile(r"[^.?!。？！]{0,60}?\b(?:(?:is|are|was|were|gets?|got|shows?|showed|has|have|had)\s+(?:\w+\s+){0,2}?)?(?:lower|higher|longer|shorter|worse|better|slower|faster)\s+than\b"
                       r"|[\s-]+(?:improvements?|regressions?|gains?|boost|win|configs?|setups?|modes?|presets?|profiles?|recipes?)\b", _F)


# A priority waved away ("I don't much care about latency", "per-request speed and TTFT don't matter",
# "不在乎延遲"): never that priority. A dismissed latency alone states no priority (the dev and curated sets'
# convention; evals/extraction_forum4.yaml reads it as throughput, see its header).
_DISMISS_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bless)\s+(?:\w+\s+){0,2}?(?:care|worry|fuss|bothered)\s+(?:much\s+|too\s+much\s+)?"
                             r"(?:about|for|with)\s+(?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){0,2}$"
                             r"|不(?:太|怎麼)?(?:在乎|在意|重視|管|關心)\s*(?:\w{0,4})?$", _F)
_DISMISS_AFTER = re.compile(r"(?:\s*(?:,|and|or|&|/|、|跟|和)\s*(?:per-request\s+|single-stream\s+)?[\w-]+){0,2}\s*"
                            r"(?:(?:doesn't|does\s+not|don't|do\s+not)\s+(?:really\s+|much\s+)?matter"
                            r"|(?:is|are)(?:n't|\s+not)\s+(?:a\s+|the\s+|my\s+|our\s+)?(?:priority|concern|important|critical)"
                            r"|(?:不重要|沒差|無所謂|不是重點))", _F)


def _dismissed(text: str, m: re.Match) -> bool:
    return bool(_DISMISS_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or _DISMISS_AFTER.match(text, m.end()))


# "the first request has a very high TTFT": a symptom reported, not a goal stated
_SYMPTOM = re.compile(r"\b(?:has|have|had|shows?|showed|sees?|seeing|gets?|getting|got|suffers?\s+from)\s+(?:an?\s+)?"
                      r"(?:very\s+|really\s+|super\s+|extremely\s+|terribly\s+|much\s+|a\s+lot\s+)?(?:high|higher|long|longer|bad|worse|huge|terrible|poor|awful)\s+$", _F)


_NO_RUSH = re.compile(r"(?:不(?:需要|需|用|必|要求)|沒有?(?:要求|需要|必要))\s*(?:即時|實時|实时|馬上|马上|立刻|立即)"
                      r"|\b(?:doesn't|does\s+not|don't|do\s+not|no\s+need\s+to)\s+(?:need\s+to\s+)?(?:be\s+)?(?:real[\s-]?time|instant|interactive)\b"
                      r"|\bno\s+(?:need\s+for\s+)?real[\s-]?time\b|\b(?:don't|do\s+not|doesn't|does\s+not)\s+(?:\w+\s+){0,2}?care\s+(?:much\s+)?about\s+latency\b"
                      r"|\b(?:latency|TTFT|speed)(?:\s+(?:and|or|&)\s+(?:latency|TTFT|speed))?\s+(?:doesn't|does\s+not|don't|do\s+not|won't)\s+(?:really\s+)?matter\b|不(?:太|怎麼)?(?:在乎|在意)\s*延遲|延遲(?:不重要|無所謂|沒差)", _F)
_BATCH = re.compile(r"批次|批量|離線|离线|\boffline\b|\bbatch(?:es|ed)?\b|\bovernight\b|\be-?mail\b|\bqueued?\b|隔天|晚上跑", _F)
_RANKED = re.compile(r"\b(?:first|most|main|top|priority|critical|important|matters?|key)\b|最|優先|重要|第一|首要|關鍵", _F)


def priorities(text: str, stance: bool = True) -> list[Finding]:
    """priority (the first stated) and priorities (all stated, in the user's order).

    With `stance=False` (a reply to "what do you optimise for?") a bare topic word counts too.
    """
    hits: list[tuple[int, int, str]] = []
    for value, rx in _PRIORITY + _TOPIC:
        for m in rx.finditer(text):
            if _dismissed(text, m):
                continue
            topic = (value, rx) in _TOPIC
            if topic and stance and (_MEASURED.match(text, m.end()) or _SYMPTOM.search(text, max(0, m.start() - 40), m.start())
                                     or _MEASURED_BEFORE.search(text, max(0, m.start() - 30), m.start()) or _COMPARED.match(text, m.end()) or not (
                    _STANCE.search(clause_before(text, m.start(), 24)) or _STANCE.search(clause_after(text, m.end(), 36))
                    or _ELLIPSIS.match(text, m.end()))):
                continue
            if not negated(text, m.start(), m.end(), post=True):
                hits.append((m.start(), m.end(), value))
    hits.sort()
    # privacy is where the data may go; stated beside a latency, cost or throughput goal it is a constraint, and
    # the goal is what the user ranks ("資料不能出內網……回應一定要在 200ms 以內，即時性是第一優先")
    goals = [h for h in hits if h[2] in ("latency", "cost", "throughput")]
    ranked = hits and (_RANKED.search(clause_after(text, hits[0][1], 24)) or _RANKED.search(clause_before(text, hits[0][0], 24)))
    if goals and hits[0][2] == "privacy" and not ranked:   # "Privacy first, then cost" keeps its order
        hits = goals + [h for h in hits if h not in goals]
    rush = _NO_RUSH.search(text) if stance else None
    if rush and _BATCH.search(text) and not any(v == "throughput" for _, _, v in hits):
        # a batch job that need not answer in real time ("不用即時回覆，批次處理就好", "offline batch, I don't care
        # about latency") optimises for throughput, whatever else it names
        hits.insert(0, (rush.start(), rush.end(), "throughput"))
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
    prefix = extract_prefix.find(text, taken)
    if prefix:   # the shared part's count is not the whole prompt's length
        out = [f for f in out if not (f.field == "input_tokens" and f.start == prefix[0].start)]
    return out + prefix + priorities(text) + _flags(text)
