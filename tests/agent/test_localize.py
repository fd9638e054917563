"""A Traditional Chinese conversation gets the rules' own zh-Hant texts, not English."""
from __future__ import annotations

from agent.localize import localized
from agent.tools import as_dict
from rules.decide import decide
from rules.profile import build_profile


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_rule_texts_are_swapped_for_their_zh_versions():
    profile = build_profile({"hardware": "rtx4090", "count": 8, "interconnect": "pcie", "model": "llama-3.1-70b",
                             "serving_mode": "team", "concurrency": 30, "language": "zh"})
    en = as_dict(decide(profile))
    zh = localized(en, "zh")
    assert localized(en, "en") is en and en["trace"][0]["rationale"] == as_dict(decide(profile))["trace"][0]["rationale"]
    assert all(_cjk(t["rationale"]) for t in zh["trace"])
    assert zh["parallelism"]["reason"] != en["parallelism"]["reason"] and _cjk(zh["parallelism"]["reason"])
    assert len(zh["warnings"]) == len(en["warnings"]) and any(_cjk(w) for w in zh["warnings"])
    assert zh["avoid"] and all(_cjk(a["reason"]) for a in zh["avoid"])
