"""Turning what the user wrote into profile values: both extractors, merged behind the guard.

The deterministic extractor always runs. The LLM extractor (when configured) may add fields the
deterministic one missed, never override them, and only with evidence in the user's words.
"""
from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent import evidence as ev
from agent import lexicon
from rules.errors import AdvisorError
from rules.ids import (
    INTENTS,
    INTERCONNECTS,
    PRIORITIES,
    QUANTS_FIXED,
    SERVING_MODES,
    WORKLOADS,
)

LLM_INTENTS = tuple(i for i in INTENTS if i != "size")
"""Intents offered to the LLM extractor. Its intent is never used (the deterministic extractor
decides, sizing included); the list stays as the recorded prompts have it."""
# Bounds keep a rambling model's reply short enough to finish as valid JSON (grammar-constrained
# servers enforce them while decoding).
MAX_VALUES = 8
MAX_EVIDENCE_CHARS = 80


class LLMValue(BaseModel):
    """One value the model read, with the user's words that state it."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    field: Literal[ev.GUARDED_FIELDS]  # type: ignore[valid-type]
    value: str | int | float | bool
    evidence: str = Field(max_length=MAX_EVIDENCE_CHARS)

    @field_validator("value")
    @classmethod
    def _finite(cls, v: Any) -> Any:
        """A model may write 1e999 or NaN: no profile value is infinite or not a number."""
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("must be a finite number")
        return v


class LLMExtraction(BaseModel):
    """The LLM extractor's reply."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    intent: Literal[LLM_INTENTS]  # type: ignore[valid-type]
    values: list[LLMValue] = Field(max_length=MAX_VALUES)


def extraction_prompt(text: str, asked: list[str] | None) -> tuple[str, str]:
    """(system, user) messages for the LLM extractor."""
    from agent.prompts import EXTRACT_SYSTEM, EXTRACT_USER
    system = EXTRACT_SYSTEM.format(
        intents=", ".join(LLM_INTENTS), fields=", ".join(ev.GUARDED_FIELDS),
        interconnects=", ".join(INTERCONNECTS), serving_modes=", ".join(SERVING_MODES),
        workloads=", ".join(WORKLOADS), priorities=", ".join(PRIORITIES),
        quants=", ".join(QUANTS_FIXED) + ", exl2-<bpw>, exl3-<bpw>")
    user = EXTRACT_USER.format(asked=", ".join(asked) if asked else "nothing yet (first message)", text=text)
    return system, user


def llm_extract(llm: Any, text: str, asked: list[str] | None, max_calls: int,
                deadline: float | None = None) -> tuple[list[tuple], int, str | None]:
    """The LLM's (field, value, evidence) items (unguarded), the calls spent, and why it gave up."""
    system, user = extraction_prompt(text, asked)
    reply = llm.structured(system, user, LLMExtraction, max_calls=max_calls, deadline=deadline)
    if reply.value is None:
        return [], reply.calls, reply.error
    return [(i.field, i.value, i.evidence) for i in reply.value.values], reply.calls, None


def pick(items: list[tuple], text: str) -> tuple[dict, dict, list[str]]:
    """Per field, the first LLM item the guard accepts; why each other item was dropped."""
    values, evidence, dropped = {}, {}, []
    for field, value, said in items:
        if field in values:
            continue
        kept, kept_ev, why = guard({field: value}, {field: said}, text, strict=True)
        values.update(kept)
        evidence.update(kept_ev)
        dropped += why
    return values, evidence, dropped


def guard(values: dict, evidence: dict, text: str, strict: bool) -> tuple[dict, dict, list[str]]:
    """Coerced values supported by `text`, their evidence, and why the others were dropped."""
    kept, kept_ev, dropped = {}, {}, []
    for field, raw in values.items():
        if field not in ev.GUARDED_FIELDS and strict:
            dropped.append(f"{field}: not a field the LLM may set")
            continue
        try:
            value = ev.coerce(field, raw) if strict else raw
        except (ValueError, TypeError, ArithmeticError, AdvisorError) as exc:
            dropped.append(f"{field}={raw!r}: {exc}")
            continue
        why = ev.check(field, value, evidence.get(field), text, strict=strict)
        if why:
            dropped.append(why)
        else:
            kept[field], kept_ev[field] = value, evidence.get(field)
    return kept, kept_ev, dropped


def merge(det: tuple[dict, dict], llm: tuple[dict, dict]) -> tuple[dict, dict, list[str]]:
    """Deterministic values, plus LLM values for fields it did not set (conflicts noted)."""
    values, evidence = dict(det[0]), dict(det[1])
    notes = []
    for field, value in llm[0].items():
        if field not in values:
            values[field], evidence[field] = value, llm[1][field]
        elif values[field] != value:
            notes.append(f"{field}: kept {values[field]!r} over the LLM's {value!r}")
    return values, evidence, notes


def apply(profile: Any, values: dict, evidence: dict) -> tuple[Any, list[str]]:
    """The profile with each value set (with its evidence); values the profile rejects are noted."""
    notes = []
    for field, value in values.items():
        try:
            profile = profile.with_value(field, value, evidence=evidence.get(field))
        except AdvisorError as exc:
            notes.append(f"{field}={value!r}: {exc}")
    return profile, notes


_MEMORY_SIZE = re.compile(r"\d+\s*G(?:B|iB)?\b", re.I)


def _base_name(hw_id: str) -> str:
    """A device's name without its memory size: "NVIDIA A100 40GB SXM4" and "NVIDIA A100 80GB SXM4" share
    "NVIDIA A100" (the first two words left)."""
    from rules import catalog
    return " ".join(_MEMORY_SIZE.sub("", catalog.hardware(hw_id).name).split()[:2]).lower()


def without_vaguer_device(profile: Any, field: str, values: dict, answer: str) -> dict:
    """A reply to another field ("A100 SXM4 with NVLink" for the interconnect) that names the user's device
    again without its memory size is a passing mention: the variant named with its size stays (r7-en-05,
    "4x A100 40GB SXM" was planned on the 80GB part the bare alias resolves to)."""
    new, old = values.get("hardware"), getattr(profile, "hardware", None)
    if field == "hardware" or not new or not old or new == old or _MEMORY_SIZE.search(answer):
        return values
    if _base_name(new) != _base_name(old):
        return values
    return {k: v for k, v in values.items() if k not in ("hardware", "memory_gb")}


def extraction_parts(ext: Any) -> tuple[dict, dict]:
    """(values, evidence) of an `agent.extract.Extraction`."""
    return dict(getattr(ext, "values", None) or {}), dict(getattr(ext, "evidence", None) or {})


# --- what changed in the thread, and what was not understood ------------------------------
_AMEND = re.compile("|".join(lexicon.AMEND_CUES), re.I)
_NEW = re.compile("|".join(lexicon.NEW_CUES), re.I)
SITUATION = ("hardware", "model", "params_b", "count", "serving_mode", "users", "concurrency")
_IGNORED = ("language", "provenance", "priorities", "nodes")


def known(profile: dict[str, Any] | None) -> dict[str, Any]:
    """The values a stored profile holds (defaults and bookkeeping left out)."""
    return {k: v for k, v in (profile or {}).items() if k not in _IGNORED and v not in (None, [], {})}


def profile_change(previous: dict[str, Any] | None, values: dict[str, Any], text: str) -> Literal["new", "amended"] | None:
    """Whether a message in a thread with a profile starts a new one or amends it (None: no profile yet).

    A new-situation cue ("now", "another setup", 現在, 另一個) with a device or model starts over; else an
    amendment cue ("what if", "instead", 改用) amends; naming a different device or model together with
    at least one other fact of the situation starts over; anything else amends.
    """
    before = known(previous)
    if not before:
        return None
    names = {"hardware", "model", "params_b"} & set(values)
    if _NEW.search(text) and names:
        return "new"
    if _AMEND.search(text):
        return "amended"
    differs = any(f in values and before.get(f) is not None and before.get(f) != values[f] for f in ("hardware", "model", "params_b"))
    if differs and len(set(values) & set(SITUATION)) >= 2:
        return "new"
    return "amended"


def changed(previous: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """Fields whose value differs between two stored profiles, in profile order."""
    before, after = known(previous), known(now)
    return [f for f in after if before.get(f) != after[f]] + [f for f in before if f not in after]


_KIND = {"en": {"device": "as a device in the catalog", "model": "as a model in the catalog", "number": None},
         "zh": {"device": "是目錄中的硬體", "model": "是目錄中的模型", "number": None}}


def unplaced_note(items: list[dict[str, str]], language: str) -> str | None:
    """One sentence quoting the words that were not placed ("I did not recognise 'P40' as a device...")."""
    if not items:
        return None
    lang = "zh" if language == "zh" else "en"
    names = [i for i in items if i["kind"] != "number"]
    numbers = [i for i in items if i["kind"] == "number"]
    parts = []
    if lang == "zh":
        for kind in ("device", "model"):
            words = "、".join(f"「{i['text']}」" for i in names if i["kind"] == kind)
            if words:
                parts.append(f"我沒有認出{words}{_KIND['zh'][kind]}")
        if numbers:
            parts.append("數字" + "、".join(f"「{i['text']}」" for i in numbers) + "沒有用上")
        return "；".join(parts) + "。它們不在這次建議的設定裡；若重要，請換個說法（型號可查 `advisor catalog`）。"
    for kind in ("device", "model"):
        words = ", ".join(f"'{i['text']}'" for i in names if i["kind"] == kind)
        if words:
            parts.append(f"I did not recognise {words} {_KIND['en'][kind]}")
    if numbers:
        parts.append("I did not use " + ", ".join(f"'{i['text']}'" for i in numbers))
    return "; ".join(parts) + ". They are not part of this advice; if they matter, say them another way " \
        "(`advisor catalog` lists the names I know)."


def change_note(change: dict[str, Any] | None, language: str, names: dict[str, str] | None = None) -> str | None:
    """One sentence saying whether this answer starts a new profile or amends the previous one."""
    if not change:
        return None
    zh = language == "zh"
    if change.get("kind") == "new":
        return "這是新的情境：我從新的設定開始，沒有沿用前一個。" if zh else \
            "This is a new situation, so I started a new profile; nothing was carried over from the previous one."
    from agent.names import field_label, value_text   # names for people, not field ids
    lang = "zh" if zh else "en"
    fields = [f"{field_label(f, lang)} → {value_text(f, v, lang)}" for f, v in (change.get("values") or {}).items()] \
        or [field_label(f, lang) for f in change.get("fields") or []]
    if not fields:
        return "我沿用前一個設定，沒有改任何值。" if zh else "I kept the previous profile; nothing in it changed."
    return ("我沿用前一個設定並更新了：" + "、".join(fields) + "。") if zh else \
        ("I kept the previous profile and updated " + ", ".join(fields) + ".")
