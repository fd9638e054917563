"""The conversation store on a real PostgreSQL: conversations move between processes, turns on
one thread are serialised (never lost), Slack de-duplication and transcripts are shared."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import nullcontext

import pytest

from agent.api import Advisor
from agent.store import StoreUnavailable, open_store
from agent.store_postgres import PostgresStore
from agent.store_sqlite import SqliteStore
from evals.services import free_port

OPEN = "We want to self-host a model for our team."
ANSWER_A = "4x RTX 4090, PCIe only, no NVLink."
ANSWER_B = "Llama 3.3 70B AWQ, about 60 people and 20 at once."


def _slow_tools(delay: float = 0.4):
    """The real tools, with answer extraction slowed so two turns surely overlap."""
    from agent.tools import default_tools

    tools = default_tools()
    real = tools.extract_answer

    def slow(text, fields):
        time.sleep(delay)
        return real(text, fields)
    return dataclasses.replace(tools, extract_answer=slow)


def _lineage_texts(advisor: Advisor, thread: str) -> list[str]:
    """Every user text on the thread's current line of checkpoints (head back to the root).
    A turn lost to a race sits on a dead branch, not on this line."""
    config = {"configurable": {"thread_id": thread}}
    texts: list[str] = []
    snap = advisor.graph.get_state(config)
    while snap is not None and snap.config:
        for text in snap.values.get("transcript") or ():
            if text not in texts:
                texts.append(text)
        parent = snap.parent_config
        snap = advisor.graph.get_state(parent) if parent else None
    return texts


def test_a_conversation_begun_in_one_process_continues_in_another(team_env, pg_url):
    first = Advisor(store=PostgresStore(pg_url))      # its own pool: another process, as far as
    second = Advisor(store=PostgresStore(pg_url))     # PostgreSQL can tell
    q1 = first.turn("move-1", OPEN).question
    assert q1 and second.pending("move-1") == q1
    out = second.turn("move-1", f"{ANSWER_A} {ANSWER_B}")
    for turn in range(3):                              # any further question: back on the first
        if not out.question:
            break
        out = (first, second)[turn % 2].turn("move-1", "I don't know")
    assert out.result["profile"]["hardware"] == "rtx4090"
    assert first.advice("move-1").contract_json()["primary"] == out.result["primary"]


class _NoLock:
    """The store without its turn lock: the control that shows the race is real."""

    def __init__(self, inner):
        self.inner, self.checkpointer = inner, inner.checkpointer

    def turn_lock(self, thread_id):
        return nullcontext()


@pytest.mark.parametrize("kind", ["postgres", "sqlite"])
def test_two_turns_at_once_on_one_thread_are_serialised_and_both_kept(kind, team_env, pg_url, tmp_path):
    def store():
        return PostgresStore(pg_url) if kind == "postgres" else SqliteStore(tmp_path)
    thread = f"race-{kind}"
    tools = _slow_tools()
    a, b = Advisor(tools=tools, store=store()), Advisor(tools=tools, store=store())
    a.turn(thread, OPEN)
    errors: list[BaseException] = []

    def send(advisor, text):
        try:
            advisor.turn(thread, text)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
    workers = [threading.Thread(target=send, args=(a, ANSWER_A)), threading.Thread(target=send, args=(b, ANSWER_B))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    kept = _lineage_texts(a, thread)
    assert ANSWER_A in kept and ANSWER_B in kept, kept

    # Control: the same race without the lock loses one of the two answers.
    racy = f"race-{kind}-unlocked"
    base = store()
    a, b = Advisor(tools=tools, store=_NoLock(base)), Advisor(tools=tools, store=_NoLock(store()))
    a.turn(racy, OPEN)
    workers = [threading.Thread(target=send, args=(a, ANSWER_A)), threading.Thread(target=send, args=(b, ANSWER_B))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    kept = _lineage_texts(a, racy)
    assert not (ANSWER_A in kept and ANSWER_B in kept), "without the lock one answer should be lost"


HOLDER = textwrap.dedent("""
    import sys, time
    from agent.store_postgres import PostgresStore
    store = PostgresStore(sys.argv[1])
    with store.turn_lock("held-thread"):
        print("locked", flush=True)
        time.sleep(600)
""")


def test_a_killed_process_does_not_leave_its_thread_locked(pg_url):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, pg_url], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        store = PostgresStore(pg_url)
        got = threading.Event()

        def take():
            with store.turn_lock("held-thread"):
                got.set()
        waiter = threading.Thread(target=take)
        waiter.start()
        assert not got.wait(1.0), "the lock must hold while its owner lives"
        holder.kill()                                  # -9: no unlock, the session just ends
        assert got.wait(15), "PostgreSQL releases a dead session's advisory lock"
        waiter.join()
    finally:
        holder.kill()
        holder.wait()


def test_slack_deliveries_and_web_transcripts_are_shared_between_replicas(pg_url):
    from ui.slack_bot import SlackAdvisor

    class Client:   # Slack's Web API is the protocol boundary: record what would be posted
        def __init__(self):
            self.posts = []

        def chat_postMessage(self, **kw):  # noqa: N802
            self.posts.append(kw)
            return {"ok": True, "ts": "1.0"}

    one, two = PostgresStore(pg_url), PostgresStore(pg_url)
    replicas = [SlackAdvisor(Advisor(store=s), s.seen) for s in (one, two)]
    client = Client()
    for bot in replicas:                               # the same event reaches both replicas
        bot.handle(client, "T1", "C9", "5.000100", None, "<@UBOT> Which engine for our team?")
    assert len(client.posts) == 1
    one.transcripts.append("web-shared", "user", "hello")
    two.transcripts.append("web-shared", "assistant", "which hardware?")
    assert one.transcripts.history("web-shared") == [{"role": "user", "content": "hello"},
                                                     {"role": "assistant", "content": "which hardware?"}]
    assert one.checks() == {"conversation_store": "ok", "checkpointer": "ok"}


def test_an_unreachable_database_is_one_clear_line_without_the_password(tmp_path):
    url = f"postgresql://advisor:s3cret@127.0.0.1:{free_port()}/advisor"
    with pytest.raises(StoreUnavailable) as err:
        open_store(url=url)
    message = str(err.value)
    assert "cannot reach the conversation database" in message and "***" in message
    assert "s3cret" not in message and "\n" not in message
    env = {**os.environ, "ADVISOR_DATABASE_URL": url}
    out = subprocess.run([sys.executable, "-m", "ui.cli", "chat"], input="", capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().count("\n") == 0 and "s3cret" not in out.stderr


def test_sqlite_stays_the_default(tmp_path, monkeypatch):
    monkeypatch.delenv("ADVISOR_DATABASE_URL", raising=False)
    store = open_store(tmp_path)
    assert store.kind == "sqlite"
    Advisor(store=store).turn("t", OPEN)
    assert (tmp_path / "threads.sqlite").is_file()
    assert store.checks() == {"conversation_store": "ok", "checkpointer": "ok"}


def test_replicas_starting_together_on_a_new_database_all_come_up(pg_url):
    """Table creation is serialised without a blocked session holding a transaction open: the
    saver's CREATE INDEX CONCURRENTLY would wait for it while its owner waits for the lock."""
    import psycopg

    name = f"fresh_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_url.rsplit("/", 1)[0] + "/" + name
    stores, errors = [], []

    def start():
        try:
            stores.append(PostgresStore(url))
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
    workers = [threading.Thread(target=start, daemon=True) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    assert not any(w.is_alive() for w in workers), "a replica hung while creating the tables"
    assert not errors and len(stores) == 3
    assert all(s.checks() == {"conversation_store": "ok", "checkpointer": "ok"} for s in stores)
    for s in stores:
        s.close()


def test_readiness_names_what_failed(pg_url, monkeypatch):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from ui import health

    monkeypatch.delenv("ADVISOR_CHROMA_URL", raising=False)
    store = PostgresStore(pg_url)
    app = FastAPI()
    health.add_routes(app, Advisor(store=store))
    client = TestClient(app)
    assert client.get("/healthz").json() == {"ok": True}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"conversation_store": "ok", "checkpointer": "ok", "knowledge_index": "ok"}
    store.close()                                       # the database is gone for this replica
    down = client.get("/readyz")
    assert down.status_code == 503 and down.json()["ok"] is False
    assert down.json()["checks"]["conversation_store"] != "ok" and down.json()["checks"]["knowledge_index"] == "ok"
    assert client.get("/healthz").status_code == 200    # alive all the same: do not restart it
