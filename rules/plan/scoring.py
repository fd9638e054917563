"""Score one layout with the roofline at the user's load: fit, capacity, TTFT, TPOT, throughput, cost.

Calls `rules.roofline.estimate` (its public function) once per candidate; a candidate is feasible
when it fits and holds every request in flight at the planned context.
"""
from __future__ import annotations

from dataclasses import replace

from rules.quant import concrete

from rules.errors import AdvisorError
from rules.plan.legality import spans_nodes
from rules.plan.request import Request
from rules.plan.schema import Candidate, Figures, Layout
from rules.plan.topology import Topology
from rules.roofline import Estimate, estimate


def link_for(layout: Layout, topo: Topology, req: Request) -> str | None:
    """The link the estimator should charge collectives to.

    Inside a node the node's link carries TP/EP traffic; a pure pipeline across nodes talks over
    the network. Macs keep the estimator's own model of their Thunderbolt/Ethernet link."""
    if req.hw().hw_class == "apple":
        return None
    if spans_nodes(layout, topo) and topo.network and (layout.tp * layout.ep == 1 or
                                                       layout.tp * layout.ep > topo.per_node):
        return topo.network   # a pipeline across nodes, or an expert group wider than a node
    return topo.link if topo.link not in (None, "none", "unified") else None


def run_estimate(req: Request, topo: Topology, layout: Layout, quant: str, kv: str | None,
                 concurrency: int | None = None, input_tokens: int | None = None) -> Estimate:
    """The roofline estimate of this layout (AdvisorError when the estimator refuses).

    A bare width ("int4") is sized as the engine's own format (Q4_K_M on llama.cpp, AWQ on vLLM),
    as the rule engine's fit check sizes it."""
    hw = req.hw()
    quant = concrete(quant, req.engine, hw.platform, hw.cuda_cc)
    inp = input_tokens or req.input_tokens
    if inp and req.cached_prefix:   # the shared prefix comes from the prefix cache: prefill the rest only
        inp = max(1, inp - req.cached_prefix)
    return estimate(req.spec(), req.hardware, count=req.per_node, nodes=req.nodes, quant=quant, engine=req.engine,
                    parallelism=layout.parallelism(), input_tokens=inp,
                    output_tokens=req.output_tokens, context_length=req.context_length,
                    concurrency=concurrency or req.load, kv_cache_dtype=kv, price_per_hour=req.price,
                    memory_gb=req.memory_gb, interconnect=link_for(layout, topo, req),
                    attention_dp=layout.attention_dp, window_filled=not req.prompt_stated,
                    host_ram=req.host_ram, shared_prefix_tokens=req.cached_prefix)


def figures_of(est: Estimate, devices: int) -> Figures:
    """The planner's figures from an estimate; per-device and cost figures count every device owned."""
    # no prefill figure (CPUs without a compute peak): rank by the answer's decode time alone
    lat = (est.ttft_s or 0.0) + est.output_tokens * est.tpot_ms / 1000 if est.tpot_ms else None
    agg = est.aggregate_tokens_per_s
    per_dev = agg / devices if agg else None
    cost = (devices * est.price_usd_per_hour / (agg * 3600) * 1e6) if agg and est.price_usd_per_hour else None
    return Figures(fits=est.fits, max_concurrency=est.max_concurrency, ttft_s=est.ttft_s, tpot_ms=est.tpot_ms,
                   latency_s=round(lat, 4) if lat is not None else None, tokens_per_s=agg,
                   tokens_per_s_per_device=round(per_dev, 2) if per_dev else None,
                   cost_per_1m_tokens=round(cost, 4) if cost else None, binding_constraint=est.binding_constraint,
                   offload_flag=_offload_flag(est), in_service=est.in_service)


def _offload_flag(est: Estimate) -> str | None:
    o = est.offload
    if o is None:
        return None
    return f"-ngl 999 --n-cpu-moe {o.n_cpu_moe}" if o.n_cpu_moe is not None else f"-ngl {o.ngl}"


def rejection(fig: Figures, load: int) -> str | None:
    """Why this candidate cannot serve the load, or None."""
    if not fig.fits:
        return f"does not fit: {fig.binding_constraint}"
    # the window must hold one whole request; the load is held when the engine keeps that many in flight with
    # the KV blocks requests actually use (paged engines allocate as tokens arrive: in_service), not only
    # when every request could grow to the full window at once (max_concurrency)
    if fig.max_concurrency < load and (fig.max_concurrency < 1 or (fig.in_service or 0) < load):
        return f"holds only {max(fig.max_concurrency, fig.in_service or 0)} of {load} requests in flight at this context"
    return None


def score(req: Request, topo: Topology, layout: Layout, tier: int, quant: str,
          kv: str | None) -> tuple[Candidate, Estimate | None]:
    """A scored candidate and the estimate behind it (None when the estimator refused)."""
    try:
        est = run_estimate(req, topo, layout, quant, kv)
    except AdvisorError as exc:
        fig = Figures(fits=False, max_concurrency=0, ttft_s=None, tpot_ms=None, latency_s=None, tokens_per_s=None,
                      tokens_per_s_per_device=None, cost_per_1m_tokens=None, binding_constraint=str(exc))
        return Candidate(engine=req.engine, layout=layout, quantization=quant, kv_cache_dtype=kv, tier=tier,
                         figures=fig, rejected=f"not estimated: {exc}"), None
    load = req.load
    if req.fill and est.fits:
        est, load = _filled(req, topo, layout, quant, kv, est)
    fig = figures_of(est, topo.devices)
    return Candidate(engine=req.engine, layout=layout, quantization=quant, kv_cache_dtype=kv, tier=tier,
                     figures=fig, rejected=rejection(fig, min(load, fig.max_concurrency) if req.fill else load)), est


def _filled(req: Request, topo: Topology, layout: Layout, quant: str, kv: str | None, est: Estimate) -> tuple[Estimate, int]:
    """(estimate, load) of a queued offline job: as many sequences as the engine keeps in flight.

    Requests hold the KV blocks of their own prompt and answer, not the whole window, so the job is
    probed at the window's capacity times how many requests one window's memory serves; what the
    engine then keeps in flight (its memory and scheduler limit) is the batch the layout runs."""
    per_request = max(1, est.input_tokens + est.output_tokens)
    probe_load = max(req.load, est.max_concurrency * max(1, -(-est.context_length // per_request)))
    # the window must hold one request (checked by `est`); the batch is sized by the requests' own lengths
    short = replace(req, context_length=None, input_tokens=est.input_tokens, output_tokens=est.output_tokens)
    try:
        probe = run_estimate(short, topo, layout, quant, kv, concurrency=probe_load)
        load = max(req.load, probe.in_service)
        est = probe if load == probe_load else run_estimate(short, topo, layout, quant, kv, concurrency=load)
        target = req.tpot_target_ms
        if target and est.tpot_ms and est.tpot_ms > target:   # the user's own per-token target caps the batch
            return _within_tpot(short, topo, layout, quant, kv, est, load, target)
        return est, load
    except AdvisorError:
        return est, req.load


def _within_tpot(req: Request, topo: Topology, layout: Layout, quant: str, kv: str | None, est: Estimate, load: int,
                 target_ms: float) -> tuple[Estimate, int]:
    """The largest batch whose time per output token meets the user's target (r6-en-07: 458 in flight at 56 ms
    against a stated 30 ms); one request when even that misses it (the estimate then says so)."""
    lo, hi, best = 1, load, None
    while lo <= hi:
        mid = (lo + hi) // 2
        e = run_estimate(req, topo, layout, quant, kv, concurrency=mid)
        if e.tpot_ms is not None and e.tpot_ms <= target_ms:
            lo, best = mid + 1, (e, mid)
        else:
            hi = mid - 1
    return best or (run_estimate(req, topo, layout, quant, kv, concurrency=1), 1)
