"""The decision's words in the user's language: every rule carries its text in English and zh-Hant.

The rule engine reports English; for a Traditional Chinese conversation the rationales, avoid
reasons, parallelism reason and warnings are looked up by rule id. Reasons the built-in checks
write (hardware support, quantization kernels) are rebuilt in Chinese from the same catalog facts,
keeping the catalog's source URL.
"""
from __future__ import annotations

from typing import Any


def fill(text: str | None, facts: dict[str, Any], lang: str = "en") -> str | None:
    """A rule text with its `{fact}` placeholders filled from the decision's facts (None stays None)."""
    from rules.facts import fill as fill_facts
    return fill_facts(text, facts, lang) if text is not None else None


def _rules() -> dict[str, Any]:
    from rules.ruleset import rule_index
    return rule_index()


def _zh(text: Any) -> str | None:
    return getattr(text, "zh", None) if text is not None else None


def _support_zh(engine: str, facts: dict[str, Any]) -> str | None:
    """Why the catalog says `engine` cannot run on the profile's hardware, in zh-Hant, with its source."""
    from rules import catalog, engines
    from rules.errors import AdvisorError
    try:
        spec, hw = engines.engine(engine), catalog.hardware(facts["hardware"])
        ok, _, source = engines.supports(engine, hw)
    except (AdvisorError, KeyError):
        return None
    if ok:
        return None
    platform = hw.platform
    support = spec.platforms.get(platform)
    if support is None:
        why = f"{spec.name} 的支援清單裡沒有 {platform}"
    elif support.status == "experimental":
        why = f"{spec.name} 對 {platform} 只有實驗性支援，不列入建議"
    else:  # the remaining refusal: an NVIDIA GPU older than the engine's minimum compute capability
        why = f"{spec.name} 需要 compute capability {spec.min_cuda_cc.value} 以上，{hw.id} 只有 {hw.cuda_cc}"
    return f"無法在這個硬體上執行：{why}（來源：{source}）"


def _quant_zh(facts: dict[str, Any]) -> str:
    """An engine with no kernel at all for the chosen quantization, in zh-Hant."""
    quant, platform = facts.get("quantization"), facts.get("platform")
    where = f"在 {platform} 上" if platform else ""
    return f"它{where}沒有 {quant} 的 kernel，模型得重新量化成它支援的格式才能用"


def _avoid_reason(rule: Any, engine: str, facts: dict[str, Any]) -> str | None:
    for ex in getattr(rule.effects, "exclude", None) or ():
        if ex.engine == engine:
            return _zh(ex.reason)
    check = getattr(rule.effects, "check", None)
    if check == "hardware_support":
        return _support_zh(engine, facts)
    if check == "quant_kernel" and facts.get("quantization"):
        from rules.checks import gate_reason
        gate = gate_reason(facts, engine)
        return gate[1] if gate else _quant_zh(facts)
    return None


def localized(decision: dict[str, Any] | None, language: str) -> dict[str, Any] | None:
    """A copy of the decision dict with rule texts in `language` ("en" returns it unchanged)."""
    if not decision or language != "zh":
        return decision
    rules, d = _rules(), dict(decision)
    for key in ("trace", "avoid"):    # copies of only what is rewritten below (a deep copy cost ~0.5 ms)
        if d.get(key):
            d[key] = [dict(x) for x in d[key]]
    if d.get("parallelism"):
        d["parallelism"] = dict(d["parallelism"])
    facts = d.get("facts") or {}
    for entry in d.get("trace") or []:
        rule = rules.get(entry.get("rule"))
        if entry.get("rationale_zh"):   # filled from the user's setup by the rule engine
            entry["rationale"] = entry["rationale_zh"]
        elif rule is not None:
            entry["rationale"] = fill(_zh(rule.rationale), facts, "zh") or entry.get("rationale")
    for item in d.get("avoid") or []:
        if item.get("reason_zh"):
            item["reason"] = item["reason_zh"]
            continue
        rule = rules.get(item.get("rule"))
        item["reason"] = (_avoid_reason(rule, item["engine"], facts) if rule else None) or item.get("reason")
    par = d.get("parallelism")
    rule = rules.get((par or {}).get("rule"))
    if par and par.get("reason_zh"):
        par["reason"] = par["reason_zh"]
    elif par and rule is not None and rule.effects.parallelism is not None:
        par["reason"] = fill(_zh(rule.effects.parallelism.reason), facts, "zh") or par.get("reason")
    warnings_zh = d.get("warnings_zh") or []
    if len(warnings_zh) == len(d.get("warnings") or []) and warnings_zh:
        d["warnings"] = list(warnings_zh)
        return d
    by_english = {}
    for entry in d.get("trace") or []:
        rule = rules.get(entry.get("rule"))
        warning = (entry.get("effects") or {}).get("warning")
        if warning and rule is not None and rule.effects.warning is not None:
            by_english[warning] = fill(_zh(rule.effects.warning), facts, "zh")
    d["warnings"] = [by_english.get(w) or w for w in d.get("warnings") or []]
    return d
