"""The benchmark spec as YAML, JSON or Markdown: one renderer for the CLI, the web download and Slack.

Each renderer builds the harness exports first when the spec was kept without them (the agent's).

YAML goes through libyaml's emitter (`yaml.CSafeDumper`) when it is present — ~15x faster than the
pure-Python dumper on the 36 KB spec — with multi-line strings (the exported scripts) as literal blocks.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.benchspec.spec import BenchSpec


@lru_cache(maxsize=1)
def _dumper() -> type:
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):  # type: ignore[misc, valid-type]
        """Multi-line strings as literal blocks."""

    def _str(dumper, value: str):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)

    Dumper.add_representer(str, _str)
    return Dumper


def yaml_dump(data: Any) -> str:
    """Any JSON-able data as YAML (literal blocks for multi-line strings)."""
    import yaml
    return yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=100)


def with_harness(spec: "BenchSpec", harness: str = "all") -> "BenchSpec":
    """The spec with the exports of one harness only ("all" keeps every one)."""
    spec = spec.with_exports()
    if harness == "all":
        return spec
    from rules.errors import InputError
    if harness not in spec.exports:
        raise InputError(f"unknown harness '{harness}' (known: all, {', '.join(spec.exports)})")
    return spec.model_copy(update={"exports": {harness: spec.exports[harness]}})


def yaml_text(spec: "BenchSpec") -> str:
    """The spec as YAML."""
    return yaml_dump(spec.with_exports().model_dump(mode="json"))


def json_text(spec: "BenchSpec") -> str:
    """The spec as indented JSON (`advisor benchspec --format json`)."""
    return json.dumps(spec.with_exports().model_dump(mode="json"), indent=2, ensure_ascii=False)


def markdown_text(spec: "BenchSpec", lang: str | None = "en", notes_zh: dict[str, str] | None = None) -> str:
    """The spec as a Markdown document, in the conversation's language (`notes_zh`: why each assumed
    profile field was assumed, in zh-Hant, as the Advice's profile says it)."""
    from rules.benchspec.render import spec_markdown, spec_markdown_zh
    if lang == "zh":
        return spec_markdown_zh(spec.with_exports(), notes_zh)
    return spec_markdown(spec.with_exports())


def advice_markdown(advice, spec: "BenchSpec | None" = None) -> str:
    """The benchmark plan of an Advice (or `spec`, e.g. one harness of it) as Markdown, in the
    Advice's language (empty when there is none)."""
    spec = spec or (advice.benchmark if advice is not None else None)
    if spec is None:
        return ""
    notes = {f.field: f.note for f in advice.profile.fields if f.origin == "assumed" and f.note}
    text = markdown_text(spec, advice.language, notes)
    if advice.language != "zh":
        return text
    from agent.names import assumption_text   # "量化 = bf16（假設值）：…" with the field in words
    return "\n".join(f"- {assumption_text(line[2:], 'zh')}" if line.startswith("- ") else line
                     for line in text.split("\n"))


def harness_commands(spec: "BenchSpec | None") -> str:
    """The harness command lines, one block per harness."""
    return "\n\n".join(f"# {name}\n{cmd}" for name, cmd in (spec.with_exports().exports if spec else {}).items())
