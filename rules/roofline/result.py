"""The `Estimate` returned by the roofline (its `model_dump()` is `advisor estimate --json`)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")


class MemoryBreakdown(_Out):
    """Per-device memory use against what the device can hold (GB)."""

    devices: int
    capacity_gb: float
    usable_gb: float
    weights_gb: float
    kv_gb: float
    """KV cache of the sequences in service at the stated context."""
    reserve_gb: float
    free_gb: float
    """Usable minus weights, reserve and that KV cache (negative = does not fit)."""


class StepBreakdown(_Out):
    """Where one decode step's time goes (ms)."""

    weights_ms: float
    kv_ms: float
    compute_ms: float
    overhead_ms: float
    comm_ms: float
    batch: int
    prefill_ms: float = 0.0
    """Attention (or separate prefill passes) for the prompt tokens the step carries."""
    prompt_tokens: float = 0.0
    """Prompt tokens of newly admitted requests each step carries in steady state."""
    total_ms: float = 0.0
    """The whole step: max(weights, GEMM compute) + KV + prompt attention + overhead + communication."""


class ErrorBand(_Out):
    """How far off the estimator was on published measurements of this platform (absolute % error)."""

    basis: str
    decode_p50_pct: float | None
    decode_p90_pct: float | None
    prefill_p50_pct: float | None
    load_basis: str | None = None
    load_throughput_p50_pct: float | None = None
    load_tpot_p50_pct: float | None = None
    load_ttft_p50_pct: float | None = None


class Infeasible(_Out):
    """Which constraint fails and what would fix it, cheapest first."""

    constraint: str
    fixes: list[str]
    constraint_zh: str | None = None
    """`constraint` in zh-Hant."""


class Offload(_Out):
    """The weights that do not fit the GPUs, kept in system RAM by a hybrid CPU engine (llama.cpp -ngl / --n-cpu-moe)."""

    gpu_gb: float
    ram_gb: float
    ram_gb_per_token: float
    """Bytes each token reads from system RAM (MoE: only the routed experts kept there)."""
    ngl: int | None
    n_cpu_moe: int | None
    host: str
    """Catalog id of the host whose RAM bandwidth is used."""
    host_bw_gbs: float
    ram_ms_per_token: float


class Estimate(_Out):
    """Roofline estimate for one model on one hardware setup (contract keys first)."""

    fits: bool
    weights_gb: float
    kv_bytes_per_token: int
    max_concurrency: int
    decode_tokens_per_s: float | None
    """Expected per-stream decode tokens/s at the given concurrency (1000 / tpot_ms)."""
    decode_tokens_per_s_bound: float | None
    """Pure bandwidth roofline per stream at the given concurrency: no overhead, 100 % of datasheet bandwidth."""
    prefill_tokens_per_s: float | None
    ttft_s: float | None
    tpot_ms: float | None
    assumptions: list[str]
    binding_constraint: str
    binding_constraint_zh: str | None = None
    """`binding_constraint` in zh-Hant (the answer shows the user's language)."""

    model: str
    hardware: str
    count: int
    quantization: str
    kv_cache_dtype: str | None
    engine: str | None
    parallelism: dict[str, int | str]
    input_tokens: int
    output_tokens: int
    context_length: int
    concurrency: int
    kv_gb_per_sequence: float
    aggregate_tokens_per_s: float | None
    requests_per_s: float | None
    queue_s: float | None
    comm_ms_per_token: float
    memory: MemoryBreakdown
    step: StepBreakdown
    cost_per_1m_tokens: float | None
    price_usd_per_hour: float | None
    price_source: str | None
    infeasible: Infeasible | None
    error_band: ErrorBand
    single_stream_tokens_per_s: float | None = None
    """Expected decode tokens/s of one request alone on the same setup (no other requests in flight): what a
    user measures with one client; `decode_tokens_per_s` is the figure per stream at `concurrency`."""
    single_stream_bound_tokens_per_s: float | None = None
    """Pure bandwidth roofline of one stream alone (weights + its KV cache once per token at datasheet bandwidth):
    the ceiling a single-stream measurement is held to."""
    in_service: int = 0
    """Sequences in flight at once (KV blocks actually held per sequence, the engine's scheduler limit)."""
    load: str = "closed"
    """'closed' (concurrency users, continuous batching, queueing) or 'static' (one batch started together)."""
    engine_profile: str = "generic"
    """The scheduling profile the estimate used (rules.roofline.runtime)."""
    formulas: list[str] = Field(default_factory=list)
    offload: Offload | None = None
    """Set when the weights do not fit and the engine runs the rest from system RAM: the speed figures
    then include reading those weights from RAM."""
    """Each figure's formula with its numbers, for checking by hand."""
