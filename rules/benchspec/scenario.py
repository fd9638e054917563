"""The scenario half of the spec: model, weights, engines and hardware, from profile + catalog.

Whatever neither the user nor the catalog knows is left as an explicit `fill in` field, so the
person running the benchmark records it instead of the spec guessing it.
"""
from __future__ import annotations

from typing import Any

from rules.benchspec.spec import FILL_IN, EngineInfo, HardwareInfo, ModelInfo, Scenario, Weights
from rules.errors import AdvisorError
from rules.ids import exl_bpw
from rules.profile import Profile

_COMMON_RECORD = [
    "tensor / pipeline / expert parallel sizes",
    "maximum concurrent sequences (batch limit)",
    "maximum batched tokens per step (chunked-prefill budget)",
    "prefix caching on or off",
    "KV-cache dtype and the memory fraction reserved for it",
    "maximum model length (context) configured",
    "CUDA graphs / compilation mode",
    "speculative decoding settings (or off)",
]
_LOCAL_RECORD = [
    "layers offloaded to the GPU",
    "parallel slots and context size per slot",
    "KV-cache quantization",
    "batch / micro-batch sizes",
]
_LOCAL_ENGINES = {"llama.cpp", "ollama", "mlx-lm", "exllamav2", "exllamav3"}
# Block sizes fixed by the format definitions (ggml QK4_0/QK8_0 = 32, QK_K = 256; OCP MX = 32;
# NVFP4 = 16), so they are facts of the format, not of the checkpoint.
_FORMAT_GROUPS = {
    "q4_0": "32-weight blocks (GGUF)", "q8_0": "32-weight blocks (GGUF)",
    "q4_k_m": "256-weight super-blocks (GGUF k-quant)", "q5_k_m": "256-weight super-blocks (GGUF k-quant)",
    "q6_k": "256-weight super-blocks (GGUF k-quant)", "mxfp4": "32-element blocks (OCP MX)",
    "nvfp4": "16-element blocks (NVFP4)",
}


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """A field of a pydantic object or a dict."""
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _catalog_entry(kind: str, ident: str | None, notes: list[str]) -> Any:
    """A catalog entry, or None (noted) when the catalog is absent or lacks it."""
    if not ident:
        return None
    try:
        from rules import catalog
        return getattr(catalog, kind)(ident)
    except ImportError:
        notes.append(f"The {kind} catalog is not available: {kind} facts left to fill in.")
    except AdvisorError as exc:
        notes.append(f"No catalog entry for {kind} '{ident}' ({exc}): its facts are left to fill in.")
    return None


def model_info(profile: Profile, notes: list[str]) -> ModelInfo:
    """The model, from the catalog when it knows the id."""
    entry = _catalog_entry("model", profile.model, notes)
    params = profile.params_b or _get(entry, "params_b")
    active = profile.active_params_b or _get(entry, "active_params_b") or params
    if not profile.model and not params:
        notes.append("Model not stated: fill in the exact model before running.")
    return ModelInfo(id=profile.model, name=_get(entry, "name"),
                     architecture=profile.architecture or _get(entry, "architecture"),
                     params_b=params, active_params_b=active, source=_get(entry, "source"))


def weights_info(profile: Profile, notes: list[str]) -> Weights:
    """Weight format facts implied by the quantization id; unknowns to fill in."""
    q = profile.quantization
    kv = profile.kv_cache_dtype or "same as activations (16-bit)"
    if q is None:
        notes.append("Quantization not stated: record the exact weight format you serve.")
        return Weights(dtype=FILL_IN, quantization=FILL_IN, group_size=FILL_IN,
                       calibration=FILL_IN, kv_cache_dtype=kv)
    if q in ("bf16", "f16"):
        return Weights(dtype=q, quantization="none (16-bit weights)", group_size="n/a",
                       calibration="n/a", kv_cache_dtype=kv)
    if q in ("fp8", "int8"):
        return Weights(dtype=q, quantization=q, group_size=f"{FILL_IN}: per-tensor, per-channel or "
                       "block scales", calibration=f"{FILL_IN}: static or dynamic activation scales",
                       kv_cache_dtype=kv)
    bpw = exl_bpw(q)
    if bpw is not None:
        fmt = q.split("-")[0].upper()
        return Weights(dtype=f"{fmt} at {bpw:g} bits per weight on average", quantization=fmt,
                       group_size="n/a (bit width varies per layer)",
                       calibration=f"{FILL_IN}: calibration data used for the conversion",
                       kv_cache_dtype=kv)
    group = _FORMAT_GROUPS.get(q, f"{FILL_IN}: quantization group size")
    calib = "none needed (round-to-nearest format)" if q in ("q4_0", "q8_0") else \
        f"{FILL_IN}: calibration data set (or importance matrix) used"
    return Weights(dtype=f"{q} weights, 16-bit activations", quantization=q, group_size=group,
                   calibration=calib, kv_cache_dtype=kv)


def engines_info(decision: Any, notes: list[str]) -> list[EngineInfo]:
    """The shortlisted engines: the decision's primary and up to two alternatives."""
    primary = _get(decision, "primary")
    alts = list(_get(decision, "alternatives", []) or [])[:2]
    if not primary and not alts:
        notes.append("No engine shortlist: add the engines you are considering to the plan.")
        return []
    out = [EngineInfo(id=primary, role="primary", record=_record(primary))] if primary else []
    out += [EngineInfo(id=e, role="alternative", record=_record(e)) for e in alts if e != primary]
    return out


def _record(engine: str) -> list[str]:
    return list(_LOCAL_RECORD if engine in _LOCAL_ENGINES else _COMMON_RECORD)


def hardware_info(profile: Profile, notes: list[str]) -> HardwareInfo:
    """The hardware, from the catalog when it knows the id."""
    entry = _catalog_entry("hardware", profile.hardware, notes)
    if not profile.hardware:
        notes.append("Hardware not stated: fill in the accelerator SKU before running.")
    inter = profile.interconnect or _get(entry, "interconnect")
    if (profile.count or 1) == 1 and profile.nodes == 1 and inter is None:
        inter = "none"
    return HardwareInfo(id=profile.hardware, name=_get(entry, "name"), count=profile.count or 1,
                        nodes=profile.nodes, memory_gb=profile.memory_gb or _get(entry, "memory_gb"),
                        mem_bw_gbs=_get(entry, "mem_bw_gbs"), interconnect=inter,
                        source=_get(entry, "source"))


def build_scenario(profile: Profile, decision: Any, notes: list[str]) -> Scenario:
    """The scenario block of the spec."""
    return Scenario(model=model_info(profile, notes), weights=weights_info(profile, notes),
                    engines=engines_info(decision, notes), hardware=hardware_info(profile, notes))
