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
