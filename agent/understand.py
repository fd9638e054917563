"""Turning what the user wrote into profile values: both extractors, merged behind the guard.

The deterministic extractor always runs. The LLM extractor (when configured) may add fields the
deterministic one missed, never override them, and only with evidence in the user's words.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent import evidence as ev
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

    model_config = ConfigDict(extra="forbid")
    field: Literal[ev.GUARDED_FIELDS]  # type: ignore[valid-type]
    value: str | int | float | bool
    evidence: str = Field(max_length=MAX_EVIDENCE_CHARS)


class LLMExtraction(BaseModel):
    """The LLM extractor's reply."""

    model_config = ConfigDict(extra="forbid")
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


def llm_extract(llm: Any, text: str, asked: list[str] | None, max_calls: int) -> tuple[list[tuple], int, str | None]:
    """The LLM's (field, value, evidence) items (unguarded), the calls spent, and why it gave up."""
    system, user = extraction_prompt(text, asked)
    reply = llm.structured(system, user, LLMExtraction, max_calls=max_calls)
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
        except (ValueError, AdvisorError) as exc:
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


def extraction_parts(ext: Any) -> tuple[dict, dict]:
    """(values, evidence) of an `agent.extract.Extraction`."""
    return dict(getattr(ext, "values", None) or {}), dict(getattr(ext, "evidence", None) or {})
