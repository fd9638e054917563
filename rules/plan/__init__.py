"""The deployment planner: choose the layout by scoring every feasible plan with the roofline.

    plan_for_profile(profile, decision=None) -> (Plan, Estimate) | None     one answer's plan
    plan(Request) -> (Plan, Estimate)                                       a planning question
    size(SizingRequest) -> SizingResult                                     what hardware to buy

Pure: reads the catalogs and calls `rules.roofline.estimate`; no agent, UI or network imports.
"""
from __future__ import annotations

from typing import Any

from rules.plan.request import Request, objective_for, request_from_profile
from rules.plan.schema import Candidate, Disaggregation, Figures, Layout, Plan, Scale, SizingOption
from rules.plan.search import engine_options, plan
from rules.profile import Profile


def plan_for_profile(profile: Profile, decision: Any = None, facts: dict | None = None, slo: dict | None = None):
    """(Plan, Estimate of the chosen layout) for a profile, or None when hardware or model is unknown;
    `slo`: the user's stated latency targets ({ttft_ms, tpot_ms})."""
    req = request_from_profile(profile, decision, facts, slo)
    if req is None:
        return None
    found, est = plan(req)
    spec = req.spec()
    if est is not None and spec.assumptions:   # a model described by its size: say what was assumed
        est = est.model_copy(update={"assumptions": [*est.assumptions, *spec.assumptions]})
    return found, est


def options_for_profile(profile: Profile, decision: Any = None) -> list:
    """[(engine, Estimate)] for the other shortlisted engines at the plan's layout and load."""
    req = request_from_profile(profile, decision)
    return [] if req is None else list(engine_options(req))


def plan_for_setup(model: str | None, hardware: str, count: int = 1, nodes: int = 1, quant: str | None = None,
                   engine: str | None = None, input_tokens: int | None = None, output_tokens: int | None = None,
                   context_length: int | None = None, concurrency: int = 1, kv_cache_dtype: str | None = None,
                   price_per_hour: float | None = None, memory_gb: float | None = None,
                   interconnect: str | None = None, model_config: str | None = None):
    """(Plan, Estimate) for an explicit setup (the estimate command without a layout): the same
    planner call `ask` makes for this profile, with the rules' primary engine unless one is named."""
    from rules import catalog
    from rules.decide import decide
    from rules.profile import build_profile
    data = {"hardware": catalog.hardware(hardware).id, "model": catalog.model(model).id if model else None,
            "model_config": model_config, "count": count,
            "nodes": nodes, "quantization": quant, "input_tokens": input_tokens, "output_tokens": output_tokens,
            "context_length": context_length, "concurrency": concurrency, "kv_cache_dtype": kv_cache_dtype,
            "device_hour_usd": price_per_hour, "memory_gb": memory_gb, "interconnect": interconnect}
    profile = build_profile({k: v for k, v in data.items() if v is not None})
    decision = decide(profile).model_dump(mode="json")
    if engine:
        decision["primary"] = engine
        decision["alternatives"] = [e for e in decision["alternatives"] if e != engine]
    return plan_for_profile(profile, decision)


__all__ = ["Candidate", "Disaggregation", "Figures", "Layout", "Plan", "Request", "Scale", "SizingOption",
           "objective_for", "options_for_profile", "plan", "plan_for_profile", "plan_for_setup", "request_from_profile"]
