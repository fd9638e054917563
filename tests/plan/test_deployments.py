"""The planner over 34 deployments (1-288 devices; NVLink, PCIe, multi-node; dense and MoE;
1-1,000 requests in flight): always feasible, never more than 20 % behind the best layout an
exhaustive search finds with the same estimator, and its estimate is the one of its own layout."""
from __future__ import annotations

import pytest
from planhelp import MARGIN, deployments, planned, reference, shortfall

from rules.roofline import estimate

CASES = deployments()
HELD_OUT = deployments("deployments_heldout.yaml")


def test_the_set_covers_what_the_issue_asks():
    """1-288 devices, several links, dense and MoE, 1-1,000 requests in flight, at least 30 cases."""
    from rules import catalog
    devices = [(c.get("count") or 1) * (c.get("nodes") or 1) for c in CASES]
    loads = [c.get("concurrency") or 1 for c in CASES]
    archs = {catalog.model(c["model"]).architecture for c in CASES}
    assert len(CASES) >= 30
    assert min(devices) == 1 and max(devices) == 288
    assert min(loads) == 1 and max(loads) == 1000
    assert archs >= {"dense", "moe"}
    assert any((c.get("nodes") or 1) > 1 for c in CASES)
    links = {catalog.hardware(c["hardware"]).interconnect for c in CASES}
    assert {"nvlink", "pcie", "infinity-fabric"} <= links


@pytest.mark.parametrize("entry", CASES, ids=[c["id"] for c in CASES])
def test_chosen_plan_is_feasible_and_near_the_best(entry):
    req, plan, _ = planned(entry)
    assert plan.feasible, f"{entry['id']}: {plan.chosen.rejected}"
    # with the prompt length stated, a paged engine's sequences hold their own tokens, not the whole window
    fig = plan.chosen.figures
    assert (fig.in_service if req.prompt_stated else fig.max_concurrency) >= plan.load
    feasible = reference(req, plan)
    best = max(feasible, key=lambda c: shortfall(plan, c))
    gap = shortfall(plan, best)
    assert gap <= MARGIN, (f"{entry['id']}: {best.layout.describe()} beats the chosen "
                           f"{plan.chosen.layout.describe()} by {gap:.0%} on {plan.objective}")


@pytest.mark.parametrize("entry", CASES[:8], ids=[c["id"] for c in CASES[:8]])
def test_plan_estimate_is_the_estimate_of_its_layout(entry):
    """The figures carried with the plan are the roofline's for the chosen layout, not another one."""
    from rules.plan.scoring import link_for
    from rules.plan.search import _topology
    req, plan, est = planned(entry)
    lay = plan.chosen.layout
    again = estimate(req.spec(), req.hardware, count=req.per_node, nodes=req.nodes, quant=plan.chosen.quantization,
                     engine=req.engine, parallelism=lay.parallelism(), input_tokens=req.input_tokens,
                     output_tokens=req.output_tokens, context_length=req.context_length, concurrency=req.load,
                     kv_cache_dtype=plan.chosen.kv_cache_dtype, memory_gb=req.memory_gb,
                     interconnect=link_for(lay, _topology(req), req), window_filled=not req.prompt_stated)
    assert est.parallelism == lay.parallelism()
    assert (est.ttft_s, est.tpot_ms) == (plan.chosen.figures.ttft_s, plan.chosen.figures.tpot_ms)
    assert (again.ttft_s, again.tpot_ms, again.max_concurrency) == (est.ttft_s, est.tpot_ms, est.max_concurrency)


@pytest.mark.parametrize("entry", HELD_OUT, ids=[c["id"] for c in HELD_OUT])
def test_held_out_plan_is_feasible_whenever_a_layout_is(entry):
    """The held-out set: where the exhaustive search finds a feasible layout at the plan's precision,
    the plan is feasible and within 20 % of the best; where none exists (more requests in flight
    than any layout holds at the stated precision), the plan fits, says how much of the load it
    holds, and no layout at its precision holds more."""
    req, plan, _ = planned(entry)
    feasible = reference(req, plan)
    if feasible:
        assert plan.feasible, f"{entry['id']}: {plan.chosen.rejected}"
        gap = max(shortfall(plan, c) for c in feasible)
        assert gap <= MARGIN, f"{entry['id']}: {plan.chosen.layout.describe()} is {gap:.0%} behind"
        return
    assert not plan.feasible and plan.chosen.figures.fits
    assert any(str(plan.chosen.figures.max_concurrency) in line for line in plan.why["en"])
    from rules.plan.search import _topology, legal_layouts
    from rules.plan.scoring import score
    held = [score(req, _topology(req), lay, plan.chosen.tier, plan.chosen.quantization, plan.chosen.kv_cache_dtype)[0]
            for lay in legal_layouts(req, _topology(req), plan.chosen.quantization)]
    assert max(c.figures.max_concurrency for c in held if c.figures.fits) <= plan.chosen.figures.max_concurrency * 1.2
