"""The catalogs: hardware, models (rules/catalog/*.yaml) and engines (rules.engines), with aliases.

    hardware(id) / model(id) / engine(id)      -> spec, or UnknownIdError listing the closest ids
    all_hardware() / all_models() / all_engines() -> {id: spec}
    hardware_file(id)                          -> the catalog file an entry lives in
    resolve_hardware(text) / resolve_model(text)  -> id | None ("H100" -> h100_sxm, "Llama 3.3 70B" -> llama-3.1-70b)
    resolve_model_match(text)                   -> rules.model_resolve.Match (id + fine-tune / quantized-build note)
    describe_model(params_b, active_params_b=None, ...) -> a generic ModelSpec with its assumptions
    spec_for_profile(profile)                   -> the ModelSpec a profile names (id, config.json or size)
    check_profile_against_catalog(profile)      -> raises ProfileError for ids or context the catalogs reject

Hardware lives in one file per vendor or family (rules/catalog/hardware/*.yaml); names are resolved by
the token index of rules.hardware_index (variants chosen by memory, package and core count).
Loading validates every entry and fails with DataError naming file, entry and field. Loads are cached.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from rules.catalog_schema import Attention, Hardware, ModelSpec, Tflops
from rules.errors import DataError, ProfileError, UnknownIdError

CATALOG_DIR = Path(__file__).with_name("catalog")
HARDWARE_DIR = "hardware"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

__all__ = [
    "Hardware", "ModelSpec", "Tflops", "Attention", "hardware", "model", "engine", "all_hardware", "hardware_file",
    "all_models", "all_engines", "resolve_hardware", "resolve_model", "resolve_model_match", "describe_model",
    "check_profile_against_catalog", "spec_for_profile",
]


def _load(file: str, key: str, schema: type, into: dict[str, Any] | None = None,
          defaults: dict[str, Any] | None = None, origin: dict[str, str] | None = None) -> dict[str, Any]:
    """Read one catalog file into {id: validated entry} (added to `into`, ids unique across files;
    `defaults` fill keys an entry leaves out)."""
    path = CATALOG_DIR / file
    name = f"rules/catalog/{file}"
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(name, None, None, f"cannot read: {exc}") from None
    entries = data.get(key) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise DataError(name, None, key, "expected a list of entries")
    out: dict[str, Any] = {} if into is None else into
    for i, raw in enumerate(entries):
        if defaults and isinstance(raw, dict):
            raw = {**defaults, **raw}
        entry = str(raw.get("id", f"#{i}")) if isinstance(raw, dict) else f"#{i}"
        try:
            spec = schema.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or None
            raise DataError(name, entry, field, err["msg"].removeprefix("Value error, ")) from None
        if spec.id in out:
            where = f" (also in {origin[spec.id]})" if origin and spec.id in origin else ""
            raise DataError(name, entry, "id", f"duplicate id{where}")
        out[spec.id] = spec
        if origin is not None:
            origin[spec.id] = name
    return out


def hardware_files() -> list[Path]:
    """The hardware catalog files (one per vendor or family)."""
    return sorted((CATALOG_DIR / HARDWARE_DIR).glob("*.yaml"))


@functools.cache
def _hardware_tables() -> tuple[dict[str, Hardware], dict[str, str]]:
    files = hardware_files()
    if not files:
        raise DataError(f"rules/catalog/{HARDWARE_DIR}", None, None, "no hardware catalog files")

    def build() -> tuple[dict[str, Hardware], dict[str, str]]:
        table: dict[str, Hardware] = {}
        origin: dict[str, str] = {}
        for path in files:
            _load(f"{HARDWARE_DIR}/{path.name}", "hardware", Hardware, into=table, origin=origin)
        return table, origin
    from rules.catalog_cache import cached
    return cached("hardware-catalog", files, build)


def all_hardware() -> dict[str, Hardware]:
    """Every hardware entry, by id (all files of rules/catalog/hardware/, loaded once)."""
    return _hardware_tables()[0]


all_hardware.cache_clear = _hardware_tables.cache_clear  # type: ignore[attr-defined]


def hardware_file(hw_id: str) -> str:
    """The catalog file an entry comes from (for error messages)."""
    return _hardware_tables()[1].get(hw_id, f"rules/catalog/{HARDWARE_DIR}")


@functools.cache
def all_models() -> dict[str, ModelSpec]:
    """Every model entry, by id, from one file per family (rules/catalog/models/<family>.yaml)."""
    paths = sorted((CATALOG_DIR / "models").glob("*.yaml"))
    if not paths:
        raise DataError("rules/catalog/models", None, None, "no model catalog files")

    def build() -> dict[str, ModelSpec]:
        table: dict[str, ModelSpec] = {}
        for path in paths:
            _load(f"models/{path.name}", "models", ModelSpec, into=table, defaults={"family": path.stem})
        return table
    from rules.catalog_cache import cached
    return cached("model-catalog", paths, build)


def hardware(hw_id: str) -> Hardware:
    """The hardware entry for an id or alias; UnknownIdError lists the closest ids."""
    table = all_hardware()
    key = hw_id if hw_id in table else resolve_hardware(hw_id)
    if key is None:
        raise UnknownIdError("hardware", hw_id, list(table))
    return table[key]


def model(model_id: str) -> ModelSpec:
    """The model entry for an id or alias; UnknownIdError lists the closest ids."""
    table = all_models()
    key = model_id if model_id in table else resolve_model(model_id)
    if key is None:
        raise UnknownIdError("model", model_id, list(table))
    return table[key]


def _engines_module():
    try:
        from rules import engines as mod  # owned by the engines catalog; may not exist yet
    except ModuleNotFoundError as exc:
        if exc.name != "rules.engines":
            raise
        raise DataError("rules/engines.py", None, None, "the engine catalog is not available in this build") from None
    return mod


def engine(engine_id: str):
    """The engine entry (delegates to rules.engines); UnknownIdError for unknown ids."""
    return _engines_module().engine(engine_id)


def all_engines() -> dict:
    """Every engine entry, by id (delegates to rules.engines)."""
    return _engines_module().all_engines()


# --- names ------------------------------------------------------------------------------
def resolve_hardware(text: str) -> str | None:
    """Hardware id for what people type ("H100", "4090", "M3 Ultra", "A100 40GB PCIe"), or None."""
    if not text:
        return None
    if text in all_hardware():
        return text
    from rules import hardware_index  # lazy: the index imports this module
    match = hardware_index.resolve(str(text))
    return match.id if match else None


def resolve_model(text: str) -> str | None:
    """Model id for what people type ("Llama 3.3 70B", "qwen2.5:14b", "R1-Distill-Llama-70B"), or None."""
    if not text:
        return None
    if text in all_models():
        return text
    match = resolve_model_match(text)
    return match.id if match else None


def resolve_model_match(text: str):
    """The full reading of a model name (rules.model_resolve.Match: id and any fine-tune / quantized-build
    note), or None."""
    from rules import model_resolve  # the index builds on first use only
    return model_resolve.resolve(str(text))


# --- models we do not know ----------------------------------------------------------------
def describe_model(params_b: float, active_params_b: float | None = None, *, layers: int | None = None,
                   hidden: int | None = None, kv_heads: int = 8, head_dim: int = 128,
                   max_context: int = 131072, name: str | None = None) -> ModelSpec:
    """A generic Llama-shaped spec from a model's size; every guessed number is in `.assumptions`."""
    if params_b <= 0 or (active_params_b is not None and not 0 < active_params_b <= params_b):
        raise ProfileError("params_b", "needs 0 < active_params_b <= params_b")
    shape_b = active_params_b or params_b
    notes = []
    if hidden is None:  # Llama family: ~12 * layers * hidden^2 params with hidden/layers ~ 128
        step = kv_heads * head_dim  # so the query heads split evenly over the KV heads
        hidden = max(1, round((shape_b * 1e9 * 128 / 12) ** (1 / 3) / step)) * step
        notes.append(f"hidden size {hidden} guessed from {shape_b:g}B params (Llama-like: 12*layers*hidden^2, hidden/layers~128)")
    if layers is None:
        layers = max(1, round(hidden / 128))
        notes.append(f"{layers} layers guessed (hidden/128)")
    notes.append(f"GQA with {kv_heads} KV heads of dim {head_dim} assumed (typical of 2024-25 models)")
    notes.append(f"max context {max_context} assumed")
    moe = active_params_b is not None and active_params_b < params_b
    if moe:
        notes.append("MoE: only the active parameters are read per token at batch 1; expert count unknown, "
                     "so batching is assumed to touch all experts quickly")
    kv = 2 * layers * kv_heads * head_dim * 2
    return ModelSpec(
        id="custom", name=name or f"custom {params_b:g}B" + (f" (A{active_params_b:g}B)" if moe else ""),
        architecture="moe" if moe else "dense", params_b=params_b, active_params_b=active_params_b or params_b,
        layers=layers, hidden=hidden, q_heads=max(1, hidden // head_dim), kv_heads=kv_heads, head_dim=head_dim,
        vocab=128000, experts=64 if moe else None, experts_per_tok=8 if moe else None,
        moe_layers=layers if moe else None, attention=Attention(kind="gqa"), kv_bytes_per_token_bf16=kv,
        max_context=max_context, confidence="low", source="describe_model(): generic spec from the user's numbers",
        assumptions=notes + ["vocab 128000 assumed"], notes="not a catalog model")


def named_spec(spec: ModelSpec, words: str | None) -> ModelSpec:
    """`spec` with the window of the checkpoint the user's words name, when that checkpoint has its own
    ("Qwen3-Coder-30B-A3B" takes 262,144 tokens where the entry's base checkpoint takes 40,960)."""
    if not spec.checkpoint_context or not words:
        return spec
    from rules.model_resolve import serving_repo   # lazy: model_resolve reads this module
    n = spec.checkpoint_context.get(serving_repo(spec, words))
    return spec.model_copy(update={"max_context": n}) if n else spec


def _words(profile) -> str | None:
    prov = (getattr(profile, "provenance", None) or {}).get("model")
    return prov.evidence if prov is not None and not prov.assumed else None


def spec_for_profile(profile) -> ModelSpec | None:
    """The model a profile names: a catalog id, else its config.json, else a generic spec from its size."""
    if profile.model:
        return named_spec(model(profile.model), _words(profile))
    if profile.hf_config is not None:
        from rules.model_config import load_model_config
        return load_model_config(profile.hf_config)
    if profile.params_b:
        return describe_model(profile.params_b, profile.active_params_b)
    return None


def check_profile_against_catalog(profile) -> None:
    """Raise ProfileError when the profile names unknown ids or a context the model cannot take."""
    if profile.hardware is not None and resolve_hardware(profile.hardware) is None:
        err = UnknownIdError("hardware", profile.hardware, list(all_hardware()))
        raise ProfileError("hardware", str(err))
    if profile.model is not None:
        key = resolve_model(profile.model)
        if key is None:
            err = UnknownIdError("model", profile.model, list(all_models()))
            raise ProfileError("model", str(err))
        spec = named_spec(all_models()[key], _words(profile))
        for field in ("context_length", "input_tokens"):
            value = getattr(profile, field)
            if value is not None and value > spec.max_context:
                raise ProfileError(field, f"{value} tokens exceeds {spec.id}'s maximum context of {spec.max_context}",
                                   zh=f"{value:,} tokens 超過 {spec.id} 的最大 context（{spec.max_context:,}）")
