"""A pickled copy of what the hardware catalog builds (validated entries, the name index), so a cold
`advisor ask` skips parsing ~300 KB of YAML and tokenising every alias.

    cached(name, inputs, build) -> build()'s value, from `$ADVISOR_CACHE_DIR` when its inputs are unchanged

The key covers every input file (path, size, mtime) and the code that builds the value, so an edited
catalog or resolver is never served stale. A file name carries a tag of the checkout it came from, so
two installs sharing one cache directory (a release and a working copy) keep a copy each instead of
deleting each other's on every run. The cache is an optimisation only: any error reading or writing
it falls back to building.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
_CODE = [Path(__file__).with_name(n) for n in
         ("catalog.py", "catalog_schema.py", "hardware_index.py", "hardware_text.py", "ids.py", "catalog_cache.py")]


def cache_dir() -> Path | None:
    """`$ADVISOR_CACHE_DIR`, else the user's cache directory (as the knowledge store uses)."""
    env = os.environ.get("ADVISOR_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        return None
    return Path(user_cache_dir("engine-advisor", appauthor=False))


_WHERE = hashlib.sha1(str(Path(__file__).resolve().parent).encode()).hexdigest()[:8]
"""Which checkout built a copy: only copies with the same tag are replaced by a newer one."""


def _key(inputs: Iterable[Path]) -> str:
    h = hashlib.sha1(f"{sys.version_info[:2]}".encode())
    for path in [*_CODE, *sorted(inputs)]:
        st = path.stat()
        h.update(f"{path}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def cached(name: str, inputs: list[Path], build: Callable[[], T]) -> T:
    """The value `build()` returns, read from the cache when the same inputs built it before."""
    where = cache_dir()
    try:
        path = where / f"{name}-{_WHERE}-{_key(inputs)}.pickle" if where else None
    except OSError:
        path = None
    if path is not None and path.is_file():
        try:
            with path.open("rb") as fh:
                return pickle.load(fh)
        except Exception:   # a truncated or foreign file: rebuild below
            pass
    value = build()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}-")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
            for old in path.parent.glob(f"{name}-{_WHERE}-*.pickle"):   # this checkout's older copies
                if old != path:
                    old.unlink(missing_ok=True)
        except OSError:
            pass
    return value
