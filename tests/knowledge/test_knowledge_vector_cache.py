"""The shipped vector cache: it covers the shipped corpus and agrees with the embedder."""
from __future__ import annotations

import numpy as np

from knowledge import corpus, embed, paths, vector_cache


def test_cache_covers_the_shipped_corpus():
    cached = vector_cache.load()
    stale = [c.id for c in corpus.chunks(paths.CORPUS_DIR) if c.ehash not in cached]
    assert stale == [], ("the corpus changed: run `.venv/bin/python -m knowledge.vector_cache` "
                         f"({len(stale)} chunks have no shipped vector)")


def test_cached_vectors_are_the_embedders_vectors():
    cached = vector_cache.load()
    sample = [c for c in corpus.chunks(paths.CORPUS_DIR) if c.ehash in cached][::60]
    fresh = embed.passage_vectors([c.embed_text() for c in sample])
    for chunk, vector in zip(sample, fresh):
        assert float(np.dot(cached[chunk.ehash], vector)) > 0.999, chunk.id


def test_cache_from_another_model_is_ignored(tmp_path, monkeypatch):
    path = tmp_path / "vectors.json"
    vector_cache.refresh(corpus_dir=_one_note(tmp_path), path=path)
    assert len(vector_cache.load(path)) == 1
    monkeypatch.setattr(embed, "model_id", lambda: "some other embedder")
    assert vector_cache.load(path) == {}


def _one_note(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "solo.md").write_text("---\nid: solo\ntitle: Solo\n---\n\n## Only\n\nOne short section.\n",
                                    encoding="utf-8")
    return folder
