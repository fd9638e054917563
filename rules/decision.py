"""What `decide(profile)` returns: ranked engines, engines to avoid, bottleneck, parallelism plan,
warnings, assumptions, and the trace of every rule that fired (the explanation is built from it).
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.ids import Bottleneck, EngineId, Strategy


class RankedEngine(BaseModel):
    """One engine's place in the ranking and the rules that moved it."""

    model_config = ConfigDict(extra="forbid")
    engine: EngineId
    score: int
    reasons: list[str] = Field(default_factory=list)
    """Ids of the rules that added points, strongest first."""
    penalties: list[str] = Field(default_factory=list)
    """Ids of the rules that took points away."""


class Avoid(BaseModel):
    """An engine not to use here, and why."""

    model_config = ConfigDict(extra="forbid")
    engine: EngineId
    reason: str
    rule: str
    """The rule (or check) that excluded it."""
    reason_zh: str = ""
    """The same reason in zh-Hant."""


class Parallelism(BaseModel):
    """How to split the model over the devices (degrees multiply to the devices used)."""

    model_config = ConfigDict(extra="forbid")
    strategy: Strategy
    tp: int = 1
    pp: int = 1
    ep: int = 1
    dp: int = 1
    reason: str
    rule: str | None = None
    """The rule whose advice set the strategy."""
    reason_zh: str = ""
    """The same reason in zh-Hant."""


class TraceEntry(BaseModel):
    """One fired rule: why it exists, the facts that made it fire, what it did, what it cites."""

    model_config = ConfigDict(extra="forbid")
    rule: str
    name: str
    rationale: str
    """Why the rule exists, filled from the user's setup (English)."""
    values: dict[str, Any]
    citations: list[str]
    effects: dict[str, Any]
    rationale_zh: str = ""
    """The rationale in zh-Hant."""


class Decision(BaseModel):
    """The rule engine's answer for one profile."""

    model_config = ConfigDict(extra="forbid")
    primary: EngineId | None = None
    alternatives: list[EngineId] = Field(default_factory=list)
    ranking: list[RankedEngine] = Field(default_factory=list)
    """Every engine that is not excluded, best first (recommended ones have a positive score)."""
    avoid: list[Avoid] = Field(default_factory=list)
    bottleneck: Bottleneck | None = None
    bottleneck_scores: dict[str, int] = Field(default_factory=dict)
    """Summed weights of every candidate bottleneck (the top one wins)."""
    bottleneck_rules: list[str] = Field(default_factory=list)
    """Rules that argued for the chosen bottleneck."""
    parallelism: Parallelism | None = None
    warnings: list[str] = Field(default_factory=list)
    warnings_zh: list[str] = Field(default_factory=list)
    """The warnings in zh-Hant, in the same order."""
    assumptions: list[str] = Field(default_factory=list)
    assumptions_zh: list[str] = Field(default_factory=list)
    """The assumption lines in zh-Hant, in the same order."""
    trace: list[TraceEntry] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)
    citations: list[str] = Field(default_factory=list)
    facts: dict[str, Any] = Field(default_factory=dict)
    """The derived facts the rules read."""

    @property
    def recommended(self) -> list[str]:
        """Primary then alternatives."""
        return ([self.primary] if self.primary else []) + list(self.alternatives)

    def summary(self) -> dict[str, Any]:
        """The decision part of the `ask --json` object (citations as ids)."""
        return {
            "primary": self.primary, "alternatives": list(self.alternatives),
            "avoid": [{"engine": a.engine, "reason": a.reason} for a in self.avoid],
            "bottleneck": self.bottleneck,
            "parallelism": self.parallelism.model_dump(exclude={"rule", "reason_zh"}) if self.parallelism else None,
            "warnings": list(self.warnings), "assumptions": list(self.assumptions),
            "rules": list(self.rules), "citations": list(self.citations),
        }
