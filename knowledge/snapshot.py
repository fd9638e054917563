"""The read side of the store: chunk texts (JSON), vectors (.npy) and the BM25 index on disk.

Exported from Chroma after every change into a fresh `index-<n>/` folder; `CURRENT` names the
live one and is swapped atomically, so a reader never sees half a snapshot. `get_chunks` reads
only the JSON (no numpy, no model); `search` adds the vectors and BM25 arrays.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from knowledge.chunking import Chunk

FORMAT = 2            # bump when what the snapshot holds changes (re-exported, not re-embedded)
CURRENT = "CURRENT"


class SnapshotError(Exception):
    """The snapshot is missing, stale or damaged; the message says which."""


def live_dir(root: Path) -> Path | None:
    """The folder `CURRENT` points at, or None."""
    try:
        name = (root / CURRENT).read_bytes()[:64].decode("ascii").strip()
    except (OSError, UnicodeDecodeError):   # unreadable or garbage: treated as corrupt, then rebuilt
        return None
    return root / name if name.startswith("index-") and name[6:].isdigit() else None


def read_meta(root: Path) -> dict | None:
    """The live snapshot's meta.json (format, model, corpus hash, count), or None."""
    folder = live_dir(root)
    try:
        return json.loads((folder / "meta.json").read_text()) if folder else None
    except (OSError, ValueError):
        return None


def problem(root: Path, corpus_hash: str, model: str) -> str | None:
    """Why the store cannot be used as is ("missing", "corrupt: …", "stale: …"), or None."""
    if not (root / CURRENT).exists():
        return "missing"
    meta = read_meta(root)
    if not isinstance(meta, dict):
        return "corrupt: its index metadata is unreadable"
    folder = live_dir(root)
    absent = [n for n in ("chunks.json", "vectors.npy", "bm25") if not (folder / n).exists()]
    if absent:
        return f"corrupt: {', '.join(absent)} missing"
    if meta.get("model") != model:
        return "stale: the embedder changed"
    if meta.get("format") != FORMAT:
        return "stale: built by another version"
    if meta.get("corpus_hash") != corpus_hash:
        return "stale: the shipped corpus changed"
    return None


def write(root: Path, chunks: list[Chunk], vectors, corpus_hash: str, model: str) -> Path:
    """Write a new snapshot folder, point CURRENT at it, delete older folders."""
    import numpy as np

    from knowledge import embed, lexical

    root.mkdir(parents=True, exist_ok=True)
    folder = root / f"index-{time.time_ns()}"
    folder.mkdir()
    records = [asdict(c) for c in chunks]
    (folder / "chunks.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    matrix = np.asarray(vectors, dtype=np.float32).reshape(len(chunks), embed.DIM)
    np.save(folder / "vectors.npy", matrix)
    (folder / "bm25").mkdir()
    if chunks:                         # bm25s cannot index nothing; an empty store has no index
        lexical.save(lexical.build([c.lexical_text() for c in chunks]), folder / "bm25")
    meta = {"format": FORMAT, "model": model, "corpus_hash": corpus_hash, "count": len(chunks)}
    (folder / "meta.json").write_text(json.dumps(meta))
    tmp = root / f"{CURRENT}.{os.getpid()}"
    tmp.write_text(folder.name)
    os.replace(tmp, root / CURRENT)
    for old in root.glob("index-*"):
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def remove(root: Path) -> None:
    """Delete every snapshot folder and the pointer."""
    (root / CURRENT).unlink(missing_ok=True)
    for old in root.glob("index-*"):
        shutil.rmtree(old, ignore_errors=True)


@lru_cache(maxsize=4)
def _records(folder: Path) -> dict[str, Chunk]:
    try:
        rows = json.loads((folder / "chunks.json").read_text(encoding="utf-8"))
        return {row["id"]: Chunk(**row) for row in rows}
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise SnapshotError(f"corrupt: chunks.json unreadable ({exc.__class__.__name__})") from None


def chunks(root: Path) -> dict[str, Chunk]:
    """Chunk id → chunk, in id order (cached per snapshot folder)."""
    folder = live_dir(root)
    if folder is None:
        raise SnapshotError("missing")
    return _records(folder)


@lru_cache(maxsize=2)
def _index(folder: Path):
    import numpy as np

    from knowledge import embed, lexical

    records = _records(folder)
    ids = list(records)
    try:
        vectors = np.load(folder / "vectors.npy", allow_pickle=False)
        bm25 = lexical.load(folder / "bm25") if ids else None
    except (OSError, ValueError, KeyError) as exc:
        raise SnapshotError(f"corrupt: index unreadable ({exc.__class__.__name__})") from None
    if vectors.shape != (len(ids), embed.DIM) or (bm25 and bm25.scores["num_docs"] != len(ids)):
        raise SnapshotError("corrupt: index sizes disagree")
    return records, ids, vectors, bm25


def index(root: Path):
    """(chunks by id, row ids, (n, dim) vectors, BM25 index) from one snapshot folder, rows
    aligned (cached per folder)."""
    folder = live_dir(root)
    if folder is None:
        raise SnapshotError("missing")
    return _index(folder)
