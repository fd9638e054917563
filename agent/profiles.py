"""Profiles and answers given as files (YAML mappings), checked into clear one-line errors."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.errors import InputError, UnknownIdError


def load_mapping(path: str | Path, what: str) -> dict[str, Any]:
    """A YAML file that must hold a mapping; InputError naming the file otherwise."""
    from rules.inputs import clean_text, load_yaml, read_text
    p = Path(path)
    data = load_yaml(read_text(p, what), f"{what} file {clean_text(str(p), 'path', 10_000)}")
    if data is None:
        raise InputError(f"{what} file {p} is empty")
    if not isinstance(data, dict):
        raise InputError(f"{what} file {p} must be a mapping of field: value (got {type(data).__name__})")
    return data


def _resolve_id(field: str, value: Any) -> str:
    from rules import catalog
    table, resolver = ((catalog.all_hardware(), catalog.resolve_hardware) if field == "hardware"
                       else (catalog.all_models(), catalog.resolve_model))
    resolved = resolver(str(value))
    if resolved is None:
        raise UnknownIdError(field, str(value), list(table))
    return resolved


def profile_from_mapping(data: dict[str, Any], source: str = "profile file") -> Any:
    """A validated Profile from field: value pairs (natural names resolve; unknown ids → closest)."""
    from rules import catalog
    from rules.profile import Profile, build_profile
    fields = [info.alias or f for f, info in Profile.model_fields.items() if f != "provenance"]
    values = {}
    for key, value in data.items():
        if key not in fields:
            raise UnknownIdError("profile field", str(key), fields)
        if key in ("hardware", "model") and value is not None:
            value = _resolve_id(key, value)
        values[key] = value
    values["provenance"] = {k: {"evidence": f"{source}: {k}"} for k, v in values.items() if v is not None}
    profile = build_profile(values)
    if profile.hf_config is not None and not profile.params_b:  # size facts from the user's config.json
        spec = catalog.spec_for_profile(profile)
        for field in ("params_b", "active_params_b", "architecture"):
            profile = profile.with_value(field, getattr(spec, field), evidence=f"{source}: model_config")
    catalog.check_profile_against_catalog(profile)
    return profile
