"""The shipped notes in `knowledge/corpus/*.md`: their docs and a fingerprint of the set."""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from knowledge.chunking import Chunk, chunk_doc, corpus_doc
from rules.errors import DataError, InputError


def files(corpus_dir: Path) -> list[Path]:
    """The corpus notes, sorted by name."""
    return sorted(p for p in corpus_dir.glob("*.md") if not p.name.startswith("."))


def doc_ids(corpus_dir: Path) -> set[str]:
    """The shipped document ids (file names), which user files may not reuse."""
    return {p.stem for p in files(corpus_dir)}


def manifest_hash(corpus_dir: Path) -> str:
    """A fingerprint of every note's name and bytes: any edit changes it.

    Re-read only when a note's size or modification time moved (readers call this per query, so
    the notes are listed with one `scandir`, the same set `files` gives)."""
    try:
        with os.scandir(corpus_dir) as entries:
            found = [(e.name, e.stat()) for e in entries if e.name.endswith(".md") and not e.name.startswith(".")]
    except FileNotFoundError:
        found = []
    stats = tuple((name, st.st_mtime_ns, st.st_size) for name, st in sorted(found, key=lambda f: f[0]))
    return _fingerprint(corpus_dir, stats)


@lru_cache(maxsize=8)
def _fingerprint(corpus_dir: Path, stats: tuple) -> str:
    digest = hashlib.sha256()
    for name, _, _ in stats:
        digest.update(name.encode() + b"\0" + (corpus_dir / name).read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def chunks(corpus_dir: Path) -> list[Chunk]:
    """Every chunk of the shipped notes; DataError names a broken note."""
    out: list[Chunk] = []
    for path in files(corpus_dir):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DataError(str(path), None, None, f"unreadable ({exc.__class__.__name__})") from None
        try:
            out.extend(chunk_doc(corpus_doc(text, path.name, path.stem)))
        except InputError as exc:          # a broken shipped note is a data error, not user input
            raise DataError(str(path), None, None, str(exc)) from None
    return out
