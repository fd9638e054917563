"""The one shape every harness result is read into, and helpers the readers share.

Latency stats are dicts keyed `mean`, `p50`, `p90`, `p95`, `p99` (whichever the harness wrote),
in milliseconds; `tpot_ms` always follows the spec's TPOT definition (see metrics.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.benchspec.spec import RUN_IDS
from rules.errors import InputError

Harness = Literal["vllm", "sglang", "guidellm", "aiperf"]
_NAME = re.compile(r"(?P<engine>[A-Za-z0-9][A-Za-z0-9._+-]*?)-(?P<run>%s)-c(?P<level>\d+)"
                   % "|".join(re.escape(r) for r in RUN_IDS))


class RunResult(BaseModel):
    """One measured level of one run on one engine, normalised across harnesses."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    file: str
    harness: Harness
    engine: str | None = None
    run: str | None = None
    concurrency: int | None = None
    completed: int | None = None
    failed: int | None = None
    duration_s: float | None = None
    ttft_ms: dict[str, float] = Field(default_factory=dict)
    tpot_ms: dict[str, float] = Field(default_factory=dict)
    itl_ms: dict[str, float] = Field(default_factory=dict)
    e2e_ms: dict[str, float] = Field(default_factory=dict)
    output_tokens_per_s: float | None = None
    requests_per_s: float | None = None
    kv_cache_hit_rate: float | None = None

    @property
    def label(self) -> str:
        """Engine / run / level, for reports."""
        level = f"c{self.concurrency}" if self.concurrency is not None else "c?"
        return f"{self.engine or 'unknown engine'} / {self.run or 'unknown run'} / {level}"


def missing(path: str, harness: str, what: list[str]) -> InputError:
    """The error for a result file that lacks required fields."""
    return InputError(f"{path}: {harness} result lacks {', '.join(what)}")


def require(path: str, harness: str, data: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Raise if any of `keys` is absent (or null) in `data`."""
    absent = [k for k in keys if data.get(k) is None]
    if absent:
        raise missing(path, harness, absent)


def number(value: Any) -> float | None:
    """A float, or None for anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def integer(value: Any) -> int | None:
    """An int from a number (or numeric string), else None."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    n = number(value)
    return int(n) if n is not None else None


def flat_stats(data: dict[str, Any], metric: str) -> dict[str, float]:
    """Stats written as `mean_<m>_ms`, `median_<m>_ms`, `p<N>_<m>_ms` (vLLM and SGLang)."""
    out: dict[str, float] = {}
    if (v := number(data.get(f"mean_{metric}_ms"))) is not None:
        out["mean"] = v
    if (v := number(data.get(f"median_{metric}_ms"))) is not None:
        out["p50"] = v
    for key, value in data.items():
        m = re.fullmatch(rf"p(\d+(?:\.\d+)?)_{metric}_ms", key)
        if m and (v := number(value)) is not None:
            out[f"p{m.group(1)}"] = v
    return out


def from_name(path: str) -> dict[str, Any]:
    """Engine, run and level from a result path named `<engine>-<run>-c<level>…` (last match wins)."""
    matches = list(_NAME.finditer(Path(path).as_posix()))
    if not matches:
        return {}
    m = matches[-1]
    return {"engine": m.group("engine"), "run": m.group("run"), "concurrency": int(m.group("level"))}
