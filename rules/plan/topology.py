"""How the user's devices are wired: nodes, fast-link domains, the network between nodes.

Tensor and expert parallel groups all-reduce inside every layer, so they stay inside one fast
domain (NVLink / NVSwitch / Infinity Fabric), or inside one node when only PCIe joins the cards.
Pipeline stages and replicas may cross slower links; a replica spans nodes only when the user
named the network between them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.catalog_schema import Hardware
from rules.errors import DataError

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: ~10x faster

DOMAINS_FILE = Path(__file__).with_name("domains.yaml")
FAST_LINKS = ("nvlink", "infinity-fabric")
NETWORKS = ("infiniband", "ethernet")


class Domain(BaseModel):
    """One sourced entry of domains.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hardware: str
    devices: int = Field(ge=1)
    needs_stated_link: bool = False
    unit: int | None = Field(default=None, ge=1)
    """Devices bought at once; None = the domain (or one card when the fabric is a bridge)."""
    source: str = Field(min_length=10)

    @property
    def purchase_unit(self) -> int:
        """How many devices one purchase brings (an NVL72 rack, an 8-GPU board, one bridged card)."""
        if self.unit is not None:
            return self.unit
        return 1 if self.needs_stated_link else self.devices


@lru_cache(maxsize=1)
def domains() -> dict[str, Domain]:
    """Scale-up domain sizes by hardware id (validated; DataError names the entry)."""
    raw = yaml.load(DOMAINS_FILE.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    out: dict[str, Domain] = {}
    for i, entry in enumerate(raw.get("domains") or []):
        try:
            d = Domain.model_validate(entry)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise DataError(DOMAINS_FILE.name, str(entry.get("hardware", f"#{i}")), ".".join(map(str, err["loc"])),
                            err["msg"]) from None
        out[d.hardware] = d
    return out


@dataclass(frozen=True)
class Topology:
    """The devices as the planner sees them."""

    devices: int
    per_node: int
    nodes: int
    link: str
    """What joins the devices of one node (what TP/EP traffic crosses)."""
    fast: bool
    domain: int
    """Devices sharing one fast fabric (1 = none)."""
    domain_source: str
    network: str | None
    """The fabric between nodes, when named (or assumed for linked Macs)."""
    group_limit: int
    """Largest tensor / expert parallel group."""
    replica_limit: int
    """Most devices one model replica may span."""
    notes: tuple[str, ...] = ()
    """Codes of what was assumed about the wiring (rendered in words by explain.py)."""


def _domain(hw: Hardware, link: str, fast: bool, per_node: int, total: int) -> tuple[int, str]:
    """(devices per fast domain, where that number comes from)."""
    if not fast:
        return 1, f"{link}: no NVLink-class fabric between the devices"
    entry = domains().get(hw.id)
    if entry is None and hw.scaleup_domain and hw.interconnect == "pcie":   # bridged PCIe cards (H800 PCIe: pairs)
        return min(hw.scaleup_domain, per_node), f"rules/catalog/hardware '{hw.id}' scaleup_domain {hw.scaleup_domain} ({hw.source})"
    if entry is None:
        return per_node, f"{hw.id}: its {link} is taken to join the {per_node} devices of one node"
    if entry.devices > per_node:      # a rack-scale fabric (NVL72) spans the machines it is built from
        return min(entry.devices, total), entry.source
    return min(entry.devices, per_node), entry.source


def topology(hw: Hardware, per_node: int, nodes: int, link: str, network: str | None, fast: bool) -> Topology:
    """The planner's view of `nodes` x `per_node` devices of `hw` joined by `link` (and `network`)."""
    total = per_node * nodes
    domain, source = _domain(hw, link, fast, per_node, total)
    notes: list[str] = []
    if nodes > 1 and network is None and hw.hw_class == "apple":
        network = "ethernet"
        notes.append("macs-linked")
    group = domain if fast else per_node
    if nodes > 1 and network is None:
        notes.append("no-network")
        replica = max(per_node, domain)
    else:
        replica = total
    return Topology(devices=total, per_node=per_node, nodes=nodes, link=link, fast=fast, domain=domain,
                    domain_source=source, network=network, group_limit=max(1, group), replica_limit=replica,
                    notes=tuple(notes))
