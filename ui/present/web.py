"""Web components data of an Advice: summary, profile rows, alternatives table, citations.

`view(advice)` is pure data (pydantic); the Gradio app only places it. The Markdown helpers below
format that data for the page: the chat's summary (`chat_markdown`), the profile as understood
(`live_rows`, `profile_markdown`), the alternatives table and the sources.
"""
from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from agent.names import bottleneck_label, display, field_label, source_label, value_text
from ui.present.figures import fit_text, key_figures, layout_text, number
from ui.present.labels import labels
from ui.present.markdown import safe

if TYPE_CHECKING:
    from agent.advice import Advice, ProfileField, ProfileView


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


_MARKUP = re.compile(r"([\\`*_\[\]()#!|~])")
_BARE_PIPE = re.compile(r"(?<!\\)\|")


def inert(text: str) -> str:
    """Words from outside (the user's, a quoted document's) with their markup made inert: HTML
    escaped and Markdown's link, image, emphasis and table marks backslashed, so they show as typed."""
    return _MARKUP.sub(r"\\\1", html.escape(str(text), quote=False)).replace("\n", " ")


KEY_FIELDS = ("hardware", "count", "model", "workload", "users", "concurrency", "serving_mode")
"""Shown in the profile even before they are known, so people see what is still open."""


def _source(f: "ProfileField", lang: str) -> str:
    lab = labels(lang)
    if f.origin == "said" and f.evidence:
        return f"{lab['said']}: “{inert(f.evidence)}”"
    if f.origin == "assumed":
        return lab["assumed"] + (f" ({f.note})" if f.note else "")
    return lab[f.origin] if f.origin in lab else "—"


def profile_rows(advice: "Advice") -> list[ProfileRow]:
    """Every known profile value with the user's words (or why it is assumed) beside it."""
    return rows_of(advice.profile, advice.language)


def rows_of(profile: "ProfileView", lang: str) -> list[ProfileRow]:
    """The rows of a profile view, in the reading order of `PROFILE_ORDER`."""
    return [ProfileRow(field=f.field, label=field_label(f.field, lang), value=value_text(f.field, f.value, lang),
                       source=_source(f, lang), origin=f.origin) for f in profile.fields]


def live_rows(profile: "ProfileView | None", lang: str) -> list[ProfileRow]:
    """The profile understood so far (also mid-interview), with the key fields that are still open
    shown as not known yet."""
    from agent.advice import PROFILE_ORDER
    from ui.present.webtext import text
    rows = rows_of(profile, lang) if profile is not None else []
    seen = {r.field for r in rows}
    missing = [ProfileRow(field=f, label=field_label(f, lang), value=text(lang)["not_known"], source="—",
                          origin="missing") for f in KEY_FIELDS if f not in seen]
    order = {f: i for i, f in enumerate(PROFILE_ORDER)}
    return sorted(rows + missing, key=lambda r: order.get(r.field, len(order)))


def _cell(text: str) -> str:
    """A table cell: pipes and newlines cannot end the cell or the row."""
    return _BARE_PIPE.sub(r"\\|", text).replace("\n", " ")


def profile_markdown(rows: list[ProfileRow], lang: str) -> str:
    """The profile as a three-column table: field, value, and the user's words (or why assumed)."""
    lab = labels(lang)
    lines = [f"| {lab['field']} | {lab['value']} | {lab['from']} |", "|---|---|---|"]
    for r in rows:
        value = f"*{r.value}*" if r.origin == "missing" else f"**{_cell(inert(r.value))}**"
        lines.append(f"| {r.label} | {value} | {_cell(r.source)} |")
    return "\n".join(lines)


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


def citation_items(advice: "Advice") -> list[CitationItem]:
    """The Advice's citations, numbered, each with its source's label."""
    return [CitationItem(n=n, **(c.model_dump() | {"source": source_label(c.source)}))
            for n, c in enumerate(advice.citations, 1)]


def view(advice: "Advice") -> WebView:
    """The whole web view of an Advice."""
    return WebView(language=advice.language, summary=summary(advice), profile=profile_rows(advice),
                   options=option_rows(advice), citations=citation_items(advice))


# --- the view as Markdown for the page ---------------------------------------------------------------------

def options_headers(lang: str) -> list[str]:
    """Column headers of the alternatives table."""
    lab = labels(lang)
    return [lab["engine"], lab["plan"], lab["fits"], "TTFT", "TPOT", lab["tokens_s"]]


def citations_markdown(v: WebView) -> str:
    """Citations as expandable blocks with their sources (`cited_markdown` of the view's)."""
    return cited_markdown(v.citations, v.language)


def advice_citations_markdown(advice: "Advice") -> str:
    """`citations_markdown(view(advice))`, without building the rest of the view (a turn's panels
    show only the sources)."""
    return cited_markdown(citation_items(advice), advice.language)


def cited_markdown(citations: list[CitationItem], lang: str) -> str:
    """Citations as expandable blocks with their sources. Titles and text may come from ingested
    documents: their markup is escaped and their links kept only to the cited sources; a local
    file is named, never its path."""
    allowed = {c.source.rstrip("/") for c in citations if _WEB.match(c.source)}
    out = []
    for c in citations:
        text = safe(c.text.strip().replace("\n", " "), allowed)
        source = source_label(c.source)
        link = f"[{source}]({source})" if _WEB.match(source) else html.escape(source)
        out.append(f"<details><summary>[{c.n}] {html.escape(c.title)} <code>{html.escape(c.id)}</code></summary>\n\n"
                   f"{text}\n\n{labels(lang)['sources']}: {link}\n</details>")
    return "\n".join(out)


def options_markdown(v: WebView) -> str:
    """The alternatives as a small table: engine, plan, fits, TTFT, TPOT, tokens/s (primary in bold)."""
    if len(v.options) < 2:
        return ""
    from ui.present.webtext import text
    head = options_headers(v.language)
    lines = [f"**{text(v.language)['options']}**", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in v.options:
        name = f"**{r.engine_name}**" if r.role == "primary" else r.engine_name
        lines.append("| " + " | ".join(_cell(x) for x in (name, r.plan, r.fits, r.ttft, r.tpot, r.tokens_per_s)) + " |")
    return "\n".join(lines)


def _first_paragraph(body: str, limit: int = 600) -> str:
    """The answer's first paragraph (not a quote note), cut at a sentence end near `limit` characters."""
    part = next((p.strip() for p in body.split("\n\n") if p.strip() and not p.lstrip().startswith(">")), "")
    if len(part) <= limit:
        return part
    cut = max(part.rfind(end, 0, limit) for end in (". ", "。", "; ", "\n"))
    return part[: cut + 1 if cut > limit // 3 else limit].rstrip() + " …"


def _sizing_head(body: str, top: int = 3) -> str:
    """A sizing answer's title and its first `top` hardware options (as the answer ranks them)."""
    parts = [p.strip() for p in body.split("\n\n") if p.strip() and not p.lstrip().startswith(">")]
    if len(parts) < 2:
        return parts[0] if parts else ""
    options = [line for line in parts[1].splitlines() if line.strip()][:top]
    return parts[0] + "\n\n" + "\n".join(options)


def why_not_estimated(advice: "Advice", lang: str) -> str:
    """Why an answer has no estimate, in words: an unrecognised model or device first."""
    from ui.present.webtext import text
    t = text(lang)
    if advice.intent == "size":
        return t["why_sizing"]
    for kind, key in (("model", "why_unknown_model"), ("device", "why_unknown_device")):
        words = [n.text for n in advice.not_understood if n.kind == kind]
        if words:
            return t[key].format(words=words[0])
    s = advice.profile.summary
    if s.model is None and s.params_b is None:
        return t["why_no_model"]
    if s.hardware is None and advice.profile.field("memory_gb") is None:
        return t["why_no_device"]
    return advice.tool_notes[0] if advice.tool_notes else t["why_no_estimate"]


def chat_markdown(advice: "Advice") -> str:
    """The answer as the chat shows it: a short summary people read first, the alternatives table,
    and the whole answer folded under a details line (so a long answer is not a wall)."""
    from agent.compose import understanding_lines
    from ui.present.markdown import answer
    from ui.present.webtext import text
    v = view(advice)
    s, lab = v.summary, labels(v.language)
    if advice.intent == "size":   # the hardware options come first, then the engine for them
        lines = [_sizing_head(advice.answer), f"**{s.headline}**"] if s.engine else [_sizing_head(advice.answer)]
    elif not s.engine and not s.figures:   # a concept answer: its own first paragraph
        lines = [_first_paragraph(advice.answer)]
    else:
        lines = [f"**{s.headline}**"]
    head = " · ".join(x for x in (f"{lab['plan']}: {s.plan}" if s.plan else "", s.fit_text if s.plan else "") if x)
    if head:
        lines.append(head)
    if s.figures:
        lines.append(" · ".join(f"{f.label} {f.value}" for f in s.figures))
    if s.bottleneck:
        lines.append(f"{lab['bottleneck']}: {s.bottleneck}")
    if advice.estimate is None and advice.intent not in ("explain", "size") and s.engine:
        lines.append(f"{lab['unknown_fit'].capitalize()}: {why_not_estimated(advice, v.language)}")
    notes = [f"> {inert(line.removeprefix('> '))}" for line in understanding_lines(advice) if line]   # quotes words
    parts = ["\n\n".join(x for x in lines if x), *(["\n".join(notes)] if notes else []), options_markdown(v)]
    details = f"<details><summary>{text(v.language)['details']}</summary>\n\n{answer(advice).strip()}\n\n</details>"
    return "\n\n".join(p for p in parts if p) + "\n\n" + details
