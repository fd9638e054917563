"""Fixtures for the knowledge tests: a tiny corpus of our own, user files, the seed article."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb_samples import ALPHA, BETA, USER_NOTE


SEED = Path(__file__).resolve().parents[1] / "fixtures" / "seeds" / "000_7466c95c23c9ef43.txt"


def write_corpus(folder: Path, alpha: str = ALPHA, beta: str = BETA) -> Path:
    """Write the two-note corpus into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "alpha.md").write_text(alpha, encoding="utf-8")
    (folder / "beta.md").write_text(beta, encoding="utf-8")
    return folder


@pytest.fixture
def mini_corpus(tmp_path, monkeypatch) -> Path:
    """A two-note corpus used instead of the shipped one (built once per session, then copied)."""
    folder = write_corpus(tmp_path / "corpus")
    monkeypatch.setenv("ADVISOR_CORPUS_DIR", str(folder))
    return folder


@pytest.fixture
def seed_article() -> Path:
    """The source article (Traditional Chinese, no markdown headings)."""
    return SEED


@pytest.fixture
def user_note(tmp_path) -> Path:
    """A user's markdown file without front matter (doc id from the file name)."""
    path = tmp_path / "files" / "cluster-notes.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_NOTE, encoding="utf-8")
    return path
