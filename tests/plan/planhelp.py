"""Helpers for the planner tests: deployments from YAML, and an exhaustive reference search.

The reference enumerates every (TP, PP, EP, DP) combination a deployment allows, independently of
the planner's own candidate generator, keeps what the legality rules allow, and scores each with
the same roofline call the planner makes. The planner's choice is then judged against it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules.decide import decide
from rules.plan import Layout, plan_for_profile, request_from_profile
from rules.plan import legality, ranking
from rules.plan.scoring import score
from rules.plan.search import MOE_DP_ATTENTION_ENGINES, _replicas_meet_targets, _topology, copy_has_room, modes_of
from rules.profile import build_profile

HERE = Path(__file__).parent
MARGIN = 0.20


def deployments(name: str = "deployments.yaml") -> list[dict[str, Any]]:
    """The deployments of a YAML file in this folder."""
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))["deployments"]


def profile_of(entry: dict[str, Any]):
    """The profile of a deployment entry (id and note dropped)."""
    data = {k: v for k, v in entry.items() if k not in ("id", "note")}
    return build_profile(data)


def planned(entry: dict[str, Any]):
    """(request, plan, estimate) for a deployment, with the rule engine's decision."""
    profile = profile_of(entry)
    decision = decide(profile)
    req = request_from_profile(profile, decision)
    plan, est = plan_for_profile(profile, decision)
    return req, plan, est


def every_layout(devices: int, layers: int, moe: bool, attention_dp: bool = False) -> list[Layout]:
    """All (tp, pp, ep, dp) with tp*pp*ep dividing into the devices (dp as large as it goes); with
    `attention_dp`, every single-stage TP/EP group of a MoE model also with attention data-parallel."""
    out = []
    for group in range(1, devices + 1):
        for kind in ("tp", "ep") if moe else ("tp",):
            if kind == "ep" and group == 1:
                continue
            for pp in range(1, min(layers, devices // group) + 1):
                replica = group * pp
                tp, ep = (group, 1) if kind == "tp" else (1, group)
                out.append(Layout(tp=tp, pp=pp, ep=ep, dp=devices // replica))
                if attention_dp and moe and group > 1 and pp == 1:
                    out.append(Layout(tp=tp, pp=pp, ep=ep, dp=devices // replica, attention_dp=True))
    return out


def reference(req, plan) -> list:
    """Every legal layout scored at the chosen plan's precision; feasible ones only."""
    spec = req.spec()
    topo = _topology(req)
    modes, multi = modes_of(req.engine)
    out = []
    adp = req.engine in MOE_DP_ATTENTION_ENGINES
    for lay in every_layout(topo.devices, spec.layers, spec.architecture == "moe", adp):
        if (legality.model_reason(lay, spec) or legality.wiring_reason(lay, topo)
                or legality.stage_reason(lay, topo, spec) or legality.engine_reason(lay, req.engine, modes, multi, legality.spans_nodes(lay, topo))):
            continue
        if lay.ep > 1 and "ep" not in modes:
            continue
        cand, _ = score(req, topo, lay, plan.chosen.tier, plan.chosen.quantization, plan.chosen.kv_cache_dtype)
        if cand.rejected is None:
            out.append(cand)
    if legality.replicas_first(topo.fast, req.hw().platform, req.priority, out,   # the planner's policy too
                               copy_has_room(req, plan.chosen.quantization), None,
                               topo.fast and _replicas_meet_targets(req, out)):
        out = [c for c in out if c.layout.replica_devices == 1]
    if legality.one_copy_over_sockets(req.hw().platform, out):
        out = [c for c in out if c.layout.dp == 1]
    return out


def shortfall(plan, best) -> float:
    """How much better the reference's best is than the chosen plan on the plan's objective."""
    return ranking.advantage(best, plan.chosen, plan.objective)
