"""Knowledge on a Chroma server (`$ADVISOR_CHROMA_URL`): ingest writes there, every replica reads it.

The server's collection is the store of record: chunk texts, metadata and vectors. The advisor
computes every embedding (the server never does). Each replica keeps an in-memory mirror of the
collection — chunks, their vectors from the server, and a BM25 index over the texts — and searches
it exactly as the embedded store searches its snapshot. The mirror is rebuilt when the
collection's stamp changes: its id, the content version our writers record in its metadata, and
its count. The stamp is read at most every `$ADVISOR_CHROMA_TTL` seconds (default 2), so a
document ingested through one replica is searchable on every replica within that time.

Why not let the server rank the vectors: its approximate index (HNSW, ef_search 100) was seen
to miss the single nearest chunk of a freshly ingested document for every k up to 100 of 197
chunks; an exact dot product over a few thousand mirrored vectors costs a millisecond.

The embedded store's snapshot (`knowledge.snapshot`) is the same idea on disk: a cache of the
local Chroma collection, exported after each write.
"""
from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from knowledge import corpus, embed, offline, paths
from knowledge.chunking import Chunk
from rules.errors import AdvisorError

offline.apply()



class KnowledgeUnavailable(AdvisorError):
    """The Chroma server cannot be reached or used; the message says what to check."""


def ttl_s() -> float:
    """How long a replica trusts its mirror before asking the server whether it changed."""
    try:
        return max(0.0, float(os.environ.get("ADVISOR_CHROMA_TTL", "2")))
    except ValueError:
        return 2.0


def parse_url(url: str) -> tuple[str, int, bool]:
    """(host, port, ssl) of a Chroma server URL such as `http://chroma:8000`."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise KnowledgeUnavailable(f"ADVISOR_CHROMA_URL must look like http://HOST:PORT (got '{url}')")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 8000)
    except ValueError:
        raise KnowledgeUnavailable(f"ADVISOR_CHROMA_URL has a bad port (got '{url}')") from None
    return parts.hostname, port, parts.scheme == "https"


@lru_cache(maxsize=4)
def client(url: str):
    """An HttpClient for the server (token from `$ADVISOR_CHROMA_TOKEN`, if set), checked once."""
    import chromadb
    from chromadb.config import Settings

    host, port, ssl = parse_url(url)
    token = os.environ.get("ADVISOR_CHROMA_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else None
    try:
        made = chromadb.HttpClient(host=host, port=port, ssl=ssl, headers=headers,
                                   settings=Settings(anonymized_telemetry=False))
        made.heartbeat()
    except Exception as exc:   # chromadb raises many types for a server that is down or refuses
        client.cache_clear()
        raise KnowledgeUnavailable(f"cannot reach the Chroma server at {url} (ADVISOR_CHROMA_URL): "
                                   f"{_first_line(exc)}") from None
    return made


def collection(url: str):
    """The advisor's collection on the server (created when absent)."""
    from knowledge import store

    try:
        return client(url).get_or_create_collection(paths.chroma_collection(),
                                                    embedding_function=store.UseEmbeddingFunction())
    except KnowledgeUnavailable:
        raise
    except Exception as exc:
        client.cache_clear()
        raise KnowledgeUnavailable(f"the Chroma server at {url} refused the collection: {_first_line(exc)}") from None


def version_of(stored: dict[str, dict]) -> str:
    """A fingerprint of the collection's content (every id with its content hash)."""
    digest = hashlib.sha256()
    for chunk_id in sorted(stored):
        digest.update(f"{chunk_id}\0{stored[chunk_id].get('hash', '')}\n".encode())
    return digest.hexdigest()[:24]


def stamp(col, corpus_hash: str) -> None:
    """Record what the collection holds (model, shipped corpus, content version) for readers."""
    from knowledge import store

    stored = store.stored(col)
    col.modify(metadata={"advisor_model": embed.model_id(), "advisor_corpus": corpus_hash,
                         "advisor_version": version_of(stored), "advisor_count": len(stored)})


def ensure(url: str, corpus_dir: Path | None = None):
    """The collection, holding the shipped corpus embedded by this model (synced when not)."""
    corpus_dir = corpus_dir or paths.corpus_dir()
    col = collection(url)
    meta = col.metadata or {}
    fingerprint = corpus.manifest_hash(corpus_dir)
    if meta.get("advisor_model") == embed.model_id() and meta.get("advisor_corpus") == fingerprint:
        return col
    return _sync(url, col, corpus_dir, fingerprint, reembed=bool(meta) and
                 meta.get("advisor_model") not in (None, embed.model_id()))


def _sync(url: str, col, corpus_dir: Path, fingerprint: str, reembed: bool):
    """Bring the shipped corpus in (idempotent: replicas doing it at once write the same rows)."""
    from knowledge import build, store, vector_cache

    print(f"advisor: bringing the knowledge collection on {url} up to date with the shipped corpus",
          file=sys.stderr, flush=True)
    existing = store.stored(col)
    if reembed:   # another embedder wrote these vectors: keep every text, re-embed it here
        existing = {i: {**m, "hash": "", "ehash": ""} for i, m in existing.items()}
    chunks = corpus.chunks(corpus_dir) + (_user_chunks(col) if reembed else [])
    reread = {c.doc_id for c in chunks}
    changes = store.plan(existing, chunks, lambda m: m.get("origin") == "corpus" or m.get("doc_id") in reread)
    with build.progress_bar(len(changes.added) + len(changes.updated), "embedding") as tick:
        store.apply(col, existing, changes, tick, known=vector_cache.load())
    stamp(col, fingerprint)
    return col


def _user_chunks(col) -> list[Chunk]:
    got = col.get(where={"origin": "user"}, include=["documents", "metadatas"])
    return [Chunk.from_record(i, d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"])]


def write(url: str, chunks: list[Chunk], in_scope: Callable[[dict], bool],
          corpus_dir: Path | None = None):
    """Ingest: add or refresh `chunks` (stored chunks in scope but absent are removed).
    Returns the Changes made."""
    from knowledge import build, store

    corpus_dir = corpus_dir or paths.corpus_dir()
    col = ensure(url, corpus_dir)
    existing = store.stored(col)
    changes = store.plan(existing, chunks, in_scope)
    with build.progress_bar(len(changes.added) + len(changes.updated), "embedding") as tick:
        store.apply(col, existing, changes, tick)
    if changes:
        stamp(col, corpus.manifest_hash(corpus_dir))
    return changes


@dataclass
class Mirror:
    """The collection's chunks in id order, their vectors (rows aligned) and BM25 index, as of `stamp`."""

    stamp: tuple
    records: dict[str, Chunk]
    ids: list[str]
    vectors: object
    bm25: object
    checked: float = 0.0
    trouble: str = ""
    """Why the last check of the server failed ("" when it answered): the copy is then stale."""


_MIRRORS: dict[tuple[str, str], Mirror] = {}
_LOCK = threading.Lock()


def mirror(url: str, fresh: bool = False) -> Mirror:
    """The in-memory mirror of the collection, refreshed when its stamp changed (checked at most
    every TTL seconds, or now when `fresh`)."""
    key = (url, paths.chroma_collection())
    current = _MIRRORS.get(key)
    if current and not fresh and time.monotonic() - current.checked < ttl_s():
        return current
    with _LOCK:
        current = _MIRRORS.get(key)
        if current and not fresh and time.monotonic() - current.checked < ttl_s():
            return current
        try:
            col = ensure(url)
            meta = col.metadata or {}
            now_stamp = (str(col.id), meta.get("advisor_version"), col.count())
            if current is None or current.stamp != now_stamp:
                current = _load(col, now_stamp)
                _MIRRORS[key] = current
            current.trouble = ""
        except Exception as exc:   # the server is away: answer from the last copy, if there is one
            if current is None:
                raise
            current.trouble = str(exc) if isinstance(exc, AdvisorError) else f"{type(exc).__name__}: {_first_line(exc)}"
            client.cache_clear()
        current.checked = time.monotonic()
        return current


def _load(col, now_stamp: tuple) -> Mirror:
    import numpy as np

    from knowledge import lexical

    chunks, vectors = _export(col)
    records = {c.id: c for c in chunks}
    ids = list(records)
    matrix = np.asarray(vectors, dtype=np.float32).reshape(len(ids), embed.DIM)
    bm25 = lexical.build([records[i].lexical_text() for i in ids]) if ids else None
    return Mirror(now_stamp, records, ids, matrix, bm25)


def _export(col) -> tuple[list[Chunk], list]:
    try:
        from knowledge import store
        return store.export(col)
    except Exception as exc:   # the server went away or the collection was replaced meanwhile
        raise KnowledgeUnavailable(f"could not read the knowledge collection: {_first_line(exc)}") from None


def health(url: str) -> str:
    """"ok" when the collection is mirrored here and holds chunks; "ok: …" when the server has
    stopped answering but the last copy still serves (a shared server's outage should not take
    every replica out of rotation); else what is wrong."""
    try:
        view = mirror(url)
    except AdvisorError as exc:
        return str(exc)
    except Exception as exc:
        return f"{type(exc).__name__}: {_first_line(exc)}"
    if not view.ids:
        return "the knowledge collection is empty"
    return f"ok: serving the last copy of the collection; {view.trouble}" if view.trouble else "ok"


def forget() -> None:
    """Drop cached clients and mirrors (tests; a server that moved)."""
    client.cache_clear()
    _MIRRORS.clear()


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
