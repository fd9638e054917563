"""Communication cost between devices: TP all-reduce, PP stage hand-off, EP all-to-all.

All-reduce of S bytes over n devices moves 2(n-1)/n * S over the per-direction link bandwidth (half
the bidirectional figure vendors quote). On a ring (PCIe, network) that takes 2(n-1) latency hops; on
switched fabrics where every device has a direct path to every other (NVLink/NVSwitch, AMD Infinity
Fabric mesh) engines use one/two-shot all-reduce kernels: 2 hops whatever n.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware
from rules.errors import MissingFactError
from rules.roofline.calibration import LINK_LATENCY_S, LOCAL_ROW_SPLIT_MATMULS_PER_LAYER, LOCAL_ROW_SPLIT_SYNC_S
from rules.roofline.figure import Figure

SWITCHED = frozenset({"nvlink", "infinity-fabric"})


def link(hw: Hardware, interconnect: str | None = None) -> tuple[str, float, float]:
    """(link kind, per-direction bytes/s, per-step latency s) between two devices of this kind."""
    kind = interconnect or hw.interconnect
    if kind in ("nvlink", "infinity-fabric"):
        gbs = hw.scaleup_gbs
    elif kind == "pcie":
        gbs = hw.pcie_gbs
        if hw.p2p is not True:  # no peer access: copies bounce through host memory
            kind, gbs = "pcie-no-p2p", (gbs or 0) / 2 or None
    elif kind in ("ethernet", "infiniband"):
        gbs = hw.scaleup_gbs or (50.0 if kind == "infiniband" else 25.0)  # 400 / 200 Gb/s NIC per device
    else:  # unified / none: machines linked by Thunderbolt or sockets; treat like slow Ethernet
        kind, gbs = "unified" if kind == "unified" else "ethernet", 5.0
    if not gbs:
        raise MissingFactError("rules/catalog/hardware.yaml", hw.id, "scaleup_gbs" if kind != "pcie" else "pcie_gbs",
                               f"no bandwidth for a {kind} link")
    return kind, gbs * 1e9 / 2, LINK_LATENCY_S[kind]


def allreduce_s(nbytes: float, n: int, hw: Hardware, interconnect: str | None = None) -> Figure:
    """Seconds for one ring all-reduce of `nbytes` across n devices."""
    if n <= 1:
        return Figure(0.0, "one device: no all-reduce")
    kind, bw, lat = link(hw, interconnect)
    hops = 2 if kind in SWITCHED else 2 * (n - 1)
    t = hops * lat + 2 * (n - 1) / n * nbytes / bw
    return Figure(t, f"all-reduce {nbytes / 1e3:.0f} KB over {n} devices on {kind}: {t * 1e6:.0f} us")


def tp_step_s(hidden: int, layers: int, batch: int, tp: int, hw: Hardware, interconnect: str | None = None,
              per_layer: int = 2) -> Figure:
    """TP communication per step: `per_layer` all-reduces (attention + MLP) of batch x hidden x 2 bytes."""
    if tp <= 1:
        return Figure(0.0, "no tensor parallelism")
    one = allreduce_s(batch * hidden * 2, tp, hw, interconnect)
    t = per_layer * layers * one.value
    return Figure(t, f"{per_layer} x {layers} layers x {one.value * 1e6:.0f} us = {t * 1e3:.2f} ms per step ({one.why})")


def row_split_step_s(hidden: int, layers: int, batch: int, tp: int, hw: Hardware,
                     interconnect: str | None = None) -> Figure:
    """llama.cpp -sm row: every split matmul sends its input to each GPU and gathers the slices on the main
    GPU, synchronised from the host (calibration.LOCAL_ROW_SPLIT_SYNC_S per matmul)."""
    if tp <= 1:
        return Figure(0.0, "no tensor split")
    _, bw, _ = link(hw, interconnect)
    n = LOCAL_ROW_SPLIT_MATMULS_PER_LAYER * layers
    one = LOCAL_ROW_SPLIT_SYNC_S + 2 * (tp - 1) / tp * batch * hidden * 2 / bw
    t = n * one
    return Figure(t, f"row split: {LOCAL_ROW_SPLIT_MATMULS_PER_LAYER} x {layers} split matmuls x {one * 1e6:.0f} us "
                     f"(host-synchronised gather) = {t * 1e3:.1f} ms per step")


def pp_step_s(hidden: int, batch: int, pp: int, hw: Hardware, interconnect: str | None = None) -> Figure:
    """PP hand-off per step: (pp-1) point-to-point sends of batch x hidden x 2 bytes."""
    if pp <= 1:
        return Figure(0.0, "no pipeline parallelism")
    kind, bw, lat = link(hw, interconnect)
    t = (pp - 1) * (lat + batch * hidden * 2 / bw)
    return Figure(t, f"{pp - 1} stage hand-offs on {kind}: {t * 1e3:.3f} ms per step")


def ep_step_s(hidden: int, moe_layers: int, k: int, batch: int, ep: int, hw: Hardware,
              interconnect: str | None = None) -> Figure:
    """EP all-to-all per step: dispatch + combine per MoE layer of batch x k x hidden x 2 bytes."""
    if ep <= 1:
        return Figure(0.0, "no expert parallelism")
    kind, bw, lat = link(hw, interconnect)
    vol = batch * k * hidden * 2 * (ep - 1) / ep
    t = 2 * moe_layers * ((ep - 1) * lat + vol / bw)
    return Figure(t, f"2 all-to-alls x {moe_layers} MoE layers on {kind}: {t * 1e3:.2f} ms per step")
