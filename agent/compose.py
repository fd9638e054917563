"""The deterministic answer: Markdown in the user's language, built only from the tools' results.

The one Markdown renderer of a recommendation: it reads the typed `Advice` (answer still empty)
and is what every surface shows unless verified LLM prose replaces it. Citation markers [n]
index `advice.citations`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent.names import bottleneck_label, display, source_label

if TYPE_CHECKING:
    from agent.advice import Advice

LABELS = {
    "en": {"rec": "Recommendation", "why": "Why", "alts": "Also consider", "avoid": "Avoid",
           "bottleneck": "Bottleneck", "parallel": "Parallelism", "estimate": "Estimate",
           "bench": "Benchmark before you commit", "warn": "Warnings", "assume": "Assumptions",
           "sources": "Sources", "none": "No engine fits every constraint of this profile; see the warnings.",
           "fits": "fits", "nofit": "does not fit", "weights": "weights", "kv": "KV cache per token",
           "decode": "decode per stream", "bound": "bandwidth bound", "prefill": "prefill",
           "ttft": "time to first token", "tpot": "time per output token", "maxc": "max concurrency at this context",
           "limit": "limited by", "sweep": "sweep concurrency", "metrics": "record",
           "cmd": "Full plan with harness commands: `advisor benchspec`.",
           "explain": "From the knowledge base", "launch": "Launch", "changed": "Changed to make it work",
           "steer": "Your message asked the advisor to change its rules; "
           "the recommendation comes from the rules and your setup only.", "bytes": "bytes"},
    "zh": {"rec": "建議", "why": "理由", "alts": "也可考慮", "avoid": "避免", "bottleneck": "瓶頸",
           "parallel": "平行策略", "estimate": "估算", "bench": "決定前先實測", "warn": "注意",
           "assume": "假設", "sources": "來源", "none": "沒有引擎能滿足這個情境的所有限制，請看注意事項。",
           "fits": "放得下", "nofit": "放不下", "weights": "權重", "kv": "每個 token 的 KV cache",
           "decode": "單一串流解碼", "bound": "頻寬上限", "prefill": "prefill", "ttft": "首字延遲",
           "tpot": "每個輸出 token 時間", "maxc": "此 context 下最大併發", "limit": "限制因素",
           "sweep": "併發掃描", "metrics": "記錄", "cmd": "完整測試計畫與各工具指令：`advisor benchspec`。",
           "explain": "知識庫的說明", "launch": "啟動指令", "changed": "為了能運作而調整", "steer": "您的訊息要求顧問改變規則；建議仍只依規則與您的環境決定。",
           "bytes": "bytes"},
}
def fmt(x: Any) -> str:
    """A tool number as shown: thousands separators, precision by magnitude."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, int) or float(x).is_integer() and abs(x) >= 100:
        return f"{int(round(x)):,}"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"


def markers(chunk_ids: list[str], index: dict[str, int]) -> str:
    """Citation markers like [1][3] for the chunk ids that were retrieved."""
    nums = sorted({index[c] for c in chunk_ids if c in index})
    return "".join(f"[{n}]" for n in nums)


def _why(advice: "Advice", index: dict[str, int]) -> list[str]:
    """Rationales of the rules that favoured the primary (else the first rules), with markers."""
    lines = []
    for entry in (advice.decision.favouring() or advice.decision.trace)[:3]:
        lines.append(f"- {entry.rationale.strip()} {markers(entry.citations, index)}".rstrip())
    return lines


def _estimate_lines(est: dict, lab: dict) -> list[str]:
    parts = [f"{lab['fits'] if est.get('fits') else lab['nofit']}"]
    pairs = [("weights_gb", lab["weights"], " GB"), ("kv_bytes_per_token", lab["kv"], " " + lab["bytes"]),
             ("decode_tokens_per_s", lab["decode"], " tok/s"), ("decode_tokens_per_s_bound", lab["bound"], " tok/s"),
             ("prefill_tokens_per_s", lab["prefill"], " tok/s"), ("ttft_s", lab["ttft"], " s"),
             ("tpot_ms", lab["tpot"], " ms"), ("max_concurrency", lab["maxc"], "")]
    parts += [f"{name} {fmt(est[key])}{unit}" for key, name, unit in pairs if est.get(key) is not None]
    lines = ["- " + "; ".join(parts)]
    if est.get("binding_constraint"):
        lines.append(f"- {lab['limit']}: {est['binding_constraint']}")
    return lines


def _bench_lines(levels: list[int], metrics: list[str], lab: dict) -> list[str]:
    out = []
    if levels:
        out.append(f"- {lab['sweep']}: {', '.join(fmt(c) for c in levels)}")
    if metrics:
        out.append(f"- {lab['metrics']}: {', '.join(m for m in metrics if m)}")
    return out + [f"- {lab['cmd']}"]


def _recommendation(advice: "Advice", index: dict[str, int], lab: dict, lang: str) -> list[str]:
    d, out = advice.decision, []
    if d.primary:
        out += [f"**{lab['rec']}: {display(d.primary)}**", "", f"{lab['why']}:", *_why(advice, index)]
    else:
        out.append(f"**{lab['rec']}:** {lab['none']}")
    if d.alternatives:
        out += ["", f"**{lab['alts']}:** " + ", ".join(display(e) for e in d.alternatives)]
    if d.avoid:
        out += ["", f"**{lab['avoid']}:**"]
        out += [f"- {display(a.engine)}: {a.reason}" for a in d.avoid]
    if d.bottleneck:
        out += ["", f"**{lab['bottleneck']}:** {bottleneck_label(d.bottleneck, lang)}"]
    plan = advice.plan
    par = plan.layout if plan is not None and plan.basis == "planner" and plan.layout else d.parallelism
    if par and par.strategy and advice.intent != "size":
        dims = par.degrees()
        out += ["", f"**{lab['parallel']}:** {par.strategy.upper()}" + (f" ({dims})" if dims else "")
                + (f": {par.reason}" if par.reason else "")]
        out += _plan_lines(advice, lab, lang)
    return out


def _plan_lines(advice: "Advice", lab: dict, lang: str) -> list[str]:
    """The planner's runner-up and rule lines, what it changed, and the primary's launch command."""
    plan = advice.plan
    if plan is None or plan.search is None:
        return []
    search = plan.search
    lines = [f"- {w}" for w in (search.why.get(lang) or [])[1:]]
    lines += [f"- {lab['changed']}: {c}" for c in search.changes.get(lang) or []]
    launch = next((c for c in plan.launch if c.engine == advice.decision.primary), None)
    if launch is not None:
        lines.append(f"- {lab['launch']} ({display(launch.engine)}): `{launch.command}`")
        lines += [f"  - {n}" for n in (search.launch_notes.get(launch.engine) or {}).get(lang) or []]
    return lines


def _sizing_lines(advice: "Advice") -> list[str]:
    """The ranked hardware options of a sizing question (rendered by agent.sizing)."""
    if not advice.sizing:
        return []
    from agent.sizing import render
    return render(advice.sizing).rstrip("\n").split("\n")


def _explanation(advice: "Advice", lab: dict) -> list[str]:
    out = [f"**{lab['explain']}:**"]
    for n, c in enumerate(advice.citations, start=1):
        text = " ".join(c.text.split())
        out.append(f"- **{c.title}**: {text[:400]}{'…' if len(text) > 400 else ''} [{n}]")
    return out


def sources_block(advice: "Advice") -> list[str]:
    """The numbered list of retrieved chunks the markers point to."""
    if not advice.citations:
        return []
    lab = LABELS["zh" if advice.language == "zh" else "en"]
    return ["", f"**{lab['sources']}:**",
            *[f"[{n}] {c.title} — {source_label(c.source)} (`{c.id}`)" for n, c in enumerate(advice.citations, 1)]]


def understanding_lines(advice: "Advice") -> list[str]:
    """What the answer is about: a new or amended profile, and words that were not understood."""
    from agent.understand import change_note, unplaced_note
    change = advice.profile_change.model_dump() if advice.profile_change else None
    notes = [change_note(change, advice.language), unplaced_note([n.model_dump() for n in advice.not_understood], advice.language)]
    return [line for n in notes if n for line in (f"> {n}", "")]


def template_answer(advice: "Advice") -> str:
    """The full Markdown answer (never fails, never invents); the asked-about part first."""
    lang = "zh" if advice.language == "zh" else "en"
    lab = LABELS[lang]
    index = {c.id: n for n, c in enumerate(advice.citations, start=1)}
    intent = advice.intent
    main = _explanation(advice, lab) if intent == "explain" else _recommendation(advice, index, lab, lang)
    est_obj, spec = advice.estimate, advice.benchmark
    est = [f"**{lab['estimate']}:**", *_estimate_lines(est_obj.model_dump(), lab)] if est_obj else []
    bench = [f"**{lab['bench']}:**", *_bench_lines(spec.workload.concurrency, spec.metrics, lab)] if spec else []
    sizing = _sizing_lines(advice)
    order = {"estimate": [est, main, bench], "benchmark": [bench, main, est],
             "size": [sizing, main, bench]}.get(intent, [main, est, bench])
    out: list[str] = [f"> {lab['steer']}", ""] if advice.injection else []
    out += understanding_lines(advice)
    for block in order:
        if block:
            out += [*block, ""]
    for key, items in (("warn", advice.warnings), ("assume", advice.assumptions)):
        if items:
            out += [f"**{lab[key]}:**", *[f"- {w}" for w in items], ""]
    out += sources_block(advice)
    return "\n".join(out).strip() + "\n"
