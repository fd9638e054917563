"""Schemas of the hardware and model catalogs (rules/catalog/*.yaml), validated when loaded.

Every entry carries `source` (where its facts come from); `sources[field]` names a different
source for one field. Units are in the key names (`mem_bw_gbs`, `memory_gb`, `params_b`).
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.ids import Architecture, HardwareClass, InterconnectId, Platform


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Tflops(_Strict):
    """Dense (no sparsity) peak TFLOPS by dtype; None = not published / not sourced."""

    bf16: float | None = Field(default=None, gt=0, le=50000)
    fp16: float | None = Field(default=None, gt=0, le=50000)
    fp8: float | None = Field(default=None, gt=0, le=100000)
    fp4: float | None = Field(default=None, gt=0, le=200000)
    int8: float | None = Field(default=None, gt=0, le=100000)


FormFactor = Literal["sxm", "pcie", "nvl", "oam", "superchip", "card", "laptop", "module", "soc", "socket",
                     "board", "system"]


class Hardware(_Strict):
    """One accelerator (or CPU socket, or Apple SoC) as a device of the roofline."""

    id: str
    name: str
    name_zh: str | None = None
    """The name in zh-Hant where `name` is an English description (class-level entries); product names
    need none (a zh-Hant text shows them without their bracketed qualifier)."""
    vendor: str
    platform: Platform
    hw_class: HardwareClass
    cuda_cc: str | None = Field(default=None, pattern=r"^\d{1,2}\.\d$")
    """CUDA compute capability (NVIDIA only), e.g. '9.0'."""
    arch: str | None = None
    """Architecture generation ("Hopper", "RDNA 3", "Zen 4 (Genoa)", "Apple M4")."""
    form_factor: FormFactor | None = None
    """Package: what tells variants of one chip apart ("A100 PCIe" vs "A100 SXM")."""
    memory_gb: float = Field(gt=0, le=16384)
    memory_type: str
    memory_is_max_config: bool = False
    """True when memory_gb is the largest configuration (Apple, CPUs): a real machine may have less."""
    memory_options_gb: list[float] = Field(default_factory=list)
    """Memory configurations the part is sold with (GB); memory_gb is one of them."""
    usable_memory_fraction: float = Field(default=1.0, gt=0, le=1)
    """Share of memory the accelerator may use (Apple GPUs wire only part of unified memory)."""
    mem_bw_gbs: float = Field(gt=0, le=30000)
    tflops: Tflops = Tflops()
    interconnect: InterconnectId
    """Default link between devices of this kind."""
    fabric: str | None = None
    """The device's own scale-up fabric as its vendor names it, where it is neither NVLink, Infinity Fabric nor PCIe
    (Ascend "HCCS", TPU "ICI"): `interconnect` then holds the nearest id, and the answer names the fabric."""
    scaleup_gbs: float | None = Field(default=None, gt=0, le=20000)
    """Scale-up link GB/s per device (bidirectional aggregate, as vendors quote it)."""
    scaleup_domain: int | None = Field(default=None, ge=1, le=100000)
    """Devices one scale-up fabric joins directly (8 on an HGX board, 72 in an NVL72 rack, 2 for bridged pairs)."""
    pcie_gbs: float | None = Field(default=None, gt=0, le=1000)
    """PCIe GB/s per device (bidirectional aggregate)."""
    p2p: bool | None = None
    """Device-to-device peer access; None = not established."""
    tdp_w: float | None = Field(default=None, gt=0, le=5000)
    gcds: int = Field(default=1, ge=1, le=8)
    """GPUs the software sees in one package (AMD MI250/MI250X: two GCDs, each its own ROCm device): the
    figures above are per package, launch flags count GCDs."""
    gpu_cores: int | None = Field(default=None, gt=0)
    """GPU core count where it tells variants apart (Apple M3/M4 Max 30/32/40-core)."""
    default_variant: bool = False
    """The entry an alias shared by several variants names when nothing in the text decides."""
    default_for: list[str] = Field(default_factory=list)
    """Aliases (of this entry) for which it is the default even though default_variant is false."""
    approximate: bool = False
    """A class-level stand-in ("an i7 laptop"): typical figures, not one product's datasheet."""
    sku_patterns: list[str] = Field(default_factory=list)
    """Regexes over product numbers that name this entry (CPU SKUs: "9654" is an EPYC Genoa)."""
    aliases: list[str] = Field(default_factory=list)
    price_usd_per_hour: float | None = Field(default=None, gt=0)
    price_source: str | None = None
    confidence: str
    source: str = Field(min_length=10)
    notes: str | None = None
    sources: dict[str, str] = Field(default_factory=dict)

    @property
    def unified_memory(self) -> bool:
        """CPU and accelerator share one memory pool (Apple silicon, CPUs, GB10, Jetson, Strix Halo, MI300A):
        there is no separate system RAM to keep weights in, so partial offload gains nothing."""
        kind = self.memory_type.lower()
        return (self.platform in ("apple-silicon", "x86-cpu", "arm-cpu") or "unified" in kind
                or "shared with the cpu" in kind)

    @field_validator("sku_patterns")
    @classmethod
    def _compiles(cls, value: list[str]) -> list[str]:
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"sku pattern {pattern!r} does not compile: {exc}") from None
        return value

    @field_validator("aliases")
    @classmethod
    def _named(cls, value: list[str]) -> list[str]:
        if any(not str(a).strip() for a in value):
            raise ValueError("aliases must be non-empty strings")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> "Hardware":
        if self.platform == "nvidia-cuda" and not self.cuda_cc:
            raise ValueError("NVIDIA hardware needs cuda_cc")
        if self.cuda_cc and self.platform != "nvidia-cuda":
            raise ValueError("cuda_cc is only for NVIDIA hardware")
        if (self.platform == "apple-silicon") != (self.hw_class == "apple"):
            raise ValueError("hw_class apple goes with platform apple-silicon and only with it")
        if any(not 0 < m <= 16384 for m in self.memory_options_gb):
            raise ValueError("memory_options_gb must be sizes in GB between 0 and 16384")
        if self.memory_options_gb and self.memory_gb not in self.memory_options_gb:
            raise ValueError(f"memory_gb {self.memory_gb:g} is not one of memory_options_gb")
        if set(self.default_for) - set(self.aliases):
            raise ValueError(f"default_for names aliases this entry does not have: {sorted(set(self.default_for) - set(self.aliases))}")
        if self.price_usd_per_hour is not None and not self.price_source:
            raise ValueError("price_usd_per_hour needs price_source")
        unknown = set(self.sources) - set(type(self).model_fields)
        if unknown:
            raise ValueError(f"sources names unknown fields: {sorted(unknown)}")
        return self

    @property
    def usable_memory_gb(self) -> float:
        """Memory the accelerator can hold data in (catalog configuration)."""
        return self.memory_gb * self.usable_memory_fraction


class Attention(_Strict):
    """Attention layout facts that change the KV cache."""

    kind: Literal["mha", "gqa", "mla"]
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_layers: int = Field(default=0, ge=0)
    """Layers whose cache stops growing at `sliding_window` tokens (sliding or chunked attention)."""
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    linear_layers: int = Field(default=0, ge=0)
    """Layers with a fixed-size state instead of a KV cache (linear attention, Mamba/SSM, DeltaNet)."""
    layer_pattern: str | None = None
    """The layer mix in words, from the config ("5 sliding (1024) : 1 full", "3 DeltaNet : 1 full")."""
    linear_state_values: int | None = Field(default=None, gt=0)
    """Values of fixed state one sequence keeps in each linear-state layer (recurrent state + convolution
    window), from the config; None = not known (the estimate then says the state is not counted)."""

    @model_validator(mode="after")
    def _consistent(self) -> "Attention":
        if self.kind == "mla" and not (self.kv_lora_rank and self.qk_rope_head_dim):
            raise ValueError("MLA attention needs kv_lora_rank and qk_rope_head_dim")
        if self.sliding_layers and not self.sliding_window:
            raise ValueError("sliding_layers needs sliding_window")
        if self.linear_state_values and not self.linear_layers:
            raise ValueError("linear_state_values needs linear_layers")
        return self


NativeDtype = Literal["bf16", "f16", "fp32", "fp8", "mxfp4", "nvfp4", "int4", "int8"]


class ContextExtension(_Strict):
    """A longer window the model card documents beyond the config's (RoPE scaling set at launch)."""

    method: Literal["yarn"]
    factor: float = Field(gt=1, le=64)
    """The largest scaling factor the card documents (a smaller one is advised when less is needed)."""
    original_context: int = Field(ge=512)
    """original_max_position_embeddings: the window the factor multiplies."""
    max_context: int = Field(ge=512, le=20_000_000)
    source: str = Field(pattern=r"^https://")
    note: str | None = None


class ModelSpec(_Strict):
    """Architecture facts of one model (from its config.json). Units are in the names:
    `params_b` in billions, `max_context` in tokens, `kv_bytes_per_token_bf16` in bytes."""

    id: str
    name: str
    family: str | None = None
    """Catalog family (the file it lives in: llama, qwen, deepseek, ...)."""
    hf_id: str | None = None
    chat_repos: list[str] = Field(default_factory=list)
    """The post-trained (instruct/chat) checkpoints a server should load, newest first: `hf_id` is the
    architecture's reference (often the base model); a launch command serves the one the user named."""
    checkpoint_context: dict[str, int] = Field(default_factory=dict)
    """Chat checkpoints (of `chat_repos`) whose own window differs from `max_context`, repo → tokens
    (Qwen3-Coder-30B-A3B-Instruct: 262,144 on the Qwen3-30B-A3B architecture's 40,960)."""
    quant_repos: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Quantized builds of a checkpoint a launch command can load as they are: checkpoint repo → {quantization id →
    repo} (the maintainers' own FP8/AWQ/GPTQ releases first, else a widely used community build). A plan in
    one of these formats names that repo instead of the 16-bit one (rules.plan.flags); `sources` must cite them."""
    aliases: list[str] = Field(default_factory=list)
    architecture: Architecture
    params_b: float = Field(gt=0.01, le=5000)
    active_params_b: float = Field(gt=0.01, le=5000)
    layers: int = Field(gt=0, le=512)
    hidden: int = Field(gt=0, le=65536)
    q_heads: int = Field(gt=0, le=1024)
    kv_heads: int | None = Field(default=None, gt=0, le=1024)
    head_dim: int = Field(gt=0, le=1024)
    v_head_dim: int | None = Field(default=None, gt=0)
    intermediate: int | None = Field(default=None, gt=0)
    vocab: int = Field(ge=1000, le=1_000_000)
    tied_embeddings: bool = False
    experts: int | None = Field(default=None, gt=0)
    experts_per_tok: int | None = Field(default=None, gt=0)
    moe_intermediate: int | None = Field(default=None, gt=0)
    moe_layers: int | None = Field(default=None, gt=0)
    shared_experts: int | None = Field(default=None, ge=0)
    attention: Attention
    kv_bytes_per_token_bf16: int = Field(gt=0)
    kv_formula: str | None = None
    max_context: int = Field(ge=512, le=20_000_000)
    context_extension: ContextExtension | None = None
    """A longer window the model card documents with RoPE scaling (None: `max_context` is the limit)."""
    native_dtype: NativeDtype = "bf16"
    """The precision the weights ship in (gpt-oss MXFP4, DeepSeek V3 FP8, most others BF16)."""
    confidence: str = "medium"
    source: str = Field(min_length=10)
    notes: str | None = None
    sources: dict[str, str] = Field(default_factory=dict)
    assumptions: list[str] = Field(default_factory=list)
    """Set only on generic specs built by `describe_model` or from a user's config.json (what was assumed)."""

    @model_validator(mode="after")
    def _consistent(self) -> "ModelSpec":
        for check in (_check_params, _check_moe, _check_attention, _check_kv_bytes, _check_sources):
            check(self)
        return self

    @property
    def embedding_params_b(self) -> float:
        """Parameters of one vocab x hidden table (billions)."""
        return self.vocab * self.hidden / 1e9

    @property
    def routed_expert_params_b(self) -> float:
        """Parameters in routed experts (gate, up, down per expert), billions; 0 for dense."""
        if self.architecture != "moe" or not self.moe_intermediate:
            return 0.0
        return self.moe_layers * self.experts * 3 * self.hidden * self.moe_intermediate / 1e9


def _check_params(m: ModelSpec) -> None:
    if m.active_params_b > m.params_b:
        raise ValueError("active_params_b cannot exceed params_b")
    if m.architecture != "moe" and m.experts and m.active_params_b < m.params_b:
        raise ValueError("only MoE models have fewer active than total parameters")


def _check_moe(m: ModelSpec) -> None:
    if m.architecture == "moe" and not (m.experts and m.experts_per_tok and m.moe_layers):
        raise ValueError("moe models need experts, experts_per_tok and moe_layers")
    if m.experts and m.experts_per_tok and m.experts_per_tok > m.experts:
        raise ValueError("experts_per_tok cannot exceed experts")
    if m.moe_layers and m.moe_layers > m.layers:
        raise ValueError("moe_layers cannot exceed layers")


def _check_attention(m: ModelSpec) -> None:
    att = m.attention
    if att.kind != "mla":
        if not m.kv_heads:
            raise ValueError("kv_heads is required unless attention is MLA")
        if m.q_heads % m.kv_heads:
            raise ValueError(f"kv_heads {m.kv_heads} must divide q_heads {m.q_heads}")
        if not 0.5 <= m.q_heads * m.head_dim / m.hidden <= 3.5:
            raise ValueError(f"q_heads x head_dim = {m.q_heads * m.head_dim} is implausible for hidden {m.hidden}")
    if att.sliding_layers + att.linear_layers > m.layers:
        raise ValueError("sliding_layers + linear_layers cannot exceed layers")


def kv_bytes_formula(m: ModelSpec) -> int:
    """Per-token KV bytes at 16 bits over every cached layer (sliding included, linear-state layers not)."""
    att = m.attention
    if att.kind == "mla":
        return m.layers * (att.kv_lora_rank + att.qk_rope_head_dim) * 2
    return 2 * (m.layers - att.linear_layers) * m.kv_heads * m.head_dim * 2


def _check_kv_bytes(m: ModelSpec) -> None:
    want = kv_bytes_formula(m)
    if m.kv_bytes_per_token_bf16 != want:
        raise ValueError(f"kv_bytes_per_token_bf16 {m.kv_bytes_per_token_bf16} != {want} from the architecture")


QUANT_REPO_FORMATS = frozenset({"fp8", "awq", "gptq-4bit", "int8", "nvfp4", "mxfp4"})
"""Formats a quantized repo in `quant_repos` may be filed under (ids of rules.quant)."""


def _check_sources(m: ModelSpec) -> None:
    unknown = set(m.sources) - set(type(m).model_fields)
    if unknown:
        raise ValueError(f"sources names unknown fields: {sorted(unknown)}")
    if m.id != "custom" and "http" not in m.source and "config.json" not in m.source:
        raise ValueError("source must name the config.json (URL) the facts come from")
    if m.quant_repos and "http" not in m.sources.get("quant_repos", ""):
        raise ValueError("quant_repos needs sources.quant_repos naming where the quantized repos are published")
    for repo, builds in m.quant_repos.items():
        for quant in builds:
            if quant not in QUANT_REPO_FORMATS:
                raise ValueError(f"quant_repos[{repo}]: unknown quantization {quant!r}")
