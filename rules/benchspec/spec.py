"""The benchmark spec: what to run, how to measure it, and what counts as a pass.

One `BenchSpec` describes the user's real workload once; every harness export is derived from
it, so the vLLM, SGLang, GuideLLM and AIPerf plans stay equivalent. Unknown facts are written
as `FILL_IN` strings (to be recorded by whoever runs the benchmark) or as assumptions.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

FILL_IN = "fill in"
RunId = Literal["main", "prefill", "decode", "long-context", "structured", "lora"]
RUN_IDS: tuple[str, ...] = ("main", "prefill", "decode", "long-context", "structured", "lora")
HARNESSES: tuple[str, ...] = ("vllm", "sglang", "guidellm", "aiperf")


class _Model(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")


class ModelInfo(_Model):
    """The model under test, as exactly as we know it."""

    id: str | None = None
    name: str | None = None
    architecture: str | None = None
    params_b: float | None = None
    active_params_b: float | None = None
    """Parameters read per token (MoE active experts); equals params_b for dense models."""
    checkpoint: str = f"{FILL_IN}: exact repository id and revision of the weights served"
    source: str | None = None


class Weights(_Model):
    """How the weights are stored."""

    dtype: str
    quantization: str
    group_size: str
    calibration: str
    kv_cache_dtype: str


class EngineInfo(_Model):
    """One engine to benchmark and what to record about its build and launch."""

    id: str
    role: Literal["primary", "alternative", "requested"]
    version: str = FILL_IN
    commit: str = FILL_IN
    backend: str = f"{FILL_IN}: attention/kernel backend in use"
    record: list[str] = Field(default_factory=list)
    """Launch settings to write down next to the results."""


class HardwareInfo(_Model):
    """The machine the benchmark runs on."""

    id: str | None = None
    name: str | None = None
    count: int = 1
    nodes: int = 1
    memory_gb: float | None = None
    mem_bw_gbs: float | None = None
    interconnect: str | None = None
    driver: str = f"{FILL_IN}: driver and CUDA/ROCm version"
    source: str | None = None


class Scenario(_Model):
    """Model, weights, engines and hardware: what the numbers will be about."""

    model: ModelInfo
    weights: Weights
    engines: list[EngineInfo]
    hardware: HardwareInfo


class LengthDist(_Model):
    """A token-length distribution: fixed, or uniform between min and max."""

    kind: Literal["fixed", "uniform"]
    mean: int = Field(ge=1)
    min: int = Field(ge=1)
    max: int = Field(ge=1)


class Level(_Model):
    """One concurrency level of a run."""

    concurrency: int = Field(ge=1)
    requests: int = Field(ge=1)
    """Measured requests (warm-up excluded)."""
    warmup: int = Field(ge=0)


class Run(_Model):
    """One measured run: a request shape swept over concurrency levels."""

    id: RunId
    purpose: str
    input: LengthDist
    output: LengthDist
    shared_prefix_tokens: int = 0
    """Tokens at the start of every prompt that are identical across requests."""
    levels: list[Level]
    endpoint: Literal["completions", "chat"] = "completions"
    fixed_output: bool = True
    """Force the requested output length (ignore EOS) so every engine generates the same work."""
    structured_output: bool = False
    lora_adapters: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def concurrency(self) -> list[int]:
        """The levels' concurrency values, in order."""
        return [lv.concurrency for lv in self.levels]


class Workload(_Model):
    """The user's traffic, as the benchmark reproduces it."""

    kind: str
    peak_concurrency: int
    concurrency: list[int]
    """Levels swept in the main run; always includes the real peak."""
    streaming: bool
    input: LengthDist
    output: LengthDist
    shared_prefix_share: float = Field(ge=0, le=1)
    """Fraction of each prompt that is a shared prefix."""
    target_kv_hit_rate: float = Field(ge=0, le=1)
    runs: list[Run]


class Slo(_Model):
    """Latency targets for the use case, checked at the peak level of the main run."""

    use_case: str
    ttft_p99_ms: float
    tpot_p99_ms: float
    at_concurrency: int
    basis: str


class Criterion(_Model):
    """A pass/fail check derived from the roofline prediction or the SLOs."""

    id: str
    check: str
    run: RunId
    concurrency: int | None = None
    metric: str
    threshold: float | None = None
    unit: str
    basis: str
    if_fails: str


class ChecklistItem(_Model):
    """One iron rule of benchmarking, bound to this workload."""

    id: str
    rule: str
    how: str


class BenchSpec(_Model):
    """The whole benchmark plan (the `advisor benchspec` JSON object)."""

    version: int = 1
    scenario: Scenario
    workload: Workload
    metrics: list[str]
    """Metric ids of the contract (every one of them is recorded)."""
    metric_definitions: dict[str, str]
    tpot_definition: str
    slos: list[Slo]
    criteria: list[Criterion]
    checklist: list[ChecklistItem]
    prediction: dict[str, Any] | None = None
    """The roofline figures the criteria were derived from (None when unavailable)."""
    plan: dict[str, Any] | None = None
    """The deployment plan the predictions describe: chosen layout, runner-up, launch flags."""
    assumptions: list[str] = Field(default_factory=list)
    exports: dict[str, str] = Field(default_factory=dict)
    """Harness name → the command lines (or config text) that run this spec. Empty until built:
    the agent leaves them to `with_exports()` (they are 60 % of the spec and no answer shows them)."""

    def with_exports(self, harness: str = "all") -> "BenchSpec":
        """The spec with its harness exports (built now if they were left out)."""
        if self.exports:
            return self
        from rules.benchspec.exports import export_all
        return self.model_copy(update={"exports": export_all(self, harness)})

    def run(self, run_id: str) -> Run | None:
        """The run with this id, if the spec has it."""
        return next((r for r in self.workload.runs if r.id == run_id), None)

    def summary(self) -> dict[str, Any]:
        """The compact `benchmark` object of `advisor ask --json`."""
        return {
            "concurrency": list(self.workload.concurrency),
            "peak_concurrency": self.workload.peak_concurrency,
            "metrics": list(self.metrics),
            "runs": [r.id for r in self.workload.runs],
            "input_tokens": self.workload.input.mean,
            "output_tokens": self.workload.output.mean,
            "shared_prefix_share": self.workload.shared_prefix_share,
            "slos": [s.model_dump() for s in self.slos],
            "engines": [e.id for e in self.scenario.engines],
            "harnesses": sorted(self.exports or HARNESSES),
        }
