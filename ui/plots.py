"""Plot data for the web app, computed by the same roofline as the answer (no separate math).

Each function takes an `ask --json` result and returns a pandas DataFrame for a Gradio plot,
or None when the result has no estimate.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

CONCURRENCY_LEVELS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
PROMPT_LEVELS = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)


def _setup(result: dict[str, Any] | None) -> dict[str, Any] | None:
    est = (result or {}).get("estimate")
    if not est or not est.get("model") or not est.get("hardware"):
        return None
    nodes = ((result or {}).get("profile") or {}).get("nodes") or 1
    return {"model": est["model"], "hardware": est["hardware"], "count": max(1, est["count"] // nodes),
            "nodes": nodes, "quant": est.get("quantization"), "engine": est.get("engine"),
            # the plan's own degrees: a curve of the layout the answer recommends, never a re-chosen one
            "parallelism": est.get("parallelism") or None, "kv_cache_dtype": est.get("kv_cache_dtype"),
            "input_tokens": est.get("input_tokens"), "output_tokens": est.get("output_tokens"),
            "context_length": est.get("context_length"), "concurrency": est.get("concurrency") or 1}


def _estimate(setup: dict[str, Any], **override: Any):
    from rules.errors import AdvisorError
    from rules.roofline import estimate

    try:
        return estimate(**{**setup, **override})
    except AdvisorError:
        return None


def memory_frame(result: dict[str, Any] | None) -> pd.DataFrame | None:
    """Per-device memory: weights, KV cache in service, runtime reserve, free — against capacity."""
    mem = ((result or {}).get("estimate") or {}).get("memory")
    if not mem:
        return None
    rows = [("weights", mem["weights_gb"]), ("KV cache", mem["kv_gb"]), ("runtime reserve", mem["reserve_gb"]),
            ("free" if mem["free_gb"] >= 0 else "over capacity", abs(mem["free_gb"])),
            ("usable capacity", mem["usable_gb"])]
    return pd.DataFrame({"part": [r[0] for r in rows], "GB per device": [round(r[1], 2) for r in rows]})


def decode_frame(result: dict[str, Any] | None) -> pd.DataFrame | None:
    """Decode tokens/s per stream and in aggregate against concurrency, with the per-stream bound."""
    setup = _setup(result)
    if setup is None:
        return None
    peak = max(setup["concurrency"], 1)
    levels = sorted({c for c in CONCURRENCY_LEVELS if c <= max(64, 2 * peak)} | {peak})
    rows = []
    for c in levels:
        est = _estimate(setup, concurrency=c)
        if est is None or not est.fits or est.decode_tokens_per_s is None:
            continue
        rows += [(c, "per stream", est.decode_tokens_per_s), (c, "aggregate", est.aggregate_tokens_per_s),
                 (c, "bound per stream", est.decode_tokens_per_s_bound)]
    if not rows:
        return None
    return pd.DataFrame(rows, columns=["concurrency", "series", "tokens/s"])


def ttft_frame(result: dict[str, Any] | None) -> pd.DataFrame | None:
    """TTFT against prompt length at the stated concurrency (prefill plus queueing)."""
    setup = _setup(result)
    if setup is None:
        return None
    out = setup.get("output_tokens") or 1
    top = max(setup.get("context_length") or 0, 32768)   # show the curve past a short stated context
    rows = []
    for n in PROMPT_LEVELS:
        if n + out > top:
            break
        est = _estimate(setup, input_tokens=n, context_length=n + out)  # errors (beyond max context) skip
        if est is not None and est.ttft_s is not None:
            rows.append((n, est.ttft_s))
    return pd.DataFrame(rows, columns=["prompt tokens", "TTFT (s)"]) if rows else None


def memory_plot(result: dict[str, Any] | None):
    """gr.update for the memory bar plot."""
    import gradio as gr
    return gr.update(value=memory_frame(result), x="part", y="GB per device",
                     sort=["weights", "KV cache", "runtime reserve", "free", "over capacity", "usable capacity"])


def decode_plot(result: dict[str, Any] | None):
    """gr.update for the decode-vs-concurrency line plot."""
    import gradio as gr
    return gr.update(value=decode_frame(result), x="concurrency", y="tokens/s", color="series")


def ttft_plot(result: dict[str, Any] | None):
    """gr.update for the TTFT-vs-prompt-length line plot."""
    import gradio as gr
    conc = (((result or {}).get("estimate") or {}).get("concurrency")) or 1
    return gr.update(value=ttft_frame(result), x="prompt tokens", y="TTFT (s)",
                     label=f"TTFT vs prompt length at {conc} concurrent request(s) (prefill + queueing)")
