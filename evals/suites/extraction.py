"""Suite `extraction`: the deterministic extractor against labelled utterances, split by origin.

Splits (each reported under its own name):
    curated   evals/extraction_set.yaml: hand-written, one case per utterance (fixing target)
    dev       generated from the catalogs with the dev grammar (evals/extraction_gen/dev.py)
    heldout   generated with the held-out grammar and seed: never used to tune the extractor
    forum     evals/extraction_forum.yaml: written from real forum threads, held out
    forum2    evals/extraction_forum2.yaml: a third held-out set from other threads, labelled before its first run
    forum3    evals/extraction_forum3.yaml (same format as forum2), written by a blind writer; while the
              file is absent the split is reported as missing (a summary line, no case, no metric)
    forum4    evals/extraction_forum4.yaml (same format), a second blind writer's set, first scored after
              the fixes made from forum3; absent → reported missing like forum3
    forum5    evals/extraction_forum5.yaml (same format), a third blind writer's set, first scored after
              the fixes made from forum4
    forum6    evals/extraction_forum6.yaml (same format), a fourth blind writer's set, first scored after
              the fixes made from forum5
    forum7    evals/extraction_forum7.yaml (same format), a fifth blind writer's set, first scored after
              the fixes made from forum6

Per field: accuracy = correct / (labelled + false positives), where a false positive is a value
read for a field labelled absent. Curated items score every profile field plus `intent`,
`language`, `dont_know` and `injection`; generated and forum items score the fields they list
(`scored`), `language`, `topics`, and `intent` where labelled. The curated split gives one case per
utterance; the others give one case per field with at least `MIN_LABELS` labels (accuracy against
its target) and one for the split's overall accuracy, so held-out texts never reach the report.
Metrics: `<split>.<field>_accuracy`, `<split>.overall_accuracy`, `<split>.min_field_accuracy`,
`<split>.utterances`, `<split>.zh_share`.
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

ROOT = Path(__file__).resolve().parents[1]
SET_PATH = ROOT / "extraction_set.yaml"
FORUM_PATH = ROOT / "extraction_forum.yaml"
FORUM2_PATH = ROOT / "extraction_forum2.yaml"
FORUM3_PATH = ROOT / "extraction_forum3.yaml"
FORUM4_PATH = ROOT / "extraction_forum4.yaml"
FORUM5_PATH = ROOT / "extraction_forum5.yaml"
FORUM6_PATH = ROOT / "extraction_forum6.yaml"
FORUM7_PATH = ROOT / "extraction_forum7.yaml"
FORUM_PATHS = (FORUM_PATH, FORUM2_PATH, FORUM3_PATH, FORUM4_PATH, FORUM5_PATH, FORUM6_PATH, FORUM7_PATH)
SPLIT_FILES = {"curated": SET_PATH, "forum": FORUM_PATH, "forum2": FORUM2_PATH, "forum3": FORUM3_PATH, "forum4": FORUM4_PATH, "forum5": FORUM5_PATH,
               "forum6": FORUM6_PATH, "forum7": FORUM7_PATH}
"""Splits read from a YAML file (the others are generated)."""
FLAGS = ("intent", "language", "dont_know", "injection")
VALUE_FIELDS = tuple(f for f in Profile.model_fields if f not in ("provenance", "language"))
SPLITS = ("curated", "dev", "heldout", "forum", "forum2", "forum3", "forum4", "forum5", "forum6", "forum7")
TARGET = 0.95
"""Every field, every split."""
OVERALL_TARGET = {"curated": 0.95, "dev": 0.97, "heldout": 0.97, "forum": 0.95, "forum2": 0.95, "forum3": 0.95, "forum4": 0.95, "forum5": 0.95, "forum6": 0.95, "forum7": 0.95}
MIN_LABELS = 10
"""A field with fewer labels in a split is reported as a metric, not judged as a case."""


class Item(BaseModel):
    """One labelled utterance."""

    model_config = ConfigDict(extra="forbid")
    id: str
    lang: Literal["en", "zh"]
    text: str = Field(min_length=1)
    intent: Intent | None = None
    """None: not labelled (generated and forum items unless stated)."""
    values: dict[str, Any] = Field(default_factory=dict)
    dont_know: bool = False
    injection: bool = False
    asked: list[str] | None = None
    topics: list[str] | None = None
    """Topics the utterance raises; None = not labelled."""
    scored: list[str] | None = None
    """Profile fields labelled on this item (present or absent); None = every field."""
    unscored: list[str] = Field(default_factory=list)
    """Fields left out of `scored` (the text is ambiguous about them)."""
    source: str | None = None
    """The forum thread the utterance was written from."""

    def expected(self) -> dict[str, Any]:
        """Every scored field with its label (None = labelled absent)."""
        fields = [f for f in (self.scored or VALUE_FIELDS) if f not in self.unscored]
        exp: dict[str, Any] = {f: self.values.get(f) for f in fields}
        if "priorities" in exp and exp["priorities"] is None and exp.get("priority") is not None:
            exp["priorities"] = [exp["priority"]]
        exp["language"] = self.lang
        if self.scored is None:
            exp.update(dont_know=self.dont_know, injection=self.injection)
        if self.intent is not None:
            exp["intent"] = self.intent
        if self.topics is not None:
            exp["topics"] = sorted(self.topics)
        return exp


def _validate(raw: list[dict], where: str) -> list[Item]:
    try:
        items = [Item.model_validate(r) for r in raw]
    except ValidationError as exc:
        raise DataError(where, None, None, f"invalid labelled set: {exc}") from None
    seen: set[str] = set()
    for item in items:
        unknown = set(item.values) - set(VALUE_FIELDS)
        if unknown or item.id in seen:
            raise DataError(where, item.id, None, f"unknown fields {sorted(unknown)}" if unknown else "duplicate id")
        seen.add(item.id)
        try:
            build_profile(item.values)
        except ProfileError as exc:
            raise DataError(where, item.id, exc.field, str(exc)) from None
    return items


def load_set(path: Path = SET_PATH) -> list[Item]:
    """A labelled YAML set, validated (unknown fields or impossible values fail with the item named)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(str(path), None, None, f"invalid labelled set: {exc}") from None
    if isinstance(raw, list):
        from evals.extraction_gen.compose import SCORED
        raw = [{**r, "scored": list(SCORED)} if path in FORUM_PATHS and "scored" not in r else r for r in raw]
        raw = [_named(r) for r in raw]
    return _validate(raw or [], str(path))


def _named(raw: dict) -> dict:
    """Labels given as names resolve through the catalog as it stands (it grows while the set does not):
    a resolved model replaces the size label; an unresolved model or device is labelled absent."""
    if "model_named" not in raw and "hardware_named" not in raw:
        return raw
    from rules import catalog
    raw, values = dict(raw), dict(raw.get("values") or {})
    if "model_named" in raw:
        ident = catalog.resolve_model(raw.pop("model_named"))
        if ident:
            values["model"] = ident
            values.pop("params_b", None)
        else:
            values.pop("model", None)
    if "hardware_named" in raw:
        ident = catalog.resolve_hardware(raw.pop("hardware_named"))
        if ident:
            values["hardware"] = ident
        else:
            values.pop("hardware", None)
    raw["values"] = values
    return raw


def load_split(split: str) -> list[Item]:
    """The items of one split."""
    if split in SPLIT_FILES:
        return load_set(SPLIT_FILES[split])
    from evals.extraction_gen import generate
    return _validate(generate(split), f"generated split '{split}'")


def _same(field: str, expected: Any, got: Any) -> bool:
    if field == "nodes":   # one node is the profile's default
        expected, got = expected or 1, got or 1
    if field == "compared_hardware":   # options as the Profile holds them (an unstated count is None)
        expected, got = ([{"count": None, **o} for o in v] if isinstance(v, list) else v for v in (expected, got))
    if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(got, (int, float)):
        return abs(float(expected) - float(got)) <= 1e-6 * max(1.0, abs(float(expected)))
    return expected == got


def observe(item: Item) -> dict[str, Any]:
    """What the extractor reads from the item's text (every scored field)."""
    from agent.extract import extract, extract_answer

    ex = extract_answer(item.text, item.asked) if item.asked else extract(item.text)
    got: dict[str, Any] = {f: ex.values.get(f) for f in VALUE_FIELDS}
    got.update(intent=ex.intent, language=ex.language, dont_know=ex.dont_know, injection=ex.injection,
               topics=sorted(getattr(ex, "topics", None) or []))
    got["_evidence"] = ex.evidence
    return got


def score(item: Item, got: dict[str, Any]) -> dict[str, str]:
    """field → 'correct' | 'wrong' | 'false_positive' for every field that counts for this item."""
    out = {}
    for field, exp in item.expected().items():
        value = got.get(field)
        if exp is None and field not in FLAGS:
            if value is not None and not (field == "nodes" and value == 1):
                out[field] = "false_positive"
        else:
            out[field] = "correct" if _same(field, exp, value) else "wrong"
    return out


def _tally(items: list[Item]) -> tuple[dict[str, list[int]], list[tuple[Item, dict, list[str]]]]:
    tally: dict[str, list[int]] = {}
    rows = []
    for item in items:
        got = observe(item)
        failures = []
        for field, mark in score(item, got).items():
            ok, total = tally.setdefault(field, [0, 0])
            tally[field] = [ok + (mark == "correct"), total + 1]
            if mark != "correct":
                label = "not labelled" if mark == "false_positive" else f"expected {item.expected()[field]!r}"
                failures.append(f"{field}: {label}, got {got.get(field)!r}")
        rows.append((item, got, failures))
    return tally, rows


def _metrics(split: str, items: list[Item], tally: dict[str, list[int]]) -> dict[str, float]:
    out = {f"{split}.{f}_accuracy": ok / n for f, (ok, n) in sorted(tally.items())}
    correct, total = sum(t[0] for t in tally.values()), sum(t[1] for t in tally.values())
    out.update({f"{split}.overall_accuracy": correct / total if total else 0.0,
                f"{split}.min_field_accuracy": min((ok / n for ok, n in tally.values() if n >= MIN_LABELS), default=0.0),
                f"{split}.utterances": float(len(items)), f"{split}.scored_fields": float(total),
                f"{split}.zh_share": sum(i.lang == "zh" for i in items) / max(1, len(items))})
    return out


def _per_utterance(split: str, rows) -> list[CaseOutcome]:
    cases = []
    for item, got, failures in rows:
        result = {"text": item.text, "values": {k: v for k, v in got.items() if k in VALUE_FIELDS and v is not None},
                  "evidence": got["_evidence"], "topics": got["topics"], **{k: got[k] for k in FLAGS}}
        cases.append(CaseOutcome(id=item.id, passed=not failures, failures=failures, result=result))
    return cases


def _per_field(split: str, tally: dict[str, list[int]], rows, show: int) -> list[CaseOutcome]:
    """One case per field (and one overall) against its target; `show` failing examples each (dev only)."""
    cases = []
    correct, total = sum(t[0] for t in tally.values()), sum(t[1] for t in tally.values())
    overall = correct / total if total else 0.0
    cases.append(CaseOutcome(id=f"{split}/overall", passed=overall >= OVERALL_TARGET[split],
                             failures=[] if overall >= OVERALL_TARGET[split] else
                             [f"overall accuracy {overall:.3f} < {OVERALL_TARGET[split]}"],
                             result={"accuracy": overall, "scored": total}))
    for field, (ok, n) in sorted(tally.items()):
        if n < MIN_LABELS:
            continue
        acc = ok / n
        failures = [] if acc >= TARGET else [f"{field} accuracy {acc:.3f} < {TARGET} ({n - ok} of {n} wrong)"]
        if failures and show:
            examples = [f"{item.id}: {item.text!r} → {f}" for item, _, fs in rows for f in fs if f.startswith(f"{field}:")]
            failures += examples[:show]
        cases.append(CaseOutcome(id=f"{split}/{field}", passed=not failures[:1], failures=failures,
                                 result={"accuracy": acc, "labels": n}))
    return cases


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT.parent)) if path.is_relative_to(ROOT.parent) else str(path)


def run(model: str | None = None, path: Path | None = None, splits: tuple[str, ...] = SPLITS, **_: Any) -> SuiteReport:
    """Score the deterministic extractor on each split (an LLM `model` is not used: this suite measures the rules).

    `path` scores one YAML set alone as the curated split (per-utterance cases).
    """
    if path is not None:
        splits = ("curated",)
    cases: list[CaseOutcome] = []
    metrics: dict[str, float] = {}
    summary: list[str] = []
    for split in splits:
        if path is None and split in SPLIT_FILES and not SPLIT_FILES[split].exists():
            summary.append(f"{split}: missing ({_shown(SPLIT_FILES[split])} not found; not scored)")
            continue
        items = load_set(path) if path is not None else load_split(split)
        tally, rows = _tally(items)
        metrics.update(_metrics(split, items, tally))
        if split == "curated":
            cases += _per_utterance(split, rows)
        else:
            cases += _per_field(split, tally, rows, show=5 if split == "dev" else 0)
    return SuiteReport(name="extraction", cases=cases, metrics=metrics, summary=summary)
