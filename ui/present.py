"""Panels shown beside the answer (web) or as blocks (Slack), built from one `ask --json` result.

Pure functions of the result dict: the surfaces stay thin and agree with each other.
"""
from __future__ import annotations

from typing import Any

import yaml

LABELS = {
    "en": {"primary": "Recommended", "alternatives": "Also consider", "avoid": "Avoid", "bottleneck": "Bottleneck",
           "parallelism": "Parallelism", "fits": "Fits", "decode": "Decode (per stream)", "ttft": "TTFT",
           "max_conc": "Max concurrency at this context", "assumed": "assumed", "said": "you said",
           "none": "—", "no_rec": "No recommendation yet: answer the question in the chat.",
           "sources": "Sources", "yes": "yes", "no": "no", "weights": "Weights"},
    "zh": {"primary": "建議引擎", "alternatives": "也可考慮", "avoid": "避免", "bottleneck": "瓶頸",
           "parallelism": "平行策略", "fits": "放得下", "decode": "解碼速度（單一串流）", "ttft": "首字延遲 TTFT",
           "max_conc": "此 context 下最大併發", "assumed": "假設值", "said": "您提到",
           "none": "—", "no_rec": "尚無建議：請先回答左側的問題。",
           "sources": "來源", "yes": "是", "no": "否", "weights": "權重"},
}
PROFILE_FIELDS = ("hardware", "count", "nodes", "interconnect", "model", "params_b", "quantization",
                  "workload", "input_tokens", "output_tokens", "context_length", "concurrency", "users",
                  "serving_mode", "shared_prefix", "structured_output", "lora_adapters", "priority")


def lang_of(result: dict[str, Any] | None) -> str:
    """The user's language of a result ('en' or 'zh')."""
    return ((result or {}).get("profile") or {}).get("language") or "en"


def profile_rows(result: dict[str, Any] | None) -> list[list[str]]:
    """[field, value, where it came from] for each known profile field."""
    if not result:
        return []
    lab = LABELS[lang_of(result)]
    profile = result.get("profile") or {}
    prov = result.get("provenance") or {}
    assumed = set(profile.get("assumed") or [])
    rows = []
    for field in PROFILE_FIELDS:
        value = profile.get(field, (result.get("profile_full") or {}).get(field))
        if value is None:
            continue
        p = prov.get(field) or {}
        if field in assumed or p.get("assumed"):
            origin = f"{lab['assumed']}" + (f" ({p['note']})" if p.get("note") else "")
        elif p.get("evidence"):
            origin = f"{lab['said']}: “{p['evidence']}”"
        else:
            origin = lab["none"]
        rows.append([field, _fmt(value), origin])
    return rows


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def recommendation_md(result: dict[str, Any] | None) -> str:
    """The recommendation card: primary, alternatives, avoid with reasons, bottleneck, plan, numbers."""
    if not result or not (result.get("primary") or result.get("avoid")):
        return LABELS[lang_of(result)]["no_rec"]
    lab = LABELS[lang_of(result)]
    lines = [f"### {lab['primary']}: **{result.get('primary') or lab['none']}**"]
    if result.get("alternatives"):
        lines.append(f"**{lab['alternatives']}:** " + ", ".join(result["alternatives"]))
    for a in result.get("avoid") or []:
        lines.append(f"- ⛔ **{a['engine']}** — {a.get('reason', '')}")
    if result.get("bottleneck"):
        lines.append(f"**{lab['bottleneck']}:** `{result['bottleneck']}`")
    par = result.get("parallelism")
    if par:
        degrees = " ".join(f"{k.upper()}={par[k]}" for k in ("tp", "pp", "ep", "dp") if (par.get(k) or 1) > 1)
        lines.append(f"**{lab['parallelism']}:** `{par.get('strategy')}` {degrees} — {par.get('reason', '')}")
    est = result.get("estimate") or {}
    if est:
        facts = [f"{lab['fits']}: {lab['yes'] if est.get('fits') else lab['no']}"]
        if est.get("weights_gb") is not None:
            facts.append(f"{lab['weights']}: {est['weights_gb']:.1f} GB")
        if est.get("decode_tokens_per_s") is not None:
            facts.append(f"{lab['decode']}: {est['decode_tokens_per_s']:.1f} tok/s")
        if est.get("ttft_s") is not None:
            facts.append(f"{lab['ttft']}: {est['ttft_s']:.2f} s")
        if est.get("max_concurrency") is not None:
            facts.append(f"{lab['max_conc']}: {est['max_concurrency']}")
        lines.append(" · ".join(facts))
    return "\n\n".join(lines)


def citations_md(result: dict[str, Any] | None) -> str:
    """Citations as expandable blocks with their sources."""
    cites = (result or {}).get("citations") or []
    if not cites:
        return ""
    out = []
    for i, c in enumerate(cites, 1):
        text = (c.get("text") or "").strip().replace("\n", " ")
        source = c.get("source") or ""
        link = f"[{source}]({source})" if source.startswith("http") else source
        out.append(f"<details><summary>[{i}] {c.get('title', '')} <code>{c.get('id', '')}</code></summary>\n\n"
                   f"{text}\n\n{LABELS[lang_of(result)]['sources']}: {link}\n</details>")
    return "\n".join(out)


def benchmark_yaml(result: dict[str, Any] | None) -> str:
    """The benchmark spec as YAML (empty when there is none)."""
    bench = (result or {}).get("benchmark")
    return yaml.safe_dump(bench, allow_unicode=True, sort_keys=False, width=100) if bench else ""


def harness_commands(result: dict[str, Any] | None) -> str:
    """The harness command lines of the benchmark spec, one block per harness."""
    exports = ((result or {}).get("benchmark") or {}).get("exports") or {}
    return "\n\n".join(f"# {name}\n{cmd}" for name, cmd in exports.items())
