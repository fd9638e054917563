"""The embedded conversation store: SQLite files under the data directory (one machine).

`threads.sqlite` (langgraph's SqliteSaver), `slack_seen.sqlite` (Slack de-duplication) and
`web_transcripts.sqlite` (what the web page showed), each opened on first use. Turns on one
thread are serialised inside the process (striped locks) and between processes sharing the data
directory (`advisor api --workers N`, or `advisor web` beside it: an flock'ed file per stripe), so
two writers never fork a conversation; the checkpoints are in WAL mode with a busy timeout. Several
hosts are the team setup (agent.store_postgres).

Faults are repaired or reported, never left to break every later call:
- a file that is not a SQLite database is moved aside (`<name>.corrupt-<time>`) and recreated,
  with one line on stderr and a notice on the next turn of each conversation;
- `threads.sqlite` deleted or replaced while a process runs is noticed before the next turn: the
  process reopens the new file and tells the user their conversation was lost;
- a folder that cannot be written is a `StoreUnavailable` that says what to do.
"""
from __future__ import annotations

import os
import sqlite3
import sys
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
_FDS_LOCK = threading.Lock()


BUSY_TIMEOUT_S = 30.0
"""How long a writer waits for another process's transaction before giving up."""


def _unavailable(path: Path, exc: BaseException):
    from agent.store import StoreUnavailable
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return StoreUnavailable(f"cannot use the conversation store {path} ({reason}); make the folder writable "
                            f"or point ADVISOR_HOME at a writable folder")


def _open_checked(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
    try:
        conn.execute("PRAGMA schema_version").fetchone()   # reads the header: "not a database" shows here
        conn.execute("PRAGMA busy_timeout = %d" % int(BUSY_TIMEOUT_S * 1000))
        # WAL with synchronous=NORMAL: a commit is one append to the log, synced at checkpoints rather
        # than every turn (FULL cost ~3.5 ms of fsync per turn). A crashed process loses nothing
        # committed; only a power cut can lose the last turns, never corrupt the file.
        conn.execute("PRAGMA journal_mode=WAL").fetchone()
        conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


def _open_locked_retry(path: Path) -> sqlite3.Connection:
    """`_open_checked`, retried while another process holds the file: switching to WAL needs a lock
    SQLite does not wait for (no busy handler), so two servers starting together can see 'database
    is locked' once; waiting a little is what the busy timeout promises."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.02
    while True:
        try:
            return _open_checked(path)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.5)


def _connect(path: Path, notices: list[str] | None = None) -> sqlite3.Connection:
    """A connection to `path`; a damaged file is moved aside and recreated (said on stderr and
    in `notices`); an unusable folder → StoreUnavailable naming it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return _open_locked_retry(path)
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and "not a database" not in str(exc) \
                and "malformed" not in str(exc):
            raise _unavailable(path, exc) from None
    except OSError as exc:
        raise _unavailable(path, exc) from None
    aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, aside)
        conn = _open_checked(path)
    except (OSError, sqlite3.Error) as exc:
        raise _unavailable(path, exc) from None
    note = (f"The conversation store {path.name} was damaged and has been rebuilt (the old file is kept as "
            f"{aside.name}); earlier conversations could not be recovered, so this one starts afresh.")
    print(f"advisor: {note}", file=sys.stderr)
    if notices is not None:
        notices.append(note)
    return conn


def _storable(text: Any) -> str:
    """Text SQLite can encode: lone surrogates (which UTF-8 cannot hold) become U+FFFD."""
    from rules.inputs import clean_text
    return clean_text(text, "stored text", limit=10**8)


def _create(db: sqlite3.Connection, path: Path, sql: str) -> None:
    try:
        with db:
            db.execute(sql)
    except sqlite3.Error as exc:
        raise _unavailable(path, exc) from None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive flock on `path` (other processes wait); nothing when the folder is read-only."""
    try:
        import fcntl
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)      # closing releases the lock


class SqliteSeen:
    """Persistent Slack de-duplication (keys: channel:ts): `seen` holds handled messages, `seen_claims`
    the ones in hand. A duplicate delivery is dropped; a retry of a message whose handler died
    (a claim older than the lease, never marked done) is handled."""

    def __init__(self, path: Path, lease_s: float = SEEN_LEASE_S):
        self._db = _connect(path)
        _create(self._db, path, "CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY)")
        _create(self._db, path, "CREATE TABLE IF NOT EXISTS seen_claims (key TEXT PRIMARY KEY, at REAL NOT NULL)")
        self._lock, self.lease_s = threading.Lock(), lease_s

    def first_time(self, key: str) -> bool:
        """True when `key` is neither handled nor in hand (and claims it)."""
        key = _storable(key)
        now = time.time()
        with self._lock, self._db:
            if self._db.execute("SELECT 1 FROM seen WHERE key = ?", (key,)).fetchone():
                return False
            cur = self._db.execute("INSERT INTO seen_claims(key, at) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                                   "SET at = excluded.at WHERE seen_claims.at < ?", (key, now, now - self.lease_s))
            return cur.rowcount == 1

    def done(self, key: str) -> None:
        """`key` was handled: every later delivery of it is dropped."""
        key = _storable(key)
        with self._lock, self._db:
            self._db.execute("INSERT OR IGNORE INTO seen(key) VALUES (?)", (key,))
            self._db.execute("DELETE FROM seen_claims WHERE key = ?", (key,))

    def forget(self, key: str) -> None:
        """Drop `key` (its delivery was never handled, so a retry may be)."""
        key = _storable(key)
        with self._lock, self._db:
            self._db.execute("DELETE FROM seen_claims WHERE key = ?", (key,))
            self._db.execute("DELETE FROM seen WHERE key = ?", (key,))


class SqliteTranscripts:
    """Append-only chat messages per thread id: what a page displayed, for reloads and restarts."""

    def __init__(self, path: Path):
        self._db = _connect(path)
        _create(self._db, path, "CREATE TABLE IF NOT EXISTS messages (thread TEXT, seq INTEGER, role TEXT,"
                                " content TEXT, PRIMARY KEY (thread, seq))")
        self._lock = threading.Lock()

    def append(self, thread: str, role: str, content: str) -> None:
        """Add one message at the end of the thread."""
        thread, role, content = _storable(thread), _storable(role), _storable(content)
        with self._lock, self._db:
            (n,) = self._db.execute("SELECT COUNT(*) FROM messages WHERE thread = ?", (thread,)).fetchone()
            self._db.execute("INSERT INTO messages VALUES (?, ?, ?, ?)", (thread, n, role, content))

    def history(self, thread: str) -> list[dict[str, str]]:
        """The thread's messages as chat messages ({"role", "content"}), oldest first."""
        thread = _storable(thread)
        with self._lock:
            rows = self._db.execute("SELECT role, content FROM messages WHERE thread = ? ORDER BY seq", (thread,))
            return [{"role": r, "content": c} for r, c in rows.fetchall()]


class SqliteStore:
    """Checkpoints, de-duplication and transcripts in SQLite files under `home`."""

    kind = "sqlite"

    def __init__(self, home: Path):
        self.home = Path(home)
        self.notices: list[str] = []
        """Damage repaired since this store opened (shown once per conversation)."""
        self._told: set[str] = set()
        self._served: set[str] = set()
        self._swap = threading.Lock()

    @property
    def threads_path(self) -> Path:
        return self.home / "threads.sqlite"

    @cached_property
    def checkpointer(self) -> Any:
        from langgraph.checkpoint.sqlite import SqliteSaver
        saver = SqliteSaver(_connect(self.threads_path, self.notices))
        self._threads_id = _identity(self.threads_path)
        return saver

    def _reopen_if_replaced(self) -> bool:
        """Reopen threads.sqlite when it was deleted or replaced under this process (True then)."""
        saver = self.checkpointer
        if _identity(self.threads_path) == self._threads_id:
            return False
        with self._swap, saver.lock:
            if _identity(self.threads_path) == self._threads_id:
                return False
            old, saver.conn = saver.conn, _connect(self.threads_path, self.notices)
            saver.is_setup = False
            self._threads_id = _identity(self.threads_path)
        try:
            old.close()
        except sqlite3.Error:
            pass
        return True

    def turn_notice(self, thread_id: str) -> str | None:
        """What the user must be told before this turn, if anything: their conversation was lost
        (threads.sqlite deleted or replaced) or the store was rebuilt. Called inside turn_lock."""
        lost = self._reopen_if_replaced() and thread_id in self._served
        notice = None
        if lost:
            notice = ("Your earlier conversation was lost: the conversation file (threads.sqlite) was deleted "
                      "or replaced. This message starts a new conversation; repeat any details it needs.")
            self._told.add(thread_id)
        elif self.notices and thread_id not in self._told:
            notice = self.notices[-1]
            self._told.add(thread_id)
        self._served.add(thread_id)
        return notice

    @cached_property
    def seen(self) -> SqliteSeen:
        return SqliteSeen(self.home / "slack_seen.sqlite")

    @cached_property
    def transcripts(self) -> SqliteTranscripts:
        return SqliteTranscripts(self.home / "web_transcripts.sqlite")

    @contextmanager
    def turn_lock(self, thread_id: str) -> Iterator[None]:
        """Hold the thread's lock for one turn: threads of this process and other processes on the
        same data directory wait their turn (so each turn starts from the one before)."""
        stripe = zlib.crc32(f"{self.home}\0{thread_id}".encode("utf-8", "replace")) % len(_STRIPES)
        with _STRIPES[stripe], _file_lock(self.home / "locks" / f"turn-{stripe:02d}.lock"):
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
