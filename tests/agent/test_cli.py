"""`advisor ask` and `advisor chat` against the real components: outputs, errors, resumability."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = {"intent", "profile", "primary", "alternatives", "avoid", "bottleneck", "parallelism", "estimate",
            "benchmark", "questions", "assumptions", "citations", "rules", "answer"}
FULL = ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, chat for an internal team of 400 with 64 concurrent "
        "requests, 4K prompts and 500-token answers, 8K context.")


def cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_ask_json_is_the_contract_object(capsys):
    code, out, err = cli(capsys, "ask", FULL, "--json")
    assert code == 0, err
    result = json.loads(out)
    added = {"composer", "warnings", "llm_calls", "plan", "not_understood", "topics", "profile_change"}   # DESIGN.md: add, don't break
    assert CONTRACT <= set(result) and set(result) - CONTRACT <= added
    layout = result["plan"]["layout"]
    assert {k: layout[k] for k in ("strategy", "tp", "pp", "ep", "dp")} == result["estimate"]["parallelism"]
    assert result["questions"] == [] and result["primary"] in ("vllm", "sglang", "tensorrt-llm")
    assert result["profile"]["hardware"] == "h100_sxm" and result["profile"]["count"] == 8
    assert result["composer"] == "template"
    cited = {c["id"] for c in result["citations"]}
    assert cited and all(re.fullmatch(r"[a-z0-9-]+#[a-z0-9-]+", c) for c in cited)
    assert set(result["avoid"][0]) == {"engine", "reason"} if result["avoid"] else True
    assert set(result["parallelism"]) == {"strategy", "tp", "pp", "ep", "dp", "reason"}


def test_ask_with_answers_file_records_the_questions_in_order(capsys, tmp_path):
    answers = write(tmp_path, "a.yaml", "hardware: Two RTX 3090s\nmodel: Qwen3 32B\n"
                                        "serving_mode: Internal team of 100 people\ninterconnect: PCIe, no NVLink\n")
    code, out, _ = cli(capsys, "ask", "Which inference engine should we use?", "--answers", answers, "--json")
    result = json.loads(out)
    assert code == 0 and len(result["questions"]) >= 2
    assert result["questions"][0]["fields"][:2] == ["hardware", "model"]
    assert result["profile"]["hardware"] == "rtx3090" and result["profile"]["interconnect"] == "pcie"


def test_ask_in_traditional_chinese_answers_in_traditional_chinese(capsys):
    code, out, _ = cli(capsys, "ask", "一張 RTX 5090，自己用，跑 Qwen3 8B 聊天。")
    assert code == 0
    assert "建議" in out and "來源" in out and "Recommendation" not in out


def test_ask_profile_runs_the_tools_without_questions(capsys, tmp_path):
    profile = write(tmp_path, "p.yaml", "hardware: H100\ncount: 2\ninterconnect: nvlink\nmodel: Llama 3.3 70B\n"
                                        "serving_mode: team\nconcurrency: 60\n")
    code, out, _ = cli(capsys, "ask", "--profile", profile, "--json")
    result = json.loads(out)
    assert code == 0 and result["questions"] == []
    assert result["profile"]["hardware"] == "h100_sxm" and result["profile"]["model"] == "llama-3.1-70b"
    assert result["estimate"] and result["benchmark"]["concurrency"]


def test_human_output_shows_each_question_and_the_reply_used(capsys):
    code, out, _ = cli(capsys, "ask", "We want to self-host an LLM. What engine?")
    assert code == 0
    assert out.startswith("? ") and "→ I don't know, please assume typical values." in out


@pytest.mark.parametrize("argv, files, message", [
    (["ask"], {}, "nothing to ask"),
    (["ask", "   "], {}, "nothing to ask"),
    (["ask", "x", "--answers", "{missing}"], {}, "answers file not found"),
    (["ask", "x", "--answers", "{a}"], {"a": "hardware: [unclosed\n"}, "not valid YAML"),
    (["ask", "x", "--answers", "{a}"], {"a": "- just a list\n"}, "must be a mapping"),
    (["ask", "x", "--answers", "{a}"], {"a": "interconect: PCIe\n"}, "Did you mean: interconnect"),
    (["ask", "--profile", "{p}"], {"p": "hardware: H1OO\n"}, "unknown hardware 'H1OO'"),
    (["ask", "--profile", "{p}"], {"p": "hardwre: h100_sxm\n"}, "Closest known: hardware"),
    (["ask", "--profile", "{p}"], {"p": "model: Llama 9 9000B\n"}, "unknown model"),
    (["ask", "--profile", "{p}"], {"p": "count: -2\n"}, "count:"),
    (["ask", "--profile", "{p}"], {"p": ""}, "is empty"),
    (["ask", "x", "--profile", "{p}"], {"p": "count: 2\n"}, "not both"),
    (["chat", "--thread", "no spaces allowed"], {}, "invalid thread id"),
    (["eval", "--suite", "golden", "--split", "heldout"], {}, "--split applies to the extraction suite only"),
    (["eval", "--suite", "extraction", "--split", "nope"], {}, "unknown split 'nope'"),
])
def test_bad_input_is_one_clear_line_and_exit_2(capsys, tmp_path, argv, files, message):
    paths = {k: write(tmp_path, f"{k}.yaml", v) for k, v in files.items()}
    paths["missing"] = str(tmp_path / "nope.yaml")
    code, out, err = cli(capsys, *[a.format(**paths) for a in argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def run_cli(args, home, stdin=None):
    env = {**os.environ, "ADVISOR_HOME": str(home)}
    env.pop("ADVISOR_MODEL", None)
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=180)


def test_deterministic_ask_imports_no_llm_web_or_graph_library(tmp_path):
    probe = ("import sys; from ui.cli import main; main(['ask', 'One RTX 4090, Llama 3.1 8B, just me.']);"
             "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'litellm', 'gradio', 'langgraph', 'chromadb'});"
             "print('HEAVY', heavy, file=sys.stderr)")
    env = {**os.environ, "ADVISOR_HOME": str(tmp_path)}
    env.pop("ADVISOR_MODEL", None)
    for _ in range(2):   # the first run in a new home builds the knowledge store; the second is the steady state
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT,
                              timeout=180)
        assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stderr


def test_chat_prints_its_thread_and_resumes_after_a_restart(tmp_path):
    first = run_cli(["chat"], tmp_path, stdin="We want to self-host an LLM for the company.\n")
    assert first.returncode == 0, first.stderr
    thread = re.search(r"thread: (\S+)", first.stdout).group(1)
    assert "advisor> " in first.stdout and f"advisor chat --thread {thread}" in first.stdout
    # answers, then "I don't know" to whatever else matters (after the answer it just re-answers)
    replies = ["Two RTX 4090s over PCIe only, Qwen3 32B, chat for an internal team of 100"] + ["I don't know"] * 3
    second = run_cli(["chat", "--thread", thread], tmp_path, stdin="\n".join(replies + ["exit"]) + "\n")
    assert second.returncode == 0, second.stderr
    assert "(resuming)" in second.stdout
    assert "Recommendation:" in second.stdout and "Sources:" in second.stdout


def test_eval_scores_one_named_extraction_split(capsys):
    code, out, err = cli(capsys, "eval", "--suite", "extraction", "--split", "forum2")
    assert "forum2.overall_accuracy=" in out and "heldout." not in out and "curated." not in out
    assert out.strip().splitlines()[-1].endswith("failed") and code in (0, 1)


def test_eval_reports_a_missing_forum3_split_in_one_line(capsys, monkeypatch, tmp_path):
    from evals.suites import extraction
    monkeypatch.setitem(extraction.SPLIT_FILES, "forum3", tmp_path / "extraction_forum3.yaml")
    code, out, err = cli(capsys, "eval", "--suite", "extraction", "--split", "forum3")
    assert "summary extraction: forum3: missing (" in out and "Traceback" not in out + err
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed" and code == 0
