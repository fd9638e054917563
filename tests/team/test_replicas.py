"""Two `advisor web` processes on one PostgreSQL and one Chroma server: twenty conversations move
between them, one replica is killed (-9) mid-conversation, and no completed turn is lost; a
document ingested through one replica is cited by the other."""
from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import urllib.request

from agent.api import Advisor
from agent.store_postgres import PostgresStore
from evals import loadclient, services

NOTE = """---
id: kestrel-cluster
title: The Kestrel cluster runbook
---
## Kestrel hardware
Kestrel is our team's inference cluster: six L40S cards in two chassis joined by 25 GbE, no NVLink.
Serve one replica per chassis and never tensor-parallel across the Ethernet link.
"""
KESTREL_QUESTION = "What should the Kestrel cluster run for our team of 80, Qwen3 32B?"
KILL_AFTER = 40          # completed turns (of 60) before replica A is killed: most conversations have moved by then


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _cited(url: str, question: str) -> list[str]:
    """The chunk ids a replica's `recommend` tool cites for `question` (the ask --json contract)."""
    (text,) = loadclient.call(url, "recommend", [question, "", False], timeout=120)
    return [c["id"] for c in json.loads(text)["citations"]]


def _lineage_texts(advisor: Advisor, thread: str) -> list[str]:
    """Every user text on the thread's current line of checkpoints (head back to the root)."""
    texts: list[str] = []
    snap = advisor.graph.get_state({"configurable": {"thread_id": thread}})
    while snap is not None and snap.config:
        texts += [t for t in snap.values.get("transcript") or () if t not in texts]
        snap = advisor.graph.get_state(snap.parent_config) if snap.parent_config else None
    return texts


def _compose_healthcheck(url: str) -> int:
    """Run compose.yaml's web healthcheck command against `url`; its exit code."""
    import sys
    from pathlib import Path

    import yaml
    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "compose.yaml").read_text())
    code = compose["services"]["web-1"]["healthcheck"]["test"][-1].replace("http://127.0.0.1:7860/", url)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30).returncode


def _is_subsequence(part: list, whole: list) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def test_two_replicas_share_conversations_and_knowledge_and_survive_a_kill(fresh_team_env, tmp_path):
    env = {**fresh_team_env, "ADVISOR_CHROMA_TTL": "1"}
    with services.replicas(env, 2) as (a, b):
        for replica in (a, b):
            assert _get(replica.url + "healthz") == (200, {"ok": True})
            status, body = _get(replica.url + "readyz")
            assert status == 200 and body["checks"] == {"conversation_store": "ok", "checkpointer": "ok",
                                                         "knowledge_index": "ok"}

        # Knowledge: ingested with replica A's environment, cited by replica B (which already holds
        # a mirror of the collection from its readiness check).
        assert "kestrel-cluster#kestrel-hardware" not in _cited(b.url, KESTREL_QUESTION)
        note = tmp_path / "kestrel.md"
        note.write_text(NOTE, encoding="utf-8")
        out = subprocess.run(services.advisor_cmd() + ["ingest", str(note)], capture_output=True, text=True,
                             env={**os.environ, **env, "ADVISOR_HOME": str(a.home)}, timeout=120)
        assert out.returncode == 0, out.stderr
        deadline = time.monotonic() + 20
        while "kestrel-cluster#kestrel-hardware" not in _cited(b.url, KESTREL_QUESTION):
            assert time.monotonic() < deadline, "replica B never cited the document ingested through A"
            time.sleep(0.5)

        # Conversations: turn k of conversation i goes to replica (i + k) % 2; A dies mid-run.
        lock, completed, killed_at = threading.Lock(), [], []

        def on_turn(turn: dict) -> None:
            with lock:
                completed.append(turn)
                if len(completed) == KILL_AFTER:
                    a.kill()
                    killed_at.append(time.monotonic())
        report = loadclient.run([a.url, b.url], conversations=20, timeout=120, on_turn=on_turn)
        assert killed_at, "replica A was never killed"
        assert report["errors"] == []
        assert report["failovers"] >= 1, "turns bound for the dead replica went to the live one"
        records = report["records"]
        assert all(len(r["turns"]) == 3 for r in records)
        assert sum(len({t["url"] for t in r["turns"]}) == 2 for r in records) >= 15, \
            "conversations moved between the replicas"
        assert _get(b.url + "readyz")[0] == 200
        assert _compose_healthcheck(b.url) == 0 and _compose_healthcheck(a.url) != 0
        # `advisor bench` drives the same load through the client in a process of its own.
        from evals.bench import _load
        assert _load([b.url], conversations=2) | {"p50_ms": 0, "p95_ms": 0, "wall_s": 0} == {
            "replicas": 1, "conversations": 2, "turns": 6, "p50_ms": 0, "p95_ms": 0, "wall_s": 0,
            "failovers": 0, "errors": []}

        # Nothing completed is lost: every turn a client saw answered is in the shared checkpoints
        # and transcripts, and each thread waits on exactly the question the client saw last.
        store = PostgresStore(env["ADVISOR_DATABASE_URL"])
        advisor = Advisor(store=store)
        for record in records:
            thread, turns = record["thread"], record["turns"]
            kept = _lineage_texts(advisor, thread)
            assert all(t["text"] in kept for t in turns), (thread, kept)
            shown = [(m["role"], loadclient.text_of(m["content"]).strip()) for m in store.transcripts.history(thread)]
            seen = [pair for t in turns for pair in (("user", t["text"]), ("assistant", t["reply"].strip()))]
            assert _is_subsequence(seen, shown), thread
            pending = advisor.pending(thread)
            if pending:
                assert pending["question"].strip() == turns[-1]["reply"].strip()
            else:
                assert advisor.advice(thread) is not None, thread
        store.close()
