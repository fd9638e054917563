"""The chat log a surface shows (who said what, in order), kept per thread in SQLite.

The agent's checkpoints hold what the advisor knows; this holds what the page displayed, so a
reload or a restart shows the same conversation.
"""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


class Transcripts:
    """Append-only messages per thread id."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS messages (thread TEXT, seq INTEGER, role TEXT, content TEXT,"
                         " PRIMARY KEY (thread, seq))")
        self._lock = threading.Lock()

    def append(self, thread: str, role: str, content: str) -> None:
        """Add one message at the end of the thread."""
        with self._lock, self._db:
            (n,) = self._db.execute("SELECT COUNT(*) FROM messages WHERE thread = ?", (thread,)).fetchone()
            self._db.execute("INSERT INTO messages VALUES (?, ?, ?, ?)", (thread, n, role, content))

    def history(self, thread: str) -> list[dict[str, str]]:
        """The thread's messages as Gradio chat messages."""
        with self._lock:
            rows = self._db.execute("SELECT role, content FROM messages WHERE thread = ? ORDER BY seq", (thread,))
            return [{"role": r, "content": c} for r, c in rows.fetchall()]
