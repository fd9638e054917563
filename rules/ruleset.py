"""The rules as data: schema, loading and validation of `rules/rules/*.yaml`.

A rule file is a mapping with `rules:` (a list). Each rule has an id, a name, a rationale in our
own words (English and zh-Hant), the source it encodes, a `when` condition tree over the facts of
`rules.facts.Facts`, `effects` and the corpus chunk ids it cites. A bad file fails at load time
with a DataError naming the file, the rule id and the field.
"""
from __future__ import annotations

import functools
import typing
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.conditions import Condition
from rules.errors import DataError
from rules.facts import Facts
from rules.ids import BOTTLENECKS, EngineId, Strategy

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: ~10x faster

RULES_DIR = Path(__file__).parent / "rules"
Check = Literal["hardware_support", "quant_kernel", "fit"]


class Text(BaseModel):
    """A sentence in English and Traditional Chinese (our own words)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)


class Exclude(BaseModel):
    """An engine to avoid when the rule fires, with the reason shown to the user."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    engine: EngineId
    reason: Text


class ParallelismAdvice(BaseModel):
    """A parallelism strategy the rule argues for; the highest weight among fired rules wins."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    strategy: Strategy
    weight: int = Field(ge=1, le=100)
    span: Literal["fit", "node"] = "fit"
    """TP group size: the fewest devices that hold the model ("fit"), or the whole node ("node")."""
    reason: Text


class Effects(BaseModel):
    """What a fired rule does to the decision."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    score: dict[EngineId, int] = Field(default_factory=dict)
    """Points added to (or taken from) each engine's ranking score."""
    exclude: list[Exclude] = Field(default_factory=list)
    """Engines never recommended under this rule (they go to `avoid`)."""
    bottleneck: dict[str, int] = Field(default_factory=dict)
    """Bottleneck candidates with weights; the weights of all fired rules add up."""
    parallelism: ParallelismAdvice | None = None
    warning: Text | None = None
    check: Check | None = None
    """A built-in check run against the engine catalog (hardware support, quant kernels)."""

    @field_validator("bottleneck")
    @classmethod
    def _known_bottlenecks(cls, v: dict[str, int]) -> dict[str, int]:
        for name, weight in v.items():
            if name not in BOTTLENECKS:
                raise ValueError(f"unknown bottleneck '{name}' (known: {', '.join(BOTTLENECKS)})")
            if weight < 1:
                raise ValueError(f"bottleneck weight for '{name}' must be >= 1")
        return v


class Rule(BaseModel):
    """One rule: when `when` holds over the facts, `effects` apply and `citations` support it."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    rationale: Text
    source: str = Field(min_length=1)
    """The article section or documentation URL the rule encodes."""
    when: Condition
    effects: Effects
    citations: list[str] = Field(min_length=1)
    """Corpus chunk ids (`<doc-id>#<slug>`)."""
    group: str = ""
    """The file the rule came from (set by the loader)."""

    @field_validator("citations")
    @classmethod
    def _chunk_ids(cls, v: list[str]) -> list[str]:
        for cid in v:
            doc, _, slug = cid.partition("#")
            if not doc or not slug:
                raise ValueError(f"citation '{cid}' is not a '<doc-id>#<slug>' chunk id")
        return v

    @field_validator("when")
    @classmethod
    def _leaves_read_known_facts(cls, v: Condition) -> Condition:
        for leaf in v.leaves():
            _check_leaf(leaf)
        return v


def _allowed_values(field: str) -> tuple | None:
    """The literal values a fact can take, if its type is a Literal."""
    ann = Facts.model_fields[field].annotation
    for arg in (ann, *typing.get_args(ann)):
        if typing.get_origin(arg) is Literal:
            return typing.get_args(arg)
    return None


def _check_leaf(leaf: Condition) -> None:
    if leaf.field not in Facts.model_fields:
        raise ValueError(f"condition reads unknown fact '{leaf.field}'")
    allowed = _allowed_values(leaf.field)
    if allowed is None or leaf.op not in ("eq", "ne", "in"):
        return
    for value in leaf.value if leaf.op == "in" else [leaf.value]:
        if value not in allowed:
            raise ValueError(f"'{value}' is not a possible value of '{leaf.field}' ({', '.join(map(str, allowed))})")


def _rule_error(path: Path, raw: Any, exc: ValidationError) -> DataError:
    err = exc.errors()[0]
    rule_id = raw.get("id") if isinstance(raw, dict) else None
    field = ".".join(str(p) for p in err["loc"]) or None
    return DataError(path.name, str(rule_id) if rule_id else None, field, err["msg"].removeprefix("Value error, "))


def load_file(path: Path) -> list[Rule]:
    """Load and validate one rule file."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(path.name, None, None, f"cannot read rule file: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise DataError(path.name, None, "rules", "a rule file is a mapping with a 'rules' list")
    rules = []
    for raw in data["rules"]:
        try:
            rules.append(Rule.model_validate({**raw, "group": path.stem} if isinstance(raw, dict) else raw))
        except ValidationError as exc:
            raise _rule_error(path, raw, exc) from None
    return rules


def load_rules(directory: Path | str | None = None) -> tuple[Rule, ...]:
    """All rules of a directory, files in name order; ids must be unique across files."""
    directory = Path(directory) if directory else RULES_DIR
    if directory == RULES_DIR:
        return _shipped()
    return _load_dir(directory)


_CODE = [Path(__file__).with_name(n) for n in ("ruleset.py", "conditions.py", "facts.py", "ids.py")]
"""The modules that shape a validated rule: an edit to one invalidates the pickled rule set."""


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[Rule, ...]:
    # Validated once per edit of the rule files or their schema, then read back pickled: a cold
    # `advisor ask` otherwise spends its time parsing and validating every rule file.
    from rules.catalog_cache import cached
    return cached("rule-set", [*sorted(RULES_DIR.glob("*.yaml")), *_CODE], lambda: _load_dir(RULES_DIR))


def _load_dir(directory: Path) -> tuple[Rule, ...]:
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise DataError(str(directory), None, None, "no rule files found")
    seen: dict[str, str] = {}
    out: list[Rule] = []
    for path in files:
        for rule in load_file(path):
            if rule.id in seen:
                raise DataError(path.name, rule.id, "id", f"duplicate rule id (also in {seen[rule.id]})")
            seen[rule.id] = path.name
            out.append(rule)
    return tuple(out)


@functools.lru_cache(maxsize=1)
def rule_index() -> dict[str, Rule]:
    """Shipped rules by id (do not mutate: cached)."""
    return {r.id: r for r in _shipped()}

