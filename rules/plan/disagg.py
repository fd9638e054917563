"""Prefill/decode disaggregation: size separate prefill and decode pools by matching their rates.

The approach follows NVIDIA AIConfigurator's (in our own formulation): a prefill worker is rated by
the prompts per second it can take while its queueing still meets the TTFT target; a decode worker
by the requests per second it finishes at the largest batch whose step time meets the TPOT target.
The split of the devices into x prefill and y decode workers is the one that maximises
min(x * prefill rate, y * decode rate). All figures come from `rules.roofline.estimate`.
KV-cache transfer between the pools is not modelled (it needs a fast fabric; stated in `basis`).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import engines as engine_catalog
from rules.errors import AdvisorError
from rules.plan.candidates import divisors
from rules.plan.legality import model_reason
from rules.plan.request import Request
from rules.plan.schema import Candidate, Disaggregation, Layout
from rules.plan.scoring import run_estimate
from rules.plan.topology import Topology

MIN_DEVICES = 8
"""Below two groups of a typical node there is nothing to split into pools."""
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
RUNNERS = ("dynamo", "sglang", "vllm", "tensorrt-llm")
"""Engines that run separate prefill and decode pools, best-established first (catalog feature
pd_disaggregation; vLLM's is marked experimental, TensorRT-LLM's beta)."""


@dataclass(frozen=True)
class _Worker:
    layout: Layout
    rate: float
    """Requests per second one worker sustains within its target."""
    latency_ms: float
    batch: int = 1


def _queue_limit(t: float, target: float) -> float:
    """Highest utilisation at which an M/D/1 prefill queue keeps t + wait within the target."""
    if t >= target:
        return 0.0
    # t * (1 + rho / (2 (1 - rho))) <= target  ->  rho <= 2 (target - t) / (target + (target - t))
    slack = target - t
    return min(0.95, 2 * slack / (t + 2 * slack))


def _prefill_workers(req: Request, topo: Topology, quant: str, kv: str | None, target_s: float) -> list[_Worker]:
    out = []
    spec = req.spec()
    for tp in divisors(topo.group_limit):
        lay = Layout(tp=tp)
        if model_reason(lay, spec):
            continue
        try:
            est = run_estimate(req, topo, lay, quant, kv, concurrency=1)
        except AdvisorError:
            continue
        if not est.fits or not est.prefill_tokens_per_s:
            continue
        t = est.input_tokens / est.prefill_tokens_per_s
        rho = _queue_limit(t, target_s)
        if rho > 0:
            out.append(_Worker(lay, rho / t, t * 1000))
    return out


def _decode_workers(req: Request, topo: Topology, quant: str, kv: str | None, target_ms: float) -> list[_Worker]:
    out = []
    spec = req.spec()
    for tp in divisors(topo.group_limit):
        lay = Layout(tp=tp)
        if model_reason(lay, spec):
            continue
        best = None
        for b in BATCHES:
            try:
                est = run_estimate(req, topo, lay, quant, kv, concurrency=b)
            except AdvisorError:
                break
            if not est.fits or est.max_concurrency < b:
                break
            s = est.step
            step_ms = max(s.weights_ms + s.kv_ms, s.compute_ms) + s.overhead_ms + s.comm_ms
            if step_ms > target_ms:
                break
            best = _Worker(lay, b / (est.output_tokens * step_ms / 1000), step_ms, b)
        if best:
            out.append(best)
    return out


def _split(p: _Worker, d: _Worker, devices: int) -> tuple[int, int, float]:
    """(prefill workers, decode workers, requests/s) maximising the matched rate on `devices`."""
    gp, gd = p.layout.devices, d.layout.devices
    best = (0, 0, 0.0)
    for x in range(1, devices // gp + 1):
        y = (devices - x * gp) // gd
        if y < 1:
            break
        rate = min(x * p.rate, y * d.rate)
        if rate > best[2]:
            best = (x, y, rate)
    return best


def runners(hw_platform: str, hw) -> list[str]:
    """Engines that run disaggregated pools on this hardware."""
    out = []
    for e in RUNNERS:
        spec = engine_catalog.engine(e)
        if spec.features.pd_disaggregation.value and engine_catalog.supports(e, hw)[0]:
            out.append(e)
    return out


def disaggregate(req: Request, topo: Topology, chosen: Candidate, ttft_ms: float, tpot_ms: float,
                 output_tokens: int) -> Disaggregation | None:
    """The best prefill/decode split of the devices for these targets, or None (too small, no engine)."""
    hw = req.hw()
    run_with = runners(hw.platform, hw)
    if topo.devices < MIN_DEVICES or not run_with:
        return None
    quant, kv = chosen.quantization, chosen.kv_cache_dtype
    prefill = _prefill_workers(req, topo, quant, kv, ttft_ms / 1000)
    decode = _decode_workers(req, topo, quant, kv, tpot_ms)
    best = None
    for p in prefill:
        for d in decode:
            x, y, rate = _split(p, d, topo.devices)
            if rate and (best is None or rate > best[4]):
                best = (p, d, x, y, rate)
    if best is None:
        return None
    p, d, x, y, rate = best
    f = chosen.figures
    agg_meets = (f.ttft_s is not None and f.tpot_ms is not None and f.ttft_s * 1000 <= ttft_ms
                 and f.tpot_ms <= tpot_ms and chosen.rejected is None)
    out_tokens = max(1, output_tokens)
    tokens = rate * out_tokens
    demand = req.load / (ttft_ms / 1000 + out_tokens * tpot_ms / 1000)
    return Disaggregation(
        prefill_workers=x, prefill_layout=p.layout, decode_workers=y, decode_layout=d.layout, decode_batch=d.batch,
        devices=x * p.layout.devices + y * d.layout.devices, ttft_s=round(p.latency_ms / 1000, 4),
        tpot_ms=round(d.latency_ms, 3), requests_per_s=round(rate, 3), tokens_per_s=round(tokens, 1),
        ttft_target_ms=ttft_ms, tpot_target_ms=tpot_ms, aggregated_meets_targets=agg_meets,
        demand_requests_per_s=round(demand, 3), serves_load=rate >= demand, recommended=not agg_meets,
        run_with=run_with,
        basis=(f"prefill workers rated at the prompts/s that keep TTFT within {ttft_ms:g} ms (queueing included), "
               f"decode workers at the largest batch whose step stays within {tpot_ms:g} ms; the devices are split "
               "to match the two rates (as NVIDIA AIConfigurator does). KV-cache transfer between the pools is not "
               f"modelled. The load needs about {demand:.2f} requests/s at those targets."))
