"""The engine catalog: where each engine runs, which quantizations have kernels, what it serves.

Data lives in `rules/catalog/engines.yaml`; every fact carries the URL of the engine's own
documentation it came from. A fact the docs could not confirm says so in its `note`
("unverified ..."). Loading validates the file and fails with file, entry and field named.

    all_engines()                  -> {engine id: EngineSpec}
    engine(id)                     -> EngineSpec (UnknownIdError lists the closest ids)
    supports(engine_id, hardware)  -> (bool, reason, source URL)
    quant_kernel(engine_id, quant, platform=None, cuda_cc=None) -> "optimized" | "supported" | None
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from rules.errors import DataError, MissingFactError, UnknownIdError
from rules.ids import ENGINES, EXL_QUANT_RE, QUANTS_FIXED, EngineId, Platform, is_quant

CATALOG_FILE = Path(__file__).parent / "catalog" / "engines.yaml"
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~8x faster

Family = Literal["portability", "apple", "consumer-cuda", "production", "orchestration"]
Kind = Literal["engine", "orchestrator"]
OsId = Literal["linux", "macos", "windows"]
Status = Literal["native", "plugin", "experimental"]
Kernel = Literal["optimized", "supported"]
Stance = Literal["production", "small-team", "personal-demo", "not-recommended"]
ParallelMode = Literal["tp", "pp", "dp", "ep", "cp"]
FEATURES: tuple[str, ...] = (
    "paged_kv", "continuous_batching", "chunked_prefill", "prefix_caching", "radix_attention",
    "pd_disaggregation", "speculative_decoding", "structured_output", "multi_lora", "cuda_graphs",
    "openai_api", "anthropic_api", "multi_node", "kv_cache_quant",
)
QUANT_KEYS: tuple[str, ...] = QUANTS_FIXED + ("exl2", "exl3")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(_Strict):
    """A fact with the URL it was read from and an optional note."""

    source: str
    """https URL of the engine's own documentation (or its repository file)."""
    note: str | None = None
    """Our own words; starts with or contains "unverified" when the docs did not confirm it."""

    @field_validator("source")
    @classmethod
    def _https(cls, value: str) -> str:
        if not value.startswith("https://") or " " in value:
            raise ValueError("source must be an https URL")
        return value

    @property
    def unverified(self) -> bool:
        """True when the note flags the fact as not confirmed by the docs."""
        return "unverified" in (self.note or "").lower()


class Support(Sourced):
    """Support of a platform or an OS."""

    status: Status


class MinCudaCC(Sourced):
    """Lowest NVIDIA compute capability the engine supports."""

    value: float


class QuantSupport(Sourced):
    """A quantization format on this engine: optimized kernel or merely supported."""

    kernel: Kernel
    platforms: list[Platform] | None = None
    """Platforms where this holds; None = every platform the engine supports."""
    min_cuda_cc: float | None = None
    """On NVIDIA, the lowest compute capability with this kernel (e.g. FP8 needs 8.9)."""
    below_min_cc: Kernel | None = None
    """What older NVIDIA cards still get (e.g. FP8 weight-only through Marlin); None = nothing."""


class Feature(Sourced):
    """A serving feature, present or not."""

    value: bool


class Features(_Strict):
    """Every serving feature the rule engine asks about (all required)."""

    paged_kv: Feature
    continuous_batching: Feature
    chunked_prefill: Feature
    prefix_caching: Feature
    radix_attention: Feature
    pd_disaggregation: Feature
    speculative_decoding: Feature
    structured_output: Feature
    multi_lora: Feature
    cuda_graphs: Feature
    openai_api: Feature
    anthropic_api: Feature
    multi_node: Feature
    kv_cache_quant: Feature


class Production(Sourced):
    """What the engine's own docs say about production use, summarised in our words."""

    stance: Stance
    summary: str


class Limit(Sourced):
    """One limitation, in our own words."""

    text: str


class Backends(Sourced):
    """Engines an orchestrator runs on top of."""

    engines: list[EngineId]


class EngineSpec(_Strict):
    """One engine of the catalog."""

    id: EngineId
    name: str
    family: Family
    kind: Kind
    doc: str
    """Corpus document id of the engine's fact sheet (knowledge/corpus/<doc>.md)."""
    hardware_source: str
    """The docs page listing supported hardware: the source of every "unsupported" answer."""
    platforms: dict[Platform, Support]
    min_cuda_cc: MinCudaCC | None = None
    os: dict[OsId, Support]
    quantizations: dict[str, QuantSupport]
    parallelism: dict[ParallelMode, Sourced]
    features: Features
    production: Production
    limits: list[Limit]
    backends: Backends | None = None

    @field_validator("hardware_source")
    @classmethod
    def _https(cls, value: str) -> str:
        return Sourced._https(value)

    @field_validator("quantizations")
    @classmethod
    def _quant_keys(cls, value: dict[str, QuantSupport]) -> dict[str, QuantSupport]:
        bad = sorted(set(value) - set(QUANT_KEYS))
        if bad:
            raise ValueError(f"unknown quantization ids {bad}; use {list(QUANT_KEYS)}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> "EngineSpec":
        if (self.kind == "orchestrator") != (self.backends is not None):
            raise ValueError("backends is required for an orchestrator and only for one")
        if self.min_cuda_cc and "nvidia-cuda" not in self.platforms:
            raise ValueError("min_cuda_cc given but nvidia-cuda is not a platform")
        for key, quant in self.quantizations.items():
            outside = set(quant.platforms or ()) - set(self.platforms)
            if outside:
                raise ValueError(f"quantizations.{key}.platforms {sorted(outside)} not in platforms")
        return self

    def feature(self, name: str) -> Feature:
        """The named serving feature (a key of FEATURES)."""
        if name not in FEATURES:
            raise UnknownIdError("feature", name, FEATURES)
        return getattr(self.features, name)


def _error_field(err: ValidationError) -> str:
    first = err.errors()[0]
    return ".".join(str(p) for p in first["loc"]) or "-"


def load_engines(path: Path = CATALOG_FILE) -> dict[str, EngineSpec]:
    """Read and validate an engines YAML file; DataError names file, entry and field."""
    name = path.name
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(name, None, None, f"cannot read: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("engines"), list):
        raise DataError(name, None, "engines", "expected a mapping with an 'engines' list")
    specs: dict[str, EngineSpec] = {}
    for i, entry in enumerate(raw["engines"]):
        entry_id = str(entry.get("id", f"#{i}")) if isinstance(entry, dict) else f"#{i}"
        try:
            spec = EngineSpec.model_validate(entry)
        except ValidationError as exc:
            first = exc.errors()[0]["msg"]
            raise DataError(name, entry_id, _error_field(exc), first) from exc
        if spec.id in specs:
            raise DataError(name, spec.id, "id", "duplicate engine id")
        specs[spec.id] = spec
    missing = [e for e in ENGINES if e not in specs]
    if missing:
        raise DataError(name, None, "engines", f"missing engine ids {missing}")
    return specs


@lru_cache(maxsize=1)
def all_engines() -> dict[str, EngineSpec]:
    """Every engine of the shipped catalog, by id (loaded once)."""
    return load_engines()


def engine(engine_id: str) -> EngineSpec:
    """The engine with this id; UnknownIdError lists the closest ids."""
    specs = all_engines()
    if engine_id not in specs:
        raise UnknownIdError("engine", engine_id, tuple(specs))
    return specs[engine_id]


def _resolve_hardware(hardware: Any) -> Any:
    """Accept a hardware object (duck-typed) or a hardware id resolved through rules.catalog."""
    if isinstance(hardware, str):
        from rules import catalog  # lazy: catalog.py loads this module too

        return catalog.hardware(hardware)
    return hardware


def _as_cc(value: Any) -> float | None:
    """Compute capability as a number ('8.9' and 8.9 both work); None when unknown."""
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def supports(engine_id: str, hardware: Any) -> tuple[bool, str, str]:
    """Can this engine run on this hardware? (ok, reason in words, source URL).

    Experimental support counts as not supported: the advisor never recommends it.
    """
    spec = engine(engine_id)
    hw = _resolve_hardware(hardware)
    platform = getattr(hw, "platform", None)
    hw_id = str(getattr(hw, "id", "hardware"))
    if platform is None:
        raise MissingFactError("hardware.yaml", hw_id, "platform", "no platform, cannot check engine support")
    support = spec.platforms.get(platform)
    if support is None:
        return False, f"{spec.name} does not list {platform} among its supported hardware", spec.hardware_source
    if support.status == "experimental":
        why = f": {support.note.rstrip('.')}" if support.note else ""
        return False, f"{spec.name} has only experimental support for {platform}{why}", support.source
    cc = _as_cc(getattr(hw, "cuda_cc", None))
    if platform == "nvidia-cuda" and spec.min_cuda_cc and cc is not None and cc < spec.min_cuda_cc.value:
        return (False, f"{spec.name} needs compute capability {spec.min_cuda_cc.value} or newer; "
                f"{hw_id} has {cc}", spec.min_cuda_cc.source)
    if support.status == "plugin":
        why = f": {support.note.rstrip('.')}" if support.note else ""
        return True, f"{spec.name} runs on {platform} through a hardware plugin{why}", support.source
    return True, f"{spec.name} supports {platform} natively", support.source


def quant_key(quant: str) -> str:
    """Catalog key of a quantization id: itself, or 'exl2'/'exl3' for `exl2-<bpw>`/`exl3-<bpw>`."""
    if not is_quant(quant):
        raise UnknownIdError("quantization", quant, QUANTS_FIXED + ("exl2-<bpw>", "exl3-<bpw>"))
    match = EXL_QUANT_RE.match(quant)
    return match.group(1) if match else quant


def quant_support(engine_id: str, quant: str) -> QuantSupport | None:
    """The catalog entry for this quantization on this engine (None = not supported)."""
    return engine(engine_id).quantizations.get(quant_key(quant))


def quant_kernel(engine_id: str, quant: str, platform: str | None = None,
                 cuda_cc: float | str | None = None) -> Kernel | None:
    """'optimized', 'supported' or None for this quantization on this engine (and platform)."""
    spec = engine(engine_id)
    if spec.backends is not None:  # an orchestrator runs whatever its backends run
        found = [quant_kernel(b, quant, platform, cuda_cc) for b in spec.backends.engines]
        return "optimized" if "optimized" in found else ("supported" if "supported" in found else None)
    entry = spec.quantizations.get(quant_key(quant))
    if entry is None or (platform is not None and platform not in spec.platforms):
        return None
    if platform is not None and entry.platforms is not None and platform not in entry.platforms:
        return None
    cc = _as_cc(cuda_cc)
    if cc is not None and entry.min_cuda_cc is not None and cc < entry.min_cuda_cc:
        return entry.below_min_cc
    return entry.kernel


def unverified_facts() -> list[str]:
    """Dotted paths of every catalog fact whose note says the docs did not confirm it."""
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, Sourced) and node.unverified:
            found.append(path)
        if isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name), f"{path}.{name}")
        elif isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    for engine_id, spec in all_engines().items():
        walk(spec, engine_id)
    return found
