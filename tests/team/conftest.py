"""A real PostgreSQL and a real Chroma server on 127.0.0.1, started once for the team tests.

Both come from evals.services (initdb/pg_ctl as the `postgres` user when we are root; `chroma run`
from the installed chromadb) and are stopped by the fixtures' teardown, also after a failure.
Tests keep apart by thread id and by collection name.
"""
from __future__ import annotations

import uuid

import pytest

from evals import services


@pytest.fixture(scope="session")
def pg_url():
    """The URL of a private PostgreSQL cluster (skipped, with the reason, only when PostgreSQL is
    not installed; a cluster that fails to start fails the tests)."""
    try:
        with services.postgres() as url:
            yield url
    except services.NotInstalled as exc:
        pytest.skip(f"PostgreSQL not installed: {exc}")


@pytest.fixture(scope="session")
def chroma_url():
    """The URL of a private Chroma server."""
    try:
        with services.chroma() as url:
            yield url
    except services.NotInstalled as exc:
        pytest.skip(f"Chroma server not installed: {exc}")


@pytest.fixture(scope="session")
def synced_collection(chroma_url):
    """A collection holding the shipped corpus, synced once, for tests that only read."""
    from knowledge import remote

    name = f"shared-{uuid.uuid4().hex[:10]}"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADVISOR_CHROMA_COLLECTION", name)
        remote.ensure(chroma_url)
    return name


@pytest.fixture
def team_env(monkeypatch, pg_url, chroma_url, synced_collection):
    """This process configured as a team replica (reading the shared, synced collection)."""
    return _configure(monkeypatch, pg_url, chroma_url, synced_collection)


@pytest.fixture
def fresh_team_env(monkeypatch, pg_url, chroma_url):
    """This process configured as a team replica on a collection of its own (for writers)."""
    return _configure(monkeypatch, pg_url, chroma_url, f"t-{uuid.uuid4().hex[:10]}")


def _configure(monkeypatch, pg_url: str, chroma_url: str, collection: str) -> dict[str, str]:
    monkeypatch.setenv("ADVISOR_DATABASE_URL", pg_url)
    monkeypatch.setenv("ADVISOR_CHROMA_URL", chroma_url)
    monkeypatch.setenv("ADVISOR_CHROMA_COLLECTION", collection)
    monkeypatch.setenv("ADVISOR_CHROMA_TTL", "0")
    return {"ADVISOR_DATABASE_URL": pg_url, "ADVISOR_CHROMA_URL": chroma_url,
            "ADVISOR_CHROMA_COLLECTION": collection}
