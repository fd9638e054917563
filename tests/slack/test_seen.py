"""Slack de-duplication: a message is handled once; a retry of one whose handler died is handled."""
from __future__ import annotations

from agent.store_sqlite import SqliteSeen


def test_handled_messages_are_dropped_and_claims_in_hand_too(tmp_path):
    seen = SqliteSeen(tmp_path / "seen.sqlite")
    assert seen.first_time("C1:1.0")
    assert not seen.first_time("C1:1.0"), "in hand: a concurrent retry is dropped"
    seen.done("C1:1.0")
    assert not SqliteSeen(tmp_path / "seen.sqlite", lease_s=0).first_time("C1:1.0"), "handled: dropped for good"


def test_a_claim_whose_handler_died_is_taken_over_after_the_lease(tmp_path):
    SqliteSeen(tmp_path / "seen.sqlite").first_time("C1:2.0")          # the process dies here (kill -9)
    assert not SqliteSeen(tmp_path / "seen.sqlite").first_time("C1:2.0"), "within the lease: still in hand"
    restarted = SqliteSeen(tmp_path / "seen.sqlite", lease_s=0)
    assert restarted.first_time("C1:2.0"), "after the lease, Slack's retry is answered"
    restarted.done("C1:2.0")
    assert not restarted.first_time("C1:2.0")


def test_a_store_from_before_claims_keeps_its_handled_messages(tmp_path):
    import sqlite3
    db = sqlite3.connect(tmp_path / "seen.sqlite")
    db.execute("CREATE TABLE seen (key TEXT PRIMARY KEY)")
    db.execute("INSERT INTO seen VALUES ('C1:3.0')")
    db.commit()
    db.close()
    seen = SqliteSeen(tmp_path / "seen.sqlite", lease_s=0)
    assert not seen.first_time("C1:3.0") and seen.first_time("C1:4.0")
