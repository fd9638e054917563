"""One parametrized test walks tests/rules/cases/<name>/{profile.yaml, expected.yaml}.

`profile.yaml` is a profile as the agent would build it; `expected.yaml` states, from the source
article's reasoning, what the decision must contain (every key optional, all given keys must hold).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ConfigDict

from rules.decide import decide
from rules.defaults import apply_defaults
from rules.ids import BOTTLENECKS, ENGINES, STRATEGIES
from rules.profile import build_profile
from rules.ruleset import rule_index

CASES = Path(__file__).parent / "cases"


class Expected(BaseModel):
    """What a case asserts about the decision."""

    model_config = ConfigDict(extra="forbid")
    why: str
    """The source's reasoning behind the expectations, in a line."""
    with_defaults: bool = False
    """Fill every missing field with rules.defaults first (the user said "I don't know")."""
    primary_any: list[str] | None = None
    primary_none: bool = False
    consider_all: list[str] | None = None
    not_recommend: list[str] | None = None
    avoid_any: list[str] | None = None
    avoid_none: list[str] | None = None
    bottleneck_any: list[str] | None = None
    parallelism_any: list[str] | None = None
    parallelism_degrees: dict[str, int] | None = None
    warnings_include: list[str] | None = None
    rules_include: list[str] | None = None
    rules_exclude: list[str] | None = None


def _case_dirs() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.is_dir())


def _load(case: Path) -> tuple[dict, Expected]:
    profile = yaml.safe_load((case / "profile.yaml").read_text(encoding="utf-8"))
    expected = Expected.model_validate(yaml.safe_load((case / "expected.yaml").read_text(encoding="utf-8")))
    return profile, expected


def test_there_are_enough_cases():
    assert len(_case_dirs()) >= 40


@pytest.mark.parametrize("case", _case_dirs(), ids=lambda p: p.name)
def test_case_ids_are_known(case: Path):
    _, exp = _load(case)
    known_rules = rule_index()
    for key in ("primary_any", "consider_all", "not_recommend", "avoid_any", "avoid_none"):
        assert set(getattr(exp, key) or []) <= set(ENGINES), key
    assert set(exp.bottleneck_any or []) <= set(BOTTLENECKS)
    assert set(exp.parallelism_any or []) <= set(STRATEGIES)
    assert set((exp.rules_include or []) + (exp.rules_exclude or [])) <= set(known_rules)


@pytest.mark.parametrize("case", _case_dirs(), ids=lambda p: p.name)
def test_case(case: Path):
    raw, exp = _load(case)
    profile = build_profile(raw)
    if exp.with_defaults:
        profile = apply_defaults(profile)
    d = decide(profile)
    recommended = d.recommended
    avoided = {a.engine for a in d.avoid}
    where = f"{case.name}: primary={d.primary} alts={d.alternatives} avoid={sorted(avoided)} rules={d.rules}"
    if exp.primary_any is not None:
        assert d.primary in exp.primary_any, where
    if exp.primary_none:
        assert d.primary is None, where
    for engine in exp.consider_all or []:
        assert engine in recommended, where
    for engine in exp.not_recommend or []:
        assert engine not in recommended, where
    if exp.avoid_any is not None:
        assert avoided & set(exp.avoid_any), where
    for engine in exp.avoid_none or []:
        assert engine not in avoided, where
    if exp.bottleneck_any is not None:
        assert d.bottleneck in exp.bottleneck_any, f"{where} bottlenecks={d.bottleneck_scores}"
    if exp.parallelism_any is not None:
        assert d.parallelism is not None and d.parallelism.strategy in exp.parallelism_any, f"{where} {d.parallelism}"
    for key, value in (exp.parallelism_degrees or {}).items():
        assert getattr(d.parallelism, key) == value, f"{where} {d.parallelism}"
    text = "\n".join(d.warnings).lower()
    for fragment in exp.warnings_include or []:
        assert fragment.lower() in text, f"{where} warnings={d.warnings}"
    for rule in exp.rules_include or []:
        assert rule in d.rules, where
    for rule in exp.rules_exclude or []:
        assert rule not in d.rules, where
