"""The deterministic answer: Markdown in the user's language, built only from the tools' results.

`facts` is the `ask --json` object without `answer`, plus the decision's `trace` and `warnings`
(see `nodes.facts_of`). Citation markers [n] index `facts["citations"]`.
"""
from __future__ import annotations

from typing import Any

from agent.names import display

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
           "explain": "From the knowledge base", "launch": "Launch", "changed": "Changed to make it work", "steer": "Your message asked the advisor to change its rules; "
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
BOTTLENECKS = {
    "en": {"prefill": "prefill (compute-bound prompt processing)", "decode": "decode (memory-bandwidth-bound)",
           "kv-cache": "KV cache (memory grows with context and concurrency)",
           "scheduler": "scheduler (batching many concurrent requests)",
           "interconnect": "interconnect (traffic between devices)", "memory-capacity": "memory capacity"},
    "zh": {"prefill": "prefill（受算力限制的提示處理）", "decode": "decode（受記憶體頻寬限制）",
           "kv-cache": "KV cache（隨 context 與併發成長）", "scheduler": "排程（大量併發請求的批次處理）",
           "interconnect": "互連（裝置之間的通訊）", "memory-capacity": "記憶體容量"},
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


def favouring(facts: dict) -> list[dict]:
    """Trace entries of the rules that raised the primary, strongest first (the ranking's order)."""
    primary, trace = facts.get("primary"), facts.get("trace") or []
    by_rule = {t.get("rule"): t for t in trace}
    top = next((r for r in facts.get("ranking") or [] if r.get("engine") == primary), None)
    if top:
        return [by_rule[r] for r in top.get("reasons") or [] if r in by_rule]
    return [t for t in trace if ((t.get("effects") or {}).get("score") or {}).get(primary, 0) > 0]


def _why(facts: dict, index: dict[str, int], lab: dict) -> list[str]:
    """Rationales of the rules that favoured the primary (else the first rules), with markers."""
    lines = []
    for entry in (favouring(facts) or facts.get("trace") or [])[:3]:
        lines.append(f"- {entry.get('rationale', '').strip()} {markers(entry.get('citations') or [], index)}".rstrip())
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


def _bench_lines(bench: dict, lab: dict) -> list[str]:
    levels = bench.get("concurrency") or (bench.get("workload") or {}).get("concurrency") or []
    metrics = [m if isinstance(m, str) else m.get("id") for m in bench.get("metrics") or []]
    out = []
    if levels:
        out.append(f"- {lab['sweep']}: {', '.join(fmt(c) for c in levels)}")
    if metrics:
        out.append(f"- {lab['metrics']}: {', '.join(m for m in metrics if m)}")
    return out + [f"- {lab['cmd']}"]


def _recommendation(facts: dict, index: dict[str, int], lab: dict, lang: str) -> list[str]:
    out = []
    if facts.get("primary"):
        out += [f"**{lab['rec']}: {display(facts['primary'])}**", "", f"{lab['why']}:", *_why(facts, index, lab)]
    else:
        out.append(f"**{lab['rec']}:** {lab['none']}")
    if facts.get("alternatives"):
        out += ["", f"**{lab['alts']}:** " + ", ".join(display(e) for e in facts["alternatives"])]
    if facts.get("avoid"):
        out += ["", f"**{lab['avoid']}:**"]
        out += [f"- {display(a['engine'])}: {a.get('reason', '')}" for a in facts["avoid"]]
    if facts.get("bottleneck"):
        out += ["", f"**{lab['bottleneck']}:** {BOTTLENECKS[lang].get(facts['bottleneck'], facts['bottleneck'])}"]
    par = facts.get("parallelism")
    if par and par.get("strategy"):
        dims = ", ".join(f"{k.upper()}={par[k]}" for k in ("tp", "pp", "ep", "dp") if (par.get(k) or 1) > 1)
        out += ["", f"**{lab['parallel']}:** {par['strategy'].upper()}" + (f" ({dims})" if dims else "")
                + (f": {par['reason']}" if par.get("reason") else "")]
        out += _plan_lines(facts, lab, lang)
    return out


def _plan_lines(facts: dict, lab: dict, lang: str) -> list[str]:
    """The plan's runner-up and rule lines, what it changed, and the primary's launch command."""
    plan = facts.get("plan")
    if not plan:
        return []
    lines = [f"- {w}" for w in ((plan.get("why") or {}).get(lang) or [])[1:]]
    lines += [f"- {lab['changed']}: {c}" for c in (plan.get("changes") or {}).get(lang) or []]
    flags, primary = plan.get("flags") or {}, facts.get("primary")
    if primary in flags:
        lines.append(f"- {lab['launch']} ({display(primary)}): `{flags[primary]}`")
    return lines


def _explanation(facts: dict, lab: dict) -> list[str]:
    out = [f"**{lab['explain']}:**"]
    for n, c in enumerate(facts.get("citations") or [], start=1):
        text = " ".join((c.get("text") or "").split())
        out.append(f"- **{c.get('title', '')}**: {text[:400]}{'…' if len(text) > 400 else ''} [{n}]")
    return out


def sources_block(facts: dict[str, Any]) -> list[str]:
    """The numbered list of retrieved chunks the markers point to."""
    cites = facts.get("citations") or []
    if not cites:
        return []
    lab = LABELS["zh" if (facts.get("profile") or {}).get("language") == "zh" else "en"]
    return ["", f"**{lab['sources']}:**",
            *[f"[{n}] {c.get('title', '')} — {c.get('source', '')} (`{c['id']}`)" for n, c in enumerate(cites, 1)]]


def _sizing_lines(facts: dict) -> list[str]:
    """The ranked hardware options of a sizing question (rendered by agent.sizing)."""
    if not facts.get("sizing"):
        return []
    from agent.sizing import render
    return render(facts["sizing"]).rstrip("\n").split("\n")


def template_answer(facts: dict[str, Any]) -> str:
    """The full Markdown answer from `facts` (never fails, never invents); the asked-about part first."""
    lang = "zh" if (facts.get("profile") or {}).get("language") == "zh" else "en"
    lab = LABELS[lang]
    index = {c["id"]: n for n, c in enumerate(facts.get("citations") or [], start=1)}
    intent = facts.get("intent")
    main = _explanation(facts, lab) if intent == "explain" else _recommendation(facts, index, lab, lang)
    est = [f"**{lab['estimate']}:**", *_estimate_lines(facts["estimate"], lab)] if facts.get("estimate") else []
    bench = [f"**{lab['bench']}:**", *_bench_lines(facts["benchmark"], lab)] if facts.get("benchmark") else []
    sizing = _sizing_lines(facts)
    order = {"estimate": [est, main, bench], "benchmark": [bench, main, est],
             "size": [sizing, main, bench]}.get(intent, [main, est, bench])
    out: list[str] = [f"> {lab['steer']}", ""] if facts.get("injection") else []
    for block in order:
        if block:
            out += [*block, ""]
    for key, items in (("warn", facts.get("warnings")), ("assume", facts.get("assumptions"))):
        if items:
            out += [f"**{lab[key]}:**", *[f"- {w}" for w in items], ""]
    out += sources_block(facts)
    return "\n".join(out).strip() + "\n"
