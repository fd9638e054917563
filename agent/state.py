"""The graph's state: everything one conversation thread carries between nodes and restarts.

Only plain JSON-able values live here (the profile as a dict, tool results as dicts), so the
SQLite checkpointer can store and reload any thread without custom types.
"""
from __future__ import annotations

from typing import Any, Literal, TypedDict


class Question(TypedDict):
    """The interrupt payload of the contract: one question covering up to three fields."""

    question: str
    fields: list[str]


class Citation(TypedDict):
    """A retrieved chunk as shown to the user."""

    id: str
    title: str
    source: str
    text: str
    given: dict[str, str]
    """One-shot runs: answers filed under a field no question asked (field id → the user's words)."""


class AgentState(TypedDict, total=False):
    """One thread's state; nodes return partial updates of it."""

    mode: Literal["chat", "profile"]
    """`profile`: a given profile, no extraction and no interview."""
    text: str
    """The user message that opened the current request."""
    transcript: list[str]
    """Every user text of the current request (opening message and answers): the evidence pool."""
    intent: str
    language: Literal["en", "zh"]
    injection: bool
    """The user tried to steer the advisor; the rules decide regardless."""
    profile: dict[str, Any]
    """`Profile.model_dump()`, provenance included."""
    questions: list[Question]
    """Questions asked in this request, in order."""
    asked: list[str]
    """Fields already asked in this request (never asked twice)."""
    interview_done: bool
    """The interview has nothing more to ask in this request."""
    pending: Question | None
    """The question chosen by `interview` that `listen` is asking (None once answered)."""
    assumptions: list[str]
    """Defaults the interview applied, in words."""
    unknown_devices: list[dict[str, Any]]
    """Device-looking words of the request that match no catalog entry: {text, suggestions}."""
    dropped: list[str]
    """LLM-extracted values rejected by the evidence guard (why, for the record)."""
    decision: dict[str, Any] | None
    estimate: dict[str, Any] | None
    plan: dict[str, Any] | None
    """The deployment plan (rules.plan.Plan): chosen layout, runner-up, launch flags."""
    options: list[dict[str, Any]]
    """The alternative engines' estimates at the plan's layout: [{engine, estimate}]."""
    workable: list[dict[str, Any]]
    """When the plan does not fit: the nearest setups that do (agent.advice.Workable dumps)."""
    sizing: dict[str, Any] | None
    """For a sizing question: ranked hardware options (rules.plan.sizing.SizingResult + assumptions)."""
    benchmark: dict[str, Any] | None
    not_understood: list[dict[str, str]]
    """Words that looked like a device, model or number but were not placed: [{text, kind}] (extractor)."""
    topics: list[str]
    """What the request asks about beyond its situation (extractor topic ids)."""
    profile_change: dict[str, Any] | None
    """{kind: new | amended, fields, values} when the thread already had a profile, else None."""
    tool_notes: list[str]
    """Tools that could not run for this profile (e.g. no model yet), in words."""
    citations: list[Citation]
    template: str
    """The deterministic answer (always composed)."""
    draft: str | None
    """LLM prose waiting for verification."""
    composer: str
    llm_calls: int
    """LLM calls spent in the current user turn (budget: 2)."""
    llm_time_left: float | None
    """Seconds of LLM time the current turn has left (budget $ADVISOR_LLM_DEADLINE_S; None: deterministic)."""
    advice: dict[str, Any] | None
    """`Advice.dump()` once the request is answered (`Advice.load` rebuilds it)."""
