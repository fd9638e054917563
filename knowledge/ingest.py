"""`advisor ingest`: add or refresh a user's own files in the store, idempotently.

Every file is read and chunked before the store is touched, so one bad file fails the whole
call with nothing changed. Re-ingesting a file replaces its document: changed sections are
re-embedded, unchanged ones left alone, vanished ones deleted. With `$ADVISOR_CHROMA_URL` the
chunks go to the team's Chroma server (knowledge.remote), where every replica finds them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from knowledge import build, corpus, paths
from knowledge.chunking import Chunk, Doc, chunk_doc
from knowledge.readers import EXTENSIONS, read_file
from rules.errors import InputError


@dataclass(frozen=True)
class Summary:
    """How many chunks an ingest added, updated, removed and left unchanged."""

    files: int
    added: int
    updated: int
    removed: int
    unchanged: int

    def line(self) -> str:
        """The one-line report printed by `advisor ingest`."""
        return (f"{self.files} file(s): {self.added} added, {self.updated} updated, "
                f"{self.removed} removed, {self.unchanged} unchanged")


def expand(paths_in: list[Path]) -> list[Path]:
    """Files named directly, plus supported files found under named folders."""
    if not paths_in:
        raise InputError("give at least one file or folder to ingest")
    files: list[Path] = []
    for path in paths_in:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS
                           and not any(part.startswith(".") for part in p.relative_to(path).parts))
            if not found:
                raise InputError(f"{path}: no {', '.join(EXTENSIONS)} files in this folder")
            files.extend(found)
        elif path.exists() or path.is_symlink():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or folder")
    return list(dict.fromkeys(files))


def read_all(files: list[Path], corpus_dir: Path) -> list[Doc]:
    """Parse every file; InputError on the first unusable one or on clashing document ids."""
    docs = [read_file(f) for f in files]
    shipped, seen = corpus.doc_ids(corpus_dir), {}
    for doc in docs:
        if doc.doc_id in shipped:
            raise InputError(f"{doc.path}: document id '{doc.doc_id}' belongs to the shipped "
                             "corpus; rename the file or set another 'id' in its front matter")
        if doc.doc_id in seen:
            raise InputError(f"{doc.path} and {seen[doc.doc_id]} both have document id "
                             f"'{doc.doc_id}'; rename one")
        seen[doc.doc_id] = doc.path
    return docs


def ingest(paths_in: list[Path], root: Path | None = None, corpus_dir: Path | None = None) -> Summary:
    """Add or refresh the given files (or folders) in the store."""
    from knowledge import store

    root_given = root is not None
    root = root or paths.store_dir()
    corpus_dir = corpus_dir or paths.corpus_dir()
    files = expand([Path(p) for p in paths_in])
    docs = read_all(files, corpus_dir)
    chunks: list[Chunk] = [c for doc in docs for c in chunk_doc(doc)]
    doc_ids = {d.doc_id for d in docs}
    url = None if root_given else paths.chroma_url()
    if url:   # a team's Chroma server: written once here, read by every replica
        from knowledge import remote
        changes = remote.write(url, chunks, lambda meta: meta.get("doc_id") in doc_ids, corpus_dir)
        return Summary(len(files), len(changes.added), len(changes.updated), len(changes.removed),
                       changes.unchanged)
    build.ensure_store(root, corpus_dir)
    with build.locked(root):
        try:
            collection = store.open_collection(root)
        except store.StoreCorrupt:
            build.repair(root, corpus_dir, "corrupt: the Chroma files are unreadable")
            collection = store.open_collection(root)
        existing = store.stored(collection)
        changes = store.plan(existing, chunks, lambda meta: meta.get("doc_id") in doc_ids)
        with build.progress_bar(len(changes.added) + len(changes.updated), "embedding") as tick:
            store.apply(collection, existing, changes, tick)
        build.register(root, {d.doc_id: d.path for d in docs})
        if changes:
            build.publish(root, collection, corpus_dir)
        else:
            store.release()
    return Summary(len(files), len(changes.added), len(changes.updated), len(changes.removed),
                   changes.unchanged)
