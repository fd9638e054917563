"""`advisor ingest` and `advisor search` as a user runs them: output shape and exit codes."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from knowledge import retrieve


def advisor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=300)


def test_search_json_is_a_ranked_list_of_hits(mini_corpus):
    done = advisor("search", "splitting", "layers", "over", "NVLink", "--k", "3", "--json")
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    assert len(hits) == 3 and hits[0]["id"] == "alpha#tp"
    assert all(set(h) == {"id", "title", "source", "text", "score"} for h in hits)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_search_prints_id_title_source_and_snippet(mini_corpus):
    done = advisor("search", "管線平行 PCIe", "--k", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("1. alpha#pipeline")
    assert lines[1].strip() == "Alpha note about GPUs — 流水線平行"
    assert lines[2].strip() == "https://example.org/alpha" and "PCIe" in lines[3]


@pytest.mark.parametrize("args", [("search", "   "), ("search", "x", "--k", "0"),
                                  ("search", "x", "--k", "many"), ("search",), ("ingest",)])
def test_bad_search_arguments_exit_2_with_one_line(mini_corpus, args):
    done = advisor(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_ingest_reports_and_is_idempotent(mini_corpus, user_note):
    first = advisor("ingest", str(user_note))
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "1 file(s): 3 added, 0 updated, 0 removed, 0 unchanged"
    again = advisor("ingest", str(user_note.parent))          # a folder works too
    assert again.stdout.strip() == "1 file(s): 0 added, 0 updated, 0 removed, 3 unchanged"
    found = json.loads(advisor("search", "liquid cooled rack", "--json").stdout)
    assert found[0]["id"] == "cluster-notes#racks"


@pytest.mark.parametrize("name, content", [("missing.md", None), ("empty.md", ""),
                                           ("slides.pptx", "x"), ("blank.html", "<p> </p>")])
def test_unusable_files_exit_2_and_leave_the_store_alone(mini_corpus, tmp_path, name, content):
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = advisor("ingest", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("advisor ingest:")]
    assert len(errors) == 1 and name in errors[0]
    assert {i.split("#")[0] for i in retrieve.all_chunk_ids()} == {"alpha", "beta"}
