"""Conversations survive concurrent writers, kill -9, a deleted or corrupt threads.sqlite and a
garbage knowledge-store pointer: nothing completed is lost without the user being told (issue 17).
Real SQLite files and real subprocesses."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from agent.api import Advisor
from agent.store import StoreUnavailable

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = [f"{n}x RTX 4090, PCIe only, Llama 3.1 8B for {10 * n} users" for n in range(1, 7)]


def _lineage_texts(advisor: Advisor, thread: str) -> list[str]:
    """Every user text on the thread's line of checkpoints, head back to the root: a turn lost to a
    race sits on a dead branch, not on this line."""
    texts: list[str] = []
    snap = advisor.graph.get_state({"configurable": {"thread_id": thread}})
    while snap is not None and snap.config:
        for text in snap.values.get("transcript") or ():
            if text not in texts:
                texts.append(text)
        snap = advisor.graph.get_state(snap.parent_config) if snap.parent_config else None
    return texts


def test_six_concurrent_turns_in_one_process_are_all_kept(tmp_path):
    advisor = Advisor(home=tmp_path)
    errors: list[BaseException] = []

    def one(text):
        try:
            Advisor(home=tmp_path).turn("shared", text)   # separate Advisors, one data directory
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
    threads = [threading.Thread(target=one, args=(q,)) for q in QUESTIONS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(_lineage_texts(advisor, "shared")) == sorted(QUESTIONS)


_TURN = textwrap.dedent("""
    import sys
    from knowledge import offline; offline.apply()
    from agent.api import Advisor
    advisor = Advisor(home=sys.argv[1])
    print("started", flush=True)
    for text in sys.argv[3:]:
        advisor.turn(sys.argv[2], text)
    print("done", flush=True)
""")


def _spawn(home: Path, thread: str, *texts: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", _TURN, str(home), thread, *texts], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def test_six_concurrent_turns_from_three_processes_are_all_kept(tmp_path):
    procs = [_spawn(tmp_path, "shared", *QUESTIONS[i::3]) for i in range(3)]   # two turns each
    outs = [p.communicate(timeout=240) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-500:] for o in outs]
    assert sorted(_lineage_texts(Advisor(home=tmp_path), "shared")) == sorted(QUESTIONS)


def test_kill_9_during_a_turn_never_loses_a_completed_turn(tmp_path):
    first = _spawn(tmp_path, "k", QUESTIONS[0])
    assert first.communicate(timeout=240) and first.returncode == 0
    killed = 0
    for delay in (0.0, 0.5):
        proc = _spawn(tmp_path, "k", QUESTIONS[1])
        assert proc.stdout.readline().strip() == "started"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        killed += proc.returncode == -signal.SIGKILL
    advisor = Advisor(home=tmp_path)
    assert QUESTIONS[0] in _lineage_texts(advisor, "k")      # the completed turn is still there
    out = advisor.turn("k", QUESTIONS[2])                    # and the store still works
    assert out.question or out.advice
    assert killed >= 1


def test_deleted_threads_file_is_told_and_a_new_conversation_starts(tmp_path):
    advisor = Advisor(home=tmp_path)
    first = advisor.turn("d", "We want to self-host a model for our team.")
    assert first.question and first.notice is None
    (tmp_path / "threads.sqlite").unlink()
    out = advisor.turn("d", "4x RTX 4090, PCIe only")
    assert out.notice and "lost" in out.notice
    shown = out.question["question"] if out.question else out.advice.answer
    assert shown.startswith(out.notice)                      # every surface shows it first
    assert (tmp_path / "threads.sqlite").exists()            # a new conversation file, in use
    assert "4x RTX 4090, PCIe only" in _lineage_texts(Advisor(home=tmp_path), "d")
    assert advisor.turn("d", "Llama 3.1 8B").notice is None  # told once


def test_corrupt_threads_file_is_moved_aside_and_rebuilt(tmp_path, capsys):
    (tmp_path / "threads.sqlite").write_bytes(b"this is not a database" * 100)
    advisor = Advisor(home=tmp_path)
    out = advisor.turn("c", QUESTIONS[0])
    assert out.notice and "rebuilt" in out.notice
    assert list(tmp_path.glob("threads.sqlite.corrupt-*"))
    assert "rebuilt" in capsys.readouterr().err
    assert Advisor(home=tmp_path).turn("c2", QUESTIONS[1]).notice is None   # healthy afterwards


@pytest.mark.parametrize("name", ["slack_seen.sqlite", "web_transcripts.sqlite"])
def test_corrupt_side_files_are_rebuilt(tmp_path, name):
    from agent.store_sqlite import SqliteStore
    (tmp_path / name).write_bytes(os.urandom(4096))
    store = SqliteStore(tmp_path)
    assert store.seen.first_time("k") and store.transcripts.history("t") == []


def test_unusable_data_directory_is_reported_with_what_to_do(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(StoreUnavailable, match="ADVISOR_HOME"):
        Advisor(home=blocker / "home").turn("t", QUESTIONS[0])


@pytest.mark.parametrize("garbage", [b"\xff\xfe\x00garbage", b"index-../../etc", b"", b"index-123"])
def test_garbage_store_pointer_is_rebuilt(garbage, monkeypatch):
    from knowledge import paths
    from knowledge.retrieve import search
    assert search("pipeline parallel without NVLink", k=2)   # build the store
    (paths.store_dir() / "CURRENT").write_bytes(garbage)
    assert search("pipeline parallel without NVLink", k=2)   # rebuilt, not broken


def test_side_files_take_any_text(tmp_path):
    """A web message or Slack key with a lone surrogate (SQLite cannot encode it) is stored, not a crash."""
    from agent.store_sqlite import SqliteStore
    store = SqliteStore(tmp_path)
    store.transcripts.append("t\ud800", "user", "8x H100 \udcff")
    assert store.transcripts.history("t\ud800") == [{"role": "user", "content": "8x H100 \ufffd"}]
    assert store.seen.first_time("C1:\ud800") and not store.seen.first_time("C1:\ud800")
