"""Schemas of the hardware and model catalogs (rules/catalog/*.yaml), validated when loaded.

Every entry carries `source` (where its facts come from); `sources[field]` names a different
source for one field. Units are in the key names (`mem_bw_gbs`, `memory_gb`, `params_b`).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.ids import Architecture, HardwareClass, InterconnectId, Platform


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Tflops(_Strict):
    """Dense (no sparsity) peak TFLOPS by dtype; None = not published / not sourced."""

    bf16: float | None = Field(default=None, gt=0)
    fp16: float | None = Field(default=None, gt=0)
    fp8: float | None = Field(default=None, gt=0)
    fp4: float | None = Field(default=None, gt=0)
    int8: float | None = Field(default=None, gt=0)


class Hardware(_Strict):
    """One accelerator (or CPU socket, or Apple SoC) as a device of the roofline."""

    id: str
    name: str
    vendor: str
    platform: Platform
    hw_class: HardwareClass
    cuda_cc: str | None = None
    """CUDA compute capability (NVIDIA only), e.g. '9.0'."""
    memory_gb: float = Field(gt=0)
    memory_type: str
    memory_is_max_config: bool = False
    """True when memory_gb is the largest configuration (Apple, CPUs): a real machine may have less."""
    usable_memory_fraction: float = Field(default=1.0, gt=0, le=1)
    """Share of memory the accelerator may use (Apple GPUs wire only part of unified memory)."""
    mem_bw_gbs: float = Field(gt=0)
    tflops: Tflops = Tflops()
    interconnect: InterconnectId
    """Default link between devices of this kind."""
    scaleup_gbs: float | None = Field(default=None, gt=0)
    """Scale-up link GB/s per device (bidirectional aggregate, as vendors quote it)."""
    pcie_gbs: float | None = Field(default=None, gt=0)
    """PCIe GB/s per device (bidirectional aggregate)."""
    p2p: bool | None = None
    """Device-to-device peer access; None = not established."""
    tdp_w: float | None = None
    aliases: list[str] = Field(default_factory=list)
    price_usd_per_hour: float | None = Field(default=None, gt=0)
    price_source: str | None = None
    confidence: str
    source: str = Field(min_length=10)
    notes: str | None = None
    sources: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> "Hardware":
        if self.platform == "nvidia-cuda" and not self.cuda_cc:
            raise ValueError("NVIDIA hardware needs cuda_cc")
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
    """Layers whose cache stops growing at `sliding_window` tokens."""
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None


class ModelSpec(_Strict):
    """Architecture facts of one model (from its config.json)."""

    id: str
    name: str
    hf_id: str | None = None
    aliases: list[str] = Field(default_factory=list)
    architecture: Architecture
    params_b: float = Field(gt=0)
    active_params_b: float = Field(gt=0)
    layers: int = Field(gt=0)
    hidden: int = Field(gt=0)
    q_heads: int = Field(gt=0)
    kv_heads: int | None = Field(default=None, gt=0)
    head_dim: int = Field(gt=0)
    v_head_dim: int | None = None
    intermediate: int | None = None
    vocab: int = Field(gt=0)
    tied_embeddings: bool = False
    experts: int | None = Field(default=None, gt=0)
    experts_per_tok: int | None = Field(default=None, gt=0)
    moe_intermediate: int | None = Field(default=None, gt=0)
    moe_layers: int | None = Field(default=None, gt=0)
    shared_experts: int | None = None
    attention: Attention
    kv_bytes_per_token_bf16: int = Field(gt=0)
    kv_formula: str | None = None
    max_context: int = Field(gt=0)
    native_dtype: str = "bf16"
    confidence: str = "medium"
    source: str = Field(min_length=10)
    notes: str | None = None
    sources: dict[str, str] = Field(default_factory=dict)
    assumptions: list[str] = Field(default_factory=list)
    """Set only on generic specs built by `describe_model` (what was assumed)."""

    @model_validator(mode="after")
    def _consistent(self) -> "ModelSpec":
        if self.active_params_b > self.params_b:
            raise ValueError("active_params_b cannot exceed params_b")
        if self.architecture == "moe" and not (self.experts and self.experts_per_tok and self.moe_layers):
            raise ValueError("moe models need experts, experts_per_tok and moe_layers")
        if self.attention.kind != "mla" and not self.kv_heads:
            raise ValueError("kv_heads is required unless attention is MLA")
        if self.attention.sliding_layers > self.layers:
            raise ValueError("sliding_layers cannot exceed layers")
        unknown = set(self.sources) - set(type(self).model_fields)
        if unknown:
            raise ValueError(f"sources names unknown fields: {sorted(unknown)}")
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
