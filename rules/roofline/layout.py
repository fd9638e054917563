"""How the devices are used: tensor (tp), pipeline (pp), expert (ep) and data (dp) parallel sizes."""
from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InputError
from rules.ids import STRATEGIES


@dataclass(frozen=True)
class Layout:
    """A parallel layout; devices = tp * pp * ep * dp."""

    strategy: str
    tp: int = 1
    pp: int = 1
    ep: int = 1
    dp: int = 1

    @property
    def devices(self) -> int:
        """Devices in use."""
        return self.tp * self.pp * self.ep * self.dp

    @property
    def replica_devices(self) -> int:
        """Devices holding one copy of the model."""
        return self.tp * self.pp * self.ep

    @property
    def shard(self) -> int:
        """Devices one token's weights are split over in a single step (tp x ep; pp stages run in turn)."""
        return self.tp * self.ep

    def describe(self) -> str:
        """Short text, e.g. 'tp=4 x pp=2'."""
        parts = [f"{k}={v}" for k, v in (("tp", self.tp), ("pp", self.pp), ("ep", self.ep), ("dp", self.dp)) if v > 1]
        return " x ".join(parts) or "single device"


def build_layout(strategy: str | None, count: int, nodes: int = 1, replica_devices: int | None = None) -> Layout:
    """Turn a strategy id and a device count into sizes (default: TP inside a node, PP across nodes)."""
    total = count * nodes
    if strategy is None:
        strategy = "none" if total == 1 else ("tp" if nodes == 1 else "tp+pp")
    if strategy not in STRATEGIES:
        raise InputError(f"unknown parallelism '{strategy}' (known: {', '.join(STRATEGIES)})")
    if strategy == "none":
        if total != 1:
            raise InputError(f"parallelism 'none' needs one device, not {total}; choose tp, pp, ep or dp")
        return Layout("none")
    if strategy == "tp":
        return Layout("tp", tp=total)
    if strategy == "pp":
        return Layout("pp", pp=total)
    if strategy == "ep":
        return Layout("ep", ep=total)
    if strategy == "dp":
        return Layout("dp", dp=total)
    if strategy == "tp+pp":
        tp, pp = (count, nodes) if nodes > 1 else (max(1, total // 2), 2 if total > 1 else 1)
        if tp * pp != total:
            raise InputError(f"tp+pp cannot split {total} devices evenly")
        return Layout("tp+pp", tp=tp, pp=pp)
    # tp+dp: the smallest power-of-two TP group that holds the model, replicated over the rest
    tp = min(total, replica_devices or 1)
    if total % tp:
        raise InputError(f"tp+dp cannot split {total} devices into groups of {tp}")
    return Layout("tp+dp", tp=tp, dp=total // tp)


def layout_from_plan(plan: dict, count: int, nodes: int = 1) -> Layout:
    """The decision's parallelism plan ({strategy, tp, pp, ep, dp}) as a layout over the devices."""
    strategy = plan.get("strategy") or "none"
    if strategy not in STRATEGIES:
        raise InputError(f"unknown parallelism '{strategy}' (known: {', '.join(STRATEGIES)})")
    degrees = {k: max(1, int(plan.get(k) or 1)) for k in ("tp", "pp", "ep", "dp")}
    layout = Layout(strategy, **degrees)
    if layout.devices > count * nodes:
        raise InputError(f"the plan {layout.describe()} needs {layout.devices} devices; there are {count * nodes}")
    return layout
