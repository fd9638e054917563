"""`advisor web` serves its JSON API from worker processes (ui.api_workers): a conversation goes
through them, the page's process answers itself when no worker can be reached, and the workers
end with the page's process, also when it is killed."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from conftest import _free_port, _wait

OPEN = "We want to self-host an LLM for our team."
ANSWER = "4x RTX 4090 with PCIe only, Llama 3.3 70B AWQ, about 60 people and 20 at once, chat."


def _post(base: str, body: dict) -> dict:
    req = urllib.request.Request(base + "api/turn", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.loads(resp.read())


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_api_is_served_by_workers_that_end_with_the_page(tmp_path):
    port = _free_port()
    env = {**os.environ, "ADVISOR_HOME": str(tmp_path)}
    proc = subprocess.Popen([str(Path(sys.executable).with_name("advisor")), "web", "--port", str(port),
                             "--api-workers", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait(base, proc)
        workers = [c for c in _children(proc.pid) if b"api" in Path(f"/proc/{c}/cmdline").read_bytes()]
        assert len(workers) == 1
        first = _post(base, {"text": OPEN, "thread": "w1"})
        assert first["thread"] == "w1" and first["question"]["fields"]
        out = _post(base, {"text": ANSWER, "thread": "w1"})
        for _ in range(3):
            if out["advice"]:
                break
            out = _post(base, {"text": "I don't know", "thread": "w1"})
        assert out["advice"] and out["advice"]["answer"]
        proc.send_signal(signal.SIGKILL)   # no shutdown handler runs: the parent-death signal ends the worker
        proc.wait(timeout=10)
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_without_reachable_workers_the_page_process_answers(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient
    from langgraph.checkpoint.memory import InMemorySaver

    from agent.api import Advisor
    from ui import web

    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path))
    app = web.create_app(Advisor(checkpointer=InMemorySaver()), api_url=f"http://127.0.0.1:{_free_port()}")
    with TestClient(app) as client:
        first = client.post("/api/turn", json={"text": OPEN, "thread": "local"})
        assert first.status_code == 200 and first.json()["question"]["fields"]
        assert client.get("/api/advice/local").json()["question"] == first.json()["question"]
        bad = client.post("/api/turn", json={"text": OPEN, "thread": "no spaces allowed"})
        assert bad.status_code == 400 and "thread" in bad.json()["error"]
