"""The plan's data shapes: a layout, its predicted figures, a scored candidate, the chosen plan.

One `Plan` is computed per answer and carried to every surface (answer text, `ask --json`,
benchmark spec, web, Slack, MCP); nothing downstream recomputes a layout.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer

from rules.ids import Strategy

Objective = Literal["latency", "throughput"]
Lang = Literal["en", "zh"]


class _Model(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")


class Layout(_Model):
    """Degrees of parallelism; one replica spans tp x pp x ep devices, dp replicas run side by side."""

    tp: int = Field(default=1, ge=1)
    pp: int = Field(default=1, ge=1)
    ep: int = Field(default=1, ge=1)
    """Expert parallel group (MoE): attention sharded over it, experts spread across it."""
    dp: int = Field(default=1, ge=1)
    attention_dp: bool = False
    """Attention data-parallel over the TP/EP group (MoE): each device runs attention and holds the KV
    cache of its own requests while the experts stay split over the group (SGLang --enable-dp-attention,
    vLLM --data-parallel-size with the experts across the ranks, TensorRT-LLM enable_attention_dp)."""

    @model_serializer(mode="wrap")
    def _dump(self, handler):
        """The degrees; `attention_dp` only when set (a plain layout keeps its four keys)."""
        out = handler(self)
        if not self.attention_dp:
            out.pop("attention_dp", None)
        return out

    @property
    def replica_devices(self) -> int:
        """Devices holding one copy of the model."""
        return self.tp * self.pp * self.ep

    @property
    def devices(self) -> int:
        """Devices in use."""
        return self.replica_devices * self.dp

    @property
    def strategy(self) -> Strategy:
        """The contract's strategy id closest to these degrees (the degrees say the rest)."""
        if self.ep > 1:
            return "ep"
        if self.tp > 1 and self.pp > 1:
            return "tp+pp"
        if self.tp > 1:
            return "tp+dp" if self.dp > 1 else "tp"
        if self.pp > 1:
            return "pp"
        return "dp" if self.dp > 1 else "none"

    def describe(self, lang: str = "en") -> str:
        """Short text, e.g. 'TP=4 x DP=2' ('single device' for 1; '單一裝置' in zh-Hant)."""
        parts = [f"{k.upper()}={v}" for k, v in (("tp", self.tp), ("pp", self.pp), ("ep", self.ep), ("dp", self.dp))
                 if v > 1]
        text = " x ".join(parts) or ("單一裝置" if lang == "zh" else "single device")
        return f"{text} (DP attention)" if self.attention_dp else text

    def parallelism(self) -> dict[str, int | str | bool]:
        """The estimator's / contract's {strategy, tp, pp, ep, dp} (+ attention_dp when set)."""
        out: dict[str, int | str | bool] = {"strategy": self.strategy, "tp": self.tp, "pp": self.pp, "ep": self.ep,
                                            "dp": self.dp}
        if self.attention_dp:
            out["attention_dp"] = True
        return out


class Figures(_Model):
    """What the roofline predicts for one candidate at the user's load."""

    fits: bool
    max_concurrency: int
    """Sequences held at the planned context across all replicas."""
    ttft_s: float | None
    tpot_ms: float | None
    latency_s: float | None
    """A whole answer at the load: TTFT + output tokens x TPOT."""
    tokens_per_s: float | None
    """Aggregate output tokens/s of all replicas at the load."""
    tokens_per_s_per_device: float | None
    """Aggregate over every device the user has (idle ones included)."""
    cost_per_1m_tokens: float | None
    binding_constraint: str
    offload_flag: str | None = None
    """llama.cpp's placement when the weights do not fit the GPUs (`-ngl 40`, `--n-cpu-moe 18`)."""
    in_service: int = 0
    """Sequences the engines keep in flight at once, across all replicas (KV blocks actually held)."""


class Candidate(_Model):
    """One deployment the planner scored."""

    engine: str | None
    layout: Layout
    quantization: str
    kv_cache_dtype: str | None
    tier: int
    """0: the precision as given; 1: KV cache in fp8; 2: lower-bit weights (only to make it fit)."""
    figures: Figures
    rejected: str | None = None
    """Why it cannot serve the load (does not fit, holds too few sequences); None = feasible."""


class Disaggregation(_Model):
    """Prefill and decode on separate worker pools, sized by matching their request rates."""

    prefill_workers: int
    prefill_layout: Layout
    decode_workers: int
    decode_layout: Layout
    decode_batch: int
    """Sequences each decode worker runs at once."""
    devices: int
    ttft_s: float
    tpot_ms: float
    requests_per_s: float
    tokens_per_s: float
    ttft_target_ms: float
    tpot_target_ms: float
    aggregated_meets_targets: bool
    demand_requests_per_s: float
    """What the load needs: requests in flight / (TTFT target + output x TPOT target)."""
    serves_load: bool
    recommended: bool
    """The aggregated plan misses a target and the split meets both (for all of the load or part of it)."""
    run_with: list[str]
    """Engines / orchestrators that run prefill and decode pools (e.g. Dynamo, SGLang PD mode)."""
    basis: str


class Scale(_Model):
    """How the devices are grouped: nodes, fast-link domains, replicas."""

    devices: int
    nodes: int
    domain: int
    """Devices sharing one NVLink / Infinity Fabric domain (1 = no fast link)."""
    domain_source: str
    network: str | None
    """The fabric between nodes when the user named one."""
    replicas: int
    replica_devices: int
    replica_spans_nodes: bool


class SizingOption(_Model):
    """One hardware option for a model, a load and latency targets."""

    hardware: str
    name: str
    count: int
    nodes: int
    plan: Candidate
    meets_targets: bool
    misses: list[str] = Field(default_factory=list)
    cost_per_hour: float | None = None
    cost_per_1m_tokens: float | None = None
    price_source: str | None = None


class Capacity(_Model):
    """The load is beyond what the devices serve: how many replicas of the chosen layout it needs."""

    per_replica: int
    """Requests in flight one replica serves within the TTFT and TPOT targets."""
    replicas_have: int
    replicas_needed: int
    devices_needed: int
    over_by: float
    """Load / what the devices serve within the targets (2.0 = twice too much)."""
    ttft_target_ms: float
    tpot_target_ms: float
    serves_now: int | None = None
    """Requests in flight today's devices serve within the targets (the "fewer users at once" lever)."""
    smaller_format: str | None = None
    """A weight format with fewer bits than the chosen one (4-bit), when one is smaller."""
    per_replica_smaller: int | None = None
    """Requests in flight one replica serves in `smaller_format` (weights freed for KV cache)."""
    holds_now: int | None = None
    """Requests in flight today's devices hold in memory, speed targets aside (when more than they serve
    within the targets: the speed target, not memory, is what asks for more replicas)."""


class Plan(_Model):
    """The deployment layout chosen for one answer, the runner-up, and how to launch it."""

    engine: str | None
    objective: Objective
    objective_basis: str
    load: int
    """Concurrent requests planned for."""
    context_length: int
    input_tokens: int
    output_tokens: int
    chosen: Candidate
    runner_up: Candidate | None = None
    feasible: bool
    """The chosen candidate fits and holds the load."""
    rule: str | None = None
    """The rule whose advice set (or was overridden for) the layout family."""
    rule_strategy: str | None = None
    overrode_rule: bool = False
    measure_both: bool = False
    why: dict[Lang, list[str]]
    """One line for the chosen plan and one for the runner-up, with the numbers (en and zh-Hant)."""
    changes: dict[Lang, list[str]] = Field(default_factory=lambda: {"en": [], "zh": []})
    """What the plan changed from the request to make it work (e.g. fp8 KV cache)."""
    flags: dict[str, str] = Field(default_factory=dict)
    """Engine id -> the launch command that expresses the chosen plan."""
    launch_notes: dict[str, dict[Lang, list[str]]] = Field(default_factory=dict)
    """Engine id -> remarks on its command (checkpoint to load, instances, multi-node), per language."""
    notes: dict[Lang, list[str]] = Field(default_factory=lambda: {"en": [], "zh": []})
    """Assumptions behind the plan (load, wiring, what was not modelled)."""
    considered: int
    feasible_count: int
    scale: Scale
    disaggregation: Disaggregation | None = None
    capacity: Capacity | None = None
    """Set when the load queues beyond what the devices serve: the replicas it needs instead."""

    def parallelism(self, reason: str | None = None) -> dict:
        """The contract's `parallelism` object, filled from the chosen layout."""
        out = self.chosen.layout.parallelism()
        out["reason"] = reason or self.why["en"][0]
        return out
