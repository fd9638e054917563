"""Fixtures for the benchspec tests (helpers live in benchspec_helpers.py)."""
from __future__ import annotations

import pytest
from benchspec_helpers import fake_estimate

from rules.benchspec import prediction


@pytest.fixture
def fixed_roofline(monkeypatch):
    """Replace the roofline with `fake_estimate` for build and reconcile (no deployment plan either:
    the planner runs the real roofline, which tests/plan covers)."""
    from rules.benchspec import build
    monkeypatch.setattr(prediction, "estimate_at", fake_estimate)
    monkeypatch.setattr(build, "_plan", lambda profile, decision, notes: (None, None))
    return fake_estimate


@pytest.fixture
def no_roofline(monkeypatch):
    """A roofline that has no answer (as when the estimator is missing)."""
    def none(profile, engine, concurrency, notes, layout=None):
        notes.append("The roofline estimator is not available: criteria have no predicted values.")
        return None
    monkeypatch.setattr(prediction, "estimate_at", none)
