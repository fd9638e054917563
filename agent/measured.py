"""The figures a user measured, read from their words, and whether they ask for a diagnosis.

    read("vLLM only generates about 6 tokens/s, while Ollama runs it at 25+ tokens/s")
        -> [Measured(kind="decode", value=6.0, engine="vllm"), Measured(kind="decode", value=25.0, engine="ollama")]
    read("第一個字出來要等到 12 秒") -> [Measured(kind="ttft", value=12.0, engine=None)]

A figure is a decode speed (tok/s), a wait before the first token (seconds; minutes are converted) or a
total throughput ("throughput", "總吞吐" just before it). The engine is the one named in the same clause.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.diagnosis import Kind

_F = re.I
_NUM = r"(?<![\d,.])(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"   # "1,000 tokens/s" is 1000, never 0
_RANGE = rf"{_NUM}(?:\s*[-–~～〜到至]\s*\d+(?:\.\d+)?)?\+?"

_SPEED = re.compile(rf"{_RANGE}\s*(?:(?:output|generation|gen|decode|generated)\s+)?(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tokens?\s+(?:per|a|each)\s+sec\w*|tps)\b", _F)
_SPEED_ZH = re.compile(rf"每秒(?:鐘)?\s*(?:大概|大約|約|只有|才|僅)*\s*(?:只有|才|僅)?\s*{_RANGE}\s*(?:多)?\s*個?\s*(?:token|tok|字)", _F)

_UNIT_S = r"(?P<u>s|sec|secs|seconds?|minutes?|mins?|min)\b"
_WAIT_EN = (
    re.compile(rf"(?:TTFT|time[\s-]to[\s-]first[\s-]token|first\s+token)[^.?!\d]{{0,40}}?{_RANGE}\s*{_UNIT_S}", _F),
    re.compile(rf"{_RANGE}\s*{_UNIT_S}[^.?!]{{0,40}}?\bbefore\b[^.?!]{{0,50}}?"
               r"(?:first\s+token|start|running|respon|answer|output|generat)", _F),
)
_WAIT_ZH = re.compile(
    rf"(?:第一個字|首字|首個\s*token|第一個\s*token|TTFT|開始(?:出字|回答|生成|輸出))[^。？！\d]{{0,20}}?(?:等)?(?:到)?\s*"
    rf"(?P<zn>\d+(?:\.\d+)?|[一二兩三四五六七八九十]+)\s*(?P<more>幾|多)?\s*(?P<zu>秒|分鐘)"
    rf"|(?:要|得|需要)?等(?:到|上|了)?\s*(?:大概|大約|約)?\s*(?P<zn2>\d+(?:\.\d+)?|[一二兩三四五六七八九十]+)\s*(?:幾|多)?\s*(?P<zu2>秒|分鐘)"
    rf"[^。？！]{{0,12}}?(?:才|開始|出字|回答|第一個字)", _F)
_LATENCY = (
    re.compile(rf"\b(?:takes?|took|taking|needs?)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?{_RANGE}\s*{_UNIT_S}", _F),
    re.compile(rf"\b{_RANGE}\s*{_UNIT_S}\s+(?:end[\s-]to[\s-]end|per\s+request|for\s+the\s+whole\s+(?:answer|response))", _F),
)
_LATENCY_TOO = re.compile(rf"\b(?:but|and|vs\.?|versus|while|against|compared\s+(?:to|with))\s+(?:about\s+|around\s+|~\s*)?{_RANGE}\s*{_UNIT_S}", _F)
"""The second run beside a whole-request time ("takes ~32 s through a LoRA but ~16 s on the base model")."""
"""A whole request's time ("a 2K-token prompt with 500 output tokens takes ~32 s")."""
_THROUGHPUT_AFTER = re.compile(r"^\s*(?:of\s+)?(?:batch(?:ed)?\s+|total\s+|aggregate\s+|overall\s+|peak\s+)?(?:through-?put|in\s+total)|^\s*(?:總吞吐|吞吐)"
                               r"|^\s*(?:with|at|across|over|for)\s+\d+\s+(?:concurrent|parallel|simultaneous)", _F)
_THROUGHPUT = re.compile(r"(?:through-?put|總吞吐|吞吐量?|in\s+total|aggregate|total"
                         r"|\d+\s*個?\s*(?:併發|并发|concurrent\w*))\s*[^.?!。？！\d]{0,25}$", _F)
_PER_STREAM_AFTER = re.compile(r"^\s*(?:per|each|a)\s+(?:user|stream|request|sequence)|^\s*[（(]?\s*每(?:人|條|個請求|個使用者)", _F)
"""A figure said per user/stream is a stream's, whatever load precedes it."""

_CLAUSE = re.compile(r"(?:[^,;，；。.!?！？]|[.](?!\s|$))+")
_ZH_DIGITS = {"一": 1, "二": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True)
class Measured:
    kind: Kind
    value: float
    """tok/s for decode and throughput, seconds for ttft and latency (the low end of a range)."""
    engine: str | None = None
    at: int = 0
    """Where in the text it was written (keeps the user's order)."""


def _num(s: str) -> float:
    """A figure as written, thousands separators allowed."""
    return float(s.replace(",", ""))


def _zh_number(s: str) -> float:
    if re.fullmatch(r"\d+(?:\.\d+)?", s):
        return float(s)
    if s.startswith("十"):
        return 10 + _ZH_DIGITS.get(s[1:2], 0)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0)
    return float(_ZH_DIGITS.get(s, 0))


_SENTENCE = re.compile(r"[。？！\n]|[.?!](?=\s)")


def _engine_at(text: str, pos: int) -> str | None:
    """The engine named in the clause that holds position `pos`, else the nearest one named before it in the same
    sentence ("用 OpenVINO 在內顯上跑 X（MoE, int4）只有約 10 tok/s": the comma inside the brackets splits the clause)."""
    from agent.topic_lead import _ENGINE_RX
    for m in _CLAUSE.finditer(text):
        if m.start() <= pos < m.end():
            named = sorted((hit.start(), e) for e, rx in _ENGINE_RX if e != "dynamo" for hit in [rx.search(m.group(0))] if hit)
            if named:
                return named[0][1]
            break
    ends = [b.end() for b in _SENTENCE.finditer(text, 0, pos)]
    start = ends[-1] if ends else 0
    before = sorted((hit.start(), e) for e, rx in _ENGINE_RX if e != "dynamo" for hit in rx.finditer(text, start, pos))
    return before[-1][1] if before else None


def read(text: str) -> list[Measured]:
    """Every figure the user measured, in the order written (a speed and a wait at one place: the first)."""
    found: list[Measured] = []
    for rx in (_SPEED, _SPEED_ZH):
        for m in rx.finditer(text):
            total = ((_THROUGHPUT.search(text[max(0, m.start() - 40):m.start()])
                      and not _PER_STREAM_AFTER.search(text[m.end():m.end() + 20]))
                     or _THROUGHPUT_AFTER.search(text[m.end():m.end() + 30]))
            kind: Kind = "throughput" if total else "decode"
            found.append(Measured(kind, _num(m.group("n")), _engine_at(text, m.start()), m.start()))
    for m in (m for rx in _WAIT_EN for m in rx.finditer(text)):
        scale = 60.0 if m.group("u").lower().startswith("m") else 1.0
        found.append(Measured("ttft", _num(m.group("n")) * scale, _engine_at(text, m.start()), m.start()))
    for m in (m for rx in _LATENCY for m in rx.finditer(text)):
        if not any(abs(m.start() - f.at) < 30 for f in found if f.kind == "ttft"):
            scale = 60.0 if m.group("u").lower().startswith("m") else 1.0
            found.append(Measured("latency", _num(m.group("n")) * scale, _engine_at(text, m.start()), m.start()))
    if any(f.kind == "latency" for f in found):
        for m in _LATENCY_TOO.finditer(text):
            scale = 60.0 if m.group("u").lower().startswith("m") else 1.0
            found.append(Measured("latency", _num(m.group("n")) * scale, _engine_at(text, m.start()), m.start()))
    for m in _WAIT_ZH.finditer(text):
        n, unit = (m.group("zn"), m.group("zu")) if m.group("zn") else (m.group("zn2"), m.group("zu2"))
        found.append(Measured("ttft", _zh_number(n) * (60.0 if unit == "分鐘" else 1.0), _engine_at(text, m.start()),
                              m.start()))
    found.sort(key=lambda x: x.at)
    out: list[Measured] = []
    for f in found:   # one figure per place: "12 tok/s" read by two patterns counts once
        if not any(abs(f.at - o.at) < 4 for o in out):
            out.append(f)
    return out


_ASK = re.compile(
    r"\b(?:is|are)\s+(?:that|this|it|these|those|such)\s+(?:\w+\s+){0,3}?(?:normal|expected|typical|reasonable|right)\b"
    r"|\b(?:normal|expected)\s*\?|\bwhy\s+(?:is|are|does|do|would|did)\b[^?]{0,80}\b(?:slow|slower|drop|so\s+long|lag)"
    r"|\bso\s+slow\b|\btoo\s+slow\b|\bslower\s+than\s+(?:it\s+should|expected|I\s+expected)|misconfigur\w*"
    r"|\bset\s*up\s+wrong|\bsomething\s+(?:wrong|limiting|off)\b|\bdoing\s+(?:\w+\s+)?wrong|\bbug\s+or\b|\ba\s+bug\s*\?"
    r"|\bwhat(?:'s|\s+is)\s+wrong\b|\boverhead\s+expected|\bdrop\s+expected"
    r"|\bis\s+(?:a|an|the|this|that|such\s+a)\s+[^?.]{0,40}?\b(?:normal|expected|typical)\b"
    r"|\b(?:fewer|lower|less|slower|worse)\b[^.?!]{0,30}\bthan\s+(?:I\s+|we\s+)?(?:expected|it\s+should)"
    r"|\bgap\s+expected|\bis\s+(?:that|this)\s+gap\b"
    r"|正常嗎|正常的嗎|正常吗|是不是.{0,8}(?:錯|問題)|設定(?:錯|有問題)|設錯|哪裡(?:錯|設錯|有問題)|問題(?:可能)?(?:出)?在哪"
    r"|為什麼.{0,30}(?:慢|這麼久|這麼低|衝不高|上不去|拉不高|上不來)|衝不高|上不去|拉不高|是\s*bug|bug\s*還是|用錯|本來就這樣|限制住|合理嗎"
    r"|\b(?:does\s*n[o']t|won'?t|doesn'?t|can'?t|cannot)\s+(?:scale|go\s+(?:up|higher)|get\s+higher)\b|\bplateaus?\b", _F)


_COMPLAINT = re.compile(
    r"\b(?:extremely|very|really|painfully|super|too|so|quite|unusably)\s+slow\b|\bslow\s+with\b|\bdrops?\s+to\b"
    r"|\bcuts?\b[^.?!]{0,30}\b(?:throughput|speed)|很慢|太慢|變慢|慢很多|慢好幾倍|慢到", _F)
"""A complaint about a figure the user gives ("my P40 is extremely slow ... 1.2 tokens/s")."""


_STATED_SLOW = re.compile(
    r"(?<!will it )(?<!would it )\b(?:becomes?|gets?|got|is|are|runs?|feels?)\s+(?:\w+\s+)?(?:painfully|extremely|unusably|really|very)\s+slow\b"
    r"|變得(?:很|非常|超)慢|慢到(?:根本)?(?:沒辦法|不能|無法)", _F)
"""A slowness the user lives with now, without a figure ("every turn becomes painfully slow", "慢到根本沒辦法用")."""


def diagnosis_asked(text: str) -> bool:
    """The user asks whether what they see is normal, or why it is slow ("這正常嗎？", "why is vLLM so slow?"),
    or complains about a figure they measured."""
    text = text or ""
    return bool(_ASK.search(text)) or bool(_COMPLAINT.search(text) and read(text)) or bool(_STATED_SLOW.search(text))
