"""The shared conversation store: PostgreSQL at `$ADVISOR_DATABASE_URL`, for several replicas.

Checkpoints go through langgraph's own PostgresSaver; the Slack de-duplication and the web
transcripts are two small tables beside them. Tables are created once, under an advisory lock,
so replicas starting together do not race.

A turn holds a session-level advisory lock keyed on its thread id, on a connection from a
separate pool: a second turn on the same thread (another browser tab, another replica, a Slack
retry) waits for the first and then sees its checkpoint, so neither answer is lost. If the
process dies mid-turn the connection closes and PostgreSQL releases the lock.
"""
from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from agent.store import SEEN_LEASE_S, StoreUnavailable, ThreadBusy, redact

log = logging.getLogger("advisor.store")

POOL_SIZE = 8          # checkpoint and table work: short statements
LOCK_POOL_SIZE = 32    # one connection per turn in flight (web concurrency + Slack + MCP)
LOCK_WAIT_S = 120      # a turn waits this long for the same thread's previous turn
CONNECT_TIMEOUT_S = 10
SETUP_LOCK = 0x616476697365   # advisory-lock key for creating tables ("advise")

TABLES = (
    "CREATE TABLE IF NOT EXISTS advisor_slack_seen ("
    " key TEXT PRIMARY KEY, seen_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    "CREATE TABLE IF NOT EXISTS advisor_slack_claims ("
    " key TEXT PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now())",
    "CREATE TABLE IF NOT EXISTS advisor_transcripts ("
    " id BIGSERIAL PRIMARY KEY, thread TEXT NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL,"
    " at TIMESTAMPTZ NOT NULL DEFAULT now())",
    "CREATE INDEX IF NOT EXISTS advisor_transcripts_thread ON advisor_transcripts (thread, id)",
)


def lock_key(thread_id: str) -> int:
    """The signed 64-bit advisory-lock key of a thread id."""
    digest = hashlib.blake2b(str(thread_id).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresSeen:
    """Slack de-duplication shared by every bot replica: handled messages, and claims of the ones
    in hand (a claim older than the lease, never marked done, is taken over by a retry)."""

    def __init__(self, pool, lease_s: float = SEEN_LEASE_S):
        self._pool, self.lease_s = pool, lease_s

    def first_time(self, key: str) -> bool:
        """True when no replica has handled `key` or holds it (and claims it)."""
        with self._pool.connection() as conn:
            if conn.execute("SELECT 1 FROM advisor_slack_seen WHERE key = %s", (key,)).fetchone():
                return False
            cur = conn.execute("INSERT INTO advisor_slack_claims (key) VALUES (%s) ON CONFLICT (key) DO UPDATE "
                               "SET at = now() WHERE advisor_slack_claims.at < now() - make_interval(secs => %s)",
                               (key, self.lease_s))
            return cur.rowcount == 1

    def done(self, key: str) -> None:
        """`key` was handled: every later delivery of it is dropped."""
        with self._pool.connection() as conn:
            conn.execute("INSERT INTO advisor_slack_seen (key) VALUES (%s) ON CONFLICT DO NOTHING", (key,))
            conn.execute("DELETE FROM advisor_slack_claims WHERE key = %s", (key,))

    def forget(self, key: str) -> None:
        """Drop `key` (its delivery was never handled, so a retry may be)."""
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM advisor_slack_claims WHERE key = %s", (key,))
            conn.execute("DELETE FROM advisor_slack_seen WHERE key = %s", (key,))


class PostgresTranscripts:
    """What the web page showed per thread, shared by every web replica (order = insertion)."""

    def __init__(self, pool):
        self._pool = pool

    def append(self, thread: str, role: str, content: str) -> None:
        """Add one message at the end of the thread."""
        with self._pool.connection() as conn:
            conn.execute("INSERT INTO advisor_transcripts (thread, role, content) VALUES (%s, %s, %s)",
                         (thread, role, content))

    def history(self, thread: str) -> list[dict[str, str]]:
        """The thread's messages as chat messages ({"role", "content"}), oldest first."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT role, content FROM advisor_transcripts WHERE thread = %s ORDER BY id",
                                (thread,)).fetchall()
        return [{"role": r["role"], "content": r["content"]} for r in rows]


class PostgresStore:
    """Checkpoints, turn locks, de-duplication and transcripts in one PostgreSQL database."""

    kind = "postgres"

    def __init__(self, url: str):
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        self.url = url
        _probe(url)
        kwargs = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
        self.pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, kwargs=kwargs, open=False,
                                   name="advisor", timeout=CONNECT_TIMEOUT_S)
        self.locks = ConnectionPool(url, min_size=0, max_size=LOCK_POOL_SIZE, kwargs=kwargs, open=False,
                                    name="advisor-locks", timeout=LOCK_WAIT_S)
        self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        self.locks.open()
        self.checkpointer = PostgresSaver(self.pool)
        try:
            self._setup()
        except psycopg.Error as exc:
            self.close()
            raise StoreUnavailable(f"the conversation database {redact(url)} refused the tables' "
                                   f"setup: {_first_line(exc)}") from None
        self.seen = PostgresSeen(self.pool)
        self.transcripts = PostgresTranscripts(self.pool)

    def _setup(self) -> None:
        """Create the tables once. Replicas starting together take turns by polling a try-lock:
        a session blocked in pg_advisory_lock would hold a transaction open, and the saver's
        CREATE INDEX CONCURRENTLY waits for every open transaction — the lock holder would wait
        for its waiter (seen: two replicas hung for good)."""
        with self.pool.connection() as conn:
            deadline = time.monotonic() + LOCK_WAIT_S
            while not conn.execute("SELECT pg_try_advisory_lock(%s) AS got", (SETUP_LOCK,)).fetchone()["got"]:
                if time.monotonic() > deadline:
                    raise StoreUnavailable("another replica has been creating the conversation tables for "
                                           f"{LOCK_WAIT_S} s; check the database's activity")
                time.sleep(0.2)
            try:
                self.checkpointer.setup()
                for statement in TABLES:
                    conn.execute(statement)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))

    @contextmanager
    def turn_lock(self, thread_id: str) -> Iterator[None]:
        """Hold the thread's advisory lock for one turn (waits for a turn in flight elsewhere)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        key = lock_key(thread_id)
        try:
            with self.locks.connection() as conn:
                try:
                    conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{LOCK_WAIT_S}s",))
                    conn.execute("SELECT pg_advisory_lock(%s)", (key,))
                except psycopg.errors.LockNotAvailable:
                    raise ThreadBusy("this conversation is still answering an earlier message; "
                                     "send yours again when it has replied") from None
                try:
                    yield
                finally:
                    try:
                        conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                    except psycopg.Error as exc:   # the session is gone, and its lock with it
                        log.warning("advisory unlock failed: %s", type(exc).__name__)
        except PoolTimeout:
            raise ThreadBusy("the advisor is too busy right now; send the message again in a minute") from None

    def checks(self) -> dict[str, str]:
        """Readiness: the database answers, and the checkpoint tables can be read."""
        import psycopg
        from psycopg_pool import PoolTimeout

        out = {}
        try:
            with self.pool.connection(timeout=5) as conn:
                conn.execute("SELECT 1 FROM advisor_transcripts LIMIT 1")
            out["conversation_store"] = "ok"
        except (psycopg.Error, PoolTimeout) as exc:
            out["conversation_store"] = f"{type(exc).__name__}: {_first_line(exc)}"
        try:
            self.checkpointer.get_tuple({"configurable": {"thread_id": "readyz-probe", "checkpoint_ns": ""}})
            out["checkpointer"] = "ok"
        except (psycopg.Error, PoolTimeout) as exc:
            out["checkpointer"] = f"{type(exc).__name__}: {_first_line(exc)}"
        return out

    def close(self) -> None:
        """Close both pools."""
        self.pool.close()
        self.locks.close()


def _probe(url: str) -> None:
    """Connect once, so a wrong URL or a down server is one clear line (not a pool timeout)."""
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True).close()
    except (psycopg.Error, ValueError) as exc:
        raise StoreUnavailable(f"cannot reach the conversation database {redact(url)} "
                               f"(ADVISOR_DATABASE_URL): {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]

