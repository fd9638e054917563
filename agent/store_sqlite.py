"""The embedded conversation store: SQLite files under the data directory (one machine).

`threads.sqlite` (langgraph's SqliteSaver), `slack_seen.sqlite` (Slack de-duplication) and
`web_transcripts.sqlite` (what the web page showed), each opened on first use. Turns on one
thread are serialised inside the process; several processes on one data directory are not the
team setup (see agent.store_postgres).
"""
from __future__ import annotations

import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any

from agent.store import SEEN_LEASE_S

# Striped locks: bounded memory however many threads there are; two conversations that share a
# stripe only wait for each other's turn, they never mix.
_STRIPES = tuple(threading.Lock() for _ in range(64))


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(str(path), check_same_thread=False)


class SqliteSeen:
    """Persistent Slack de-duplication (keys: channel:ts): `seen` holds handled messages, `seen_claims`
    the ones in hand. A duplicate delivery is dropped; a retry of a message whose handler died
    (a claim older than the lease, never marked done) is handled."""

    def __init__(self, path: Path, lease_s: float = SEEN_LEASE_S):
        self._db = _connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY)")
        self._db.execute("CREATE TABLE IF NOT EXISTS seen_claims (key TEXT PRIMARY KEY, at REAL NOT NULL)")
        self._lock, self.lease_s = threading.Lock(), lease_s

    def first_time(self, key: str) -> bool:
        """True when `key` is neither handled nor in hand (and claims it)."""
        now = time.time()
        with self._lock, self._db:
            if self._db.execute("SELECT 1 FROM seen WHERE key = ?", (key,)).fetchone():
                return False
            cur = self._db.execute("INSERT INTO seen_claims(key, at) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                                   "SET at = excluded.at WHERE seen_claims.at < ?", (key, now, now - self.lease_s))
            return cur.rowcount == 1

    def done(self, key: str) -> None:
        """`key` was handled: every later delivery of it is dropped."""
        with self._lock, self._db:
            self._db.execute("INSERT OR IGNORE INTO seen(key) VALUES (?)", (key,))
            self._db.execute("DELETE FROM seen_claims WHERE key = ?", (key,))

    def forget(self, key: str) -> None:
        """Drop `key` (its delivery was never handled, so a retry may be)."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM seen_claims WHERE key = ?", (key,))
            self._db.execute("DELETE FROM seen WHERE key = ?", (key,))


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

    @contextmanager
    def turn_lock(self, thread_id: str) -> Iterator[None]:
        """Hold the thread's lock for one turn (threads of this process wait their turn)."""
        with _STRIPES[zlib.crc32(f"{self.home}\0{thread_id}".encode()) % len(_STRIPES)]:
            yield

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
