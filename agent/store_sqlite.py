"""The embedded conversation store: SQLite files under the data directory (one machine).

`threads.sqlite` (langgraph's SqliteSaver), `slack_seen.sqlite` (Slack de-duplication) and
`web_transcripts.sqlite` (what the web page showed), each opened on first use. Several processes
may share one data directory (`advisor api --workers N`, or `advisor web` beside it): the
checkpoints are in WAL mode (langgraph's saver sets it) with a busy timeout, and turns on one
thread are serialised across processes by `flock` on one of 64 files in `turn-locks/`. Several hosts are
the team setup (agent.store_postgres).
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any

# Striped locks: bounded memory however many threads there are; two conversations that share a
# stripe only wait for each other's turn, they never mix.
_STRIPES = tuple(threading.Lock() for _ in range(64))
_FDS_LOCK = threading.Lock()


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(str(path), check_same_thread=False)


class SqliteSeen:
    """Persistent set of handled keys (Slack channel:ts): duplicate deliveries are dropped."""

    def __init__(self, path: Path):
        self._db = _connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY)")
        self._lock = threading.Lock()

    def first_time(self, key: str) -> bool:
        """True the first time `key` is seen (and records it)."""
        with self._lock, self._db:
            cur = self._db.execute("INSERT OR IGNORE INTO seen(key) VALUES (?)", (key,))
            return cur.rowcount == 1


class SqliteTranscripts:
    """Append-only chat messages per thread id: what a page displayed, for reloads and restarts."""

    def __init__(self, path: Path):
        self._db = _connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS messages (thread TEXT, seq INTEGER, role TEXT, content TEXT,"
                         " PRIMARY KEY (thread, seq))")
        self._lock = threading.Lock()

    def append(self, thread: str, role: str, content: str) -> None:
        """Add one message at the end of the thread."""
        with self._lock, self._db:
            (n,) = self._db.execute("SELECT COUNT(*) FROM messages WHERE thread = ?", (thread,)).fetchone()
            self._db.execute("INSERT INTO messages VALUES (?, ?, ?, ?)", (thread, n, role, content))

    def history(self, thread: str) -> list[dict[str, str]]:
        """The thread's messages as chat messages ({"role", "content"}), oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT role, content FROM messages WHERE thread = ? ORDER BY seq", (thread,))
            return [{"role": r, "content": c} for r, c in rows.fetchall()]


class SqliteStore:
    """Checkpoints, de-duplication and transcripts in SQLite files under `home`."""

    kind = "sqlite"

    def __init__(self, home: Path):
        self.home = Path(home)
        self._fds: dict[int, int] = {}

    @cached_property
    def checkpointer(self) -> Any:
        from langgraph.checkpoint.sqlite import SqliteSaver
        return SqliteSaver(_connect(self.home / "threads.sqlite"))

    @cached_property
    def seen(self) -> SqliteSeen:
        return SqliteSeen(self.home / "slack_seen.sqlite")

    @cached_property
    def transcripts(self) -> SqliteTranscripts:
        return SqliteTranscripts(self.home / "web_transcripts.sqlite")

    def _stripe_fd(self, stripe: int) -> int:
        """The open lock file of one stripe (opened once per process)."""
        with _FDS_LOCK:
            fd = self._fds.get(stripe)
            if fd is None:
                folder = self.home / "turn-locks"
                folder.mkdir(parents=True, exist_ok=True)
                fd = self._fds[stripe] = os.open(folder / f"{stripe:02d}", os.O_RDWR | os.O_CREAT, 0o600)
            return fd

    @contextmanager
    def turn_lock(self, thread_id: str) -> Iterator[None]:
        """Hold the thread's lock for one turn: threads of this process wait on the stripe's lock,
        other processes on the stripe's lock file (`flock`: no false deadlock reports between
        threads of two processes, as POSIX record locks give)."""
        stripe = zlib.crc32(f"{self.home}\0{thread_id}".encode()) % len(_STRIPES)
        with _STRIPES[stripe]:
            fd = self._stripe_fd(stripe)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def checks(self) -> dict[str, str]:
        """Readiness of the SQLite files: "ok" or what is wrong, per part."""
        out = {}
        try:
            self.transcripts.history("readyz-probe")
            out["conversation_store"] = "ok"
        except sqlite3.Error as exc:
            out["conversation_store"] = f"{type(exc).__name__}: {exc}"
        try:
            self.checkpointer.get_tuple({"configurable": {"thread_id": "readyz-probe", "checkpoint_ns": ""}})
            out["checkpointer"] = "ok"
        except sqlite3.Error as exc:
            out["checkpointer"] = f"{type(exc).__name__}: {exc}"
        return out
