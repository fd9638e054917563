"""Diagnosis of a measured figure: the verdict beside the estimate, and the known causes that fit the setup.

    verdict("decode", seen=3, expected=30)   -> Verdict(level="far", ratio=10.0)
    causes({"nodes": 2, "engine": "vllm"})   -> [Cause(id="nccl-socket", ...), ...]   most specific first

The causes are data (rules/catalog/diagnosis.yaml): a condition tree over the facts below, a weight, whether
the cause makes the measured figure the expected one, the cause, how to check it and the fix in en and
zh-Hant, and a source. Pure: no LLM, no network.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.conditions import Condition, compile_condition
from rules.ids import Platform

Kind = Literal["decode", "ttft", "throughput", "latency"]
WAITS = ("ttft", "latency")
"""Kinds measured in seconds, where more is worse."""
Level = Literal["normal", "slow", "far", "above"]
"""above: a speed well over the estimate (the estimate is conservative for that case, never "in range")."""

FACTS = frozenset({
    "engine", "other_engine", "platform", "arch", "hw_class", "cuda_cc", "fp16_slow", "jetson", "nvlink", "count", "nodes",
    "tp", "pp", "concurrency", "bnb", "eager", "wsl", "docker", "lora", "agent", "shared_prefix", "reload",
    "offload", "kind", "level", "prompt_tokens", "low_bit", "kv_overflow", "rocm_gfx", "first", "npu", "replicas_compared",
    "wired_share", "igpu", "ratio", "kv_error",
})
"""What a cause's condition may read (agent.diagnosis builds them from the profile and the user's words)."""

NORMAL_WITHIN = 0.6
"""A speed at or above 60% of the estimate is in its range (the estimator's own error band is about ±30%)."""
ABOVE = 1 / NORMAL_WITHIN
"""A speed more than this many times the estimate is above its range: the estimate is off for that case."""
FAR_BELOW = 0.25
"""Below a quarter of the estimate the setup is off, not tuned differently."""
TTFT_SLACK_S = 0.5
"""A wait under this many seconds above the estimate is normal whatever the ratio (network, tokenizer)."""


@dataclass(frozen=True)
class Verdict:
    level: Level
    ratio: float
    """How many times worse than the estimate (>= 1; 1 when at it); for `above`, how many times better."""


def verdict(kind: Kind, seen: float, expected: float) -> Verdict:
    """Normal / slow / far too slow, from the measured figure and the estimate for the same setup."""
    if kind in WAITS:
        ratio = max(1.0, seen / expected) if expected > 0 else 1.0
        if seen <= expected + TTFT_SLACK_S or ratio <= 1 / NORMAL_WITHIN:
            return Verdict("normal", ratio)
        return Verdict("slow" if ratio < 1 / FAR_BELOW else "far", ratio)
    ratio = max(1.0, expected / seen) if seen > 0 else float("inf")
    share = seen / expected if expected > 0 else 1.0
    if share > ABOVE:
        return Verdict("above", share)
    level: Level = "normal" if share >= NORMAL_WITHIN else "slow" if share >= FAR_BELOW else "far"
    return Verdict(level, ratio)


class Text(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)


class Cause(BaseModel):
    """One known cause of a slow figure, with its check and fix (rules/catalog/diagnosis.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    platforms: list[Platform] = Field(min_length=1)
    """The platforms the cause (and its check and fix) applies to: CUDA graphs or NCCL never reach an Ascend NPU."""
    weight: int = Field(ge=0, le=100)
    """Higher comes first: the more specific a cause, the higher."""
    explains: Literal["expected", "slow"]
    """expected: with this cause the measured figure is what the setup gives; slow: the setup is off."""
    slowdown: float = Field(default=1.0, ge=1.0)
    """For `expected`: how many times below the unhindered estimate this cause can bring the figure; a figure
    further down is not explained by it (pipeline parallel costs one request at most the device count)."""
    per_device: bool = False
    """`slowdown` is per device in the setup (pipeline parallel: one GPU of N works at a time)."""
    when: Condition
    short: Text
    """The cause and its fix in one clause, for the verdict's summary line."""
    cause: Text
    check: Text
    fix: Text
    source: str = Field(pattern=r"^https://")


@lru_cache(maxsize=1)
def all_causes() -> tuple[Cause, ...]:
    """Every cause, validated (a condition on an unknown fact is a data error naming the entry)."""
    from rules.catalog import _load
    from rules.errors import DataError
    loaded = _load("diagnosis.yaml", "causes", Cause)
    for c in loaded.values():
        bad = [leaf.field for leaf in c.when.leaves() if leaf.field not in FACTS]
        if bad:
            raise DataError("rules/catalog/diagnosis.yaml", c.id, "when", f"unknown fact {bad[0]!r}")
    return tuple(sorted(loaded.values(), key=lambda c: -c.weight))


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[Cause, object], ...]:
    return tuple((c, compile_condition(c.when)) for c in all_causes())


def explains(cause: Cause, ratio: float, devices: int = 1) -> bool:
    """The cause accounts for a figure `ratio` times below the estimate (within the normal band)."""
    if cause.explains != "expected":
        return False
    return ratio <= cause.slowdown * (devices if cause.per_device else 1) / NORMAL_WITHIN


def causes(facts: dict, limit: int | None = None) -> list[Cause]:
    """The causes whose condition holds for these facts, most specific first."""
    platform = facts.get("platform")
    out = [c for c, test in _compiled() if (platform is None or platform in c.platforms) and test(facts)]
    return out[:limit] if limit else out
