"""The serving tier from head count and load, as the source article draws it."""
from __future__ import annotations

import pytest

from rules.serving import reconcile, tier_from_counts


@pytest.mark.parametrize("users, concurrency, mode", [
    (1, None, "personal"), (6, None, "demo"), (8, None, "demo"), (10, None, "demo"), (20, None, "demo"),
    (40, None, "team"), (None, 30, "team"), (30, 3, "demo"), (60, None, "team"), (400, None, "team"),
    (800, None, "production"), (None, 250, "production"), (None, 8, "demo"), (12, 12, "team"),
])
def test_tier_from_counts(users, concurrency, mode):
    assert tier_from_counts(users, concurrency).mode == mode


@pytest.mark.parametrize("stated, users, concurrency, mode, changed", [
    ("team", 6, None, "demo", True),          # "our team of 6" is the small tier
    ("demo", 400, None, "team", True),        # a pilot opened to 400 people
    ("personal", 8, None, "demo", True),
    ("team", None, None, "team", False),      # no size: the word stands
    ("production", 5, None, "production", False),   # exposure, not size, makes production
    ("fleet", 10, None, "fleet", False),
    (None, 6, None, "demo", True),
])
def test_the_size_decides_over_an_audience_word(stated, users, concurrency, mode, changed):
    got, tier = reconcile(stated, users, concurrency)
    assert got == mode and (tier is not None) == changed
    if tier is not None:
        assert tier.en and tier.zh
