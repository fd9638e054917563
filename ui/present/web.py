"""Web components data of an Advice: summary, profile rows, alternatives table, citations.

`view(advice)` is pure data (pydantic); the Gradio app only places it. The small Markdown and
table helpers below format that data for the components the app uses today.
"""
from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from agent.names import bottleneck_label, display, field_label, source_label, value_text
from ui.present.figures import fit_text, key_figures, layout_text, number
from ui.present.labels import labels
from ui.present.markdown import safe

if TYPE_CHECKING:
    from agent.advice import Advice, ProfileField


_WEB = re.compile(r"https?://[^\s<>()\[\]]+$", re.I)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Figure(_Strict):
    """One labelled figure."""

    label: str
    value: str


class Summary(_Strict):
    """What to read first: the engine, the plan, whether it fits and the key figures."""

    headline: str
    engine: str | None = None
    """Engine id (None when no engine fits)."""
    engine_name: str = ""
    plan: str = ""
    fits: bool | None = None
    fit_text: str = ""
    figures: list[Figure] = Field(default_factory=list)
    bottleneck: str = ""
    alternatives: list[str] = Field(default_factory=list)
    """Names of the alternative engines."""
    avoid: list[Figure] = Field(default_factory=list)
    """Engine name → why not."""


class ProfileRow(_Strict):
    """One profile value as understood and where it came from."""

    field: str
    label: str
    value: str
    source: str
    """The user's words in quotes, or "assumed (why)", or where else it came from."""
    origin: str


class OptionRow(_Strict):
    """One engine at the plan's layout: the alternatives table."""

    engine: str
    engine_name: str
    role: str
    plan: str
    fits: str
    ttft: str
    tpot: str
    tokens_per_s: str


class CitationItem(_Strict):
    """A cited chunk, numbered as in the answer."""

    n: int
    id: str
    title: str
    source: str
    text: str


class WebView(_Strict):
    """Everything the web app shows beside the chat, in the conversation's language."""

    language: str
    summary: Summary
    profile: list[ProfileRow]
    options: list[OptionRow]
    citations: list[CitationItem]


def _source(f: "ProfileField", lang: str) -> str:
    lab = labels(lang)
    if f.origin == "said" and f.evidence:
        return f"{lab['said']}: “{f.evidence}”"
    if f.origin == "assumed":
        return lab["assumed"] + (f" ({f.note})" if f.note else "")
    return lab[f.origin] if f.origin in lab else "—"


def profile_rows(advice: "Advice") -> list[ProfileRow]:
    """Every known profile value with the user's words (or why it is assumed) beside it."""
    lang = advice.language
    return [ProfileRow(field=f.field, label=field_label(f.field, lang), value=value_text(f.field, f.value, lang),
                       source=_source(f, lang), origin=f.origin) for f in advice.profile.fields]


def summary(advice: "Advice") -> Summary:
    """The engine, the plan and the figures computed for it."""
    lang, lab, d = advice.language, labels(advice.language), advice.decision
    plan, est = advice.plan, advice.estimate
    if d.primary:
        headline = f"{lab['recommended']}: {display(d.primary)}"
    else:   # a concept question has no engine to recommend; a recommendation without one says why
        headline = lab["explain"] if advice.intent == "explain" else lab["no_primary"]
    return Summary(
        headline=headline, engine=d.primary, engine_name=display(d.primary) if d.primary else "",
        plan=layout_text(plan.layout if plan else None, lang), fits=est.fits if est else None,
        fit_text=fit_text(est, lang) if est else "",
        figures=[Figure(label=k, value=v) for k, v in key_figures(est, lang)],
        bottleneck=bottleneck_label(d.bottleneck, lang) if d.bottleneck else "",
        alternatives=[display(e) for e in d.alternatives],
        avoid=[Figure(label=display(a.engine), value=a.reason) for a in d.avoid])


def option_rows(advice: "Advice") -> list[OptionRow]:
    """The primary and each alternative at the plan's layout, with fit, TTFT, TPOT and tokens/s."""
    plan, lang = advice.plan, advice.language
    if plan is None or plan.estimate is None:
        return []
    rows = [("primary", plan.engine, plan.layout, plan.estimate)]
    rows += [("alternative", o.engine, o.layout, o.estimate) for o in plan.alternatives]
    return [OptionRow(engine=e or "", engine_name=display(e) if e else "—", role=role,
                      plan=layout_text(layout, lang), fits=fit_text(est, lang),
                      ttft=number(est.ttft_s if est else None, "s"), tpot=number(est.tpot_ms if est else None, "ms"),
                      tokens_per_s=number(est.aggregate_tokens_per_s if est else None))
            for role, e, layout, est in rows]


def view(advice: "Advice") -> WebView:
    """The whole web view of an Advice."""
    return WebView(language=advice.language, summary=summary(advice), profile=profile_rows(advice),
                   options=option_rows(advice),
                   citations=[CitationItem(n=n, **(c.model_dump() | {"source": source_label(c.source)}))
                              for n, c in enumerate(advice.citations, 1)])


# --- formatting the view for today's Gradio components ------------------------------------------------

def card_markdown(v: WebView) -> str:
    """The summary card: headline, plan and fit, key figures, bottleneck, alternatives, engines to avoid."""
    lab, s = labels(v.language), v.summary
    lines = [f"### {s.headline}"]
    head = " · ".join(x for x in (f"{lab['plan']}: {s.plan}" if s.plan else "", s.fit_text) if x)
    if head:
        lines.append(head)
    if s.figures:
        lines.append(" · ".join(f"{f.label}: {f.value}" for f in s.figures))
    if s.bottleneck:
        lines.append(f"**{lab['bottleneck']}:** {s.bottleneck}")
    if s.alternatives:
        lines.append(f"**{lab['alternatives']}:** " + ", ".join(s.alternatives))
    if s.avoid:
        lines.append(f"**{lab['avoid']}:**\n" + "\n".join(f"- **{a.label}** — {a.value}" for a in s.avoid))
    return "\n\n".join(lines)


def profile_table(v: WebView) -> list[list[str]]:
    """[label, value, from] rows for a table."""
    return [[r.label, r.value, r.source] for r in v.profile]


def profile_headers(lang: str) -> list[str]:
    """Column headers of the profile table."""
    lab = labels(lang)
    return [lab["field"], lab["value"], lab["from"]]


def options_table(v: WebView) -> list[list[str]]:
    """[engine, plan, fits, TTFT, TPOT, tokens/s] rows."""
    return [[r.engine_name, r.plan, r.fits, r.ttft, r.tpot, r.tokens_per_s] for r in v.options]


def options_headers(lang: str) -> list[str]:
    """Column headers of the alternatives table."""
    lab = labels(lang)
    return [lab["engine"], lab["plan"], lab["fits"], "TTFT", "TPOT", lab["tokens_s"]]


def citations_markdown(v: WebView) -> str:
    """Citations as expandable blocks with their sources. Titles and text may come from ingested
    documents: their markup is escaped and their links kept only to the cited sources; a local
    file is named, never its path."""
    allowed = {c.source.rstrip("/") for c in v.citations if _WEB.match(c.source)}
    out = []
    for c in v.citations:
        text = safe(c.text.strip().replace("\n", " "), allowed)
        source = source_label(c.source)
        link = f"[{source}]({source})" if _WEB.match(source) else html.escape(source)
        out.append(f"<details><summary>[{c.n}] {html.escape(c.title)} <code>{html.escape(c.id)}</code></summary>\n\n"
                   f"{text}\n\n{labels(v.language)['sources']}: {link}\n</details>")
    return "\n".join(out)
