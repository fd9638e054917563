"""Degrees of the rules' parallelism advice: the rules name a strategy, this sizes it from the facts.

The answer's layout is chosen by the planner (rules/plan), which scores every legal layout with the
roofline; this advice is its tie-breaker (a close call goes to the rules' family, and overriding it
makes the answer say to measure both) and the layout used when the planner cannot run (model size
or hardware unknown)."""
from __future__ import annotations

from typing import Any

from rules.decision import Parallelism


def _tp_degree(count: int, needed: int) -> int:
    """Smallest divisor of the node's device count that holds the model (TP shards evenly)."""
    fitting = [d for d in range(1, count + 1) if count % d == 0 and d >= needed]
    return fitting[0] if fitting else count


def plan(strategy: str, facts: dict[str, Any], reason: str, rule: str | None = None,
         span: str = "fit") -> Parallelism:
    """Size `strategy` for the profile's devices; TP stays inside a node, PP spans what is left.

    With span "node" a TP group covers the whole node (lowest latency); with "fit" it is the
    fewest devices that hold the model and the rest become replicas."""
    n, per_node, nodes = facts["device_count"], facts["count"], facts["nodes"]
    deg = {"tp": 1, "pp": 1, "ep": 1, "dp": 1}
    if strategy == "dp":
        deg["dp"] = n
    elif strategy in ("tp", "tp+dp"):
        needed = facts.get("devices_needed") or per_node  # size unknown: use the whole node
        needed = per_node if span == "node" else needed
        deg["tp"] = _tp_degree(per_node, min(needed, per_node))
        deg["dp"] = max(1, n // deg["tp"])
        strategy = "dp" if deg["tp"] == 1 else ("tp+dp" if deg["dp"] > 1 else "tp")
    elif strategy == "pp":
        deg["pp"] = n
    elif strategy == "tp+pp":
        deg["tp"], deg["pp"] = per_node, nodes
        if deg["tp"] == 1 or deg["pp"] == 1:
            strategy = "pp" if deg["tp"] == 1 else "tp"
    elif strategy == "ep":
        deg["ep"] = n
    return Parallelism(strategy=strategy, reason=reason, rule=rule, **deg)
