"""The JSON API (ui.http_api) through real HTTP servers on 127.0.0.1: a uvicorn server in this
process, and two `advisor api` processes sharing one conversation store."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

OPEN = "We want to self-host an LLM for our team."
ANSWER = "4x RTX 4090 with PCIe only, Llama 3.3 70B AWQ, about 60 people and 20 at once, chat."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(base: str, body, timeout: float = 60) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(base + "api/turn", data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _get(base: str, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, the server's Advisor): `ui.http_api.create_app`'s routes under uvicorn."""
    import uvicorn
    from fastapi import FastAPI

    from agent.api import Advisor
    from ui import health, http_api

    advisor = Advisor(home=tmp_path_factory.mktemp("api_home"))
    app = FastAPI()
    health.add_routes(app, advisor)
    http_api.add_routes(app, advisor)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        assert time.time() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/", advisor
    server.should_exit = True
    thread.join(timeout=10)


def test_a_conversation_gives_the_agents_advice(served):
    from agent.api import advise
    from ui.present import data

    base, _ = served
    status, first = _post(base, {"text": OPEN, "thread": "team-1"})
    assert status == 200 and first["thread"] == "team-1" and first["advice"] is None
    assert set(first["question"]["fields"]) & {"hardware", "model"}
    reply = first
    for text in (ANSWER, "I don't know", "I don't know"):
        if reply["advice"] is not None:
            break
        status, reply = _post(base, {"text": text, "thread": "team-1"})
        assert status == 200
    got = reply["advice"]
    assert got is not None and reply["question"] is None
    # the same conversation, answered by the one-shot entry point with the same answers
    want = data.essentials(advise(OPEN, {"hardware": ANSWER, "model": ANSWER, "concurrency": ANSWER}))
    for key in ("primary", "alternatives", "avoid", "plan", "estimate", "options"):
        assert got[key] == want[key], key
    assert got["citations"] and all(set(c) == {"id", "title", "source"} for c in got["citations"])
    status, again = _get(base, "api/advice/team-1")
    assert status == 200 and again["advice"] == got
    status, full = _get(base, "api/advice/team-1?detail=true")
    assert full["advice"]["benchmark_spec"]["exports"] and all(c["text"] for c in full["advice"]["citations"])


def test_a_turn_without_thread_starts_one(served):
    base, _ = served
    status, out = _post(base, {"text": "8x H100 SXM with NVLink, Llama 3.1 70B FP8, chat for 400 people, 64 concurrent"})
    assert status == 200 and len(out["thread"]) == 16
    assert _get(base, f"api/advice/{out['thread']}")[0] == 200


def test_client_thread_ids_cannot_reach_another_surfaces_conversation(served):
    base, advisor = served
    advisor.turn("web-0123456789abcdef", "8x H100 SXM with NVLink, Llama 3.1 70B FP8, 64 concurrent, chat")
    assert advisor.advice("web-0123456789abcdef") is not None
    status, body = _get(base, "api/advice/web-0123456789abcdef")
    assert status == 404 and body == {"error": "no such conversation"}
    for bad in ("../web-0123456789abcdef", "web 1", "x" * 65, "api-x/../y", "é"):
        status, body = _post(base, {"text": "hello", "thread": bad})
        assert status == 400 and "thread" in body["error"], bad
    status, out = _post(base, {"text": OPEN, "thread": "web-0123456789abcdef"})
    assert status == 200 and out["question"] is not None       # a new api conversation of that name
    assert advisor.advice("web-0123456789abcdef") is not None  # the web one is untouched
    assert advisor.pending("api:web-0123456789abcdef") is not None


@pytest.mark.parametrize("body, words", [
    (b"not json", "JSON object"), (b"[1, 2]", "JSON object"), ({"thread": "x"}, "text"),
    ({"text": "   "}, "empty message"), ({"text": "hi", "lang": "fr", "x": 1}, "Extra inputs"),
    ({"text": "x" * 9000}, "text"), ({"text": 5}, "text"),
])
def test_bad_input_is_one_clear_line(served, body, words):
    base, _ = served
    status, out = _post(base, body)
    assert status == 400 and words in out["error"] and "\n" not in out["error"]


def test_an_oversized_body_is_refused_before_it_is_read(served):
    base, _ = served
    status, out = _post(base, json.dumps({"text": "x" * 70_000}).encode())
    assert status == 413 and out == {"error": "the body is larger than 64 KB"}


def _start_api(home: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "ADVISOR_HOME": str(home)}
    cmd = [sys.executable, "-m", "ui.cli", "api", "--port", str(port), "--workers", "1"]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait(base: str, proc: subprocess.Popen) -> None:
    deadline = time.time() + 90
    while True:
        assert proc.poll() is None, proc.stderr.read().decode(errors="replace")[-500:]
        try:
            urllib.request.urlopen(base + "healthz", timeout=1)
            return
        except OSError:
            assert time.time() < deadline, "advisor api did not start"
            time.sleep(0.3)


def _lineage_texts(advisor, thread: str) -> list[str]:
    """Every user text on the thread's current line of checkpoints (a raced turn sits on a dead branch)."""
    texts: list[str] = []
    snap = advisor.graph.get_state({"configurable": {"thread_id": thread}})
    while snap is not None and snap.config:
        texts += [t for t in snap.values.get("transcript") or () if t not in texts]
        snap = advisor.graph.get_state(snap.parent_config) if snap.parent_config else None
    return texts


def test_two_processes_share_conversations(tmp_path):
    """Two `advisor api` processes on one data directory: a conversation moves between them, and
    two messages sent to one thread at the same moment (one to each) are both kept."""
    from agent.api import Advisor

    ports = [_free_port(), _free_port()]
    procs = [_start_api(tmp_path, p) for p in ports]
    bases = [f"http://127.0.0.1:{p}/" for p in ports]
    try:
        for base, proc in zip(bases, procs):
            _wait(base, proc)
        status, first = _post(bases[0], {"text": OPEN, "thread": "moves"})
        assert status == 200 and first["question"]
        status, second = _post(bases[1], {"text": ANSWER, "thread": "moves"})     # the other process
        assert status == 200 and second["question"] != first["question"]
        texts = ["No idea, assume typical values.", "Not sure, please assume the usual."]
        with ThreadPoolExecutor(2) as ex:
            both = list(ex.map(lambda bt: _post(bt[0], {"text": bt[1], "thread": "moves"}), zip(bases, texts)))
        assert [s for s, _ in both] == [200, 200]
        kept = _lineage_texts(Advisor(home=tmp_path), "api:moves")
        assert all(t in kept for t in [OPEN, ANSWER, *texts]), kept
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=20)


HOLDER = """
import sys, time
from pathlib import Path
from agent.store_sqlite import SqliteStore
with SqliteStore(Path(sys.argv[1])).turn_lock("api-held"):
    print("locked", flush=True)
    time.sleep(600)
"""


def test_a_thread_held_by_another_process_waits_and_is_freed_when_it_dies(tmp_path):
    """The SQLite store's turn lock holds across processes (`advisor api --workers N` share one
    data directory), and a killed holder frees it."""
    from agent.store_sqlite import SqliteStore

    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        got = threading.Event()

        def take():
            with SqliteStore(tmp_path).turn_lock("api-held"):
                got.set()
        waiter = threading.Thread(target=take, daemon=True)
        waiter.start()
        assert not got.wait(1.0), "the lock was taken while another process held it"
        with SqliteStore(tmp_path).turn_lock("api-other"):      # other threads are not held up
            pass
        holder.kill()
        assert got.wait(10), "a killed holder left the thread locked"
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_a_bug_is_one_generic_line_and_logged(caplog):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from ui import http_api

    class Broken:
        def turn(self, thread, text):
            raise RuntimeError("boom")

    app = FastAPI()
    http_api.add_routes(app, Broken())
    resp = TestClient(app).post("/api/turn", json={"text": "hello", "thread": "t"})
    assert resp.status_code == 500 and resp.json() == {"error": "internal error (logged on the server)"}
    assert "boom" in caplog.text
