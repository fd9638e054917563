"""The graph's nodes: small functions of (state, tools) that return partial state updates.

Order: understand → interview → listen (pauses) ⟲ → decide → estimate → plan → retrieve → compose → verify.
The listen node re-runs from its top when resumed, so nothing before `interrupt()` has effects.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from agent import interview as policy
from agent import understand as und
from agent.state import AgentState
from agent.tools import Tools, as_dict
from rules.errors import AdvisorError
from rules.profile import Profile, build_profile

LLM_CALLS_PER_TURN = 2
MAX_RULE_CHUNKS = 8
KEY_RULE_CHUNKS = 4    # rule chunks listed before the search hits
SEARCH_K = 3
EXPLAIN_K = 20         # an explain answer is written from the chunks: look wider, keep the user's language first
MAX_CITATIONS = 10
# Said above the deterministic answer when the LLM ran out of time this turn.
SKIPPED = {"en": "> The language model was skipped: it did not answer within {s} s, so this is the advisor's "
                 "deterministic answer (the decision is the same either way).\n\n",
           "zh": "> 已略過語言模型：它沒有在 {s} 秒內回覆，以下是顧問的確定性答案（建議本身不受影響）。\n\n"}


def _profile(state: AgentState) -> Profile:
    """The state's profile, validated once per turn while no node has replaced it (nodes write a new
    dict, never change one)."""
    from rules import memo
    data = state.get("profile") or {}
    return memo.once_per_object("profile", data, lambda: build_profile(data))


def _llm_time(tools: Tools) -> float | None:
    """The LLM time of a turn that starts now (None in deterministic mode)."""
    if tools.llm is None:
        return None
    from agent.llm import deadline_budget
    return deadline_budget()


def _read(tools: Tools, text: str, extraction: Any, asked: list[str] | None,
          time_left: float | None = None) -> tuple[dict, dict, list[str], int, float | None]:
    """Values and evidence from both extractors behind the guard; (values, evidence, dropped, llm calls,
    the turn's LLM time left after extraction)."""
    values, evidence, dropped = und.guard(*und.extraction_parts(extraction), text, strict=False)
    if tools.llm is None:
        return values, evidence, dropped, 0, time_left
    getattr(tools.llm, "warm", lambda: None)()
    start = time.monotonic()
    deadline = None if time_left is None else time.time() + time_left
    items, calls, error = und.llm_extract(tools.llm, text, asked, max_calls=LLM_CALLS_PER_TURN, deadline=deadline)
    if time_left is not None:
        time_left = max(0.0, time_left - (time.monotonic() - start))
    lv, le, llm_dropped = und.pick(items, text)
    values, evidence, conflicts = und.merge((values, evidence), (lv, le))
    notes = [f"LLM extractor gave up: {error}"] if error else []
    return values, evidence, dropped + [f"LLM {d}" for d in llm_dropped] + conflicts + notes, calls, time_left


def _unplaced(ext: Any) -> list[dict[str, str]]:
    return [{"text": u.text, "kind": u.kind} for u in getattr(ext, "not_understood", None) or []]


def _unknown_devices(text: str, profile: Profile) -> tuple[Profile, list[dict[str, Any]]]:
    """Device words no catalog entry took ("Quadro M6000"), with the closest entries; their stated
    memory becomes the profile's, so the fit arithmetic still runs while the device is unknown."""
    if profile.hardware is not None:
        return profile, []
    from rules.hardware_index import unrecognised
    found = unrecognised(text)
    for u in found:
        if u.memory_gb and profile.memory_gb is None:
            try:
                profile = profile.with_value("memory_gb", u.memory_gb, evidence=u.memory_text)
            except AdvisorError:
                pass
    return profile, [{"text": u.text, "suggestions": list(u.suggestions)} for u in found]


def _still_not_understood(state: AgentState, profile: Profile, new: list[dict[str, str]]) -> list[dict[str, str]]:
    """What stays not understood after an answer: device words are settled once the answer places the
    hardware ("an RTX A6000" after "Quadro M6000"), and the answer's own unplaced words are added."""
    before = list(state.get("not_understood") or [])
    if profile.hardware and not (state.get("profile") or {}).get("hardware"):
        before = [u for u in before if u["kind"] != "device"]
    return [*before, *new]


def understand(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Read the new message: intent, language and profile values (every value with evidence).

    In a thread that already has a profile, the message either starts a new one (a new situation)
    or amends the previous one; the result says which (`profile_change`)."""
    text = state["text"]
    ext = tools.extract(text)
    values, evidence, dropped, calls, time_left = _read(tools, text, ext, None, _llm_time(tools))
    previous = state.get("profile") or {}
    kind = und.profile_change(previous, values, text)
    base = {} if kind == "new" else previous
    data = base | {"language": getattr(ext, "language", None) or "en"}
    profile, rejected = und.apply(build_profile(data), values, evidence)
    for field, answer in (state.get("given") or {}).items():   # a fact filed under its field beats a passing mention
        values_given, evidence_given = und.extraction_parts(tools.extract_answer(answer, [field]))
        profile, more = und.apply(profile, und.without_vaguer_device(profile, field, values_given, answer), evidence_given)
        rejected += more
    profile, unknown = _unknown_devices(text, profile)
    from agent.cost_volume import with_volume_load
    profile = with_volume_load("\n".join([text, *(state.get("given") or {}).values()]), profile)   # a token volume states the load
    now = profile.model_dump(mode="json")
    change = None
    if kind == "new":
        change = {"kind": "new", "fields": [f for f in now if f in values]}
    elif kind == "amended":
        fields = und.changed(previous, now)
        change = {"kind": "amended", "fields": fields, "values": {f: now.get(f) for f in fields}}
    return {
        "intent": getattr(ext, "intent", None) or "recommend", "language": profile.language,
        "injection": bool(getattr(ext, "injection", False)), "profile": now,
        "transcript": [text], "questions": [], "asked": [], "assumptions": [], "dropped": dropped + rejected,
        "interview_done": False, "pending": None, "llm_calls": calls, "llm_time_left": time_left, "draft": None,
        "advice": None, "tool_notes": [],
        "not_understood": _unplaced(ext), "topics": list(getattr(ext, "topics", None) or []), "profile_change": change,
        "unknown_devices": unknown,
    }


def _assume(tools: Tools, profile: Profile, fields: list[str]) -> tuple[Profile, list[str]]:
    """Documented defaults for asked fields the answer left open (marked assumed)."""
    notes = []
    for field in fields:
        if getattr(profile, field) is not None:
            continue
        default = tools.default_for(field, profile)
        if default is None:
            continue
        value, note, *twin = default      # (value, note[, note in zh-Hant])
        try:
            profile = profile.with_value(field, value, assumed=True, note=note, note_zh=twin[0] if twin else None)
        except AdvisorError:
            continue
        notes.append(f"{field} = {value}" + (f": {note}" if note else " (default)"))
    return profile, notes


def _interrupt(payload: dict) -> Any:
    from langgraph.types import interrupt
    return interrupt(payload)


def interview(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Choose the next question (up to three fields that matter), or end the interview. `listen`
    asks it: the choice probes the rule engine, and is kept in the state so the resumed turn does
    not make it again."""
    profile = _profile(state)
    questions = list(state.get("questions") or [])
    fields = policy.next_round(profile, state.get("intent", "recommend"), list(state.get("asked") or []),
                               len(questions), tools.decide, tools.outcome())
    if not fields:
        return {"interview_done": True, "pending": None}
    lang = state.get("language", "en")
    unknown = state.get("unknown_devices") or [] if "hardware" in fields else []
    # the first question also quotes device and model words that were not understood (devices only
    # when the device question does not already name them with the closest catalog devices); numbers
    # are said once, at the end of the answer
    unplaced = [u for u in state.get("not_understood") or []
                if u["kind"] != "number" and not (unknown and u["kind"] == "device")]
    first = [] if questions else [und.unplaced_note(unplaced, lang)]
    payload = {"question": " ".join(filter(None, [*first, policy.phrase(fields, lang, unknown, profile=profile)])),
               "fields": fields}
    if unknown:   # quick replies: the closest catalog devices to the words we did not know
        payload["options"] = policy.device_options(unknown)
    return {"pending": payload}


def listen(state: AgentState, tools: Tools, pause: Callable[[dict], Any] = _interrupt) -> dict[str, Any]:
    """Ask the pending question (pauses), then read the answer into the profile."""
    payload = state["pending"]
    answer = str(pause(payload) or "").strip()
    # --- resumed: a new user turn starts here ---
    fields, profile = list(payload["fields"]), _profile(state)
    asked, questions = list(state.get("asked") or []), list(state.get("questions") or [])
    ext = tools.extract_answer(answer, fields)
    values, evidence, dropped, calls, time_left = _read(tools, answer, ext, fields, _llm_time(tools)) if answer \
        else ({}, {}, [], 0, _llm_time(tools))
    profile, rejected = und.apply(profile, values, evidence)
    profile, still_unknown = _unknown_devices(answer, profile) if answer else (profile, [])
    from agent.cost_volume import with_volume_load
    loaded = with_volume_load(answer, profile)   # a volume in this answer sets the load a default stood in for
    earlier = list(state.get("assumptions") or [])
    if loaded.concurrency != profile.concurrency:
        earlier = [a for a in earlier if not a.startswith("concurrency = ")]
    profile = loaded
    profile, assumed = _assume(tools, profile, fields)
    return {
        "profile": profile.model_dump(mode="json"), "questions": [*questions, payload],
        "asked": [*asked, *fields], "transcript": [*(state.get("transcript") or []), answer],
        "assumptions": [*earlier, *assumed],
        "dropped": [*(state.get("dropped") or []), *dropped, *rejected], "llm_calls": calls,
        "llm_time_left": time_left, "not_understood": _still_not_understood(state, profile, _unplaced(ext)),
        "unknown_devices": [] if profile.hardware else [*(state.get("unknown_devices") or []), *still_unknown],
        "pending": None,
    }


def decide(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Run the rule engine on the profile."""
    from rules.defaults import runnable_quantization
    try:
        profile = given = _profile(state)
        if profile.os is None and profile.hardware:   # "on Windows with an RTX 4060 Ti": engines native there
            from agent.topic_lead import stated_os
            said = stated_os(" ".join(state.get("transcript") or [state.get("text") or ""]))
            profile = profile.with_value("os", said, evidence="Windows") if said else profile
        stepped = runnable_quantization(profile)   # a format nothing here reads: the same weights in one that runs
        out = {"decision": as_dict(_asked_first(tools.decide(stepped), state))}
        if stepped is not given:   # the estimate and the plan read the same format and OS
            out["profile"] = stepped.model_dump(mode="json")
        return out
    except AdvisorError as exc:
        return {"decision": None, "tool_notes": [*(state.get("tool_notes") or []), exc.message(state.get("language"))]}


def _asked_first(decision: Any, state: AgentState) -> Any:
    """The engine the question is about leads, when the rules recommend it (rules.asked)."""
    from rules.asked import asked_first
    from rules.decision import Decision
    from agent.topic_lead import abandoning, leaving, many_at_once, named_engines
    if not isinstance(decision, Decision):   # a test's fake rule engine
        return decision
    text = state.get("text") or ""
    facts = decision.facts or {}
    return asked_first(decision, list(state.get("topics") or []), named_engines(text, limit=None), leaving(text),
                       facts.get("setup") or "", facts.get("setup_zh") or "", abandoning(text), many_at_once(text))


def estimate(state: AgentState, tools: Tools) -> dict[str, Any]:
    """The deployment plan and its roofline estimate, when hardware and model are known (for a
    sizing question: ranked hardware options instead)."""
    return {"workable": [], **_estimate(state, tools)}   # every turn replaces the last turn's options


def _estimate(state: AgentState, tools: Tools) -> dict[str, Any]:
    profile = _profile(state)
    if state.get("intent") == "size" and tools.size is not None:
        return _size(state, tools, profile)
    if profile.hardware is None or (profile.model is None and profile.params_b is None):
        return {"estimate": None, "plan": None, "options": []}
    decision = state.get("decision") or {}
    try:
        from agent.slo_check import state_slo
        slo = state_slo(state)   # the user's own latency targets size the capacity, when stated
        found = (tools.plan(profile, decision, **({"slo": slo} if slo else {}))) if tools.plan is not None else None
        if found is not None:   # the plan is computed once; every surface reads this one
            plan, est, options = found
            from agent.workable import workable_options
            workable = [w.model_dump(mode="json") for w in workable_options(tools, profile, est)]
            return {"estimate": as_dict(est), "workable": workable,
                    "plan": as_dict(plan),
                    "options": [{"engine": e, "estimate": _without_formulas(o)} for e, o in options]}
        layout = decision.get("parallelism") if profile.device_count > 1 else None
        est = as_dict(tools.estimate(profile, engine=decision.get("primary"), parallelism=layout))
    except AdvisorError as exc:
        return {"estimate": None, "plan": None, "options": [],
                "tool_notes": [*(state.get("tool_notes") or []), exc.message(state.get("language"))]}
    return {"estimate": est, "plan": None, "options": _alternatives(tools, profile, decision, layout)}


def _without_formulas(est: Any) -> dict[str, Any]:
    """An alternative engine's estimate for the alternatives table: the primary's carries the
    arithmetic. Read back typed by `build_advice` in the same turn (a copy: the planner's is cached)."""
    from rules import memo
    return memo.dumped(est.model_dump(mode="json") | {"formulas": []}, est.model_copy(update={"formulas": []}))


def _alternatives(tools: Tools, profile: Profile, decision: dict[str, Any], layout: Any) -> list[dict[str, Any]]:
    """The alternative engines at the same layout (the alternatives table); their formulas are left
    out, the primary's estimate carries the arithmetic."""
    out = []
    for engine in decision.get("alternatives") or []:
        try:
            est = as_dict(tools.estimate(profile, engine=engine, parallelism=layout))
        except AdvisorError:
            continue
        if est:
            out.append({"engine": engine, "estimate": est | {"formulas": []}})
    return out


def _size(state: AgentState, tools: Tools, profile: Profile) -> dict[str, Any]:
    """Hardware options for the model and load (the interview made sure both are known, or said so)."""
    text = " ".join(state.get("transcript") or [state.get("text") or ""])
    try:
        sizing = tools.size(profile, text)
        out = {"sizing": sizing, "estimate": None, "plan": None, "options": []}
        # The engine follows from the hardware: judge it on the option that leads, not on the
        # "hardware unknown" fallback the rules give before any device is named.
        top = ((as_dict(sizing) or {}).get("options") or [None])[0]
        if top and top.get("hardware"):
            chosen = profile.model_copy(update={"hardware": top["hardware"], "count": top.get("count") or 1,
                                                "nodes": top.get("nodes") or 1})
            out["decision"] = as_dict(tools.decide(chosen))
        return out
    except AdvisorError as exc:
        return {"sizing": None, "estimate": None, "plan": None, "options": [],
                "tool_notes": [*(state.get("tool_notes") or []), exc.message(state.get("language"))]}


def plan(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Benchmark spec for the shortlisted engines."""
    try:
        spec = as_dict(tools.build_spec(_profile(state), state.get("decision"), state.get("estimate"),
                                        plan=state.get("plan")))
    except AdvisorError as exc:
        return {"benchmark": None, "tool_notes": [*(state.get("tool_notes") or []), exc.message(state.get("language"))]}
    return {"benchmark": spec}   # the BenchSpec dump (the Advice types it; `ask --json` adds `concurrency`)


def _citation(hit: Any) -> dict[str, str]:
    if isinstance(hit, dict):
        h = hit.get
    else:   # a Hit: read the four fields, no deep copy of the whole record
        h = lambda key: getattr(hit, key, None)  # noqa: E731
    return {"id": h("id"), "title": h("title") or "", "source": h("source") or "", "text": h("text") or ""}


def rule_chunk_ids(decision: dict[str, Any]) -> list[str]:
    """Chunk ids behind the decision, most telling first: rules that favoured the primary, then the
    bottleneck's and the parallelism plan's rules, then every other fired rule."""
    trace, primary = decision.get("trace") or [], decision.get("primary")
    key_rules = {*(decision.get("bottleneck_rules") or []), (decision.get("parallelism") or {}).get("rule")}
    first = [t for t in trace if ((t.get("effects") or {}).get("score") or {}).get(primary, 0) > 0]
    second = [t for t in trace if t.get("rule") in key_rules]
    ids = [c for t in first + second for c in t.get("citations") or []]
    return list(dict.fromkeys(ids + list(decision.get("citations") or [])))


def _plan_query(state: AgentState) -> str:
    """What the benchmark plan rests on, as a search query (metrics and the iron rules)."""
    metrics = (state.get("benchmark") or {}).get("metrics") or []
    return "benchmark checklist real concurrency " + " ".join(str(m) for m in metrics[:8])


def retrieve(state: AgentState, tools: Tools) -> dict[str, Any]:
    """The chunks behind the fired rules, plus the best matches for the user's question (and plan)."""
    ranked = rule_chunk_ids(state.get("decision") or {})
    found = [_citation(h) for h in tools.get_chunks(ranked[:MAX_RULE_CHUNKS])] if ranked else []
    queries = [state.get("text") or ""]
    if state.get("intent") == "benchmark":
        queries.append(_plan_query(state))
    explain = state.get("intent") == "explain"
    hits = [_citation(h) for q in queries if q.strip() for h in tools.search(q, k=EXPLAIN_K if explain else SEARCH_K)]
    if explain:
        from agent.compose import chunk_lang
        lang = (state.get("profile") or {}).get("language") or state.get("language") or "en"
        mine = [c for c in hits if chunk_lang(c.get("text") or "") == lang][:SEARCH_K]
        hits = mine + [c for c in hits if c not in mine][:SEARCH_K]   # best in the user's language, then the best
        ordered = hits + found
    else:   # the strongest rule chunks, then the question's matches, then the remaining rule chunks
        ordered = found[:KEY_RULE_CHUNKS] + hits + found[KEY_RULE_CHUNKS:]
    seen: dict[str, dict] = {}
    for c in ordered:
        seen.setdefault(c["id"], c)
    return {"citations": list(seen.values())[:MAX_CITATIONS]}


def compose(state: AgentState, tools: Tools) -> dict[str, Any]:
    """The Advice with the template answer always; LLM prose too (a draft for `verify`) when a model
    is configured and budget is left."""
    from agent.compose import template_answer
    from agent.result import build_advice, llm_view
    advice = build_advice(state)
    template = template_answer(advice)
    calls = state.get("llm_calls") or 0

    def done(composer: str = "template", draft: str | None = None, llm_calls: int = calls,
             note: str = "") -> dict[str, Any]:
        final = advice.model_copy(update={"answer": note + template, "composer": composer, "llm_calls": llm_calls})
        return {"template": template, "draft": draft, "composer": composer, "llm_calls": llm_calls,
                "advice": final.dump()}

    if tools.llm is None:
        return done()
    from agent.llm import DeadlineExceeded, deadline_budget
    left = state.get("llm_time_left")
    left = deadline_budget() if left is None else left   # a profile run has no understand step
    skipped = SKIPPED["zh" if advice.language == "zh" else "en"].format(s=f"{deadline_budget():g}")
    deadline = time.time() + left
    if left <= 0.05:
        return done("template (LLM skipped: the turn's LLM time was spent)", note=skipped)
    if calls >= LLM_CALLS_PER_TURN:
        return done("template (LLM call budget of this turn spent on extraction)")
    from agent.names import display
    from agent.prompts import COMPOSE_SYSTEM, COMPOSE_USER, LANGUAGE_NAMES
    facts_json, sources = llm_view(advice)
    d = advice.decision
    from agent.result import grounding
    engines = sorted({d.primary, *d.alternatives, *(a.engine for a in d.avoid), *grounding(advice)["mentioned"]} - {None})
    system = COMPOSE_SYSTEM.format(language=LANGUAGE_NAMES[advice.language], max_words=250,
                                   engines=", ".join(display(e) for e in engines) or "none")
    user = COMPOSE_USER.format(intent=advice.intent, facts=facts_json, sources=sources)
    try:
        draft = tools.llm.prose(system, user, deadline=deadline)
    except DeadlineExceeded:
        return done("template (LLM skipped: no reply within the turn's LLM time)", llm_calls=calls + 1, note=skipped)
    except Exception as exc:  # provider down or refusing: the template stands
        return done(f"template (LLM composer failed: {type(exc).__name__})", llm_calls=calls + 1)
    return done(draft=draft, llm_calls=calls + 1)


def verify(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Keep LLM prose only if every engine, citation and number in it is backed by the tools
    (without a draft, the Advice compose stored already holds the template answer)."""
    draft = (state.get("draft") or "").strip()
    if not draft:
        return {}
    from agent.advice import Advice
    from agent.compose import sources_block, understanding_lines, unplaced_lines
    from agent.result import allowed_numbers, grounding, llm_view
    from agent.verify import problems
    advice = Advice.load(state["advice"])
    issues = problems(draft, grounding(advice), allowed_numbers(*llm_view(advice)))
    if issues:
        composer, answer = f"template (verify failed: {'; '.join(issues)})", advice.answer
    else:
        composer, answer = "llm", "\n".join([*understanding_lines(advice), draft, *unplaced_lines(advice, draft),
                                             *sources_block(advice)]) + "\n"
    return {"advice": advice.model_copy(update={"answer": answer, "composer": composer}).dump(), "composer": composer}
