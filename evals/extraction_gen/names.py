"""Device and model names as users type them, drawn from the catalogs (so the set grows with them).

Only names that resolve back to their own id through `rules.catalog` are used: a name the catalog
itself cannot place would make a label the extractor could not be blamed for missing.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# Whole systems or racks (their device count is a convention of their own), and cloud instance names.
_SKIP = re.compile(r"^(?:DGX|HGX)\b|NVL\d|\bAWS\b|^g5$|\(", re.I)


@dataclass(frozen=True)
class Device:
    """A device id with the names people call it and its catalog class."""

    id: str
    names: tuple[str, ...]
    hw_class: str


@dataclass(frozen=True)
class Model:
    """A model id with the names people call it, its size and its native format."""

    id: str
    names: tuple[str, ...]
    params_b: float
    native_dtype: str


def _usable(name: str, ident: str, resolve) -> bool:
    return len(name) >= 3 and not _SKIP.search(name) and resolve(name) == ident


@functools.cache
def devices() -> tuple[Device, ...]:
    """Every catalog device with at least one usable name (id order)."""
    from rules import catalog
    out = []
    for ident, hw in catalog.all_hardware().items():
        names = tuple(dict.fromkeys(n for n in hw.aliases if _usable(n, ident, catalog.resolve_hardware)))
        if names:
            out.append(Device(ident, names, hw.hw_class))
    return tuple(out)


@functools.cache
def models() -> tuple[Model, ...]:
    """Every catalog model with at least one usable name (id order)."""
    from rules import catalog
    out = []
    for ident, m in catalog.all_models().items():
        names = tuple(dict.fromkeys(n for n in (m.name, *m.aliases)
                                    if _usable(n, ident, catalog.resolve_model) and "/" not in n))
        if names:
            out.append(Model(ident, names, m.params_b, m.native_dtype))
    return tuple(out)


def plural(name: str) -> str:
    """"4090" → "4090s", "H100 SXM" → "H100 SXM GPUs": a plural 's' only after a number-like end, and
    never where it would spell another device ("L40" + "s" is the L40S)."""
    from rules import catalog
    if re.search(r"\d[A-Za-z]?$", name) and catalog.resolve_hardware(name + "s") in (None, catalog.resolve_hardware(name)):
        return name + "s"
    return name + " GPUs"
