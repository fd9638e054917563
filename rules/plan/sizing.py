"""Sizing the other way round: which hardware, and how many, serve a model at a load within targets.

For every serving-class device of the catalog that a production engine runs on, the planner is
asked about growing device counts (powers of two inside a node, then whole nodes) until its chosen
plan meets the TTFT and TPOT targets; each device's smallest passing count is one option. Options
are ranked by cost per hour when every price is known, else by the fewest devices, then latency.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rules import catalog, engines
from rules.catalog_schema import Hardware
from rules.plan.request import Request, objective_for
from rules.plan.schema import Lang, Plan, SizingOption
from rules.plan.search import plan
from rules.plan.topology import domains

SERVING_CLASSES = ("datacenter", "workstation", "consumer")
ENGINE = "vllm"
"""Sized with vLLM, the engine that runs on every serving platform of the catalog."""
MAX_DEVICES = 256
PCIE_NODE = 8
"""Cards per PCIe server (a common 8-slot chassis) when the device has no fabric domain."""
TOP = 5


class SizingRequest(BaseModel):
    """What to size: a model, a load, latency targets and optional limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    model: str
    concurrency: int = Field(ge=1)
    ttft_ms: float | None = Field(default=None, gt=0)
    tpot_ms: float | None = Field(default=None, gt=0)
    quantization: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    context_length: int | None = None
    priority: str | None = None
    workload: str | None = None
    hardware: tuple[str, ...] = ()
    """Restrict to these devices (empty = every serving-class device)."""
    prices: dict[str, float] = Field(default_factory=dict)
    """USD per device-hour the user gave, by hardware id (over the catalog's own price, if any)."""
    max_devices: int = Field(default=MAX_DEVICES, ge=1, le=4096)


class SizingResult(BaseModel):
    """Ranked hardware options and how they were ranked."""

    model_config = ConfigDict(extra="forbid")
    request: SizingRequest
    options: list[SizingOption]
    """Options that meet the targets, best first (or, when none does, the closest ones)."""
    any_meets: bool
    ranked_by: dict[Lang, str]
    notes: dict[Lang, list[str]]


def candidates(req: SizingRequest) -> list[Hardware]:
    """Devices to consider: the named ones, else every serving-class device the engine runs on."""
    if req.hardware:
        return [catalog.hardware(h) for h in req.hardware]
    out = []
    for hw in catalog.all_hardware().values():
        if hw.hw_class in SERVING_CLASSES and (hw.tflops.bf16 or hw.tflops.fp16) and engines.supports(ENGINE, hw)[0]:
            out.append(hw)
    return out


def node_size(hw: Hardware) -> int:
    """Devices per node: an 8-GPU board or a rack-scale fabric (NVL72) as built, else a PCIe chassis."""
    entry = domains().get(hw.id)
    if entry and not entry.needs_stated_link and entry.devices >= PCIE_NODE:
        return entry.devices
    return 1 if hw.interconnect == "ethernet" else PCIE_NODE


def purchase_unit(hw: Hardware) -> int:
    """Devices bought at once (domains.yaml `unit`): a GB200 NVL72 rack is 72, an HGX board 8, a card 1."""
    entry = domains().get(hw.id)
    return entry.purchase_unit if entry else 1


def counts(hw: Hardware, limit: int) -> list[tuple[int, int]]:
    """(devices per node, nodes) to try, smallest first, in whole purchase units."""
    size = node_size(hw)
    out = []
    n = purchase_unit(hw)
    while n < size and n <= limit:
        out.append((n, 1))
        n *= 2
    nodes = 1
    while size * nodes <= limit:
        out.append((size, nodes))
        nodes = nodes * 2 if nodes < 4 else nodes + 4
    return out


def _request(req: SizingRequest, hw: Hardware, per_node: int, nodes: int) -> Request:
    objective, basis = objective_for(req.priority, req.workload)
    return Request(model=catalog.model(req.model).id, hardware=hw.id, per_node=per_node, nodes=nodes,
                   network="infiniband" if nodes > 1 else None, quant=req.quantization,
                   quant_stated=req.quantization is not None, engine=ENGINE, input_tokens=req.input_tokens,
                   output_tokens=req.output_tokens, context_length=req.context_length, load=req.concurrency,
                   objective=objective, objective_basis=basis, engines=(ENGINE,), disaggregation=False,
                   workload=req.workload, priority=req.priority, price=price_of(req, hw)[0])


def price_of(req: SizingRequest, hw: Hardware) -> tuple[float | None, str | None]:
    """(USD per device-hour, where it comes from): the user's price, else the catalog's."""
    if hw.id in req.prices:
        return req.prices[hw.id], "the price you gave"
    return hw.price_usd_per_hour, hw.price_source


def misses(p: Plan, req: SizingRequest) -> list[str]:
    """Which targets the plan misses (empty = it meets them all)."""
    f = p.chosen.figures
    out = [] if p.feasible else [p.chosen.rejected or "cannot serve the load"]
    if req.ttft_ms and (f.ttft_s is None or f.ttft_s * 1000 > req.ttft_ms):
        out.append(f"TTFT {f.ttft_s} s > {req.ttft_ms:g} ms")
    if req.tpot_ms and (f.tpot_ms is None or f.tpot_ms > req.tpot_ms):
        out.append(f"TPOT {f.tpot_ms} ms > {req.tpot_ms:g} ms")
    return out


def _option(req: SizingRequest, hw: Hardware) -> SizingOption | None:
    """The smallest count of this device that meets the targets (else its best try)."""
    spec = catalog.model(req.model)
    last = None
    for per_node, nodes in counts(hw, req.max_devices):
        devices = per_node * nodes
        if devices * hw.memory_gb * 1e9 < 0.5 * spec.params_b * 1e9:   # cannot hold even 4-bit weights
            continue
        p, _ = plan(_request(req, hw, per_node, nodes))
        miss = misses(p, req)
        price, source = price_of(req, hw)
        last = SizingOption(hardware=hw.id, name=hw.name, count=per_node, nodes=nodes, plan=p.chosen,
                            meets_targets=not miss, misses=miss,
                            cost_per_hour=round(price * devices, 2) if price else None,
                            cost_per_1m_tokens=p.chosen.figures.cost_per_1m_tokens, price_source=source)
        if not miss:
            return last
    return last


def _rank_key(o: SizingOption, by_cost: bool) -> tuple:
    """Meets the targets; keeps the precision asked for (a lower-bit format trades quality); cheapest or
    fewest devices; fastest."""
    f = o.plan.figures
    devices = o.count * o.nodes
    lat = f.latency_s if f.latency_s is not None else float("inf")
    return (not o.meets_targets, o.plan.tier >= 2, o.cost_per_hour if by_cost else devices, lat)


def size(req: SizingRequest) -> SizingResult:
    """Ranked hardware options for the request."""
    catalog.model(req.model)   # unknown model -> UnknownIdError before any work
    options = [o for o in (_option(req, hw) for hw in candidates(req)) if o is not None]
    meeting = [o for o in options if o.meets_targets]
    pool = meeting or options
    by_cost = bool(pool) and all(o.cost_per_hour is not None for o in pool)
    pool.sort(key=lambda o: _rank_key(o, by_cost))
    ranked = ({"en": "options that keep the weight precision first, then cost per hour (the prices you gave, else the catalog's)",
               "zh": "保留原權重精度的選項優先，其次是每小時成本（您提供的價格，否則用型錄價格）"} if by_cost else
              {"en": "options that keep the weight precision first, then the fewest devices, then the time to a "
                     "whole answer (the catalog has no prices for these devices)",
               "zh": "保留原權重精度的選項優先，其次是裝置數最少，再其次是完整回答所需時間（型錄中沒有這些裝置的價格）"})
    notes = {"en": [f"every option is planned with {ENGINE}, {req.concurrency} requests in flight; targets are "
                    "compared with the roofline's typical-request figures, so keep a margin for p95/p99"],
             "zh": [f"每個選項都以 {ENGINE} 規劃，{req.concurrency} 個同時請求；目標值與 roofline 對一般請求的估計相比，"
                    "p95/p99 請再留餘裕"]}
    return SizingResult(request=req, options=pool[:TOP], any_meets=bool(meeting), ranked_by=ranked, notes=notes)
