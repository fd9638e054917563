"""The explanation of a decision, rendered from its trace (English or Traditional Chinese).

Nothing here is written separately from the rules: every sentence is a fired rule's rationale,
warning or exclusion reason (in the requested language), and every "because" shows the facts
that made the rule fire.
"""
from __future__ import annotations

from typing import Any

from rules import engines
from rules.decision import Decision, TraceEntry
from rules.facts import fill
from rules.ruleset import Rule, rule_index

_LABELS = {
    "en": {"primary": "Recommended engine", "alts": "Also consider", "none": "No engine fits cleanly yet",
           "why": "Why", "avoid": "Avoid", "bottleneck": "Likely bottleneck", "parallel": "Parallelism",
           "warnings": "Warnings", "assumed": "Assumptions", "trace": "Rules that fired", "sep": ", "},
    "zh": {"primary": "建議引擎", "alts": "也可考慮", "none": "目前沒有乾淨適用的引擎",
           "why": "理由", "avoid": "避免", "bottleneck": "可能的瓶頸", "parallel": "平行策略",
           "warnings": "注意事項", "assumed": "假設", "trace": "觸發的規則", "sep": "、"},
}
_BOTTLENECK_ZH = {"prefill": "prefill（讀 prompt，吃算力）", "decode": "decode（逐 token 生成，吃記憶體頻寬）",
                  "kv-cache": "KV cache 管理", "scheduler": "scheduler 排程品質",
                  "interconnect": "互連（卡間 / 節點間通訊）", "memory-capacity": "記憶體容量"}


def engine_name(engine_id: str) -> str:
    """Display name of an engine."""
    return engines.engine(engine_id).name


def _rule(rule_id: str) -> Rule | None:
    return rule_index().get(rule_id)


def _text(rule_id: str, attr: str, lang: str) -> str | None:
    """A rule's rationale or warning in `lang`."""
    rule = _rule(rule_id)
    if rule is None:
        return None
    text = rule.rationale if attr == "rationale" else rule.effects.warning
    return getattr(text, lang) if text is not None else None


def _values(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _avoid_reason(rule_id: str, engine: str, english: str, lang: str) -> str:
    rule = _rule(rule_id)
    for ex in rule.effects.exclude if rule else ():
        if ex.engine == engine:
            return getattr(ex.reason, lang)
    if lang == "zh":
        return f"無法在這個硬體上執行（{english}）"
    return english


def _quant_warning_zh(entry: TraceEntry) -> str:
    names = "、".join(entry.values.get("no_optimized_kernel", []))
    quant = entry.values.get("quantization")
    return f"量化格式 {quant}：{names} 在此硬體上沒有最佳化 kernel（或無法載入），已降低排名。"


def _warnings(decision: Decision, lang: str) -> list[str]:
    if lang == "en":
        return list(decision.warnings)
    out = []
    for entry in decision.trace:
        if "warning" in entry.effects:
            text = _text(entry.rule, "warning", lang)
            out.append(fill(text, decision.facts) if text else entry.effects["warning"])
        elif entry.rule == "quant-kernel-check" and entry.values.get("no_optimized_kernel"):
            out.append(_quant_warning_zh(entry))
    return out


def _parallel_reason(decision: Decision, lang: str) -> str:
    par = decision.parallelism
    rule = _rule(par.rule) if par.rule else None
    if lang == "zh" and rule and rule.effects.parallelism:
        return rule.effects.parallelism.reason.zh
    return par.reason


def _why_primary(decision: Decision, lang: str) -> list[str]:
    top = next((r for r in decision.ranking if r.engine == decision.primary), None)
    lines = []
    for rule_id in (top.reasons if top else [])[:4]:
        text = _text(rule_id, "rationale", lang)
        if text:
            lines.append(f"- {text} (`{rule_id}`)")
    return lines


def explain(decision: Decision, lang: str = "en") -> str:
    """Markdown explanation of `decision` built from its trace, in `lang` ("en" or "zh")."""
    lang = "zh" if lang == "zh" else "en"
    lab = _LABELS[lang]
    out: list[str] = []
    if decision.primary:
        out.append(f"**{lab['primary']}: {engine_name(decision.primary)}**")
        if decision.alternatives:
            out.append(f"{lab['alts']}: " + lab["sep"].join(engine_name(e) for e in decision.alternatives))
        out += ["", f"**{lab['why']}**", *_why_primary(decision, lang)]
    else:
        out.append(f"**{lab['none']}**")
    if decision.avoid:
        out += ["", f"**{lab['avoid']}**"]
        out += [f"- {engine_name(a.engine)}: {_avoid_reason(a.rule, a.engine, a.reason, lang)}" for a in decision.avoid]
    if decision.bottleneck:
        name = _BOTTLENECK_ZH[decision.bottleneck] if lang == "zh" else decision.bottleneck
        out += ["", f"**{lab['bottleneck']}: {name}** ({', '.join(f'`{r}`' for r in decision.bottleneck_rules)})"]
    if decision.parallelism:
        p = decision.parallelism
        out += ["", f"**{lab['parallel']}: {p.strategy}** (tp={p.tp}, pp={p.pp}, ep={p.ep}, dp={p.dp}): "
                f"{_parallel_reason(decision, lang)}"]
    warnings = _warnings(decision, lang)
    if warnings:
        out += ["", f"**{lab['warnings']}**", *(f"- {w}" for w in warnings)]
    if decision.assumptions:
        out += ["", f"**{lab['assumed']}**", *(f"- {a}" for a in decision.assumptions)]
    out += ["", f"**{lab['trace']}**"]
    for entry in decision.trace:
        rationale = _text(entry.rule, "rationale", lang) or entry.rationale
        cites = ", ".join(entry.citations)
        out.append(f"- `{entry.rule}` ({_values(entry.values)}): {rationale} [{cites}]")
    return "\n".join(out)
