"""What the advisor knows about the user, and where each value came from.

Values are flat (the `profile` object of `advisor ask --json` is this model's `summary()`).
Each set field has a `Provenance`: the user's own words (`evidence`) or `assumed` with the
default that was used. Impossible values fail validation with the field named.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rules.errors import ProfileError
from rules.ids import (
    Architecture, InterconnectId, Language, Priority, ServingMode, WorkloadKind, is_quant,
)


class Provenance(BaseModel):
    """Where a profile value came from."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    evidence: str | None = None
    """The user's words the value was read from."""
    assumed: bool = False
    """True when the value is a documented default, not something the user said."""
    note: str | None = None
    """Why this default (shown to the user as an assumption)."""
    note_zh: str | None = None
    """The same reason in zh-Hant."""


class HardwareOption(BaseModel):
    """A hardware option the user weighs against the profile's own ("1x H100 vs 2x H200")."""

    model_config = ConfigDict(defer_build=True, extra="forbid")
    hardware: str
    """Accelerator id from the hardware catalog."""
    count: int | None = Field(default=None, ge=1, le=4096)
    """Devices per node of this option (None: not stated)."""


class Profile(BaseModel):
    """The user's situation: hardware, model, workload, serving mode, priorities."""

    model_config = ConfigDict(defer_build=True, extra="forbid", validate_assignment=True, populate_by_name=True)

    # hardware
    hardware: str | None = None
    """Accelerator id from the hardware catalog (`hw_id`)."""
    count: int | None = Field(default=None, ge=1, le=4096)
    """Devices per node."""
    nodes: int = Field(default=1, ge=1, le=1024)
    memory_gb: float | None = Field(default=None, gt=0, le=65536)
    """Per-device memory override (e.g. "M3 Ultra 256GB")."""
    interconnect: InterconnectId | None = None
    host_memory_gb: float | None = Field(default=None, gt=0, le=65536)
    """System RAM of the host the devices sit in, when stated ("256GB DDR5-5200")."""
    host_mem_type: Literal["ddr4", "ddr5"] | None = None
    host_mem_mts: int | None = Field(default=None, ge=800, le=20000)
    """The RAM's transfer rate in MT/s ("DDR5-5200": 5200)."""
    host_mem_channels: int | None = Field(default=None, ge=1, le=32)
    """Memory channels of one CPU socket ("4 channels", "每路 8 通道"): offloaded weights stream from them."""
    device_hour_usd: float | None = Field(default=None, gt=0, le=10000)
    """Price of one device-hour, for $/1M tokens."""
    compared_hardware: list[HardwareOption] = Field(default_factory=list)
    """Other hardware options named in a comparison ("1x H100 vs 2x H200": the H200 option); the
    profile's own hardware and count are the first option named."""

    # model
    model: str | None = None
    """Model id from the model catalog."""
    hf_config: str | dict | None = Field(default=None, alias="model_config")
    """A Hugging Face config.json (path, or the parsed object) for a model the catalog does not know;
    written `model_config` in a profile file (pydantic reserves that attribute name)."""
    params_b: float | None = Field(default=None, gt=0, le=20000)
    active_params_b: float | None = Field(default=None, gt=0, le=20000)
    architecture: Architecture | None = None
    quantization: str | None = None
    kv_cache_dtype: str | None = None
    """KV-cache quantization (`fp8`, `q8_0`, ...); None = same as activations (16-bit)."""

    # workload
    workload: WorkloadKind | None = None
    input_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    output_tokens: int | None = Field(default=None, ge=1, le=1_000_000)
    context_length: int | None = Field(default=None, ge=1, le=10_000_000)
    concurrency: int | None = Field(default=None, ge=1, le=1_000_000)
    users: int | None = Field(default=None, ge=1, le=100_000_000)
    shared_prefix: bool | None = None
    prefix_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    """Prompt tokens every request shares (a system prompt, few-shot examples): the prefix cache's share."""
    structured_output: bool | None = None
    streaming: bool | None = None
    lora_adapters: int | None = Field(default=None, ge=0, le=100_000)

    # serving and priorities
    serving_mode: ServingMode | None = None
    priority: Priority | None = None
    """The main thing the user optimises for."""
    priorities: list[Priority] = Field(default_factory=list)
    language: Language = "en"
    os: Literal["linux", "macos", "windows"] | None = None
    """The operating system the user runs, when stated: engines with no native build for it are ruled
    out (vLLM on Windows runs only under WSL2, said as the way round)."""

    provenance: dict[str, Provenance] = Field(default_factory=dict)

    @field_validator("quantization", "kv_cache_dtype")
    @classmethod
    def _known_quant(cls, v: str | None) -> str | None:
        if v is not None and not is_quant(v):
            raise ValueError(f"'{v}' is not a known quantization id")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Profile":
        if self.active_params_b and self.params_b and self.active_params_b > self.params_b:
            raise ValueError("active_params_b cannot exceed params_b")
        if self.input_tokens and self.context_length and self.input_tokens > self.context_length:
            raise ValueError("input_tokens cannot exceed context_length")
        return self

    # --- provenance helpers -------------------------------------------------------------
    def with_value(self, field: str, value: Any, evidence: str | None = None,
                   assumed: bool = False, note: str | None = None, note_zh: str | None = None) -> "Profile":
        """A copy with `field` set and its provenance recorded (validated)."""
        # The fields as they are (not a dump): the copy is validated all the same, and the other
        # fields' nested values (provenance entries, compared options) are already valid models.
        data = dict(self.__dict__)
        data[field] = value
        data["provenance"] = {**self.provenance, field: {"evidence": evidence, "assumed": assumed, "note": note,
                                                         "note_zh": note_zh}}
        return build_profile(data)

    @property
    def assumed(self) -> list[str]:
        """Fields whose value is a default, in field order."""
        return [f for f in type(self).model_fields if f in self.provenance and self.provenance[f].assumed]

    def summary(self) -> dict[str, Any]:
        """The flat `profile` object of the `ask --json` contract."""
        keys = ("hardware", "count", "nodes", "interconnect", "model", "params_b", "quantization",
                "input_tokens", "output_tokens", "context_length", "concurrency", "serving_mode",
                "shared_prefix", "structured_output", "lora_adapters", "priority", "language")
        out = {k: getattr(self, k) for k in keys}
        if self.compared_hardware:   # added only when the user compared options (older outputs unchanged)
            out["compared_hardware"] = [o.model_dump() for o in self.compared_hardware]
        out["assumed"] = self.assumed
        return out

    @property
    def device_count(self) -> int:
        """Total devices across nodes (1 when unknown)."""
        return (self.count or 1) * self.nodes


def field_range(field: str) -> tuple[float, float]:
    """(lowest, highest) value the Profile accepts for a numeric field (from its declared bounds)."""
    lo, hi = float("-inf"), float("inf")
    for m in Profile.model_fields[field].metadata:
        for bound in ("ge", "gt"):
            lo = getattr(m, bound) if getattr(m, bound, None) is not None else lo
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
    return lo, hi


def check_range(field: str, value: float | int | None, name: str | None = None) -> None:
    """ProfileError naming `field` (as `name`, e.g. the CLI option) when `value` is outside the
    Profile's bounds for it: the one place those limits live."""
    if value is None:
        return
    lo, hi = field_range(field)
    name = name or field
    if value != value:
        raise ProfileError(field, f"{name} is not a number")
    if value < lo or (lo == 0 and value == 0):
        raise ProfileError(field, f"{name} must be {'above 0' if lo == 0 else f'at least {lo:,}'} (got {value:,})")
    if value > hi:
        raise ProfileError(field, f"{name} {value:,} is more than the advisor plans for (at most {hi:,})")


def build_profile(data: dict[str, Any]) -> Profile:
    """Validate a dict into a Profile; errors name the offending field."""
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "profile"
        msg = err["msg"].removeprefix("Value error, ")
        raise ProfileError(field, msg) from None
