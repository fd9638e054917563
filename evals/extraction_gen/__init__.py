"""Labelled utterances generated from the catalogs and a grammar of phrasings.

    generate("dev")      the development split: phrasings the extractor may be fixed against
    generate("heldout")  the held-out split: another grammar and another seed, read only as figures

Each split is half English, half Traditional Chinese, and deterministic (fixed seed). Items have
the shape of evals/extraction_set.yaml entries plus `scored` (the fields labelled on this item,
present or absent) and `topics`.
"""
from __future__ import annotations

from typing import Any

SPLITS = {"dev": ("dev", 14_014, 2600), "heldout": ("heldout", 90_210, 2600)}


def generate(split: str) -> list[dict[str, Any]]:
    """The labelled utterances of a generated split."""
    import importlib

    from evals.extraction_gen.compose import generate as run
    module, seed, n = SPLITS[split]
    return run(importlib.import_module(f"evals.extraction_gen.{module}"), seed, n, f"gen-{split}")
