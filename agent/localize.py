"""The decision's words in the user's language: every rule carries its text in English and zh-Hant.

The rule engine reports English; for a Traditional Chinese conversation the rationales, avoid
reasons, parallelism reason and warnings are looked up by rule id. Text no rule owns (a
platform-support reason with its source URL) is kept, introduced in Chinese.
"""
from __future__ import annotations

import copy
from typing import Any


def fill(text: str, facts: dict[str, Any]) -> str:
    """A rule text with its `{fact}` placeholders filled from the decision's facts."""
    from rules.facts import fill as fill_facts
    return fill_facts(text, facts)


def _rules() -> dict[str, Any]:
    from rules.ruleset import rule_index
    return rule_index()


def _zh(text: Any) -> str | None:
    return getattr(text, "zh", None) if text is not None else None


def _avoid_reason(rule: Any, engine: str, english: str) -> str | None:
    for ex in getattr(rule.effects, "exclude", None) or ():
        if ex.engine == engine:
            return _zh(ex.reason)
    if getattr(rule.effects, "check", None) == "hardware_support":  # the catalog's reason, with its source
        return f"無法在這個硬體上執行（{english}）"
    return None


def localized(decision: dict[str, Any] | None, language: str) -> dict[str, Any] | None:
    """A copy of the decision dict with rule texts in `language` ("en" returns it unchanged)."""
    if not decision or language != "zh":
        return decision
    rules, d = _rules(), copy.deepcopy(decision)
    for entry in d.get("trace") or []:
        rule = rules.get(entry.get("rule"))
        if rule is not None:
            entry["rationale"] = _zh(rule.rationale) or entry.get("rationale")
    for item in d.get("avoid") or []:
        rule = rules.get(item.get("rule"))
        item["reason"] = (_avoid_reason(rule, item["engine"], item.get("reason", "")) if rule else None) \
            or item.get("reason")
    par = d.get("parallelism")
    rule = rules.get((par or {}).get("rule"))
    if par and rule is not None and rule.effects.parallelism is not None:
        par["reason"] = _zh(rule.effects.parallelism.reason) or par.get("reason")
    by_english = {}
    for entry in d.get("trace") or []:
        rule = rules.get(entry.get("rule"))
        warning = (entry.get("effects") or {}).get("warning")
        if warning and rule is not None and rule.effects.warning is not None:
            by_english[warning] = fill(_zh(rule.effects.warning), d.get("facts") or {})
    d["warnings"] = [by_english.get(w) or w for w in d.get("warnings") or []]
    return d
