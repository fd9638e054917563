"""Keep the store in step with the shipped corpus: build on first use, repair, update.

`ensure_store()` is the cheap guard every reader calls: it reads two small files and a
fingerprint of the corpus. Only when something is missing, damaged or stale does it take the
store lock, open Chroma and sync (re-embedding only changed chunks), printing one line to stderr.
`$ADVISOR_STORE_TEMPLATE` may name a folder holding a prebuilt store to copy instead of building
(the test suite builds the shipped corpus once per session that way).
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from knowledge import corpus, embed, paths, snapshot, vector_cache
from knowledge.chunking import Chunk

REGISTRY = "user_docs.json"


def _say(message: str) -> None:
    print(f"advisor: {message}", file=sys.stderr, flush=True)


@contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the store's write lock (one writer across processes)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_store(root: Path | None = None, corpus_dir: Path | None = None,
                 damaged: str | None = None) -> Path:
    """Make the store at `root` usable and current; `damaged` forces a repair (reader saw it)."""
    root = root or paths.store_dir()
    if root.exists() and not root.is_dir():   # something else sits where the store belongs
        _say(f"{root} is a file, not a knowledge store; replacing it with a fresh store")
        root.unlink()
    corpus_dir = corpus_dir or paths.corpus_dir()
    fingerprint, model = corpus.manifest_hash(corpus_dir), embed.model_id()
    why = damaged or snapshot.problem(root, fingerprint, model)
    if why is None:
        return root
    with locked(root):
        why = damaged if damaged else snapshot.problem(root, fingerprint, model)
        if why == "missing" and not (root / "chroma").exists() and _copy_template(root, corpus_dir):
            why = snapshot.problem(root, fingerprint, model)
        if why is not None:
            repair(root, corpus_dir, why)
    return root


def _copy_template(root: Path, corpus_dir: Path) -> bool:
    """Copy the prebuilt store for this corpus from $ADVISOR_STORE_TEMPLATE (built there once)."""
    template = os.environ.get("ADVISOR_STORE_TEMPLATE")
    if not template:
        return False
    fingerprint = corpus.manifest_hash(corpus_dir)
    source = Path(template) / fingerprint      # one prebuilt store per corpus version
    if source.resolve() == root.resolve():
        return False
    with locked(source):
        why = snapshot.problem(source, fingerprint, embed.model_id())
        if why is not None:
            repair(source, corpus_dir, why)
        from knowledge import store

        store.release()
        for item in source.iterdir():
            if item.name in (".lock", REGISTRY):
                continue
            target = root / item.name
            if item.is_dir():
                shutil.copytree(item, target, dirs_exist_ok=True)
            else:
                shutil.copy2(item, target)
    return True


def repair(root: Path, corpus_dir: Path, why: str) -> None:
    """Bring the store back: sync Chroma with the corpus, or rebuild it when Chroma is damaged."""
    from knowledge import store

    # Another embedder: its vectors are useless and Chroma refuses to open its collection with
    # ours (embedding-function conflict), so clear it before opening.
    wipe = why == "stale: the embedder changed"
    collection = None
    if not wipe:
        try:
            collection = store.open_collection(root)
        except store.StoreCorrupt as exc:
            wipe, why = True, f"corrupt: the Chroma files are unreadable ({exc})"
    _say(_wording(why))
    if wipe:
        store.wipe(root)
        snapshot.remove(root)
        collection = store.open_collection(root)
    user = _reread_user_docs(root, corpus_dir) if wipe else []
    reread = {c.doc_id for c in user}
    existing = store.stored(collection)
    changes = store.plan(existing, corpus.chunks(corpus_dir) + user,
                         lambda meta: meta.get("origin") == "corpus" or meta.get("doc_id") in reread)
    with progress_bar(len(changes.added) + len(changes.updated), "embedding") as tick:
        store.apply(collection, existing, changes, tick, known=vector_cache.load())
    publish(root, collection, corpus_dir)


def _wording(why: str) -> str:
    if why == "missing":
        return "no knowledge store yet; building it from the shipped corpus (first use)"
    if why == "stale: the shipped corpus changed":
        return "the shipped corpus changed; updating the knowledge store"
    return f"knowledge store {why.replace(':', ' —', 1)}; rebuilding it"


def publish(root: Path, collection, corpus_dir: Path) -> None:
    """Export Chroma's contents as the live snapshot."""
    from knowledge import store

    chunks, vectors = store.export(collection)
    snapshot.write(root, chunks, vectors, corpus.manifest_hash(corpus_dir), embed.model_id())
    store.release()


def _reread_user_docs(root: Path, corpus_dir: Path) -> list[Chunk]:
    """After a wipe: the user's documents again, from the files they were ingested from."""
    from knowledge.chunking import chunk_doc
    from knowledge.readers import read_file
    from rules.errors import InputError

    out: list[Chunk] = []
    shipped = corpus.doc_ids(corpus_dir)
    for doc_id, path in registry(root).items():
        try:
            doc = read_file(Path(path))
        except InputError as exc:
            _say(f"could not re-ingest '{doc_id}': {exc}")
            continue
        if doc.doc_id == doc_id and doc_id not in shipped:
            out.extend(chunk_doc(doc))
    return out


def registry(root: Path) -> dict[str, str]:
    """User doc id → the file it was ingested from."""
    try:
        data = json.loads((root / REGISTRY).read_text())
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def register(root: Path, docs: dict[str, str]) -> None:
    """Remember where user documents came from (survives a rebuild of the store)."""
    old = registry(root)
    data = {**old, **docs}
    if data == old:
        return
    tmp = root / f"{REGISTRY}.{os.getpid()}"
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))
    os.replace(tmp, root / REGISTRY)


@contextmanager
def progress_bar(total: int, what: str):
    """A tqdm bar on stderr (shown on a terminal) yielding an `advance(n)` callback."""
    if total <= 0:
        yield lambda n: None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=what, unit="chunk", file=sys.stderr, disable=None,
              leave=False) as bar:
        yield bar.update
