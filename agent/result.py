"""From graph state to the facts the composer may use and to the `ask --json` object."""
from __future__ import annotations

import json
import re
from typing import Any

from agent.compose import favouring, markers
from agent.localize import localized
from agent.names import display
from agent.state import AgentState
from rules.profile import build_profile

PARALLELISM_KEYS = ("strategy", "tp", "pp", "ep", "dp", "reason")
SOURCE_CHARS = 400   # of each chunk shown to the LLM composer


def _names(profile: Any) -> dict[str, str]:
    """Catalog display names of the profile's hardware and model (for prose)."""
    from rules import catalog
    out = {}
    for field, getter in (("hardware", catalog.hardware), ("model", catalog.model)):
        ident = getattr(profile, field)
        if ident:
            try:
                out[field] = getter(ident).name
            except Exception:  # an id the catalog lacks: the id is the name
                out[field] = ident
    return out


def _summary(profile) -> dict[str, Any]:
    """The contract's flat profile, with facts the catalog implies (model size; one device's link)."""
    from rules import catalog
    from rules.errors import AdvisorError
    out = profile.summary()
    try:
        if out["params_b"] is None and profile.model:
            out["params_b"] = catalog.model(profile.model).params_b
        if out["interconnect"] is None and profile.hardware and profile.device_count == 1:
            out["interconnect"] = "unified" if catalog.hardware(profile.hardware).hw_class == "apple" else "none"
    except AdvisorError:   # an id the catalog lacks: leave the field as the user left it
        pass
    return out


def _parallelism(plan: dict[str, Any] | None, decision_par: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """The contract's `parallelism`, filled from the plan when there is one (else the rules' advice)."""
    if not plan:
        return {k: decision_par.get(k) for k in PARALLELISM_KEYS} if decision_par else None
    lay = plan["chosen"]["layout"]
    from rules.plan import Layout
    out = Layout(**lay).parallelism()
    out["reason"] = ((plan.get("why") or {}).get(lang) or (plan.get("why") or {}).get("en") or [""])[0]
    return out


def facts_of(state: AgentState) -> dict[str, Any]:
    """The `ask --json` object without `answer`, plus trace, warnings and names for the composer."""
    profile = build_profile(state.get("profile") or {})
    d = localized(state.get("decision"), profile.language) or {}
    par = d.get("parallelism")
    assumptions = list(dict.fromkeys([*(state.get("assumptions") or []), *(d.get("assumptions") or [])]))
    return {
        "intent": state.get("intent", "recommend"),
        "profile": _summary(profile),
        "primary": d.get("primary"),
        "alternatives": list(d.get("alternatives") or []),
        "avoid": [{"engine": a["engine"], "reason": a.get("reason", "")} for a in d.get("avoid") or []],
        "bottleneck": d.get("bottleneck"),
        "parallelism": None if state.get("intent") == "size" else _parallelism(state.get("plan"), par, profile.language),
        "estimate": state.get("estimate"),
        "plan": state.get("plan"),
        "sizing": state.get("sizing"),
        "benchmark": state.get("benchmark"),
        "questions": list(state.get("questions") or []),
        "assumptions": assumptions,
        "citations": list(state.get("citations") or []),
        "rules": list(d.get("rules") or []),
        "warnings": [*(d.get("warnings") or []), *(state.get("tool_notes") or [])],
        "trace": d.get("trace") or [],
        "ranking": d.get("ranking") or [],
        "injection": bool(state.get("injection")),
        "names": _names(profile),
    }


CONTRACT_KEYS = ("intent", "profile", "primary", "alternatives", "avoid", "bottleneck", "parallelism",
                 "estimate", "benchmark", "questions", "assumptions", "citations", "rules")


def result_of(facts: dict[str, Any], answer: str, composer: str) -> dict[str, Any]:
    """The `ask --json` object (DESIGN.md), plus `warnings` and `composer` (added keys)."""
    out = {k: facts[k] for k in CONTRACT_KEYS}
    out["answer"] = answer
    out["plan"] = facts.get("plan")
    if facts.get("sizing"):
        out["sizing"] = facts["sizing"]
    out["warnings"] = facts["warnings"]
    out["composer"] = composer
    return out


def _plan_view(facts: dict[str, Any]) -> dict[str, Any] | None:
    """The plan's lines (user's language) and the primary's launch command, for the LLM composer."""
    plan = facts.get("plan")
    if not plan:
        return None
    lang = facts["profile"].get("language") or "en"
    flags = plan.get("flags") or {}
    primary = facts.get("primary")
    return {"why": (plan.get("why") or {}).get(lang), "changes": (plan.get("changes") or {}).get(lang),
            "launch": flags.get(primary) if primary in flags else None}


def llm_view(facts: dict[str, Any]) -> tuple[str, str]:
    """(facts JSON, sources text) shown to the LLM composer: the structured results only."""
    index = {c["id"]: n for n, c in enumerate(facts["citations"], start=1)}
    primary = facts.get("primary")
    why = [f"{t.get('rationale', '')} {markers(t.get('citations') or [], index)}".strip() for t in favouring(facts)]
    bench = facts.get("benchmark") or {}
    view = {
        "profile": {k: v for k, v in facts["profile"].items() if v not in (None, [])}, "names": facts["names"],
        "primary": display(primary) if primary else None,
        "why": why[:4], "alternatives": [display(e) for e in facts["alternatives"]],
        "avoid": [{"engine": display(a["engine"]), "reason": a["reason"]} for a in facts["avoid"]],
        "bottleneck": facts["bottleneck"], "parallelism": facts["parallelism"], "estimate": facts["estimate"],
        "plan": _plan_view(facts),
        "benchmark": {"concurrency": bench.get("concurrency"), "metrics": bench.get("metrics")} if bench else None,
        "warnings": facts["warnings"], "assumptions": facts["assumptions"],
    }
    sources = "\n".join(f"[{n}] {c['title']}: {' '.join(c['text'].split())[:SOURCE_CHARS]}"
                        for n, c in enumerate(facts["citations"], start=1))
    view = {k: v for k, v in view.items() if v not in (None, [], {})}
    return json.dumps(view, ensure_ascii=False, separators=(",", ":"), default=str), sources or "(none)"


_ANY_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def allowed_numbers(*texts: str) -> list[float]:
    """Every number written anywhere in `texts` (also inside ids like rtx4090): what prose may repeat."""
    out = set()
    for text in texts:
        for m in _ANY_NUMBER.findall(text):
            for cand in (m.replace(",", ""), m):
                try:
                    out.add(float(cand))
                except ValueError:
                    continue
    return sorted(out)
