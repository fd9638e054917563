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
from rules.plan.search import plan
from rules.profile import Profile


def plan_for_profile(profile: Profile, decision: Any = None, facts: dict | None = None):
    """(Plan, Estimate of the chosen layout) for a profile, or None when hardware or model is unknown."""
    req = request_from_profile(profile, decision, facts)
    if req is None:
        return None
    found, est = plan(req)
    spec = req.spec()
    if est is not None and spec.assumptions:   # a model described by its size: say what was assumed
        est.assumptions.extend(spec.assumptions)
    return found, est


__all__ = ["Candidate", "Disaggregation", "Figures", "Layout", "Plan", "Request", "Scale", "SizingOption",
           "objective_for", "plan", "plan_for_profile", "request_from_profile"]
