"""Shipped passage vectors for the shipped corpus, keyed by the hash of each embedded text.

Embedding two hundred notes takes minutes on a small CPU; with these vectors the first-use build
takes seconds. A vector is used only when both the embedder and the text hash match, so a stale
file costs time, never correctness. Refresh after editing the corpus:
`.venv/bin/python -m knowledge.vector_cache`.
"""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

from knowledge import embed

CACHE_FILE = Path(__file__).with_name("corpus_vectors.json")


def load(path: Path = CACHE_FILE) -> dict:
    """ehash → float32 vector, or {} when the file is absent, unreadable or from another model."""
    import numpy as np

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("model") != embed.model_id():
            return {}
        return {key: np.frombuffer(base64.b64decode(value), dtype=np.float32)
                for key, value in data["vectors"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def refresh(corpus_dir: Path | None = None, path: Path = CACHE_FILE) -> tuple[int, int]:
    """Rewrite the cache for the current corpus; returns (vectors kept, vectors computed)."""
    from knowledge import corpus, paths

    chunks = corpus.chunks(corpus_dir or paths.CORPUS_DIR)
    known = load(path)
    todo = sorted({c.ehash: c.embed_text() for c in chunks if c.ehash not in known}.items())
    if todo:
        fresh = embed.passage_vectors([text for _, text in todo])
        known.update({key: vector for (key, _), vector in zip(todo, fresh)})
    wanted = sorted({c.ehash for c in chunks})
    vectors = {key: base64.b64encode(known[key].astype("float32").tobytes()).decode() for key in wanted}
    path.write_text(json.dumps({"model": embed.model_id(), "vectors": vectors}, indent=0) + "\n",
                    encoding="utf-8")
    return len(wanted) - len(todo), len(todo)


if __name__ == "__main__":
    kept, computed = refresh()
    print(f"{CACHE_FILE.name}: {kept} vectors kept, {computed} computed", file=sys.stderr)
