"""Knowledge on a real Chroma server (`chroma run`): the same answers as the embedded snapshot,
ingest through one process found by another, and clear errors when the server is not there."""
from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

from evals.services import advisor_cmd
from evals.suites.retrieval import load_queries
from knowledge import paths, remote, retrieve, snapshot, store

NOTE = """---
id: kestrel-cluster
title: The Kestrel cluster runbook
---
## Kestrel hardware
Kestrel is our team's inference cluster: six L40S cards in two chassis joined by 25 GbE, no NVLink.
Serve one replica per chassis and never tensor-parallel across the Ethernet link.

## Kestrel on-call
The Kestrel pager rotates every Monday; escalate to the platform team after thirty minutes.
"""


def _local_root():
    """The embedded store of this test's data directory (built from the session's template)."""
    return retrieve.ensure_store(paths.store_dir())


def test_the_server_returns_what_the_embedded_snapshot_returns(team_env):
    """Same corpus: the server's collection (mirrored in memory) holds the chunks and vectors the
    local snapshot holds, and search ranks the same on every labelled query."""
    root = _local_root()
    view = remote.mirror(team_env["ADVISOR_CHROMA_URL"])
    records, ids, vectors, _ = snapshot.index(root)
    assert view.ids == ids and [view.records[i].text for i in ids] == [records[i].text for i in ids]
    assert np.allclose(view.vectors, vectors, atol=1e-6)
    queries = [q["query"] for q in load_queries()]
    same = 0
    for query in queries:
        served = [h.id for h in retrieve.search(query, k=5)]
        local = [h.id for h in retrieve.search(query, k=5, root=root)]
        same += served == local
    assert sorted(retrieve.all_chunk_ids()) == sorted(retrieve.all_chunk_ids(root=root))
    assert same == len(queries), f"{len(queries) - same} of {len(queries)} rankings differ"


def test_the_snapshot_is_a_cache_of_the_local_collection():
    """The embedded fast path reads the snapshot; it holds exactly what the Chroma collection holds."""
    root = _local_root()
    records, ids, vectors, _ = snapshot.index(root)
    chunks, stored_vectors = store.export(store.open_collection(root))
    store.release()
    assert ids == [c.id for c in chunks]
    assert [records[i].text for i in ids] == [c.text for c in chunks]
    assert [records[i].hash for i in ids] == [c.hash for c in chunks]
    assert np.allclose(vectors, np.asarray(stored_vectors, dtype=np.float32), atol=1e-6)


def test_a_document_ingested_by_one_process_is_found_by_another(fresh_team_env, tmp_path):
    url = fresh_team_env["ADVISOR_CHROMA_URL"]
    note = tmp_path / "kestrel.md"
    note.write_text(NOTE, encoding="utf-8")
    question = "What should the Kestrel cluster run for our team of 80, Qwen3 32B?"
    before = retrieve.search(question, k=3)                          # this replica's mirror exists
    assert all(not h.id.startswith("kestrel-cluster#") for h in before)
    first = remote.mirror(url)
    assert remote.mirror(url) is first                                # unchanged: reused, not rebuilt
    out = subprocess.run(advisor_cmd() + ["ingest", str(note)], env={**os.environ, **fresh_team_env},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "2 added" in out.stdout
    # TTL 0: the stamp is re-read. The new chunk is the nearest by both rankings, so it comes
    # first (the server's own approximate index missed it: see knowledge.remote).
    assert retrieve.search(question, k=3)[0].id == "kestrel-cluster#kestrel-hardware"
    assert "kestrel-cluster#kestrel-on-call" in [h.id for h in retrieve.search("Kestrel pager rotation", k=3)]
    second = remote.mirror(url)
    assert second is not first and len(second.ids) == len(first.ids) + 2
    assert second.stamp[1] != first.stamp[1]                         # the content version moved
    (hit,) = retrieve.get_chunks(["kestrel-cluster#kestrel-hardware"])
    assert "25 GbE" in hit.text

    from knowledge.ingest import ingest
    assert ingest([note]).line().endswith("0 added, 0 updated, 0 removed, 2 unchanged")
    assert remote.mirror(url) is second                               # nothing written, nothing rebuilt
    note.write_text(NOTE.split("## Kestrel on-call")[0]
                    + "## Kestrel on-call\nThe pager now escalates after fifteen minutes.\n", encoding="utf-8")
    assert ingest([note]).line().endswith("0 added, 1 updated, 0 removed, 1 unchanged")
    (hit,) = retrieve.get_chunks(["kestrel-cluster#kestrel-on-call"])
    assert "fifteen minutes" in hit.text


def test_a_changed_embedder_reembeds_the_collection_from_its_stored_text(fresh_team_env, tmp_path, monkeypatch):
    """Vectors from another embedder are useless: the collection is re-embedded here, user
    documents included (their text is on the server), and the stamp records the new model."""
    corpus_dir = tmp_path / "corpus"
    corpus_dir.mkdir()
    (corpus_dir / "tiny.md").write_text("---\nid: tiny\ntitle: Tiny\nlang: en\nsources:\n"
                                        "  - {title: t, url: 'https://example.org'}\ntags: [x]\n---\n"
                                        "## Decode\nDecode speed follows memory bandwidth.\n", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_CORPUS_DIR", str(corpus_dir))
    note = tmp_path / "kestrel.md"
    note.write_text(NOTE, encoding="utf-8")
    from knowledge import embed
    from knowledge.ingest import ingest
    url = fresh_team_env["ADVISOR_CHROMA_URL"]
    ingest([note])
    col = remote.collection(url)
    old = dict(zip(*[col.get(include=["embeddings"])[k] for k in ("ids", "embeddings")]))
    monkeypatch.setattr(embed, "model_id", lambda: "another embedder")
    remote.ensure(url)
    col = remote.collection(url)
    assert col.metadata["advisor_model"] == "another embedder"
    got = col.get(include=["metadatas"])
    assert sorted(got["ids"]) == sorted(old)                                # nothing dropped
    assert {m["origin"] for m in got["metadatas"]} == {"corpus", "user"}


def test_an_unreachable_server_is_one_clear_line(monkeypatch, tmp_path):
    from evals.services import free_port
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("ADVISOR_CHROMA_URL", url)
    remote.forget()
    with pytest.raises(remote.KnowledgeUnavailable) as err:
        retrieve.search("pipeline parallel", k=3)
    assert "cannot reach the Chroma server" in str(err.value) and "\n" not in str(err.value)
    assert retrieve.health().startswith("cannot reach the Chroma server")
    out = subprocess.run(advisor_cmd() + ["search", "pipeline parallel"], capture_output=True, text=True,
                         env={**os.environ, "ADVISOR_CHROMA_URL": url}, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "ADVISOR_CHROMA_URL" in out.stderr
    with pytest.raises(remote.KnowledgeUnavailable, match="must look like"):
        remote.parse_url("ftp://x")


def test_a_replica_keeps_answering_from_its_copy_while_the_server_is_away(monkeypatch):
    from evals import services

    monkeypatch.setenv("ADVISOR_CHROMA_TTL", "0")
    with services.chroma() as url:
        monkeypatch.setenv("ADVISOR_CHROMA_URL", url)
        before = [h.id for h in retrieve.search("pipeline parallel without NVLink", k=3)]
        assert retrieve.health() == "ok"
    # the server is gone: the last copy answers, and readiness says so without failing
    assert [h.id for h in retrieve.search("pipeline parallel without NVLink", k=3)] == before
    assert retrieve.health().startswith("ok: serving the last copy")
    remote.forget()
    assert retrieve.health().startswith("cannot reach the Chroma server")   # no copy: not ready
