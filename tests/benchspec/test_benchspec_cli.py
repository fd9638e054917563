"""`advisor benchspec` and `advisor benchspec reconcile` through the real CLI entry point."""
from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest
import yaml
from benchspec_helpers import PROFILES, RESULTS

from ui.cli import main

AGENT = str(PROFILES / "agent-8xh100.yaml")


@pytest.fixture(autouse=True)
def _fixed_decision(fixed_roofline, monkeypatch):
    """Keep the engine shortlist fixed (the rule engine is another area's)."""
    from rules.benchspec import build
    monkeypatch.setattr(build, "_decide", lambda profile, notes: {"primary": "vllm", "alternatives": ["sglang"]})


def _run(capsys, *argv):
    code = main(["benchspec", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_plan(capsys):
    """--format json prints the contract object: peak in the sweep, ttft and p99 among metrics."""
    code, out, _ = _run(capsys, "--profile", AGENT, "--format", "json")
    data = json.loads(out)
    assert code == 0 and 60 in data["workload"]["concurrency"]
    assert {"ttft", "p99"} <= set(data["metrics"])
    assert set(data["exports"]) == {"vllm", "sglang", "guidellm", "aiperf"}
    assert data["exports"]["vllm"].startswith("#!/bin/sh")


def test_yaml_plan_and_one_harness(capsys):
    """YAML is the default format; scripts are literal blocks; --harness keeps one export."""
    code, out, _ = _run(capsys, "--profile", AGENT, "--harness", "guidellm")
    data = yaml.safe_load(out)
    assert code == 0 and list(data["exports"]) == ["guidellm"]
    assert "guidellm: |" in out and "guidellm run" in data["exports"]["guidellm"]


def test_markdown_plan(capsys):
    """Markdown for people: sections and the scripts in shell blocks."""
    code, out, _ = _run(capsys, "--profile", AGENT, "--format", "markdown")
    assert code == 0 and out.startswith("# Benchmark plan")
    for heading in ("## Scenario", "## Workload", "## SLOs", "## Pass/fail criteria", "## Checklist",
                    "## `vllm bench serve`", "## `aiperf profile`"):
        assert heading in out
    assert "```sh" in out


def test_ask_json_profile_file(capsys, tmp_path):
    """The `profile` object of an `advisor ask --json` answer is accepted as a profile file."""
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"intent": "recommend", "profile": {
        "hardware": "rtx4090", "count": 2, "concurrency": 12, "workload": "chat", "assumed": ["workload"]}}))
    code, out, _ = _run(capsys, "--profile", str(path), "--format", "json")
    assert code == 0 and 12 in json.loads(out)["workload"]["concurrency"]


def test_text_goes_through_the_agent(capsys):
    """TEXT is read by the agent (extractor, interview defaults, rules): the plan `ask` would give."""
    code, out, _ = _run(capsys, "coding", "assistant,", "60 concurrent", "--format", "json")
    assert code == 0 and 60 in json.loads(out)["workload"]["concurrency"]


@pytest.mark.parametrize("argv,message", [
    ((), "describe your situation as TEXT or pass --profile FILE"),
    (("--profile", "/nonexistent/p.yaml"), "cannot read"),
    (("--profile", AGENT, "more", "words"), "either --profile FILE or TEXT"),
    (("--profile", AGENT, "--json"), "--json belongs to 'benchspec reconcile'"),
    (("reconcile",), "at least one result file"),
    (("reconcile", "missing-results.json"), "missing-results.json: no such result file"),
    (("reconcile", "gone-main-c1.aiperf"), "gone-main-c1.aiperf: no such result file or folder"),
    (("reconcile", str(RESULTS / "bad/unknown-harness.json")), "not a result of vllm bench serve"),
])
def test_bad_input_exits_2(capsys, argv, message):
    """Every bad input is one clear line on stderr and exit code 2."""
    code, _, err = _run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_profile_field(capsys, tmp_path):
    """An impossible profile value names the field."""
    path = tmp_path / "p.yaml"
    path.write_text("concurrency: -3\n")
    code, _, err = _run(capsys, "--profile", str(path))
    assert code == 2 and "concurrency" in err


def test_reconcile_json(capsys):
    """reconcile --json with a profile: verdict, SLO and one row per result."""
    files = [str(RESULTS / n) for n in ("vllm-main-c60.vllm.json", "sglang-main-c60.sglang.jsonl",
                                        "sglang-decode-c1.aiperf/profile_export_aiperf.json")]
    code, out, _ = _run(capsys, "reconcile", *files, "--profile", AGENT, "--json")
    data = json.loads(out)
    assert code == 0 and data["stands"] is True and data["slo"]["at_concurrency"] == 60
    assert [(r["engine"], r["run"], r["concurrency"]) for r in data["runs"]] == [
        ("vllm", "main", 60), ("sglang", "main", 60), ("sglang", "decode", 1)]


def test_reconcile_reads_aiperf_folder_among_files(capsys):
    """An aiperf --artifact-dir given next to files is read, in order, not dropped."""
    args = [str(RESULTS / "vllm-main-c60.vllm.json"), str(RESULTS / "sglang-decode-c1.aiperf"),
            str(RESULTS / "sglang-main-c60.sglang.jsonl")]
    code, out, _ = _run(capsys, "reconcile", *args, "--profile", AGENT, "--json")
    rows = [(r["harness"], r["engine"], r["run"], r["concurrency"]) for r in json.loads(out)["runs"]]
    assert code == 0 and rows == [("vllm", "vllm", "main", 60), ("aiperf", "sglang", "decode", 1),
                                  ("sglang", "sglang", "main", 60)]


def test_reconcile_folder_alone_from_its_parent(capsys, monkeypatch):
    """A bare folder name (no slash) is a result, not TEXT."""
    monkeypatch.chdir(RESULTS)
    code, out, _ = _run(capsys, "reconcile", "sglang-decode-c1.aiperf", "--json")
    assert code == 0 and [r["harness"] for r in json.loads(out)["runs"]] == ["aiperf"]


def test_reconcile_unusable_folder_exits_2(capsys, tmp_path):
    """A folder without results is one line naming it and what was expected."""
    folder = tmp_path / "vllm-main-c8.aiperf"
    folder.mkdir()
    (folder / "inputs.json").write_text("{}")
    code, _, err = _run(capsys, "reconcile", str(RESULTS / "vllm-main-c60.vllm.json"), str(folder))
    assert code == 2 and str(folder) in err and "profile_export_aiperf.json" in err
    assert len(err.strip().splitlines()) == 1


def test_reconcile_markdown_without_profile(capsys):
    """Without a profile the report still prints, saying nothing is judged."""
    code, out, _ = _run(capsys, "reconcile", str(RESULTS / "guidellm-decode.guidellm.json"))
    assert code == 0 and "No profile given" in out and "| vllm | decode | 60 | guidellm |" in out


def test_command_module_is_import_light():
    """Importing the command module does not import the benchspec package or yaml."""
    code = ("import sys, ui.commands.benchspec; "
            "print(any(m.startswith('rules.benchspec') for m in sys.modules), 'yaml' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_help_documents_both_forms(capsys):
    """--help shows the plan and the reconcile forms."""
    with pytest.raises(SystemExit) as exit_:
        main(["benchspec", "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "benchspec reconcile RESULTS..." in out and "--harness" in out
