"""Enumerate the layouts worth scoring: TP or EP group x pipeline stages, replicated over the rest.

Groups are divisors of the largest TP/EP group the wiring allows; stage counts are divisors of what
is left of a replica's reach plus the usual small values. Every replica count is as large as the
devices allow (an extra replica never slows the others in the roofline's model). Layouts whose
weights cannot fit even in the devices' raw memory are dropped before the estimator sees them.
"""
from __future__ import annotations

from rules.catalog_schema import ModelSpec
from rules.plan.schema import Layout
from rules.plan.topology import Topology

PP_SIZES = (1, 2, 3, 4, 6, 8, 12, 16)
"""Stage counts people run; divisors of the remaining reach are added to these."""
MAX_PP = 64


def divisors(n: int) -> list[int]:
    """Divisors of n, ascending."""
    return [d for d in range(1, n + 1) if n % d == 0]


def stage_counts(reach: int, layers: int) -> list[int]:
    """Pipeline stage counts up to `reach` devices and the model's layer count."""
    wanted = set(PP_SIZES) | set(divisors(reach))
    return sorted(p for p in wanted if p <= min(reach, layers, MAX_PP))


def layouts(topo: Topology, spec: ModelSpec, weight_bytes: float, device_bytes: float,
            expert_parallel: bool, attention_dp: bool = False) -> list[Layout]:
    """Every candidate layout for these devices (legality is checked separately). `attention_dp`: the
    engine runs a MoE model's attention data-parallel over its TP/EP group, so each group of one stage
    is also tried that way (it keeps whole sequences per device: MLA's latent KV is not copied per rank)."""
    out: list[Layout] = []
    kinds = ("tp", "ep") if expert_parallel and spec.architecture == "moe" else ("tp",)
    for group in divisors(topo.group_limit):
        for kind in kinds:
            if kind == "ep" and group == 1:
                continue
            for pp in stage_counts(max(1, topo.replica_limit // group), spec.layers):
                replica = group * pp
                if replica > topo.devices or weight_bytes / replica > device_bytes:
                    continue
                tp, ep = (group, 1) if kind == "tp" else (1, group)
                out.append(Layout(tp=tp, pp=pp, ep=ep, dp=topo.devices // replica))
                if attention_dp and spec.architecture == "moe" and group > 1 and pp == 1:
                    out.append(Layout(tp=tp, pp=pp, ep=ep, dp=topo.devices // replica, attention_dp=True))
    if attention_dp and spec.architecture == "moe" and topo.network == "infiniband" and expert_parallel:
        # wide EP: with attention data-parallel only the experts' all-to-all crosses the network, so an
        # expert group may span whole nodes over RDMA (DeepEP's all-to-all needs InfiniBand/RoCE; DeepSeek's
        # own deployment; SGLang --tp 16 --enable-dp-attention)
        for nodes in range(2, topo.nodes + 1):
            group = topo.per_node * nodes
            if topo.devices % group or group > topo.replica_limit or weight_bytes / group > device_bytes:
                continue
            out.append(Layout(ep=group, dp=topo.devices // group, attention_dp=True))
    return out
