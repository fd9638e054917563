"""The explanation of a decision, rendered from its trace (English or Traditional Chinese).

Nothing here is written separately from the rules: every sentence is a fired rule's rationale,
warning or exclusion reason (in the requested language), and every "because" shows the facts
that made the rule fire.
"""
from __future__ import annotations

from rules import engines
from rules.decision import Decision, TraceEntry

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


def _values(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _avoid_reason(avoid, lang: str) -> str:
    """An exclusion reason in `lang` (the decision carries both, filled from the user's setup)."""
    return (avoid.reason_zh or avoid.reason) if lang == "zh" else avoid.reason


def _warnings(decision: Decision, lang: str) -> list[str]:
    if lang == "zh" and len(decision.warnings_zh) == len(decision.warnings):
        return list(decision.warnings_zh)
    return list(decision.warnings)


def _parallel_reason(decision: Decision, lang: str) -> str:
    par = decision.parallelism
    return (par.reason_zh or par.reason) if lang == "zh" else par.reason


def _rationale(entry: TraceEntry, lang: str) -> str:
    return (entry.rationale_zh or entry.rationale) if lang == "zh" else entry.rationale


def _why_primary(decision: Decision, lang: str) -> list[str]:
    top = next((r for r in decision.ranking if r.engine == decision.primary), None)
    by_rule = {e.rule: e for e in decision.trace}
    lines = []
    for rule_id in (top.reasons if top else [])[:4]:
        if rule_id in by_rule:
            lines.append(f"- {_rationale(by_rule[rule_id], lang)} (`{rule_id}`)")
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
        out += [f"- {engine_name(a.engine)}: {_avoid_reason(a, lang)}" for a in decision.avoid]
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
    assumptions = decision.assumptions_zh if lang == "zh" and decision.assumptions_zh else decision.assumptions
    if assumptions:
        out += ["", f"**{lab['assumed']}**", *(f"- {a}" for a in assumptions)]
    out += ["", f"**{lab['trace']}**"]
    for entry in decision.trace:
        rationale = _rationale(entry, lang)
        cites = ", ".join(entry.citations)
        out.append(f"- `{entry.rule}` ({_values(entry.values)}): {rationale} [{cites}]")
    return "\n".join(out)
