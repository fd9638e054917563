"""Whether a layout can run at all: the model's shape, the engine's modes, the wiring.

Each check returns the reason it fails in words, or None. The planner never scores an illegal
layout, so the estimator is never asked about a split the engine would refuse at start-up.
"""
from __future__ import annotations

from rules.catalog_schema import ModelSpec
from rules.plan.schema import Layout
from rules.plan.topology import Topology


def model_reason(layout: Layout, spec: ModelSpec) -> str | None:
    """Heads split evenly over TP (KV heads split or replicated), enough layers per stage, experts per EP rank."""
    tp, pp, ep = layout.tp, layout.pp, layout.ep
    if spec.id == "custom":   # a model described by its size: its real head count is unknown
        return f"{spec.layers} layers cannot fill {pp} pipeline stages" if pp > spec.layers else None
    if spec.q_heads % tp:
        return f"{spec.q_heads} attention heads do not split over TP={tp}"
    kv = spec.kv_heads
    if kv and tp > 1 and kv % tp and tp % kv:
        return f"{kv} KV heads neither split over nor replicate across TP={tp}"
    if pp > spec.layers:
        return f"{spec.layers} layers cannot fill {pp} pipeline stages"
    if ep > 1:
        if spec.architecture != "moe" or not spec.experts:
            return "expert parallelism needs a mixture-of-experts model"
        if spec.experts % ep:
            return f"{spec.experts} experts do not spread evenly over EP={ep}"
        if spec.q_heads % ep:
            return f"{spec.q_heads} attention heads do not split over the EP group of {ep}"
    return None


def engine_reason(layout: Layout, engine_id: str | None, modes: frozenset[str], multi_node: bool,
                  spans_nodes: bool) -> str | None:
    """The engine offers each split used (replicas need nothing: separate processes behind a router)."""
    if engine_id is None:
        return None
    for mode, degree in (("tp", layout.tp), ("pp", layout.pp), ("ep", layout.ep)):
        if degree > 1 and mode not in modes:
            return f"{engine_id} has no {mode.upper()} mode"
    if spans_nodes and not multi_node:
        return f"{engine_id} does not run one model across several machines"
    if layout.dp > 1 and one_server(engine_id):
        return f"{engine_id} runs one server for all its GPUs: replicas need several instances behind a load balancer"
    return None


def one_server(engine_id: str | None) -> bool:
    """One server process places the model over the GPUs itself, with no replicas (engine catalog: single_server)."""
    from rules import engines
    return engine_id is not None and engines.engine(engine_id).single_server is not None


def wiring_reason(layout: Layout, topo: Topology) -> str | None:
    """TP/EP groups inside one fast domain (or one node over PCIe); replicas within what the links allow."""
    group = layout.tp * layout.ep
    wide_ep = layout.attention_dp and layout.ep > 1 and topo.network == "infiniband" and group % topo.per_node == 0
    if not wide_ep and (group > topo.group_limit or topo.group_limit % group):
        where = "NVLink / Infinity Fabric domain" if topo.fast else "node"
        return f"a TP/EP group of {group} does not fit evenly in one {where} of {topo.group_limit}"
    if layout.replica_devices > topo.replica_limit:
        return f"a replica of {layout.replica_devices} devices would cross nodes with no network named"
    if layout.devices > topo.devices:
        return f"needs {layout.devices} devices; there are {topo.devices}"
    return None


def spans_nodes(layout: Layout, topo: Topology) -> bool:
    """One replica reaches beyond a node."""
    return layout.replica_devices > topo.per_node


def stage_reason(layout: Layout, topo: Topology, spec: ModelSpec) -> str | None:
    """Inside an NVLink-class domain the TP/EP group fills the domain before pipeline stages are added:
    stages there only add bubbles and, for MLA models, leave the KV cache copied on every TP rank.
    (A model whose heads do not split over the whole domain keeps its smaller groups.)"""
    group = layout.tp * layout.ep
    if not topo.fast or layout.pp == 1 or group >= topo.group_limit or topo.group_limit <= 1:
        return None
    if model_reason(Layout(tp=topo.group_limit), spec) is not None:
        return None
    return (f"pipeline stages while a TP/EP group of {group} leaves the {topo.group_limit}-device "
            "NVLink domain unfilled")


CPU_PLATFORMS = ("x86-cpu", "arm-cpu")


def replicas_first(fast: bool, platform: str, priority: str | None, feasible: list, room: bool = True,
                   load: int | None = None, replicas_meet_targets: bool = False) -> bool:
    """Devices joined only by PCIe (or a network) where one device holds a whole serving replica: run
    replicas, not a TP/PP split (vLLM's parallelism guide: split only a model that does not fit one
    GPU). The roofline's figure for a split over PCIe leans on its least certain part, the all-reduce
    cost, so it does not override this; a stated latency priority does, and CPU sockets (one copy over
    every socket's memory) are planned by the estimate. `room`: one device's copy leaves the KV cache
    its share (a 70 GB model on an 80 GB card does not: one copy split over both cards serves it).
    `load` of one request at a time: a second replica serves nobody, so the estimate decides.
    On NVLink-class links the same holds when the replicas already meet the latency targets
    (`replicas_meet_targets`): vLLM's maintainers answer "for small models just use one GPU and run
    several replicas; TP is for models that do not fit" (vllm-project/vllm#293), and the roofline
    credits TP's split of small matrices and its all-reduces at full speed, which real kernels do not
    reach; TP is then kept for what the targets need."""
    if fast and not replicas_meet_targets:
        return False
    if not room or priority == "latency" or platform in CPU_PLATFORMS or (load is not None and load <= 1):
        return False
    return any(c.layout.replica_devices == 1 for c in feasible) and any(c.layout.replica_devices > 1 for c in feasible)


def one_copy_over_sockets(platform: str, feasible: list) -> bool:
    """A CPU server's sockets run one copy of the model over all their memory (llama.cpp --numa
    distribute): a replica per socket needs numactl pinning and a load balancer the engines do not
    provide, and halves the bandwidth each request decodes with."""
    return platform in CPU_PLATFORMS and any(c.layout.dp == 1 and c.layout.replica_devices > 1 for c in feasible)

