"""Where the advisor keeps its data: `$ADVISOR_HOME`, else the user's data directory; or, for a
team, the shared servers named by `$ADVISOR_DATABASE_URL` and `$ADVISOR_CHROMA_URL`."""
from __future__ import annotations

import os
from pathlib import Path

CORPUS_DIR = Path(__file__).parent / "corpus"


def home() -> Path:
    """The data directory (created on demand)."""
    env = os.environ.get("ADVISOR_HOME")
    if env:
        path = Path(env).expanduser()
    else:
        from platformdirs import user_data_dir
        path = Path(user_data_dir("engine-advisor", appauthor=False))
    from rules.errors import InputError
    if path.exists() and not path.is_dir():
        raise InputError(f"the data directory {path} is a file; point ADVISOR_HOME at a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the data directory {path} ({exc.strerror or type(exc).__name__}); "
                         "point ADVISOR_HOME at a writable folder") from None
    return path


def cache_dir() -> Path:
    """Derived files that are safe to delete (the embedder's fast-load copy): `$ADVISOR_CACHE_DIR`,
    else the user's cache directory. Not under `home()`, so isolated homes share one copy."""
    env = os.environ.get("ADVISOR_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("engine-advisor", appauthor=False))


def store_dir() -> Path:
    """The Chroma store and its lexical index."""
    return home() / "store"


def threads_db() -> Path:
    """The langgraph SQLite checkpointer file."""
    return home() / "threads.sqlite"


def corpus_dir() -> Path:
    """The shipped notes, or `$ADVISOR_CORPUS_DIR` (a team's own corpus; the tests' small one)."""
    env = os.environ.get("ADVISOR_CORPUS_DIR")
    return Path(env).expanduser() if env else CORPUS_DIR


def database_url() -> str | None:
    """`$ADVISOR_DATABASE_URL` (a PostgreSQL URL shared by every replica), or None for the
    embedded SQLite files under `home()`."""
    return (os.environ.get("ADVISOR_DATABASE_URL") or "").strip() or None


def chroma_url() -> str | None:
    """`$ADVISOR_CHROMA_URL` (a Chroma server every replica reads and ingest writes), or None
    for the embedded store under `store_dir()`."""
    return (os.environ.get("ADVISOR_CHROMA_URL") or "").strip() or None


def chroma_collection() -> str:
    """The collection name on the Chroma server (`$ADVISOR_CHROMA_COLLECTION`), so several
    deployments can share one server."""
    return (os.environ.get("ADVISOR_CHROMA_COLLECTION") or "").strip() or "advisor-knowledge"
