"""The engine catalog: where each engine runs, which quantizations have kernels, what it serves.

Data lives in `rules/catalog/engines.yaml`; every fact carries the URL of the engine's own
documentation it came from. A fact the docs could not confirm says so in its `note`
("unverified ..."). Loading validates the file and fails with file, entry and field named.

    all_engines()                  -> {engine id: EngineSpec}
    engine(id)                     -> EngineSpec (UnknownIdError lists the closest ids)
    supports(engine_id, hardware)  -> (bool, reason, source URL)
    verdict(engine_id, hardware)   -> Verdict (ok, reason in en and zh-Hant, source, caveat)
    quant_kernel(engine_id, quant, platform=None, cuda_cc=None) -> "optimized" | "supported" | None
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from rules.display import local_name
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
GENERIC_WIDTHS: tuple[str, ...] = ("int4", "int8")
"""Quantization ids that name a bit width, not a file format: each engine reads them as its own."""


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


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
    targets: list[str] | None = None
    """AMD GPU targets (gfx ids) the engine lists for this platform; None = every device of it."""
    vendors: list[str] | None = None
    """Device vendors the engine lists for this platform (e.g. only Intel CPUs); None = any."""


class OlderReleases(Sourced):
    """A lower compute capability that older releases of the engine still supported."""

    value: float
    last_release: str
    """The newest release whose docs still list `value` (pin it to run on such GPUs)."""


class MinCudaCC(Sourced):
    """Lowest NVIDIA compute capability the engine supports."""

    value: float
    older_releases: OlderReleases | None = None


class QuantSupport(Sourced):
    """A quantization format on this engine: optimized kernel or merely supported."""

    kernel: Kernel
    platforms: list[Platform] | None = None
    """Platforms where this holds; None = every platform the engine supports."""
    min_cuda_cc: float | None = None
    """On NVIDIA, the lowest compute capability with this kernel (e.g. FP8 needs 8.9)."""
    below_min_cc: Kernel | None = None
    """What older NVIDIA cards still get (e.g. FP8 weight-only through Marlin); None = nothing."""
    below_min_cc_from: float | None = None
    """The oldest compute capability that fallback runs on (SGLang's FP8 Marlin: 8.0); None = the
    engine's own minimum."""
    kernel_on: dict[Platform, Kernel] = {}
    """A different kernel level on these platforms (vLLM's AWQ: Marlin on CUDA, a slower Triton kernel on ROCm)."""
    amd_needs_tflops: Literal["fp8", "fp4"] | None = None
    """On AMD GPUs the kernel needs this dtype in hardware (no weight-only fallback as on NVIDIA): a device
    whose catalog entry lists no such TFLOPS (CDNA2 MI250/MI210, RDNA3) gets no kernel."""


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


class Behaviour(Sourced):
    """How the engine behaves in one respect ("a model on several GPUs runs its layers one GPU after another"),
    in our own words, with the flags or settings that control it, spelled as the engine's docs spell them."""

    text: str
    flags: list[str] = []


class GenericFormats(Sourced):
    """What a bit width without a file format ("4-bit", "Q4", "int4") means on this engine: its own
    formats of that width, best first (GGUF Q4_K_M on llama.cpp, EXL2 on ExLlamaV2, AWQ on vLLM)."""

    int4: list[str]
    int8: list[str]


class HybridCpu(Sourced):
    """Whether the engine runs the layers (or MoE experts) that do not fit in GPU memory on the CPU
    from system RAM, so a model larger than the GPUs still runs at system-memory speed."""

    value: bool


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
    hybrid_cpu: HybridCpu
    single_server: Sourced | None = None
    """Set when one server process owns every visible GPU and places each model itself (Ollama): a plan is
    one instance, the model on one GPU or split by layers over several; replicas are separate servers
    behind a load balancer the engine does not run."""
    generic_formats: GenericFormats | None = None
    """None for an orchestrator (its backends' formats apply)."""
    needs_fast_fp16: Sourced | None = None
    """Set when the kernels compute in FP16: GPUs with crippled FP16 (compute 6.1) crawl."""
    backends: Backends | None = None
    behaviours: dict[str, Behaviour] = {}
    """Keyed facts the answers to "how does this engine behave?" questions read (agent.direct_engine)."""

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
        for width in ("int4", "int8"):
            formats = getattr(self.generic_formats, width) if self.generic_formats else []
            unknown = [f for f in formats if f not in self.quantizations]
            if unknown:
                raise ValueError(f"generic_formats.{width} names formats the engine does not list: {unknown}")
        if (self.generic_formats is None) != (self.kind == "orchestrator"):
            raise ValueError("generic_formats is required for an engine and only for one")
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
    """Every engine of the shipped catalog, by id (loaded once; pickled until the file or schema changes)."""
    from rules.catalog_cache import cached
    code = [Path(__file__), Path(__file__).with_name("ids.py")]
    return cached("engine-catalog", [CATALOG_FILE, *code], load_engines)


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


@dataclass(frozen=True)
class Verdict:
    """Can an engine run on a device: the answer, why (en and zh-Hant), the source, and whether it
    only holds with a condition the user must meet (an older release pinned)."""

    ok: bool
    en: str
    zh: str
    source: str
    caveat: bool = False


_GFX = re.compile(r"\b(gfx[0-9a-f]{3,4})\b", re.I)


def gfx_target(hw: Any) -> str | None:
    """The AMD GPU target of a device (gfx1100, gfx942, ...) when the catalog names it."""
    for text in (getattr(hw, "arch", None), getattr(hw, "notes", None)):
        match = _GFX.search(text or "")
        if match:
            return match.group(1).lower()
    return None


def _platform_verdict(spec: EngineSpec, hw: Any, platform: str, name: str, name_zh: str) -> Verdict | None:
    """A refusal from the platform entry itself (absent, experimental, wrong vendor or GPU target)."""
    support = spec.platforms.get(platform)
    if support is None:
        return Verdict(False, f"{spec.name} does not list {platform} among its supported hardware",
                       f"{spec.name} 的支援清單裡沒有 {platform}", spec.hardware_source)
    why = f": {support.note.rstrip('.')}" if support.note else ""
    if support.status == "experimental":
        return Verdict(False, f"{spec.name} has only experimental support for {platform}{why}",
                       f"{spec.name} 對 {platform} 只有實驗性支援，不列入建議", support.source)
    vendor = str(getattr(hw, "vendor", "") or "")
    if support.vendors and vendor and not any(v.lower() in vendor.lower() for v in support.vendors):
        listed = ", ".join(support.vendors)
        return Verdict(False, f"{spec.name} on {platform} is documented for {listed} devices only{why}; {name} is not one",
                       f"{spec.name} 在 {platform} 上只支援 {listed} 的裝置，{name_zh} 不在其中", support.source)
    target = gfx_target(hw)
    if support.targets and target and target not in support.targets:
        listed = ", ".join(support.targets)
        return Verdict(False, f"{spec.name}'s {platform} build lists {listed}; {name} is {target}",
                       f"{spec.name} 的 {platform} 版本只列出 {listed}；{name_zh} 是 {target}", support.source)
    return None


def _cc_text(cc: float) -> str:
    """A compute capability as NVIDIA writes it: one decimal, so 7.0 never reads as a bare "7"."""
    return f"{cc:.1f}"


def _cc_verdict(spec: EngineSpec, cc: float, name: str, name_zh: str) -> Verdict | None:
    """A refusal (or a pinned-release caveat) from the engine's minimum compute capability."""
    need = spec.min_cuda_cc
    if need is None or cc >= need.value:
        return None
    older = need.older_releases
    if older is not None and cc >= older.value:
        return Verdict(True, f"{spec.name} releases up to {older.last_release} still support compute capability "
                       f"{_cc_text(older.value)} ({name} is {_cc_text(cc)}); newer ones need {_cc_text(need.value)}, "
                       f"so pin that release",
                       f"{spec.name} 到 {older.last_release} 為止的版本仍支援 compute capability {_cc_text(older.value)}"
                       f"（{name_zh} 是 {_cc_text(cc)}），更新的版本需要 {_cc_text(need.value)}，所以要固定在該版本", older.source, caveat=True)
    if older is not None:   # below even the oldest supported floor: no official release ever shipped kernels for it
        return Verdict(False, f"{spec.name} needs compute capability {_cc_text(need.value)} or newer ({_cc_text(older.value)} up to "
                       f"{older.last_release}); {name} has {_cc_text(cc)}, which no official build supports (only community "
                       f"source builds)", f"{spec.name} 需要 compute capability {_cc_text(need.value)} 以上（{older.last_release} "
                       f"以前是 {_cc_text(older.value)}）；{name_zh} 只有 {_cc_text(cc)}，官方版本從未支援（只有社群自行編譯的版本）", need.source)
    return Verdict(False, f"{spec.name} needs compute capability {_cc_text(need.value)} or newer; {name} has "
                   f"{_cc_text(cc)}", f"{spec.name} 需要 compute capability {_cc_text(need.value)} 以上，{name_zh} 只有 "
                   f"{_cc_text(cc)}", need.source)


def os_gate(engine_id: str, os_id: str | None) -> tuple[str, str, str] | None:
    """(en, zh, source) when the engine has no native build for the stated OS (None: native, or not stated)."""
    spec = engine(engine_id)
    entry = spec.os.get(os_id) if os_id and spec.os else None
    if entry is None or entry.status == "native":
        return None
    names = {"windows": "Windows", "macos": "macOS", "linux": "Linux"}
    note = f" ({entry.note.rstrip('.')})" if entry.note else ""
    wsl = os_id == "windows" and not entry.note   # a note says the way round itself (WSL, a beta build)
    return (f"{spec.name} has no native {names[os_id]} build{note}" + ("; at most under WSL2" if wsl else ""),
            f"{spec.name} 沒有原生的 {names[os_id]} 版本" + ("，最多只能在 WSL2 中執行" if wsl else ""),
            entry.source or spec.hardware_source)


def verdict(engine_id: str, hardware: Any, slow_fp16: bool = False) -> Verdict:
    """Can this engine run on this hardware? Experimental support counts as no: never recommended."""
    spec = engine(engine_id)
    hw = _resolve_hardware(hardware)
    platform = getattr(hw, "platform", None)
    hw_id = str(getattr(hw, "id", "hardware"))
    name = str(getattr(hw, "name", None) or hw_id)
    name_zh = local_name(hw, "zh") if getattr(hw, "name", None) else hw_id   # a zh-Hant reason names it in zh-Hant
    if platform is None:
        raise MissingFactError("hardware.yaml", hw_id, "platform", "no platform, cannot check engine support")
    refused = _platform_verdict(spec, hw, platform, name, name_zh)
    if refused is not None:
        return refused
    cc = _as_cc(getattr(hw, "cuda_cc", None))
    caveat = _cc_verdict(spec, cc, name, name_zh) if platform == "nvidia-cuda" and cc is not None else None
    if caveat is not None and not caveat.ok:
        return caveat
    if platform == "nvidia-cuda" and slow_fp16 and spec.needs_fast_fp16 is not None:
        return Verdict(False, f"{spec.name} computes in FP16, which {name} (compute {_cc_text(cc)}) runs at a small fraction "
                       f"of its FP32 rate: about one token per second", f"{spec.name} 以 FP16 運算，而 {name_zh}"
                       f"（compute {_cc_text(cc)}）的 FP16 只有 FP32 速度的一小部分，大約每秒一個 token",
                       spec.needs_fast_fp16.source)
    if caveat is not None:
        return caveat
    support = spec.platforms[platform]
    if support.status == "plugin":
        why = f": {support.note.rstrip('.')}" if support.note else ""
        return Verdict(True, f"{spec.name} runs on {platform} through a hardware plugin{why}",
                       f"{spec.name} 透過硬體 plugin 在 {platform} 上執行", support.source)
    return Verdict(True, f"{spec.name} supports {platform} natively", f"{spec.name} 原生支援 {platform}", support.source)


def supports(engine_id: str, hardware: Any) -> tuple[bool, str, str]:
    """Can this engine run on this hardware? (ok, reason in words, source URL).

    Experimental support counts as not supported: the advisor never recommends it.
    """
    v = verdict(engine_id, hardware)
    return v.ok, v.en, v.source


def quant_key(quant: str) -> str:
    """Catalog key of a quantization id: itself, or 'exl2'/'exl3' for `exl2-<bpw>`/`exl3-<bpw>`."""
    if not is_quant(quant):
        raise UnknownIdError("quantization", quant, QUANTS_FIXED + ("exl2-<bpw>", "exl3-<bpw>"))
    match = EXL_QUANT_RE.match(quant)
    return match.group(1) if match else quant


def quant_support(engine_id: str, quant: str) -> QuantSupport | None:
    """The catalog entry for this quantization on this engine (None = not supported)."""
    return engine(engine_id).quantizations.get(quant_key(quant))


def _entry_kernel(spec: EngineSpec, key: str, platform: str | None, cc: float | None) -> Kernel | None:
    entry = spec.quantizations.get(key)
    if entry is None or (platform is not None and platform not in spec.platforms):
        return None
    if platform is not None and entry.platforms is not None and platform not in entry.platforms:
        return None
    if cc is not None and entry.min_cuda_cc is not None and cc < entry.min_cuda_cc:
        # The fallback kernel (weight-only FP8 Marlin) has its own floor: the entry's, else the engine's
        # current minimum, so a V100 on a pinned older vLLM gets neither (vLLM fp8.md: W8A16 from 7.5).
        floor = entry.below_min_cc_from
        if floor is None and spec.min_cuda_cc is not None:
            floor = spec.min_cuda_cc.value
        return entry.below_min_cc if floor is None or cc >= floor else None
    return entry.kernel_on.get(platform, entry.kernel) if platform is not None else entry.kernel


def own_formats(engine_id: str, quant: str) -> list[str]:
    """The catalog keys a quantization id stands for on this engine: itself, and for a bare bit width
    (`int4`, `int8`) the engine's own formats of that width."""
    spec = engine(engine_id)
    key = quant_key(quant)
    extra = getattr(spec.generic_formats, key, []) if spec.generic_formats and key in GENERIC_WIDTHS else []
    return list(dict.fromkeys([*extra, key]))


def own_format(engine_id: str, quant: str, platform: str | None = None, cuda_cc: float | str | None = None) -> str | None:
    """The catalog key this engine would use for `quant` here: the best-kernel format among its own."""
    spec = engine(engine_id)
    cc = _as_cc(cuda_cc)
    found = [(k, _entry_kernel(spec, k, platform, cc)) for k in own_formats(engine_id, quant)]
    for wanted in ("optimized", "supported"):
        for key, kernel in found:
            if kernel == wanted:
                return key
    return None


def quant_kernel(engine_id: str, quant: str, platform: str | None = None,
                 cuda_cc: float | str | None = None) -> Kernel | None:
    """'optimized', 'supported' or None for this quantization on this engine (and platform).

    A bare bit width ("int4") is read as the engine's own format of that width."""
    spec = engine(engine_id)
    if spec.backends is not None:  # an orchestrator runs whatever its backends run
        found = [quant_kernel(b, quant, platform, cuda_cc) for b in spec.backends.engines]
        return "optimized" if "optimized" in found else ("supported" if "supported" in found else None)
    key = own_format(engine_id, quant, platform, cuda_cc)
    return _entry_kernel(spec, key, platform, _as_cc(cuda_cc)) if key else None


def weight_only(engine_id: str, quant: str, platform: str | None, cuda_cc: float | str | None) -> bool:
    """The engine runs `quant` on this NVIDIA GPU only through its weight-only fallback (FP8 checkpoints on
    Ampere through the FP8 Marlin kernel: FP8 weights, 16-bit math), an optimized kernel, not a missing one."""
    spec = engine(engine_id)
    if spec.backends is not None:
        return any(weight_only(b, quant, platform, cuda_cc) for b in spec.backends.engines)
    cc = _as_cc(cuda_cc)
    key = own_format(engine_id, quant, platform, cuda_cc)
    entry = spec.quantizations.get(key) if key else None
    if platform != "nvidia-cuda" or cc is None or entry is None or entry.min_cuda_cc is None or entry.below_min_cc is None:
        return False
    return cc < entry.min_cuda_cc and _entry_kernel(spec, key, platform, cc) is not None


def _amd_blocked(entry: QuantSupport | None, hw: Any) -> str | None:
    """The dtype an AMD kernel needs that this device lacks in hardware (None: not blocked)."""
    if entry is None or hw.platform != "amd-rocm" or not entry.amd_needs_tflops:
        return None
    return None if getattr(hw.tflops, entry.amd_needs_tflops, None) else entry.amd_needs_tflops


def device_kernel(engine_id: str, quant: str, hw: Any, exact: bool = False) -> Kernel | None:
    """quant_kernel on one device: a format whose AMD kernels need a dtype the device lacks in hardware
    (FP8 on MI250) does not count, and a bare width falls to the engine's next own format (`exact`: the
    catalog entry of that very id only, e.g. vLLM's INT4 W4A16 checkpoints, not its AWQ/GPTQ)."""
    spec = engine(engine_id)
    if spec.backends is not None:
        kernels = [device_kernel(b, quant, hw, exact) for b in spec.backends.engines]
        return "optimized" if "optimized" in kernels else ("supported" if "supported" in kernels else None)
    cc = _as_cc(hw.cuda_cc)
    keys = [quant_key(quant)] if exact else own_formats(engine_id, quant)
    found = [_entry_kernel(spec, k, hw.platform, cc) for k in keys
             if not _amd_blocked(spec.quantizations.get(k), hw)]
    return "optimized" if "optimized" in found else ("supported" if "supported" in found else None)


def amd_dtype_gate(engine_id: str, quant: str, hw: Any) -> tuple[str, str] | None:
    """(en, zh) reason when the engine's kernel for `quant` on AMD needs a dtype this device lacks."""
    if hw is None or hw.platform != "amd-rocm" or device_kernel(engine_id, quant, hw) is not None:
        return None
    spec = engine(engine_id)
    if spec.backends is not None:
        return next((g for b in spec.backends.engines if (g := amd_dtype_gate(b, quant, hw))), None)
    dtype = next((d for k in own_formats(engine_id, quant)
                  if (d := _amd_blocked(spec.quantizations.get(k), hw))
                  and _entry_kernel(spec, k, hw.platform, None) is not None), None)
    if dtype is None:
        return None
    dtype = dtype.upper()
    return (f"{spec.name}'s {quant} kernels need {dtype} in hardware on AMD GPUs (MI300-class and newer); "
            f"{hw.name} has no {dtype} units",
            f"{spec.name} 的 {quant} kernel 在 AMD GPU 上需要硬體 {dtype}（MI300 系列以後）；{hw.name} 沒有 {dtype} 單元")


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


_ARCH_FROM_CC = ((7.0, "Volta"), (7.5, "Turing"), (8.0, "Ampere"), (8.9, "Ada"), (9.0, "Hopper"), (10.0, "Blackwell"))
"""NVIDIA architectures by the compute capability they start at (CUDA GPU compute capability table,
https://developer.nvidia.com/cuda-gpus): names the GPUs a CC gate admits."""


def cc_gate(engine_id: str, quant: str, platform: str | None, cuda_cc: float | str | None,
            device: str | None = None) -> tuple[str, str] | None:
    """(en, zh) reason when the engine has a kernel for `quant` on this platform but only from a compute
    capability the device lacks (TensorRT-LLM FP8 needs CC >= 8.9): the gate is the hardware, not a
    missing kernel. None when no such gate applies."""
    cc = _as_cc(cuda_cc)
    if platform != "nvidia-cuda" or cc is None:
        return None
    spec = engine(engine_id)
    key = own_format(engine_id, quant, platform, None)
    entry = spec.quantizations.get(key) if key else None
    if entry is None or entry.min_cuda_cc is None or cc >= entry.min_cuda_cc:
        return None
    if entry.platforms is not None and platform not in entry.platforms:
        return None
    archs = "/".join(name for start, name in _ARCH_FROM_CC if start >= entry.min_cuda_cc) or "newer"
    article = "an" if archs[0] in "AEIOU" else "a"
    dev = device or "this GPU"
    need = _cc_text(entry.min_cuda_cc)
    floor = entry.below_min_cc_from or (spec.min_cuda_cc.value if spec.min_cuda_cc else None)
    if entry.below_min_cc and floor is not None and cc < floor:   # too old for the weight-only fallback too
        need_zh = f"{need}；僅權重量化的路徑從 CC {_cc_text(floor)} 起"
        need = f"{need}; weight-only from CC {_cc_text(floor)}"
    else:
        need_zh = need
    if key != quant_key(quant):
        # a bare width the engine has no kernel of its own for (TensorRT-LLM's 8-bit is FP8 only): say so,
        # never that the width "runs as" the other format (an INT8 checkpoint does not become FP8)
        width = quant.upper()
        return (f"{spec.name} has no {width} kernels; its {width[-1]}-bit format is {key}, which needs {article} "
                f"{archs} GPU (CC ≥ {need}); {dev} is CC {cc:.1f}",
                f"{spec.name} 沒有 {width} kernel；它的 {width[-1]}-bit 格式是 {key}，需要 {archs} GPU"
                f"（CC ≥ {need_zh}）；{dev} 是 CC {cc:.1f}")
    return (f"{spec.name}'s {quant} kernels need {article} {archs} GPU (CC ≥ {need}); {dev} is CC {cc:.1f}",
            f"{spec.name} 的 {quant} kernel 需要 {archs} GPU（CC ≥ {need_zh}）；{dev} 是 CC {cc:.1f}")
