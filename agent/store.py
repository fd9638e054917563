"""The conversation store: everything a conversation needs to outlive the process serving it.

    open_store(home=None, url=None) -> SqliteStore | PostgresStore
    store.checkpointer           langgraph's checkpoint saver (what each thread knows)
    store.turn_lock(thread_id)   one turn at a time per thread, across threads and processes
    store.seen.first_time(key)   Slack de-duplication: claims a message (False: handled or in hand)
    store.seen.done(key)         ... and marks it handled; a claim never marked done (its process
                                 died) is taken over by a retry after SEEN_LEASE_S
    store.transcripts            what a page displayed per thread (`append`, `history`)
    store.checks()               readiness: {"conversation_store": ..., "checkpointer": ...}

By default these are SQLite files under the data directory: one user, one machine. With
`$ADVISOR_DATABASE_URL` (a PostgreSQL URL) they live in PostgreSQL through langgraph's own
PostgresSaver, so several web and Slack processes share them and a conversation begun on one
replica continues on another.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.errors import AdvisorError


SEEN_LEASE_S = 120.0   # longer than any turn (LLM time 30 s + the tools); Slack retries after 1 and 5 min


class StoreUnavailable(AdvisorError):
    """The conversation database cannot be reached or used; the message says what to check."""


class ThreadBusy(AdvisorError):
    """Another turn of the same conversation is still running."""


def open_store(home: str | Path | None = None, url: str | None = None) -> Any:
    """The conversation store: PostgreSQL at `url` or `$ADVISOR_DATABASE_URL`, else SQLite files
    under `home` (default: the data directory)."""
    from knowledge import paths

    url = url or paths.database_url()
    if url:
        return _postgres(url)
    from agent.store_sqlite import SqliteStore
    return SqliteStore(Path(home) if home else paths.home())


@lru_cache(maxsize=4)
def _postgres(url: str):
    """One pool per database per process, shared by every Advisor the process builds."""
    from agent.store_postgres import PostgresStore
    return PostgresStore(url)


def redact(url: str) -> str:
    """`url` without its password, for messages."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
