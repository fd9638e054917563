"""The deterministic bilingual extractor (English + Traditional Chinese); it always runs.

    extract(text) -> Extraction                  an opening message or any free text
    extract_answer(text, fields) -> Extraction   a reply to an interview question about `fields`
                                                 ("PCIe only", "有", "about 50", "don't know")

Every value carries its evidence: the exact substring of the user's text it was read from.
Values use the Profile's field names and the contract ids (hardware/model ids from the catalog).
A model given only by size ("a 32B model") becomes params_b (+ active_params_b, architecture);
`architecture` and sizes are not repeated for catalog models, which carry their own.
"""
from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent import extract_hardware, extract_host, extract_intent, extract_model, extract_topics, extract_unplaced, extract_workload
from agent.extract_base import Finding, overlaps
from agent.extract_quantity import k_length, quantities
from agent.extract_text import Text, normalize
from rules import catalog
from rules.errors import InputError, ProfileError
from rules.ids import Intent, Language
from rules.profile import build_profile

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_F = re.I | re.ASCII
_YES = re.compile(r"^\W*(?:yes|yeah|yep|yup|sure|correct|right|true|definitely|of\s+course"
                  r"|有|是|對|会|會|要|需要|嗯|沒錯)(?![A-Za-z])", _F)
_NO = re.compile(r"^\W*(?:no|nope|nah|none|not\s+really|false|never|沒有|沒|不會|不是|否|無|不需要|不用|不要)(?![A-Za-z])", _F)
_IB = re.compile(r"\bIB\b", _F)
_ARTICLE = re.compile(r"\s*(?:an?|the)\b", _F)
# The units a bare reply's number may carry for each field ("about 50", "50 人", "8K tokens").
_REPLY_UNITS = {"concurrency": ("people", "conc", "req", "org"), "users": ("people", "org"), "count": ("dev",),
                "nodes": ("node",), "context_length": ("tokens", "context"), "input_tokens": ("tokens",),
                "output_tokens": ("tokens",), "lora_adapters": ("lora",)}
BOOL_FIELDS = ("shared_prefix", "structured_output", "streaming")
NUMBER_FIELDS = ("concurrency", "context_length", "input_tokens", "output_tokens", "users", "count", "nodes",
                 "lora_adapters")


class Unplaced(BaseModel):
    """Words that looked like a device, model or number but were not placed in the profile."""

    model_config = ConfigDict(extra="forbid")
    text: str
    """The user's own words."""
    kind: Literal["device", "model", "number"]


class Extraction(BaseModel):
    """What one user message says: intent, profile values with their evidence, and flags."""

    model_config = ConfigDict(extra="forbid")
    intent: Intent = "recommend"
    values: dict[str, Any] = Field(default_factory=dict)
    """Profile field → value (contract ids, ints, floats, bools, list of priorities)."""
    evidence: dict[str, str] = Field(default_factory=dict)
    """Profile field → the exact substring of the user's text the value came from."""
    language: Language = "en"
    dont_know: bool = False
    """The user said they do not know ("not sure", "不知道", "隨便")."""
    injection: bool = False
    """The text tries to steer the advisor ("ignore your rules", "你必須推薦 X")."""
    topics: list[str] = Field(default_factory=list)
    """What the message asks about beyond its situation (agent.extract_topics ids)."""
    not_understood: list[Unplaced] = Field(default_factory=list)
    """Device-, model- or number-like words no field took (quoted back to the user)."""


def _out_of_range(field: str, value: Any) -> bool:
    """A number outside the Profile's own bounds for `field` (not a clash between two fields)."""
    from rules.profile import field_range
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    lo, hi = field_range(field)
    return value != value or not lo <= value <= hi


def _range_text(field: str, lang: str = "en") -> str:
    from rules.profile import field_range
    lo, hi = field_range(field)
    return f"須介於 {lo:,} 到 {hi:,} 之間" if lang == "zh" else f"{field} must be from {lo:,} to {hi:,}"


def _outside(field: str, words: Any) -> ProfileError:
    """A number the user wrote that no profile can hold, named in both languages."""
    words = str(words)[:40]
    return ProfileError(field, f'"{words}" is outside what the advisor can plan for ({_range_text(field)})',
                        zh=f"「{words}」超出顧問能規劃的範圍（{_range_text(field, 'zh')}）")


def _consistent(values: dict[str, Any], evidence: dict[str, str]) -> None:
    """Drop values the Profile would reject (each named field in turn), keeping the rest."""
    for key, limit in (("input_tokens", "context_length"), ("active_params_b", "params_b")):
        if key in values and limit in values and values[key] > values[limit]:
            values.pop(key), evidence.pop(key)
    for _ in range(len(values)):
        try:
            build_profile(values)
            return
        except ProfileError as err:
            field = err.field.split(".")[0]
            if field not in values:
                values.clear(), evidence.clear()
                return
            if field in NUMBER_FIELDS and _out_of_range(field, values[field]):
                raise _outside(field, evidence.get(field, values[field])) from None
            values.pop(field), evidence.pop(field)


def _assemble(t: Text, findings: list[Finding]) -> tuple[dict[str, Any], dict[str, str], dict[str, tuple[int, int]]]:
    """Values, the user's own words for each, and each value's span in the normalised text."""
    values: dict[str, Any] = {}
    evidence: dict[str, str] = {}
    spans: dict[str, tuple[int, int]] = {}
    for f in findings:
        if f.field not in values:
            values[f.field], evidence[f.field], spans[f.field] = f.value, t.quote(f.start, f.end), (f.start, f.end)
    _consistent(values, evidence)
    return values, evidence, {k: v for k, v in spans.items() if k in values}


def _unknown_device_count(norm: str, found: list[Finding]) -> list[Finding]:
    """A count given for a device the catalog does not know ("10 P40s"): still the device count."""
    if any(f.field in ("count", "hardware") for f in found):
        return []
    spans = [(f.start, f.end) for f in found]
    counts = [extract_hardware.count_of(norm, start, end)
              for kind, start, end in extract_unplaced.unplaced(norm, spans) if kind == "device"]
    counts = [c for c in counts if c]
    # a number beats an article ("a Tesla P40 ... I bought 10 P40s")
    return next((c for c in counts if not _ARTICLE.match(norm, c[0].start)), counts[0] if counts else [])


def _findings(norm: str) -> list[Finding]:
    hardware = extract_hardware.find(norm)
    # "昇騰 910B": a size inside a device's name is not a model's size (the user's device or any other named)
    names = [(h.start, h.end) for h in extract_hardware.hardware_index().find(norm)]
    found = hardware + extract_model.find(norm, [(f.start, f.end) for f in hardware if f.field == "hardware"] + names)
    found += _unknown_device_count(norm, found)
    found += extract_host.find(norm)
    taken = [(f.start, f.end) for f in found
             if f.field in ("hardware", "model", "count", "nodes", "memory_gb", "params_b") or f.field.startswith("host_")]
    return found + extract_workload.find(norm, taken)


def _topics(norm: str, values: dict[str, Any]) -> list[str]:
    """The topics the words raise, plus offload when the situation implies it (weights split between GPU
    and system memory). An hourly price with a cost priority alone is not cost per token (the dev set's
    convention)."""
    found = set(extract_topics.topics(norm))
    if extract_topics.offload_by_fit(norm, values) or extract_topics.offload_by_layers(norm, values):
        found.add("offload")
    return sorted(found)


_HOST_RAM = re.compile(r"ram|ddr|記憶體|内存|內存|system memory|host memory", re.I)


def _host_is_not_the_device(values: dict[str, Any], evidence: dict[str, str], spans: dict[str, tuple[int, int]],
                            unplaced_kinds: list[str]) -> None:
    """An accelerator the catalog does not know, named beside a CPU it does know ("an R9700 in a Xeon host"):
    the CPU is only the host, so it is not the device to plan for; the unknown card is asked about instead.
    The host's RAM goes with it (it is not the card's memory)."""
    hw = values.get("hardware")
    if "device" not in unplaced_kinds or not hw or catalog.hardware(hw).platform not in ("x86-cpu", "arm-cpu"):
        return
    host_count = evidence.get("hardware", "") in evidence.get("count", "")   # "a Xeon", "2 EPYC sockets"
    drop = ["hardware"] + (["count"] if host_count else []) \
        + (["memory_gb"] if _HOST_RAM.search(evidence.get("memory_gb", "")) else [])
    for field in drop:
        values.pop(field, None), evidence.pop(field, None), spans.pop(field, None)


def _read(text: str) -> tuple[Text, Extraction, dict[str, tuple[int, int]]]:
    if not isinstance(text, str):
        raise InputError("the message must be text")
    t = normalize(text)
    values, evidence, spans = _assemble(t, _findings(t.norm))
    unplaced = extract_unplaced.unplaced(t.norm, list(spans.values()))
    _host_is_not_the_device(values, evidence, spans, [k for k, _, _ in unplaced])
    ex = Extraction(
        intent=extract_intent.intent(t.norm), values=values, evidence=evidence,
        language="zh" if _CJK.search(text) else "en",
        dont_know=bool(extract_intent.dont_know(t.norm)), injection=bool(extract_intent.injection(t.norm)),
        topics=_topics(t.norm, values),
        not_understood=[Unplaced(text=t.quote(a, b), kind=k) for k, a, b in unplaced],
    )
    return t, ex, spans


def extract(text: str) -> Extraction:
    """Read intent, profile values (with evidence) and flags from one user message."""
    return _read(text)[1]


def _bare_number(norm: str, taken: list[tuple[int, int]], field: str) -> tuple[float, int, int] | None:
    """The first number not already used whose unit fits `field` ("about 50"; "50-100" gives its upper end)."""
    from agent.extract_volume import volume_spans
    taken = [*taken, *volume_spans(norm)]   # "50-200M tokens a month" is a volume, never a head count or a load
    for q in quantities(norm):
        if q.kind == "quantity" and not overlaps((q.start, q.end), taken) and q.unit in (None, *_REPLY_UNITS[field]) \
                and not (field in ("concurrency", "users", "count", "nodes", "lora_adapters") and k_length(norm, q)):
            return q.value, q.start, q.unit_end
    return None


def _answer_value(field: str, norm: str, ex: Extraction, spans: dict[str, tuple[int, int]]) -> tuple[Any, int, int] | None:
    """A value for `field` that only makes sense as a reply to a question about it."""
    taken = list(spans.values())
    if field in BOOL_FIELDS:
        m = _NO.search(norm) or _YES.search(norm)
        return (m.re is _YES, m.start(), m.end()) if m else None
    if field == "concurrency" and "users" in ex.values:   # "about 40 people" answers "how many at once?"
        return (ex.values["users"], *spans["users"])
    if field in NUMBER_FIELDS:
        hit = _bare_number(norm, taken, field)
        ok = hit and (field not in ("context_length", "input_tokens") or hit[0] >= 256)
        if ok and not (0 <= hit[0] < 1e15):   # "1e999", a 24-digit number: not a value, an error
            raise _outside(field, norm[hit[1]:hit[2]])
        return (int(round(hit[0])), hit[1], hit[2]) if ok else None
    if field == "quantization":
        m = _NO.search(norm)
        return ("bf16", m.start(), m.end()) if m else None
    if field == "interconnect":
        m = _IB.search(norm)
        if m:
            return "infiniband", m.start(), m.end()
        if ex.values.get("count") == 1:   # "just one GPU": nothing to interconnect
            return ("none", *spans["count"])
    return None


def extract_answer(text: str, fields: list[str] | tuple[str, ...]) -> Extraction:
    """Read a reply to an interview question about `fields` ("PCIe only", "有", "about 50", "don't know")."""
    t, ex, spans = _read(text)
    if ex.dont_know and not ex.values:
        return ex
    if "priority" in fields and "priority" not in ex.values:
        found = extract_workload.priorities(t.norm, stance=False)
        spans = {**spans, **{f.field: (f.start, f.end) for f in found}}
        ex = ex.model_copy(update={"values": {**ex.values, **{f.field: f.value for f in found}},
                                   "evidence": {**ex.evidence, **{f.field: t.quote(f.start, f.end) for f in found}}})
    for field in fields:
        if field in ex.values:
            continue
        got = _answer_value(field, t.norm, ex, spans)
        if got is not None:
            values, evidence = dict(ex.values), dict(ex.evidence)
            values[field], evidence[field] = got[0], t.quote(got[1], got[2])
            spans = {**spans, field: (got[1], got[2])}
            _consistent(values, evidence)
            ex = ex.model_copy(update={"values": values, "evidence": evidence})
    return ex
