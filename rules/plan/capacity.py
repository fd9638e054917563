"""Over capacity: when the load queues beyond what the devices hold, size the replicas it needs.

A queue the devices cannot drain is not a latency to report (an unbounded queue gives any TTFT you
like). Instead one replica of the chosen layout is probed at growing loads with the roofline; the
largest load that still meets the TTFT and TPOT targets is what a replica serves, and the load
divided by it is the number of replicas (and devices) to buy.
"""
from __future__ import annotations

from rules.errors import AdvisorError
from rules.plan.schema import Candidate, Capacity, Layout
from rules.roofline import Estimate

QUEUED_SHARE = 0.95
"""The load counts as queued when the engines keep fewer than this share of it in service."""


def queued(est: Estimate | None, load: int) -> bool:
    """Requests wait for memory: the engines hold fewer of them than are sent."""
    return est is not None and est.fits and load > 1 and est.in_service < QUEUED_SHARE * load


def _meets(est: Estimate, ttft_ms: float, tpot_ms: float, load: int) -> bool:
    return (est.fits and est.in_service >= QUEUED_SHARE * load and est.ttft_s is not None
            and est.ttft_s * 1000 <= ttft_ms and (est.tpot_ms or 0) <= tpot_ms)


def per_replica(probe, ttft_ms: float, tpot_ms: float, upper: int) -> int:
    """Largest load in [1, upper] one replica serves within the targets (`probe(load)` -> Estimate);
    0 when even one request misses them."""
    lo, hi = 0, max(1, upper)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            ok = _meets(probe(mid), ttft_ms, tpot_ms, mid)
        except AdvisorError:
            ok = False
        lo, hi = (mid, hi) if ok else (lo, mid - 1)
    return lo


def size(chosen: Candidate, load: int, probe, ttft_ms: float, tpot_ms: float) -> Capacity | None:
    """Replicas of the chosen layout the load needs (None when one replica cannot meet the targets
    even for one request: more copies would not help, the estimate's own fixes apply)."""
    lay = chosen.layout
    one = Layout(tp=lay.tp, pp=lay.pp, ep=lay.ep, dp=1, attention_dp=lay.attention_dp)
    held = max(1, chosen.figures.max_concurrency // max(1, lay.dp), chosen.figures.in_service // max(1, lay.dp))
    serves = per_replica(lambda n: probe(one, n), ttft_ms, tpot_ms, min(load, 2 * held))
    if serves == 0:
        return None
    needed = -(-load // serves)
    if needed <= lay.dp:
        return None
    return Capacity(per_replica=serves, replicas_have=lay.dp, replicas_needed=needed,
                    devices_needed=needed * one.replica_devices, over_by=round(load / (serves * lay.dp), 1),
                    ttft_target_ms=ttft_ms, tpot_target_ms=tpot_ms)
