"""Plot data for the web app: the answer's own plan with one quantity varied (agent.sweep).

Each `*_frame` takes an `Advice` and returns a pandas DataFrame (category names in the answer's
language), or None when it cannot be drawn; `why_not` says why in words. Each `*_plot` returns the
Gradio update (title, axis titles, shown or hidden) and `*_note` the line under its title that
says what to read — or why there is no figure, never an empty chart.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from agent import sweep
from ui.present import web as present
from ui.present.webtext import text

if TYPE_CHECKING:
    from agent.advice import Advice

CONCURRENCY_LEVELS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
PROMPT_LEVELS = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)


def _lang(advice: "Advice | None", lang: str | None) -> str:
    return lang or (advice.language if advice else "en")


def memory_frame(advice: "Advice | None", lang: str | None = None) -> pd.DataFrame | None:
    """Per-device memory: weights, KV cache in service, runtime reserve, free — against capacity."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    names = text(_lang(advice, lang))["parts"].split("|")
    mem = est.memory
    rows = [(names[0], mem.weights_gb), (names[1], mem.kv_gb), (names[2], mem.reserve_gb),
            (names[3] if mem.free_gb >= 0 else names[4], abs(mem.free_gb)), (names[5], mem.usable_gb)]
    return pd.DataFrame({"part": [r[0] for r in rows], "GB per device": [round(r[1], 2) for r in rows]})


def decode_frame(advice: "Advice | None", lang: str | None = None) -> pd.DataFrame | None:
    """Decode tokens/s per stream and in aggregate against concurrency, with the per-stream bound."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    per, agg, bound = text(_lang(advice, lang))["series_names"].split("|")
    peak = max(est.concurrency, 1)
    levels = sorted({c for c in CONCURRENCY_LEVELS if c <= max(64, 2 * peak)} | {peak})
    rows = []
    for c, e in sweep.over_concurrency(advice, levels):
        if not e.fits or e.decode_tokens_per_s is None:
            continue
        rows += [(c, per, e.decode_tokens_per_s), (c, agg, e.aggregate_tokens_per_s),
                 (c, bound, e.decode_tokens_per_s_bound)]
    return pd.DataFrame(rows, columns=["concurrency", "series", "tokens/s"]) if rows else None


def ttft_frame(advice: "Advice | None", lang: str | None = None) -> pd.DataFrame | None:
    """TTFT against prompt length at the stated concurrency (prefill plus queueing)."""
    est = advice.estimate if advice else None
    if est is None:
        return None
    top = max(est.context_length, 32768)   # show the curve past a short stated context
    lengths = [n for n in PROMPT_LEVELS if n + est.output_tokens <= top]
    rows = [(n, e.ttft_s) for n, e in sweep.over_prompt(advice, lengths) if e.ttft_s is not None and e.fits]
    return pd.DataFrame(rows, columns=["prompt tokens", "TTFT (s)"]) if rows else None


def why_not(advice: "Advice | None", lang: str) -> str:
    """Why there is no figure, in words."""
    t = text(lang)
    if advice is None:
        return t["no_plot_yet"]
    return t["no_plot"].format(why=present.why_not_estimated(advice, lang))


def _note(title: str, read: str) -> str:
    return f"#### {title}\n{read}"


def memory_note(advice: "Advice | None", frame: Any, lang: str) -> str:
    """Title and what to read (or why there is no figure)."""
    t = text(lang)
    return _note(t["mem_title"], t["mem_read"] if frame is not None else why_not(advice, lang))


def decode_note(advice: "Advice | None", frame: Any, lang: str) -> str:
    """Title and what to read (or why there is no figure)."""
    t = text(lang)
    if frame is None:
        why = t["no_plot"].format(why=t["why_no_fit"]) if advice and advice.estimate else why_not(advice, lang)
        return _note(t["dec_title"], why)
    return _note(t["dec_title"], t["dec_read"].format(conc=advice.estimate.concurrency))


def ttft_note(advice: "Advice | None", frame: Any, lang: str) -> str:
    """Title and what to read (or why there is no figure)."""
    t = text(lang)
    if frame is None:
        return _note(t["ttft_title"], why_not(advice, lang) if not (advice and advice.estimate)
                     else t["no_plot"].format(why=t["why_no_fit"]))
    return _note(t["ttft_title"], t["ttft_read"].format(conc=advice.estimate.concurrency))


def plots(advice: "Advice | None", lang: str) -> list[Any]:
    """[memory note, memory plot, decode note, decode plot, TTFT note, TTFT plot] for Gradio: each
    plot with its axis titles in the conversation's language, hidden when there is nothing to draw."""
    import gradio as gr
    t = text(lang)
    mem, dec, ttft = memory_frame(advice, lang), decode_frame(advice, lang), ttft_frame(advice, lang)
    order = t["parts"].split("|")
    return [
        memory_note(advice, mem, lang),
        gr.update(value=mem, visible=mem is not None, x="part", y="GB per device", sort=order,
                  x_title=t["x_part"], y_title=t["y_gb"], x_label_angle=-30,
                  y_lim=[0, float(mem["GB per device"].max()) * 1.05] if mem is not None else None),
        decode_note(advice, dec, lang),
        gr.update(value=dec, visible=dec is not None, x="concurrency", y="tokens/s", color="series",
                  x_title=t["x_conc"], y_title=t["y_tps"], color_title=t["series"]),
        ttft_note(advice, ttft, lang),
        gr.update(value=ttft, visible=ttft is not None, x="prompt tokens", y="TTFT (s)",
                  x_title=t["x_prompt"], y_title=t["y_ttft"]),
    ]
