"""The iron rules of benchmarking from the source article, each bound to this workload's numbers."""
from __future__ import annotations

from rules.benchspec.spec import ChecklistItem, Workload


def _runs(workload: Workload) -> dict[str, object]:
    return {r.id: r for r in workload.runs}


def build_checklist(workload: Workload) -> list[ChecklistItem]:
    """The checklist, phrased with this workload's lengths, levels and runs."""
    runs = _runs(workload)
    peak, inp, out = workload.peak_concurrency, workload.input, workload.output
    pre, dec = runs["prefill"], runs["decode"]
    prefix = runs["main"].shared_prefix_tokens
    items = [
        ChecklistItem(id="no-single-user-tps", rule="Never pick an engine on single-user tokens/s.",
                      how=f"Compare engines at concurrency {peak} (your peak) in the main run; the "
                          "level-1 numbers are only a baseline."),
        ChecklistItem(id="real-lengths", rule="Use your real prompt and answer lengths.",
                      how=f"Prompts of {inp.min}-{inp.max} tokens (typical {inp.mean}) and answers of "
                          f"{out.mean} tokens; swap in a sample of production prompts when you have one."),
        ChecklistItem(id="real-concurrency", rule="Test at your real concurrency.",
                      how=f"The sweep {workload.concurrency} contains your peak ({peak}); {2 * peak} "
                          "shows how much headroom is left."),
        ChecklistItem(id="prefill-decode-apart", rule="Measure prefill and decode separately.",
                      how=f"The prefill run ({pre.input.mean} tokens in, 1 out) and the decode run "
                          f"({dec.input.mean} in, {dec.output.mean} out) isolate each phase."),
        ChecklistItem(id="tails-not-means", rule="Judge p95/p99, not averages.",
                      how="SLOs and criteria use p99 TTFT and TPOT; means are kept for context only."),
        ChecklistItem(id="prefix-reuse", rule="Check KV-cache reuse when prompts share a prefix.",
                      how=(f"{prefix} tokens of every prompt are a shared prefix: expect a prefix-cache "
                           f"hit rate near {workload.target_kv_hit_rate:.0%} in the engine's metrics, "
                           "and run the main run once with prefix caching off to see what reuse is worth."
                           if prefix else "No shared prefix is planned; if your prompts repeat a system "
                           "prompt or documents, plan it so the cache is exercised.")),
        ChecklistItem(id="separate-features", rule="Benchmark structured output and multi-LoRA separately.",
                      how=_feature_runs(runs)),
        ChecklistItem(id="warmup-fixed-output", rule="Warm up and fix the output length.",
                      how="Each level starts with warm-up requests that are not measured, and forces "
                          "the requested answer length (EOS ignored) so every engine does the same work."),
        ChecklistItem(id="retest-on-upgrade", rule="Re-test after every driver, CUDA, model or engine upgrade.",
                      how="Record versions and flags in the scenario; after any change rerun this plan "
                          "and compare with `advisor benchspec reconcile` on old and new results."),
    ]
    return items


def _feature_runs(runs: dict[str, object]) -> str:
    parts = []
    parts.append("the 'structured' run measures JSON output alone" if "structured" in runs
                 else "structured output is not used by this app (no run planned)")
    parts.append("the 'lora' run measures adapter switching alone" if "lora" in runs
                 else "multi-LoRA is not used by this app (no run planned)")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
