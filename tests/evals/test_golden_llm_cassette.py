"""`advisor eval --model …` on a subset of the golden cases, replaying recorded real LLM traffic.

The same runner and simulated user as deterministic mode, with Gemma 3 270M (llama-cpp-python's
server) extracting and phrasing. Request bodies are matched exactly, so a change to what the LLM is
shown fails here until the cassette is re-recorded (agent/README.md, "Recorded LLM traffic"; run
this file with `--record-mode=once` against the local server).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from evals import runner
from evals.suites.golden import CASES_DIR

MODEL = os.environ.get("ADVISOR_CASSETTE_MODEL", "openai/gemma3-270m")
API_BASE = os.environ.get("ADVISOR_CASSETTE_API_BASE", "http://127.0.0.1:8011/v1")
SUBSET = ("hw-mac-m3-ultra", "injection-zh", "fit-70b-fp16-one-h100")

pytestmark = pytest.mark.vcr


@pytest.fixture(scope="module")
def vcr_config():
    return {"filter_headers": ["authorization", "api-key", "x-api-key", "openai-organization", "cookie"],
            "match_on": ["method", "scheme", "host", "port", "path", "body"],
            "decode_compressed_response": True}


@pytest.fixture(scope="module")
def vcr_cassette_dir():
    return str(Path(__file__).parent / "cassettes")


def test_golden_subset_through_a_recorded_llm(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", os.environ.get("OPENAI_API_KEY", "sk-local-server-needs-no-key"))
    monkeypatch.setenv("ADVISOR_API_BASE", API_BASE)
    for case in SUBSET:
        shutil.copy(CASES_DIR / f"{case}.yaml", tmp_path)
    (report,) = runner.run_suites(["golden"], tmp_path, model=MODEL)
    assert [c.id for c in report.cases if not c.passed] == [], [c.failures for c in report.cases]
    for case in report.cases:
        composer = case.result["composer"]
        # the recording replayed (no provider error): prose accepted, rejected by verify, or the
        # turn's two-call budget went to extraction (one retry after a malformed reply)
        assert composer == "llm" or composer.startswith(("template (verify failed", "template (LLM call budget")), \
            (case.id, composer)
        assert 1 <= case.result["llm_calls"] <= 2
