"""The Chroma store of record: every chunk with its metadata, content hashes and embedding.

Writes go through here (plan a diff by hash, then apply it), so re-ingesting unchanged text
touches nothing and an edited section is the only one re-embedded. Reads for search go to the
snapshot that `knowledge.snapshot` exports after each change (no chromadb import on that path).
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from knowledge import embed, offline
from knowledge.chunking import Chunk

offline.apply()                      # telemetry off before chromadb is imported

import chromadb  # noqa: E402
from chromadb.api.client import SharedSystemClient  # noqa: E402
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings  # noqa: E402
from chromadb.config import Settings  # noqa: E402
from chromadb.utils.embedding_functions import register_embedding_function  # noqa: E402

COLLECTION = "advisor-knowledge"


class StoreCorrupt(Exception):
    """The Chroma files cannot be opened or read."""


@register_embedding_function
class UseEmbeddingFunction(EmbeddingFunction[Documents]):
    """Chroma adapter for `knowledge.embed`: passages as window means, queries as they are."""

    def __init__(self) -> None:
        pass

    def __call__(self, input: Documents) -> Embeddings:
        return list(embed.passage_vectors(list(input)))

    def embed_query(self, input: Documents) -> Embeddings:
        return [embed.query_vector(text) for text in input]

    @staticmethod
    def name() -> str:
        return "advisor-usem3"

    def get_config(self) -> dict:
        return {"model": embed.MODEL_NAME, "recipe": embed.RECIPE}

    @staticmethod
    def build_from_config(config: dict) -> "UseEmbeddingFunction":
        return UseEmbeddingFunction()

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine", "ip", "l2"]


@dataclass
class Changes:
    """What a sync will do (or did): chunks to add or update, ids to remove, unchanged count."""

    added: list[Chunk] = field(default_factory=list)
    updated: list[Chunk] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0

    def __bool__(self) -> bool:
        return bool(self.added or self.updated or self.removed)


def chroma_dir(root: Path) -> Path:
    """Where Chroma keeps its files under the store root."""
    return root / "chroma"


def open_collection(root: Path):
    """The collection under `root` (created when absent); StoreCorrupt when unreadable."""
    try:
        client = chromadb.PersistentClient(path=str(chroma_dir(root)),
                                           settings=Settings(anonymized_telemetry=False))
        collection = client.get_or_create_collection(
            COLLECTION, embedding_function=UseEmbeddingFunction(), metadata={"hnsw:space": "cosine"})
        collection.count()
        return collection
    except Exception as exc:  # chromadb raises many types for damaged files
        release()
        raise StoreCorrupt(f"{exc.__class__.__name__}: {exc}".splitlines()[0][:200]) from exc


def release() -> None:
    """Drop Chroma's cached client so its files can be copied, deleted or reopened."""
    SharedSystemClient.clear_system_cache()


def wipe(root: Path) -> None:
    """Delete the Chroma files (before a rebuild from scratch)."""
    release()
    shutil.rmtree(chroma_dir(root), ignore_errors=True)


def stored(collection) -> dict[str, dict]:
    """Every stored chunk id → its metadata."""
    got = collection.get(include=["metadatas"])
    return dict(zip(got["ids"], got["metadatas"]))


def plan(existing: dict[str, dict], chunks: list[Chunk], in_scope: Callable[[dict], bool]) -> Changes:
    """Diff `chunks` against `existing`; stored chunks in scope but absent are removed."""
    changes = Changes()
    wanted = {c.id for c in chunks}
    for chunk in chunks:
        meta = existing.get(chunk.id)
        if meta is None:
            changes.added.append(chunk)
        elif meta.get("hash") != chunk.hash:
            changes.updated.append(chunk)
        else:
            changes.unchanged += 1
    changes.removed = sorted(i for i, m in existing.items() if i not in wanted and in_scope(m))
    return changes


def apply(collection, existing: dict[str, dict], changes: Changes,
          progress: Callable[[int], None] | None = None, known: dict | None = None) -> None:
    """Write `changes`; a chunk is embedded only when neither the store nor `known`
    (ehash → vector, the shipped cache) has a vector for its text."""
    if changes.removed:
        collection.delete(ids=changes.removed)
    known = known or {}
    reuse = [c for c in changes.updated if existing[c.id].get("ehash") == c.ehash]
    if reuse:
        old = collection.get(ids=[c.id for c in reuse], include=["embeddings"])
        vectors = dict(zip(old["ids"], old["embeddings"]))
        _upsert(collection, reuse, [vectors[c.id] for c in reuse])
    reused = {c.id for c in reuse}
    cached = [c for c in changes.added + changes.updated if c.id not in reused and c.ehash in known]
    if cached:
        _upsert(collection, cached, [known[c.ehash] for c in cached])
    if progress:
        progress(len(reuse) + len(cached))
    done = reused | {c.id for c in cached}
    fresh = [c for c in changes.added + changes.updated if c.id not in done]
    for start in range(0, len(fresh), 32):
        batch = fresh[start:start + 32]
        vectors = embed.passage_vectors([c.embed_text() for c in batch], progress)
        _upsert(collection, batch, vectors)


def _upsert(collection, chunks: list[Chunk], vectors) -> None:
    collection.upsert(ids=[c.id for c in chunks], documents=[c.text for c in chunks],
                      metadatas=[c.metadata() for c in chunks], embeddings=vectors)


def export(collection) -> tuple[list[Chunk], list]:
    """All stored chunks (sorted by id) and their embeddings, for the snapshot."""
    got = collection.get(include=["documents", "metadatas", "embeddings"])
    rows = sorted(zip(got["ids"], got["documents"], got["metadatas"], got["embeddings"]),
                  key=lambda row: row[0])
    chunks = [Chunk.from_record(i, doc, meta) for i, doc, meta, _ in rows]
    return chunks, [vec for *_, vec in rows]
