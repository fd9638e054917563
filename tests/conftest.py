"""Shared test setup: every test gets its own ADVISOR_HOME and the offline environment."""
from __future__ import annotations

import pytest

from knowledge import offline

offline.apply()


@pytest.fixture(autouse=True)
def _advisor_home(tmp_path_factory, monkeypatch):
    """Isolate the data directory per test (the shared corpus store is built per session)."""
    home = tmp_path_factory.mktemp("advisor_home")
    monkeypatch.setenv("ADVISOR_HOME", str(home))
    return home
