"""Plot data for the web app: the answer's own plan with one quantity varied (agent.sweep).

Each function takes an `Advice` and returns a pandas DataFrame for a Gradio plot, or None when
the answer has no estimate.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from agent import sweep

if TYPE_CHECKING:
    from agent.advice import Advice

CONCURRENCY_LEVELS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
PROMPT_LEVELS = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)


def memory_frame(advice: "Advice | None") -> pd.DataFrame | None:
    """Per-device memory: weights, KV cache in service, runtime reserve, free — against capacity."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    mem = est.memory
    rows = [("weights", mem.weights_gb), ("KV cache", mem.kv_gb), ("runtime reserve", mem.reserve_gb),
            ("free" if mem.free_gb >= 0 else "over capacity", abs(mem.free_gb)), ("usable capacity", mem.usable_gb)]
    return pd.DataFrame({"part": [r[0] for r in rows], "GB per device": [round(r[1], 2) for r in rows]})


def decode_frame(advice: "Advice | None") -> pd.DataFrame | None:
    """Decode tokens/s per stream and in aggregate against concurrency, with the per-stream bound."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    peak = max(est.concurrency, 1)
    levels = sorted({c for c in CONCURRENCY_LEVELS if c <= max(64, 2 * peak)} | {peak})
    rows = []
    for c, e in sweep.over_concurrency(advice, levels):
        if not e.fits or e.decode_tokens_per_s is None:
            continue
        rows += [(c, "per stream", e.decode_tokens_per_s), (c, "aggregate", e.aggregate_tokens_per_s),
                 (c, "bound per stream", e.decode_tokens_per_s_bound)]
    return pd.DataFrame(rows, columns=["concurrency", "series", "tokens/s"]) if rows else None


def ttft_frame(advice: "Advice | None") -> pd.DataFrame | None:
    """TTFT against prompt length at the stated concurrency (prefill plus queueing)."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    top = max(est.context_length, 32768)   # show the curve past a short stated context
    lengths = [n for n in PROMPT_LEVELS if n + est.output_tokens <= top]
    rows = [(n, e.ttft_s) for n, e in sweep.over_prompt(advice, lengths) if e.ttft_s is not None]
    return pd.DataFrame(rows, columns=["prompt tokens", "TTFT (s)"]) if rows else None


def memory_plot(advice: "Advice | None") -> Any:
    """gr.update for the memory bar plot."""
    import gradio as gr
    return gr.update(value=memory_frame(advice), x="part", y="GB per device",
                     sort=["weights", "KV cache", "runtime reserve", "free", "over capacity", "usable capacity"])


def decode_plot(advice: "Advice | None") -> Any:
    """gr.update for the decode-vs-concurrency line plot."""
    import gradio as gr
    return gr.update(value=decode_frame(advice), x="concurrency", y="tokens/s", color="series")


def ttft_plot(advice: "Advice | None") -> Any:
    """gr.update for the TTFT-vs-prompt-length line plot."""
    import gradio as gr
    conc = advice.estimate.concurrency if advice and advice.estimate else 1
    return gr.update(value=ttft_frame(advice), x="prompt tokens", y="TTFT (s)",
                     label=f"TTFT vs prompt length at {conc} concurrent request(s) (prefill + queueing)")
