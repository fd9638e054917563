"""Rank feasible candidates by the user's priority; the rules keep the last word on close calls.

Latency ranks by the time to a whole answer at the load (TTFT + output x TPOT); throughput and
cost rank by output tokens/s per device owned. The rule engine's parallelism advice (e.g. PP, not
TP, without NVLink) names a layout family: the best candidate of that family is chosen unless
another beats it by CLEAR_WIN or more, and then the answer says to measure both.
"""
from __future__ import annotations

from rules.plan.schema import Candidate, Layout

CLEAR_WIN = 0.15
"""A candidate must beat the rules' family by this share to override it (kept below the 20 % the
planner promises: the chosen plan is never more than that behind the best it scored)."""


def latency(c: Candidate) -> float:
    """Seconds to a whole answer at the load (inf when unknown)."""
    f = c.figures
    return f.latency_s if f.latency_s is not None else float("inf")


def throughput(c: Candidate) -> float:
    """Output tokens/s per device owned (0 when unknown)."""
    return c.figures.tokens_per_s_per_device or 0.0


def advantage(a: Candidate, b: Candidate, objective: str) -> float:
    """How much better `a` is than `b` on the objective (0.25 = 25 % better; negative = worse)."""
    if objective == "throughput":
        return throughput(a) / throughput(b) - 1 if throughput(b) else (float("inf") if throughput(a) else 0.0)
    la, lb = latency(a), latency(b)
    return lb / la - 1 if la not in (0.0, float("inf")) else (0.0 if la == lb else -1.0)


def _key(c: Candidate, objective: str) -> tuple:
    """Best first; on equal figures the simpler layout (fewer devices per replica, fewer stages)."""
    primary = -throughput(c) if objective == "throughput" else latency(c)
    lay = c.layout
    return (round(primary, 9), lay.replica_devices, lay.pp, lay.ep)


def ranked(cands: list[Candidate], objective: str) -> list[Candidate]:
    """Candidates best first."""
    return sorted(cands, key=lambda c: _key(c, objective))


def in_family(layout: Layout, strategy: str | None) -> bool:
    """Whether a layout follows the rules' advice (the split used inside one replica)."""
    if strategy is None:
        return True
    tp, pp, ep = layout.tp > 1, layout.pp > 1, layout.ep > 1
    return {
        "none": not (tp or pp or ep), "dp": not (tp or pp or ep),
        "tp": tp and not pp and not ep, "tp+dp": tp and not pp and not ep,
        "pp": pp and not tp and not ep, "tp+pp": tp and pp and not ep, "ep": ep,
    }.get(strategy, True)


def family(layout: Layout) -> tuple[bool, bool, bool]:
    """Which splits a replica uses (TP, PP, EP): candidates of one family differ only in degrees."""
    return layout.tp > 1, layout.pp > 1, layout.ep > 1


def runner_up(order: list[Candidate], chosen: Candidate) -> Candidate | None:
    """The best candidate of another family (else the next best at all)."""
    other = [c for c in order if family(c.layout) != family(chosen.layout)]
    rest = [c for c in order if c is not chosen]
    return other[0] if other else (rest[0] if rest else None)


def choose(cands: list[Candidate], objective: str, rule_strategy: str | None) -> tuple[Candidate, Candidate | None, bool]:
    """(chosen, runner-up, overrode the rules) among feasible candidates of one precision tier."""
    order = ranked(cands, objective)
    best = order[0]
    favoured = [c for c in order if in_family(c.layout, rule_strategy)]
    if rule_strategy is None or not favoured or favoured[0] is best:
        return best, runner_up(order, best), False
    if advantage(best, favoured[0], objective) < CLEAR_WIN:
        return favoured[0], best, False
    return best, favoured[0], True
