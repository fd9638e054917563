"""From graph state to the typed `Advice`, and from an Advice to what the LLM composer may see."""
from __future__ import annotations

import json
import re
from typing import Any

from agent.advice import (
    PROFILE_ORDER, Advice, Citation, Decision, LaunchCommand, Layout, Plan, PlanOption, ProfileField, ProfileSummary,
    ProfileView, Question,
)
from agent.compose import markers
from agent.localize import localized
from agent.names import display, hardware_name, model_name
from agent.state import AgentState
from rules import memo
from rules.profile import Profile

SOURCE_CHARS = 400   # of each chunk shown to the LLM composer


def _implied(profile: Profile) -> dict[str, Any]:
    """Facts the catalog implies for the contract's summary: the model's size, one device's link, the
    link of several devices in one machine when the part leaves no choice (SXM boards, cards without
    a bridge)."""
    from agent.interview import link_question
    from rules import catalog
    from rules.errors import AdvisorError
    out: dict[str, Any] = {}
    try:
        if profile.params_b is None and profile.model:
            out["params_b"] = catalog.model(profile.model).params_b
        if profile.interconnect is None and profile.hardware and profile.device_count == 1:
            out["interconnect"] = "unified" if catalog.hardware(profile.hardware).hw_class == "apple" else "none"
        elif profile.interconnect is None and profile.hardware and profile.nodes == 1 and link_question(profile) is None:
            out["interconnect"] = catalog.hardware(profile.hardware).interconnect   # the part fixes the link
    except AdvisorError:   # an id the catalog lacks: leave the field as the user left it
        pass
    return out


def _note(prov: Any, language: str) -> str | None:
    """A provenance note in the user's language (defaults carry a zh-Hant twin)."""
    if prov is None:
        return None
    return (prov.note_zh or prov.note) if language == "zh" else prov.note


def profile_view(profile: Profile) -> ProfileView:
    """The contract's flat summary plus every known value with its provenance."""
    implied = _implied(profile)
    flat = profile.summary() | implied
    summary = ProfileSummary(**{k: flat.get(k) for k in ProfileSummary.model_fields if k in flat})
    fields = []
    for name in PROFILE_ORDER:
        value = getattr(profile, name, None)
        prov = profile.provenance.get(name)
        origin = "given"
        if value is None or value == []:
            if name not in implied:
                continue
            value, origin = implied[name], "implied"
        elif prov is None and value == Profile.model_fields[name].default:
            continue   # a schema default nobody set (one node): nothing to show
        if prov is not None and prov.assumed:
            origin = "assumed"
        elif prov is not None and prov.evidence:
            origin = "said"
        fields.append(ProfileField(field=name, value=value, origin=origin,
                                   evidence=prov.evidence if prov and origin == "said" else None,
                                   note=_note(prov, profile.language)))
    return ProfileView(summary=summary, fields=fields)


def _layout(par: dict[str, Any] | None) -> Layout | None:
    if not par or not par.get("strategy"):
        return None
    return Layout(**{k: par[k] for k in ("strategy", "tp", "pp", "ep", "dp", "attention_dp", "reason", "rule")
                     if par.get(k) is not None})


def _searched(search: dict[str, Any], decision: Decision, estimate: dict[str, Any] | None,
              options: list[dict[str, Any]], language: str) -> Plan:
    """The Advice's plan from the planner's result: its layout, runner-up, launch commands and figures."""
    from rules.plan import Plan as PlanSearch
    from rules.plan.flags import SOURCES, flag_values
    from rules.roofline.result import Estimate
    found = memo.typed(PlanSearch, search)
    why = found.why.get(language) or found.why["en"]
    layout = Layout(**found.chosen.layout.parallelism(), reason=why[0], rule="planner")
    runner = None
    if found.runner_up is not None:
        r = found.runner_up
        runner = PlanOption(engine=r.engine, layout=Layout(**r.layout.parallelism(), rule="planner"),
                            why=why[1] if len(why) > 1 else "")
    launch = [LaunchCommand(engine=e, command=cmd, flags=flag_values(cmd), source=SOURCES.get(e, ""))
              for e, cmd in found.flags.items()]
    alts = [PlanOption(engine=o["engine"], layout=layout, estimate=memo.typed(Estimate, o["estimate"]))
            for o in options if o.get("estimate")]
    return Plan(engine=found.engine or decision.primary, layout=layout,
                estimate=memo.typed(Estimate, estimate) if estimate else None, runner_up=runner,
                alternatives=alts, launch=launch, basis="planner", search=found)


def _plan(decision: Decision, estimate: dict[str, Any] | None, options: list[dict[str, Any]],
          search: dict[str, Any] | None = None, language: str = "en") -> Plan | None:
    """The planner's plan when it ran; else the layout the estimate was computed at (the rules' advice)."""
    if search:
        return _searched(search, decision, estimate, options, language)
    from rules.roofline.result import Estimate
    est = memo.typed(Estimate, estimate) if estimate else None
    advised = decision.parallelism
    layout = advised
    if est is not None:
        used = est.parallelism
        same = advised is not None and all(getattr(advised, k) == used.get(k) for k in ("strategy", "tp", "pp", "ep", "dp"))
        layout = advised if same else _layout({**used, "reason": "", "rule": None})
    if layout is None and est is None:
        return None
    alts = [PlanOption(engine=o["engine"], layout=layout, estimate=memo.typed(Estimate, o["estimate"]))
            for o in options if layout is not None and o.get("estimate")]
    return Plan(engine=(est.engine if est else None) or decision.primary, layout=layout, estimate=est, alternatives=alts)


def _decision(state: AgentState, language: str) -> Decision:
    d = localized(state.get("decision"), language) or {}
    return Decision(
        primary=d.get("primary"), alternatives=list(d.get("alternatives") or []),
        avoid=[{"engine": a["engine"], "reason": a.get("reason") or "", "rule": a.get("rule") or ""}
               for a in d.get("avoid") or []],
        bottleneck=d.get("bottleneck"), bottleneck_rules=list(d.get("bottleneck_rules") or []),
        parallelism=_layout(d.get("parallelism")), warnings=list(d.get("warnings") or []),
        rules=list(d.get("rules") or []), trace=list(d.get("trace") or []), ranking=list(d.get("ranking") or []))


def _variant_read(profile: Profile) -> list[str]:
    """When the user named a fine-tune or a quantized build, say which catalog architecture stands in."""
    from rules import catalog, model_resolve
    said = profile.provenance.get("model")
    match = catalog.resolve_model_match(said.evidence) if profile.model and said and said.evidence else None
    if not match or match.id != profile.model or not match.variant_kind:
        return []
    return [model_resolve.describe_variant(said.evidence, match.id, match.variant_kind, profile.language)]


def _unknown_warnings(state: AgentState, language: str) -> list[str]:
    """Say which device words were not recognised, instead of dropping them silently."""
    unknown = state.get("unknown_devices") or []
    if not unknown:
        return []
    from agent.interview import device_options
    words = ", ".join(f"'{u['text']}'" for u in unknown)
    options = device_options(unknown)
    if language == "zh":
        near = f"（最接近的：{'、'.join(options)}）" if options else ""
        return [f"我不認得 {words} 這個裝置{near}；在確認硬體前，這份建議只列出幾乎在哪都能跑的引擎。"]
    near = f" (closest I know: {', '.join(options)})" if options else ""
    return [f"I did not recognise {words} as a device{near}; until the hardware is known this answer only "
            "lists engines that run almost anywhere."]


def _decision_assumptions(state: AgentState, language: str) -> list[str]:
    """The rule engine's assumption lines in the user's language (it writes both)."""
    d = state.get("decision") or {}
    if language == "zh" and d.get("assumptions_zh"):
        return list(d["assumptions_zh"])
    return list(d.get("assumptions") or [])


def _asked_assumptions(state: AgentState, language: str) -> list[str]:
    """Defaults taken for asked questions; in zh the rule engine's lines already state them in zh."""
    lines = list(state.get("assumptions") or [])
    covered = {a.split(" = ", 1)[0] for a in _decision_assumptions(state, language)}
    return [a for a in lines if language != "zh" or a.split(" = ", 1)[0] not in covered]


def _not_understood(state: AgentState) -> list[dict[str, str]]:
    """The extractor's unplaced words, plus unknown device words the hardware index found (once each)."""
    from agent.extract_unplaced import restated
    profile = state.get("profile") or {}   # a number the final profile holds was used, whichever mention set it
    out = [n for n in state.get("not_understood") or [] if isinstance(n, dict)
           and not (n.get("kind") == "number" and restated(n.get("text") or "", profile))]
    for u in state.get("unknown_devices") or []:
        if not any(u["text"] in n["text"] or n["text"] in u["text"] for n in out):
            out.append({"text": u["text"], "kind": "device"})
    return out


_FORMAT_LINE = re.compile(r"quantization = ([\w.-]+)(?:[:：]\s*(.*))?$")


def _format_planned(assumptions: list[str], plan: Any, lang: str) -> list[str]:
    """The assumed-format line states the format the plan runs: when the planner changed it (FP8 on a GPU
    that computes it, a lower bit width because no layout served the load), the line says which was assumed,
    which is used, and the planner's reason (review 7: "quantization = bf16" beside an int8 plan)."""
    search = getattr(plan, "search", None)
    if search is None:
        return assumptions
    used = search.chosen.quantization
    out = []
    for line in assumptions:
        m = _FORMAT_LINE.match(line)
        if not m or m.group(1) == used:
            out.append(line)
            continue
        assumed, note = m.group(1), m.group(2) or ""
        reasons = [*search.changes.get(lang, []), *search.why.get(lang, [])]
        reason = next((r for r in reasons if used.lower() in r.lower() and assumed.lower() in r.lower()), "")
        reason = reason.split(":", 1)[-1].split("：", 1)[-1].strip() if reason else ""
        if lang == "zh":
            out.append(f"quantization = {used}：原本假設 {assumed}（{note or '預設值'}），計畫改用 {used}"
                       + (f"，因為{reason}" if reason else ""))
        else:
            out.append(f"quantization = {used}: {assumed} was assumed ({note or 'default'}); the plan uses {used}"
                       + (f" because {reason}" if reason else ""))
    return out


def build_advice(state: AgentState, answer: str = "", composer: str = "template") -> Advice:
    """The typed Advice of a state that has been through the tools (answer filled by the verify node)."""
    from agent.nodes import _profile
    from rules.benchspec.spec import BenchSpec
    profile = _profile(state)
    decision = _decision(state, profile.language)
    decision = decision.model_copy(update={"warnings": [*_unknown_warnings(state, profile.language), *decision.warnings]})
    assumptions = list(dict.fromkeys([*_asked_assumptions(state, profile.language),
                                      *_decision_assumptions(state, profile.language),
                                      *_variant_read(profile)]))
    plan = _plan(decision, state.get("estimate"), state.get("options") or [], state.get("plan"), profile.language)
    assumptions = _format_planned(assumptions, plan, profile.language)
    bench = state.get("benchmark")
    return Advice(
        intent=state.get("intent") or "recommend", language=profile.language, profile=profile_view(profile),
        decision=decision, plan=plan,
        sizing=state.get("sizing"),
        benchmark=memo.typed(BenchSpec, bench) if bench else None,
        questions=[Question(**q) for q in state.get("questions") or []], assumptions=assumptions,
        citations=[Citation(**c) for c in state.get("citations") or []],
        not_understood=_not_understood(state), workable=list(state.get("workable") or []),
        topics=list(state.get("topics") or []), profile_change=state.get("profile_change"),
        question=state.get("text") or "",
        tool_notes=list(state.get("tool_notes") or []), **_stated_targets(state),
        injection=bool(state.get("injection")), answer=answer, composer=composer,
        llm_calls=state.get("llm_calls") or 0)


def _stated_targets(state: AgentState) -> dict[str, Any]:
    """The latency targets and token volume in everything the user wrote in this request."""
    from agent.extract_text import normalize
    from agent.extract_volume import volume
    from agent.slo_check import stated_slo
    texts = [normalize(t).norm for t in (state.get("transcript") or [state.get("text") or ""]) if t]
    from agent.extract_volume import WORK_HOURS
    found = [v for v in (volume(t) for t in texts) if v is not None]
    vol = found[-1].model_copy(update={"work_hours_only": any(WORK_HOURS.search(t) for t in texts)}) if found else None
    return {"slo": stated_slo(texts), "volume": vol.model_dump() if vol else None}


def _names(advice: Advice) -> dict[str, str]:
    """Catalog names of the profile's hardware and model (for prose)."""
    s, out = advice.profile.summary, {}
    if s.hardware:
        out["hardware"] = hardware_name(s.hardware)
    if s.model:
        out["model"] = model_name(s.model)
    return out


def _plan_view(advice: Advice) -> dict[str, Any] | None:
    """The planner's lines in the user's language and the primary's launch command, for the composer."""
    plan = advice.plan
    if plan is None or plan.search is None:
        return None
    lang = advice.language
    launch = next((c.command for c in plan.launch if c.engine == advice.decision.primary), None)
    return {"why": plan.search.why.get(lang), "changes": plan.search.changes.get(lang) or None, "launch": launch}


_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")


def _asked(advice: Advice) -> list[str]:
    """The template's answer to the topics the user asked about (links reduced to their names)."""
    from agent.topic_lead import lead
    return [_LINK.sub(r"\1", line) for line in lead(advice) if line.strip()]


def llm_view(advice: Advice) -> tuple[str, str]:
    """(facts JSON, sources text) shown to the LLM composer: the structured results only."""
    index = {c.id: n for n, c in enumerate(advice.citations, start=1)}
    d = advice.decision
    why = [f"{t.rationale} {markers(t.citations, index)}".strip() for t in d.favouring()]
    bench = advice.benchmark
    est = advice.estimate
    view = {
        "profile": {k: v for k, v in advice.profile.summary.model_dump(mode="json").items() if v not in (None, [])},
        "names": _names(advice),
        "primary": display(d.primary) if d.primary else None,
        "why": why[:4], "alternatives": [display(e) for e in d.alternatives],
        "avoid": [{"engine": display(a.engine), "reason": a.reason} for a in d.avoid],
        "bottleneck": d.bottleneck, "parallelism": advice.contract_json()["parallelism"],
        "plan": _plan_view(advice),
        "estimate": est.model_dump(mode="json") if est else None,
        "benchmark": {"concurrency": bench.workload.concurrency, "metrics": bench.metrics} if bench else None,
        "warnings": advice.warnings, "assumptions": advice.assumptions,
        "asked": _asked(advice),
    }
    sources = "\n".join(f"[{n}] {c.title}: {' '.join(c.text.split())[:SOURCE_CHARS]}"
                        for n, c in enumerate(advice.citations, start=1))
    view = {k: v for k, v in view.items() if v not in (None, [], {})}
    return json.dumps(view, ensure_ascii=False, separators=(",", ":"), default=str), sources or "(none)"


def grounding(advice: Advice) -> dict[str, Any]:
    """What the verifier checks prose against: the decision's engines and the retrieved citations."""
    d = advice.decision
    from agent.names import engines_named
    return {"primary": d.primary, "alternatives": list(d.alternatives),
            "avoid": [{"engine": a.engine} for a in d.avoid], "citations": [c.model_dump() for c in advice.citations],
            "mentioned": sorted(engines_named(" ".join(_asked(advice))))}


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
