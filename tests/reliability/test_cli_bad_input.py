"""Real `advisor` subprocesses fed bad input: one line on stderr, exit 2, no traceback; `--json`
is always valid JSON (issue 17). Few and cheap: each run costs an interpreter start."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz_corpus import BILLION_LAUGHS
from fuzzkit import TALLIES, Tally

ROOT = Path(__file__).resolve().parents[2]


def _advisor(args: list, env_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "ADVISOR_HOME": str(env_home), "PYTHONPATH": str(ROOT)}
    argv = [sys.executable.encode(), b"-m", b"ui.cli", *[a if isinstance(a, bytes) else a.encode() for a in args]]
    tally = TALLIES.setdefault("cli (subprocess)", Tally())
    tally.tried += 1
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, capture_output=True, env=env, cwd=ROOT, timeout=240)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime   # the child's CPU, imports included
    tally.max_cpu = max(tally.max_cpu, cpu)
    tally.max_rss_mb = max(tally.max_rss_mb, after.ru_maxrss / 1024)
    if b"Traceback" in out.stderr:
        tally.crashes.append(out.stderr.decode(errors="replace")[-300:])
    return out


@pytest.fixture
def files(tmp_path):
    (tmp_path / "bomb.yaml").write_text(BILLION_LAUGHS)
    (tmp_path / "latin1.yaml").write_bytes(b"interconnect: PCIe \xe9\xff")
    (tmp_path / "deep.yaml").write_text("[" * 5000 + "]" * 5000)
    (tmp_path / "profile.yaml").write_text("hardware: h100_sxm\ncount: 1000000000\nmodel: llama-3.1-70b\n")
    (tmp_path / "nan.yaml").write_text("hardware: h100_sxm\ncount: .nan\nmodel: llama-3.1-70b\n")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe{}")
    return tmp_path


BAD = [
    ["ask", "10^9 H100 Llama 3.1 70B", "--json"],
    ["ask", "-5 H100 Llama 3.1 70B"],
    ["ask", "x" * 100_000],
    ["ask", "8x H100", "--answers", "{files}/bomb.yaml"],
    ["ask", "8x H100", "--answers", "{files}/latin1.yaml"],
    ["ask", "8x H100", "--answers", "{files}/deep.yaml"],
    ["ask", "--profile", "{files}/profile.yaml", "--json"],
    ["ask", "--profile", "{files}/nan.yaml"],
    ["ask", "--profile", "{files}"],
    ["estimate", "--model", "llama-3.1-70b", "--hardware", "h100_sxm", "--count", "1000000000", "--json"],
    ["estimate", "--model", "llama-3.1-70b", "--hardware", "h100_sxm", "--memory-gb", "1e999"],
    ["estimate", "--model-config", "{files}/deep.yaml", "--hardware", "h100_sxm"],
    ["benchspec", "--profile", "{files}/bomb.yaml"],
    ["search", "pipeline", "--k", "99999999999999999999"],
    ["ingest", "{files}/latin1.yaml"],
    ["benchspec", "reconcile", "{files}/deep.json"],
    ["benchspec", "reconcile", "{files}/latin1.json"],
]


@pytest.mark.parametrize("args", BAD, ids=range(len(BAD)))
def test_bad_input_is_one_line_and_exit_2(args, files):
    argv = [a.replace("{files}", str(files)) if isinstance(a, str) else a for a in args]
    out = _advisor(argv, files / "home")
    err = out.stderr.decode(errors="replace").strip()
    assert out.returncode == 2, (out.returncode, err[-400:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-400:]
    assert out.stdout.strip() == b""          # nothing half-printed on stdout, JSON or not


def test_json_output_is_strict_json_even_from_invalid_utf8_argv(files):
    # b"\xff\xfe" arrives as lone surrogates (surrogateescape): read as text, never a crash
    out = _advisor(["ask", b"8x H100 \xff\xfe Llama 3.1 70B, 50 users", "--json"], files / "home")
    assert out.returncode == 0 and b"Traceback" not in out.stderr, out.stderr[-400:]
    data = json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))
    assert data["profile"]["hardware"] == "h100_sxm"
    out = _advisor(["catalog", "hardware", "--json"], files / "home")
    json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))


def test_library_chatter_never_reaches_json_stdout(capsys, monkeypatch):
    """What a library prints during a --json run (litellm's banners) goes to stderr."""
    from agent import api
    from ui.cli import main
    real = api.advise

    def chatty(*args, **kwargs):
        print("Give Feedback / Get Help: https://github.com/BerriAI/litellm/issues/new")
        return real(*args, **kwargs)
    monkeypatch.setattr(api, "advise", chatty)
    assert main(["ask", "8x H100, Llama 3.1 8B", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["profile"]["hardware"] == "h100_sxm" and "Give Feedback" in err


def test_non_finite_numbers_print_as_null(capsys):
    from ui.output import print_json
    print_json({"a": float("inf"), "b": [float("nan"), 1.5]})
    assert json.loads(capsys.readouterr().out) == {"a": None, "b": [None, 1.5]}
