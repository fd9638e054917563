"""Which catalog models fit a memory budget: "which model size fits my 16 GB?".

    largest_fitting(room_gb) -> [Fit(model, weights_gb, kv_gb), ...]   biggest first, one per size

A model fits when its weights at 4-bit (GGUF Q4_K_M, the usual local format) plus the KV cache of one
sequence at CONTEXT tokens stay within the room; the room is the device's usable memory minus the
runtime reserve (rules.roofline.memory), so the figures match the estimator's own fit test.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import catalog
from rules.roofline import memory

QUANT = "q4_k_m"
"""The 4-bit format local engines load by default."""
CONTEXT = 8192
"""Context room kept for one sequence: a common chat default (agents and RAG want more)."""


@dataclass(frozen=True)
class Fit:
    model: str
    name: str
    params_b: float
    weights_gb: float
    kv_gb: float


def room_gb(hw_id: str | None, count: int = 1, stated_gb: float | None = None, apple: bool = False) -> float | None:
    """Usable GB for weights and KV across the devices (None when neither device nor memory is known).
    `apple`: an unnamed Mac, whose GPU may use only part of its unified memory (the catalog's fraction
    for Apple devices of that memory size)."""
    if hw_id:
        from rules.fit import device_memory
        hw = catalog.hardware(hw_id)
        card_gb = device_memory(hw, stated_gb)[0]   # "8x 4090 and 256 GB" states the machine's RAM, not the card's
        usable = memory.usable_bytes(hw, card_gb).value
        return (usable - memory.reserve_bytes(hw, None, usable).value) * count / 1e9
    if stated_gb and apple:
        macs = [h for h in catalog.all_hardware().values() if h.hw_class == "apple" and h.memory_gb == stated_gb]
        if macs:
            return stated_gb * min(h.usable_memory_fraction for h in macs) * count
    if stated_gb:
        from rules.facts import UNKNOWN_DEVICE_HEADROOM
        return stated_gb * count * UNKNOWN_DEVICE_HEADROOM
    return None


def largest_fitting(room: float, k: int = 3, context: int = CONTEXT, share: float | None = None) -> list[Fit]:
    """The k largest catalog models (one per parameter size) whose 4-bit weights and KV fit `room` GB,
    with the weights within `share` of it (default: the quarter left for KV and batching that the
    advisor's default quantization keeps, rules.defaults.WEIGHT_SHARE)."""
    if share is None:
        from rules.defaults import WEIGHT_SHARE as share
    fits: dict[float, Fit] = {}
    for spec in catalog.all_models().values():
        w = memory.weight_bytes(spec, QUANT).value / 1e9
        kv = memory.kv_bytes_per_token(spec).value * context / 1e9
        size = round(spec.params_b)
        if w + kv <= room and w <= share * room and size not in fits:
            fits[size] = Fit(spec.id, spec.name, spec.params_b, round(w, 1), round(kv, 1))
    return [fits[s] for s in sorted(fits, reverse=True)][:k]
