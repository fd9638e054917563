"""Conversations persist in SQLite: a killed process loses nothing, a new one resumes the interview."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from agentfakes import Ext, fake_tools

from agent.api import Advisor

OPEN = "We want to self-host a model."
HW_TEXT = "Two RTX 3090, Qwen3 32B, for our team"
TABLES = {
    "extract": {OPEN: Ext()},
    "answers": {HW_TEXT: Ext(values={"hardware": "rtx3090", "count": 2, "model": "qwen3-32b", "serving_mode": "team"},
                             evidence={"hardware": "RTX 3090", "count": "Two", "model": "Qwen3 32B", "serving_mode": "team"})},
}


def _advisor(home: Path) -> Advisor:
    return Advisor(home=home, tools=fake_tools(TABLES["extract"], TABLES["answers"]))


def test_a_second_advisor_on_the_same_file_resumes_mid_interview(tmp_path):
    first = _advisor(tmp_path)
    q1 = first.turn("th", OPEN).question
    q2 = first.turn("th", HW_TEXT).question
    del first                                   # no close, no flush: like a crash
    second = _advisor(tmp_path)
    assert second.pending("th") == q2
    done = second.turn("th", "PCIe only, no NVLink")
    assert done.question is None
    assert done.result["questions"] == [q1, q2]
    assert done.result["profile"]["hardware"] == "rtx3090"
    assert (tmp_path / "threads.sqlite").is_file()


SCRIPT = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {tests!r})
    from agentfakes import Ext, fake_tools
    from test_restart import TABLES
    from agent.api import Advisor
    adv = Advisor(tools=fake_tools(TABLES["extract"], TABLES["answers"]))
    out = adv.turn("killed", sys.argv[1])
    print(json.dumps(out.question), flush=True)
    if sys.argv[2] == "hang":
        time.sleep(600)
""")


def test_killing_the_process_mid_interview_then_resuming_in_a_new_one(tmp_path):
    env = {**os.environ, "ADVISOR_HOME": str(tmp_path)}
    script = SCRIPT.format(tests=str(Path(__file__).parent))
    proc = subprocess.Popen([sys.executable, "-c", script, OPEN, "hang"], env=env,
                            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    asked = json.loads(proc.stdout.readline())
    assert asked["fields"] == ["hardware", "model", "serving_mode"]
    proc.kill()                                   # SIGKILL while the thread waits for an answer
    proc.wait(timeout=10)
    time.sleep(0.1)
    resumed = subprocess.run([sys.executable, "-c", script, HW_TEXT, "exit"], env=env, capture_output=True,
                             text=True, cwd=Path(__file__).parents[2], timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["fields"] == ["interconnect"]   # the answer landed in the old thread
