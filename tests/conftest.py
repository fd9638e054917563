"""Shared test setup: every test gets its own ADVISOR_HOME and the offline environment."""
from __future__ import annotations

import pytest

from knowledge import offline

offline.apply()


@pytest.fixture(scope="session")
def _store_template(tmp_path_factory):
    """One folder per session where the shipped-corpus store is built (lazily, on first need)."""
    return tmp_path_factory.mktemp("store_template")


@pytest.fixture(scope="session")
def _model_cache(tmp_path_factory):
    """The embedder's saved copy goes to a session folder, not the user's ~/.cache."""
    return tmp_path_factory.mktemp("model_cache")


@pytest.fixture(autouse=True)
def _advisor_home(tmp_path_factory, monkeypatch, _store_template, _model_cache):
    """Isolate the data directory per test (the shared corpus store is built per session).

    A test that needs the knowledge store gets a private copy of the session's prebuilt one
    (knowledge.build copies `$ADVISOR_STORE_TEMPLATE` instead of embedding the corpus again).
    """
    home = tmp_path_factory.mktemp("advisor_home")
    monkeypatch.setenv("ADVISOR_HOME", str(home))
    monkeypatch.setenv("ADVISOR_STORE_TEMPLATE", str(_store_template))
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(_model_cache))
    return home
