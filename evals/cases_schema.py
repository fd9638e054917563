"""The golden eval case format of DESIGN.md, validated when loaded.

Every `expect` key is optional; all given keys must hold. Keys that extend the contract:
`not_asked` (fields that must never be asked) and `asks_any` (at least one question covers one
of these fields) check the interview asks only what matters; `lead_mentions` (like `mentions`,
but within the answer's opening summary), `not_mentions` (phrases that must not appear),
`avoid_none` (engines that must not be told to avoid) and `answer_lang` (the prose the user
reads is in that language) check that the answer addresses the question, in the user's words.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.errors import DataError
from rules.ids import ASKABLE_FIELDS, BOTTLENECKS, ENGINES, METRICS, STRATEGIES


class BenchmarkExpect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    concurrency_includes: int | None = None
    metrics_include: list[str] = Field(default_factory=list)


class Expect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    recommend_any: list[str] | None = None
    consider_all: list[str] | None = None
    not_recommend: list[str] | None = None
    avoid_any: list[str] | None = None
    bottleneck_any: list[str] | None = None
    parallelism_any: list[str] | None = None
    fits: bool | None = None
    mentions: list[list[str]] | None = None
    cites: list[list[str]] | None = None
    benchmark: BenchmarkExpect | None = None
    min_questions: int | None = None
    max_questions: int | None = None
    not_asked: list[str] | None = None
    asks_any: list[str] | None = None
    lead_mentions: list[list[str]] | None = None
    """Each group: some alternative occurs in the answer's opening summary (first LEAD_CHARS)."""
    not_mentions: list[str] | None = None
    """Phrases that must not occur in the answer (case-insensitive)."""
    avoid_none: list[str] | None = None
    """Engines that must not appear in `avoid`."""
    answer_lang: Literal["en", "zh"] | None = None
    """The prose the user reads (outside code, ids and the source list) is in this language."""
    layout_any: list[dict[str, int | bool]] | None = None
    """The plan's chosen layout matches one of these (each names only the degrees it fixes, e.g.
    {tp: 8, pp: 1}; `attention_dp: true` for attention data-parallel)."""
    ttft_max_s: float | None = None
    """No time to first token above this: the estimate's, and every "TTFT N s" the answer prints."""
    stream_tps_range: list[float] | None = Field(default=None, min_length=2, max_length=2)
    """[low, high] tok/s: the estimate's per-stream decode and every per-stream speed the answer prints
    ("N tok/s per stream", "每條串流約 N tok/s") lie in it (a number an expert would sign)."""


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    lang: Literal["en", "zh"]
    turns: list[str] = Field(min_length=1)
    answers: dict[str, str] = Field(default_factory=dict)
    expect: Expect = Field(default_factory=Expect)
    note: str | None = None
    """Why these expectations: the source's reasoning, in a line."""


def _check_ids(case: Case, path: Path) -> None:
    e = case.expect
    groups = {
        "recommend_any": (e.recommend_any, ENGINES), "consider_all": (e.consider_all, ENGINES),
        "not_recommend": (e.not_recommend, ENGINES), "avoid_any": (e.avoid_any, ENGINES),
        "avoid_none": (e.avoid_none, ENGINES),
        "bottleneck_any": (e.bottleneck_any, BOTTLENECKS), "parallelism_any": (e.parallelism_any, STRATEGIES),
        "not_asked": (e.not_asked, ASKABLE_FIELDS), "asks_any": (e.asks_any, ASKABLE_FIELDS),
        "benchmark.metrics_include": (e.benchmark.metrics_include if e.benchmark else None, METRICS),
    }
    for key, (values, known) in groups.items():
        for v in values or []:
            if v not in known:
                raise DataError(str(path), case.id, f"expect.{key}", f"unknown id '{v}'")
    for field in case.answers:
        if field not in ASKABLE_FIELDS:
            raise DataError(str(path), case.id, "answers", f"'{field}' is not an askable field id")


def load_case(path: Path) -> Case:
    """One case file, validated; errors name the file, the case and the field."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(str(path), None, None, "cannot read case: " + " ".join(str(exc).split())) from None
    if not isinstance(data, dict):
        raise DataError(str(path), None, None, "a case file must be a mapping")
    try:
        case = Case.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise DataError(str(path), str(data.get("id")), ".".join(map(str, err["loc"])), err["msg"]) from None
    _check_ids(case, path)
    return case


def load_cases(folder: Path) -> list[Case]:
    """All `*.yaml` cases of a folder, sorted by file name; duplicate ids are an error."""
    if not folder.is_dir():
        raise DataError(str(folder), None, None, "no such folder of cases")
    cases = [load_case(p) for p in sorted(folder.glob("*.y*ml"))]
    if not cases:   # an empty suite must not pass
        raise DataError(str(folder), None, None, "no case files (*.yaml) in this folder")
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise DataError(str(folder), c.id, "id", "duplicate case id")
        seen.add(c.id)
    return cases
