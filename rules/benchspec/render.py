"""Markdown for people: the benchmark spec and the reconcile report."""
from __future__ import annotations

from rules.benchspec.exports import PROGRAMS
from rules.benchspec.reconcile import Reconciliation
from rules.benchspec.spec import BenchSpec, LengthDist


def _len(d: LengthDist) -> str:
    return f"{d.mean}" if d.kind == "fixed" else f"{d.min}-{d.max} (typical {d.mean})"


def _fmt(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _scenario(spec: BenchSpec) -> list[str]:
    sc = spec.scenario
    m, w, hw = sc.model, sc.weights, sc.hardware
    lines = ["## Scenario", "",
             f"- **Model**: {m.name or m.id or 'fill in'} ({m.architecture or 'architecture: fill in'}, "
             f"{_fmt(m.params_b)}B total / {_fmt(m.active_params_b)}B active); checkpoint: {m.checkpoint}",
             f"- **Weights**: {w.dtype}; quantization {w.quantization}; group size {w.group_size}; "
             f"calibration {w.calibration}; KV cache {w.kv_cache_dtype}",
             f"- **Hardware**: {hw.count} x {hw.name or hw.id or 'fill in'} x {hw.nodes} node(s), "
             f"{_fmt(hw.memory_gb, 0)} GB, {_fmt(hw.mem_bw_gbs, 0)} GB/s, interconnect "
             f"{hw.interconnect or 'fill in'}; {hw.driver}"]
    for e in sc.engines:
        lines.append(f"- **Engine {e.id}** ({e.role}): version {e.version}, commit {e.commit}, "
                     f"backend {e.backend}; record: {', '.join(e.record)}")
    return lines + [""]


def _workload(spec: BenchSpec) -> list[str]:
    wl = spec.workload
    lines = ["## Workload", "",
             f"- **Use case**: {wl.kind}; peak concurrency **{wl.peak_concurrency}**; sweep "
             f"{wl.concurrency}; streaming {'on' if wl.streaming else 'off'}",
             f"- **Lengths**: prompts {_len(wl.input)} tokens, answers {_len(wl.output)} tokens (forced)",
             f"- **Shared prefix**: {wl.shared_prefix_share:.0%} of each prompt; target prefix-cache "
             f"hit rate {wl.target_kv_hit_rate:.0%}", "",
             "| run | purpose | prompt | answer | prefix | levels |", "|---|---|---|---|---|---|"]
    for r in wl.runs:
        lines.append(f"| {r.id} | {r.purpose} | {_len(r.input)} | {_len(r.output)} | "
                     f"{r.shared_prefix_tokens} | {', '.join(str(c) for c in r.concurrency)} |")
    return lines + [""]


def _measures(spec: BenchSpec) -> list[str]:
    lines = ["## Metrics", "", f"**TPOT**: {spec.tpot_definition}", ""]
    lines += [f"- `{k}`: {v}" for k, v in spec.metric_definitions.items() if k != "tpot"]
    lines += ["", "## SLOs", ""]
    lines += [f"- {s.use_case} at concurrency {s.at_concurrency}: TTFT p99 <= {s.ttft_p99_ms:g} ms, "
              f"TPOT p99 <= {s.tpot_p99_ms:g} ms. {s.basis}" for s in spec.slos]
    lines += ["", "## Pass/fail criteria", "", "| check | run | level | threshold | basis | if it fails |",
              "|---|---|---|---|---|---|"]
    for c in spec.criteria:
        thr = f"{c.threshold:g} {c.unit}" if c.threshold is not None else "record"
        lines.append(f"| {c.check} | {c.run} | {c.concurrency or '-'} | {thr} | {c.basis} | {c.if_fails} |")
    lines += ["", "## Checklist", ""]
    lines += [f"- [ ] **{i.rule}** {i.how}" for i in spec.checklist]
    return lines + [""]


def spec_markdown(spec: BenchSpec) -> str:
    """The spec as a Markdown document (exports as shell blocks)."""
    lines = ["# Benchmark plan", ""] + _scenario(spec) + _workload(spec) + _measures(spec)
    if spec.assumptions:
        lines += ["## Assumptions", ""] + [f"- {a}" for a in spec.assumptions] + [""]
    for name, text in spec.exports.items():
        lines += [f"## `{PROGRAMS[name]}`", "", "```sh", text.rstrip(), "```", ""]
    return "\n".join(lines)


def reconcile_markdown(rec: Reconciliation) -> str:
    """The reconcile report as Markdown."""
    lines = ["# Benchmark results vs plan", "", f"**{rec.verdict}**", ""]
    if rec.slo:
        lines += [f"SLO at concurrency {rec.slo.at_concurrency}: TTFT p99 <= {rec.slo.ttft_p99_ms:g} ms, "
                  f"TPOT p99 <= {rec.slo.tpot_p99_ms:g} ms.", ""]
    lines += ["| engine | run | level | harness | TTFT p50/p99 ms | TPOT p50/p99 ms | out tok/s | "
              "decode tok/s per stream (predicted, bound) | bandwidth use | SLO |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for c in rec.runs:
        slo = "-" if c.slo_ttft_ok is None or c.slo_tpot_ok is None else \
            ("met" if c.slo_ttft_ok and c.slo_tpot_ok else "missed")
        use = f"{c.bandwidth_utilisation:.0%}" if c.bandwidth_utilisation is not None else "-"
        lines.append(
            f"| {c.engine or '?'} | {c.run or '?'} | {c.concurrency or '?'} | {c.harness} | "
            f"{_fmt(c.ttft_p50_ms)} / {_fmt(c.ttft_p99_ms)} | {_fmt(c.tpot_p50_ms)} / {_fmt(c.tpot_p99_ms)} | "
            f"{_fmt(c.output_tokens_per_s)} | {_fmt(c.decode_tokens_per_s)} "
            f"({_fmt(c.predicted_decode_tokens_per_s)}, {_fmt(c.bound_decode_tokens_per_s)}) | {use} | {slo} |")
    lines.append("")
    for v in rec.engines:
        peak = {True: "meets", False: "misses", None: "not judged on"}[v.meets_slo_at_peak]
        lines.append(f"- **{v.engine}**: {peak} the SLOs at the peak; highest level within SLO: "
                     f"{v.highest_level_within_slo or '-'}; peak throughput {_fmt(v.peak_output_tokens_per_s)} "
                     f"tok/s.")
        lines += [f"  - {f}" for f in v.findings]
    found = [(c, f) for c in rec.runs for f in c.findings]
    if found:
        lines += ["", "## What the gaps suggest", ""]
        lines += [f"- {c.engine or '?'} / {c.run or '?'} / c{c.concurrency or '?'}: {f}" for c, f in found]
    if rec.notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in rec.notes]
    return "\n".join(lines) + "\n"


# --- the plan in Traditional Chinese (words from rules/benchspec/text_zh.py) ---------------------------

def _len_zh(d: LengthDist) -> str:
    return f"{d.mean}" if d.kind == "fixed" else f"{d.min}-{d.max}（一般 {d.mean}）"


def _hw_name_zh(hw) -> str:
    """The device as a zh-Hant text names it (the catalog's name_zh, else its name without the qualifier)."""
    from rules import catalog
    from rules.display import local_name, short_name
    from rules.errors import AdvisorError
    try:
        return local_name(catalog.hardware(hw.id), "zh") if hw.id else short_name(hw.name or "待填")
    except AdvisorError:   # an id the catalog does not know: its name as written
        return short_name(hw.name or hw.id or "待填")


def _scenario_zh(spec: BenchSpec) -> list[str]:
    from rules.benchspec.text_zh import RECORD, ROLES, zh
    sc = spec.scenario
    m, w, hw = sc.model, sc.weights, sc.hardware
    lines = ["## 測試情境", "",
             f"- **模型**：{m.name or m.id or '待填'}（{m.architecture or '架構：待填'}，總參數 "
             f"{_fmt(m.params_b)}B／啟用 {_fmt(m.active_params_b)}B）；checkpoint：{zh(m.checkpoint)}",
             f"- **權重**：{zh(w.dtype)}；量化 {zh(w.quantization)}；group 大小 {zh(w.group_size)}；"
             f"校準 {zh(w.calibration)}；KV cache {zh(w.kv_cache_dtype)}",
             f"- **硬體**：{hw.count} × {_hw_name_zh(hw)} × {hw.nodes} 個節點，"
             f"{_fmt(hw.memory_gb, 0)} GB，{_fmt(hw.mem_bw_gbs, 0)} GB/s，互連 {hw.interconnect or '待填'}；{zh(hw.driver)}"]
    for e in sc.engines:
        lines.append(f"- **引擎 {e.id}**（{ROLES.get(e.role, e.role)}）：版本 {zh(e.version)}，commit {zh(e.commit)}，"
                     f"backend {zh(e.backend)}；記錄：{'、'.join(RECORD.get(r, r) for r in e.record)}")
    return lines + [""]


def _workload_zh(spec: BenchSpec) -> list[str]:
    from rules.benchspec.text_zh import RUN_NOTES, RUNS, USE_CASES
    wl = spec.workload
    lines = ["## 工作負載", "",
             f"- **用途**：{USE_CASES.get(wl.kind, wl.kind)}；尖峰併發 **{wl.peak_concurrency}**；掃描 "
             f"{'、'.join(str(c) for c in wl.concurrency)}；串流{'開' if wl.streaming else '關'}",
             f"- **長度**：提示 {_len_zh(wl.input)} tokens，回答 {_len_zh(wl.output)} tokens（固定）",
             f"- **共用前綴**：每個提示的 {wl.shared_prefix_share:.0%}；目標 prefix cache 命中率 {wl.target_kv_hit_rate:.0%}",
             "", "| 測試 | 目的 | 提示 | 回答 | 前綴 | 併發層級 |", "|---|---|---|---|---|---|"]
    for r in wl.runs:
        purpose = RUNS.get(r.id, r.purpose).format(adapters=r.lora_adapters)
        lines.append(f"| {r.id} | {purpose} | {_len_zh(r.input)} | {_len_zh(r.output)} | "
                     f"{r.shared_prefix_tokens} | {'、'.join(str(c) for c in r.concurrency)} |")
    notes = [f"- **{r.id}**：{RUN_NOTES[r.id]}" for r in wl.runs if r.notes and r.id in RUN_NOTES]
    return lines + ([""] + notes if notes else []) + [""]


def _measures_zh(spec: BenchSpec) -> list[str]:
    from rules.benchspec import text_zh as t
    lines = ["## 指標", "", f"**TPOT**：{t.TPOT}", ""]
    lines += [f"- `{k}`：{t.METRICS.get(k, v)}" for k, v in spec.metric_definitions.items() if k != "tpot"]
    lines += ["", "## SLO", ""]
    lines += [f"- {t.USE_CASES.get(s.use_case, s.use_case)}，併發 {s.at_concurrency}：TTFT p99 ≤ {s.ttft_p99_ms:g} ms、"
              f"TPOT p99 ≤ {s.tpot_p99_ms:g} ms。{t.zh(s.basis)}" for s in spec.slos]
    lines += ["", "## 通過／不通過標準", "", "| 檢查 | 測試 | 層級 | 門檻 | 依據 | 沒通過時 |", "|---|---|---|---|---|---|"]
    for c in spec.criteria:
        unit = t.UNITS.get(c.unit, c.unit)
        thr = f"{c.threshold:g} {unit}" if c.threshold is not None else "記錄"
        check = t.CHECKS.get(c.id, c.check).format(threshold=f"{c.threshold:g}" if c.threshold is not None else "")
        lines.append(f"| {check} | {c.run} | {c.concurrency or '-'} | {thr} | {t.zh(c.basis)} | "
                     f"{t.IF_FAILS.get(c.id, c.if_fails)} |")
    lines += ["", "## 檢查清單", ""]
    lines += [f"- [ ] **{t.RULES.get(i.id, i.rule)}** {_how_zh(spec, i.id, i.how)}" for i in spec.checklist]
    return lines + [""]


def _how_zh(spec: BenchSpec, item: str, how: str) -> str:
    """A checklist item's 'how', phrased with this workload's numbers (as rules/benchspec/checklist.py)."""
    wl = spec.workload
    runs = {r.id: r for r in wl.runs}
    peak, inp, out = wl.peak_concurrency, wl.input, wl.output
    pre, dec, main = runs.get("prefill"), runs.get("decode"), runs.get("main")
    levels = "、".join(str(c) for c in wl.concurrency)
    prefix = main.shared_prefix_tokens if main else 0
    texts = {
        "no-single-user-tps": f"在主要測試中以併發 {peak}（您的尖峰）比較引擎；併發 1 的數字只是基準。",
        "real-lengths": f"提示 {inp.min}-{inp.max} tokens（一般 {inp.mean}）、回答 {out.mean} tokens；有正式環境的提示樣本時就換上去。",
        "real-concurrency": f"掃描 {levels} 包含您的尖峰（{peak}）；{2 * peak} 顯示還剩多少餘裕。",
        "prefill-decode-apart": (f"prefill 測試（輸入 {pre.input.mean} tokens、輸出 1）與 decode 測試"
                                 f"（輸入 {dec.input.mean}、輸出 {dec.output.mean}）各自隔離一個階段。") if pre and dec else how,
        "tails-not-means": "SLO 與標準都用 p99 的 TTFT 與 TPOT；平均值只作參考。",
        "prefix-reuse": (f"每個提示有 {prefix} tokens 是共用前綴：引擎指標中的 prefix cache 命中率應接近 "
                         f"{wl.target_kv_hit_rate:.0%}，並把主要測試在關閉 prefix caching 下再跑一次，看重用值多少。"
                         if prefix else "沒有規劃共用前綴；如果提示會重複 system prompt 或文件，請納入規劃讓快取被用到。"),
        "separate-features": ("「structured」測試單獨量 JSON 輸出" if "structured" in runs else "這個應用沒用到結構化輸出（不規劃測試）")
                             + "；" + ("「lora」測試單獨量 adapter 切換。" if "lora" in runs else "這個應用沒用到多 LoRA（不規劃測試）。"),
        "warmup-fixed-output": "每個層級先送不計入結果的暖機請求，並強制回答長度（忽略 EOS），讓每個引擎做一樣多的工作。",
        "retest-on-upgrade": "在 scenario 記錄版本與參數；任何變更後重跑這份計畫，並用 `advisor benchspec reconcile` 比較新舊結果。",
    }
    return texts.get(item, how)


def _assumption_zh(text: str, notes_zh: dict[str, str]) -> str:
    """An assumption line in zh-Hant; a profile default takes the profile's own zh-Hant note."""
    import re as _re
    from rules.benchspec.text_zh import zh
    m = _re.fullmatch(r"(\w+) = (\S+) was assumed(?:: .+|\.)", text.strip())
    if m and notes_zh.get(m.group(1)):
        return f"{m.group(1)} = {m.group(2)}（假設值）：{notes_zh[m.group(1)]}"
    return zh(text)


def spec_markdown_zh(spec: BenchSpec, notes_zh: dict[str, str] | None = None) -> str:
    """The spec as a zh-Hant Markdown document (`notes_zh`: profile field → why it was assumed, in zh-Hant)."""
    lines = ["# 測試計畫", ""] + _scenario_zh(spec) + _workload_zh(spec) + _measures_zh(spec)
    if spec.assumptions:
        lines += ["## 假設", ""] + [f"- {_assumption_zh(a, notes_zh or {})}" for a in spec.assumptions] + [""]
    for name, text in spec.exports.items():
        lines += [f"## `{PROGRAMS[name]}`", "", "```sh", text.rstrip(), "```", ""]
    return "\n".join(lines)
