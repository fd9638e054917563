"""Suite `extraction`: the deterministic extractor against the labelled set evals/extraction_set.yaml.

Per field: accuracy = correct / (labelled + false positives), where a false positive is a value read
for a field labelled absent. `intent`, `language`, `dont_know` and `injection` are labelled on
every utterance. A case passes when every field is right. Metrics: `<field>_accuracy`,
`overall_accuracy`, `min_field_accuracy`, counts, and the share of zh-Hant utterances.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.suite import CaseOutcome, SuiteReport
from rules.errors import DataError, ProfileError
from rules.ids import Intent
from rules.profile import Profile, build_profile

SET_PATH = Path(__file__).resolve().parents[1] / "extraction_set.yaml"
FLAGS = ("intent", "language", "dont_know", "injection")
VALUE_FIELDS = tuple(f for f in Profile.model_fields if f not in ("provenance", "language"))
TARGET = 0.95


class Item(BaseModel):
    """One labelled utterance."""

    model_config = ConfigDict(extra="forbid")
    id: str
    lang: Literal["en", "zh"]
    text: str = Field(min_length=1)
    intent: Intent
    values: dict[str, Any] = Field(default_factory=dict)
    dont_know: bool = False
    injection: bool = False
    asked: list[str] | None = None

    def expected(self) -> dict[str, Any]:
        """Every scored field with its label (None = labelled absent)."""
        exp: dict[str, Any] = {f: self.values.get(f) for f in VALUE_FIELDS}
        if exp["priorities"] is None and exp["priority"] is not None:
            exp["priorities"] = [exp["priority"]]
        exp.update(intent=self.intent, language=self.lang, dont_know=self.dont_know, injection=self.injection)
        return exp


def load_set(path: Path = SET_PATH) -> list[Item]:
    """The labelled set, validated (unknown fields or impossible values fail with the item named)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        items = [Item.model_validate(r) for r in raw]
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise DataError(str(path), None, None, f"invalid labelled set: {exc}") from None
    seen: set[str] = set()
    for item in items:
        unknown = set(item.values) - set(VALUE_FIELDS)
        if unknown or item.id in seen:
            raise DataError(str(path), item.id, None, f"unknown fields {sorted(unknown)}" if unknown else "duplicate id")
        seen.add(item.id)
        try:
            build_profile(item.values)
        except ProfileError as exc:
            raise DataError(str(path), item.id, exc.field, str(exc)) from None
    return items


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(got, (int, float)):
        return abs(float(expected) - float(got)) <= 1e-6 * max(1.0, abs(float(expected)))
    return expected == got


def observe(item: Item) -> dict[str, Any]:
    """What the extractor reads from the item's text (every scored field)."""
    from agent.extract import extract, extract_answer

    ex = extract_answer(item.text, item.asked) if item.asked else extract(item.text)
    got: dict[str, Any] = {f: ex.values.get(f) for f in VALUE_FIELDS}
    got.update(intent=ex.intent, language=ex.language, dont_know=ex.dont_know, injection=ex.injection)
    got["_evidence"] = ex.evidence
    return got


def score(item: Item, got: dict[str, Any]) -> dict[str, str]:
    """field → 'correct' | 'wrong' | 'false_positive' for every field that counts for this item."""
    out = {}
    for field, exp in item.expected().items():
        value = got.get(field)
        if exp is None and field not in FLAGS:
            if value is not None:
                out[field] = "false_positive"
        else:
            out[field] = "correct" if _same(exp, value) else "wrong"
    return out


def run(model: str | None = None, path: Path = SET_PATH, **_: Any) -> SuiteReport:
    """Score the deterministic extractor (an LLM `model` is not used: this suite measures the rules)."""
    items = load_set(path)
    tally: dict[str, list[int]] = {}
    cases = []
    for item in items:
        got = observe(item)
        marks = score(item, got)
        failures = []
        for field, mark in marks.items():
            ok, total = tally.setdefault(field, [0, 0])
            tally[field] = [ok + (mark == "correct"), total + 1]
            if mark != "correct":
                label = "not labelled" if mark == "false_positive" else f"expected {item.expected()[field]!r}"
                failures.append(f"{field}: {label}, got {got.get(field)!r}")
        result = {"text": item.text, "values": {k: v for k, v in got.items() if k in VALUE_FIELDS and v is not None},
                  "evidence": got["_evidence"], **{k: got[k] for k in FLAGS}}
        cases.append(CaseOutcome(id=item.id, passed=not failures, failures=failures, result=result))
    metrics: dict[str, float] = {f"{f}_accuracy": ok / total for f, (ok, total) in sorted(tally.items())}
    correct, total = sum(t[0] for t in tally.values()), sum(t[1] for t in tally.values())
    metrics.update(
        overall_accuracy=correct / total if total else 0.0,
        min_field_accuracy=min((ok / n for ok, n in tally.values()), default=0.0),
        utterances=float(len(items)), zh_share=sum(i.lang == "zh" for i in items) / max(1, len(items)),
        scored_fields=float(total),
    )
    return SuiteReport(name="extraction", cases=cases, metrics=metrics)
