"""`build_spec`: the profile (plus decision and estimate when known) → a `BenchSpec`."""
from __future__ import annotations

from typing import Any

from rules.benchspec import prediction
from rules.benchspec.checklist import build_checklist
from rules.benchspec.criteria import build_criteria
from rules.benchspec.exports import export_all
from rules.benchspec.metrics import METRIC_DEFINITIONS, TPOT_DEFINITION
from rules.benchspec.scenario import build_scenario
from rules.benchspec.slos import slos_for
from rules.benchspec.spec import BenchSpec, Workload
from rules.benchspec.workload import build_workload
from rules.errors import AdvisorError
from rules.ids import METRICS
from rules.profile import Profile


def _decide(profile: Profile, notes: list[str]) -> Any:
    """The rule engine's decision, when that module is present and the profile is enough."""
    try:
        from rules.decide import decide
    except ImportError:
        notes.append("The rule engine is not available: no engine shortlist in the scenario.")
        return None
    try:
        return decide(profile)
    except AdvisorError as exc:
        notes.append(f"No engine shortlist: {exc}")
        return None


def _profile_notes(profile: Profile) -> list[str]:
    """The profile's own assumptions (defaults the interview filled in)."""
    out = []
    for field in profile.assumed:
        prov = profile.provenance[field]
        value = getattr(profile, field)
        out.append(f"{field} = {value} was assumed" + (f": {prov.note}" if prov.note else "."))
    return out


def _plan(profile: Profile, decision: Any, notes: list[str]) -> tuple[dict | None, Any]:
    """The deployment plan and its estimate, when the caller did not bring them."""
    from rules.plan import plan_for_profile
    try:
        found = plan_for_profile(profile, decision)
    except AdvisorError as exc:
        notes.append(f"No deployment plan: {exc}")
        return None, None
    if found is None:
        return None, None
    plan, est = found
    return plan.model_dump(mode="json"), est


def _at_plan_precision(profile: Profile, plan: dict | None) -> Profile:
    """The profile at the precision the plan settled on: when no layout served the load as asked, the
    planner stores the KV cache in 8 bits or (for a format the user left open) lowers the weights, and
    the benchmark measures that deployment, not the one that did not fit."""
    chosen = (plan or {}).get("chosen") or {}
    if not chosen.get("tier"):
        return profile
    for field, value in (("quantization", chosen.get("quantization")), ("kv_cache_dtype", chosen.get("kv_cache_dtype"))):
        if value and value != getattr(profile, field):
            profile = profile.with_value(field, value, assumed=True, note="the deployment plan's precision",
                                         note_zh="部署計畫採用的精度")
    return profile


def _predictions(profile: Profile, workload: Workload, engine: str | None, estimate: Any,
                 notes: list[str], layout: dict | None = None) -> tuple[dict | None, dict | None, dict | None]:
    """Roofline estimates: single stream and peak at the main run's lengths, and at the stated
    context (the caller's `estimate` when given) for the capacity checks, all at the plan's layout."""
    peak = workload.peak_concurrency
    layout = layout or prediction.layout_of(estimate)   # the plan's layout: every prediction at the same one
    planned = prediction.planned_profile(profile, peak, workload.input.mean, workload.output.mean,
                                         workload.input.max + workload.output.max)
    extra = {"layout": layout} if layout else {}
    at_peak = prediction.estimate_at(planned, engine, peak, notes, **extra)
    # a peak of one request is the single stream: the same call, made once (the dicts are only read)
    single = at_peak if peak == 1 else prediction.estimate_at(planned, engine, 1, notes, **extra)
    if estimate is not None:
        return single, at_peak, prediction.as_dict(estimate)
    if planned.context_length == profile.context_length:
        return single, at_peak, at_peak
    stated = prediction.planned_profile(profile, peak, workload.input.mean, workload.output.mean)
    return single, at_peak, prediction.estimate_at(stated, engine, peak, notes, **extra)


def build_spec(profile: Profile, decision: Any = None, estimate: Any = None,
               harness: str = "all", plan: Any = None, exports: bool = True) -> BenchSpec:
    """The benchmark spec for this profile; missing or assumed facts become `assumptions`.

    `plan` (with its `estimate`) is the answer's deployment plan: every prediction is made at its
    layout. Without one the spec asks the planner, which gives the same plan for the same profile.
    `exports=False` leaves the harness scripts to `BenchSpec.with_exports()` (built when shown)."""
    notes = _profile_notes(profile)
    if decision is None:
        decision = _decide(profile, notes)
    planned = prediction.as_dict(estimate)
    if plan is None and estimate is None:
        plan, planned = _plan(profile, decision, notes)
    plan = prediction.as_dict(plan)
    profile = _at_plan_precision(profile, plan)
    scenario = build_scenario(profile, decision, notes)
    workload = build_workload(profile, notes)
    engine = (plan or {}).get("engine") or (scenario.engines[0].id if scenario.engines else None)
    layout = prediction.layout_of(plan)
    single, at_peak, stated = _predictions(profile, workload, engine, estimate, notes, layout)
    slos = slos_for(workload.kind, workload.peak_concurrency, profile.priority, notes)
    spec = BenchSpec(
        scenario=scenario, workload=workload, metrics=list(METRICS),
        metric_definitions=dict(METRIC_DEFINITIONS), tpot_definition=TPOT_DEFINITION, slos=slos,
        criteria=build_criteria(workload, slos, single, at_peak, stated),
        checklist=build_checklist(workload),
        prediction=prediction.summary(single, at_peak, workload.peak_concurrency, prediction.as_dict(planned)),
        plan=plan,
        assumptions=list(dict.fromkeys(notes)),
    )
    return spec.model_copy(update={"exports": export_all(spec, harness)}) if exports else spec
