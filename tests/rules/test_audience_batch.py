"""An offline batch job with no user count is named as a batch job, not as "an internal team service"
(the team tier only stands in for its many requests in flight)."""
from __future__ import annotations

from rules import display


def test_batch_job_named_as_batch():
    en, zh = display.audience("team", None, None, 64, batch=True)
    assert en == "an offline batch job" and "team" not in en
    assert zh == "離線批次工作"


def test_team_without_batch_unchanged():
    assert display.audience("team", None, None, 8) == ("an internal team service", "內部團隊服務")


def test_stated_people_win_over_batch():
    assert display.audience("team", 30, None, 8, batch=True)[0].startswith("30 people")
