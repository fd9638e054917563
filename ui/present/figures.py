"""Short texts of a plan and its figures, shared by the web view, Slack and MCP (one wording)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from agent.compose import fmt
from ui.present.labels import labels

if TYPE_CHECKING:
    from agent.advice import Layout
    from rules.roofline.result import Estimate


def layout_text(layout: "Layout | None", lang: str) -> str:
    """"PP (PP=4)", "TP+PP (TP=4, PP=2)", or "single device"."""
    if layout is None:
        return ""
    if layout.strategy == "none" or layout.devices <= 1:
        return labels(lang)["single_device"]
    dims = layout.degrees()
    return layout.strategy.upper() + (f" ({dims})" if dims else "")


def fit_text(est: "Estimate | None", lang: str) -> str:
    """"fits" / "does not fit" / "not estimated"."""
    lab = labels(lang)
    if est is None:
        return lab["unknown_fit"]
    return lab["fits"] if est.fits else lab["no_fit"]


def number(value: float | int | None, unit: str = "") -> str:
    """A figure as shown everywhere (agent.compose.fmt), with its unit; "—" when unknown."""
    if value is None:
        return "—"
    return f"{fmt(value)}{(' ' + unit) if unit else ''}"


def key_figures(est: "Estimate | None", lang: str) -> list[tuple[str, str]]:
    """(label, value) of the figures people check first."""
    if est is None:
        return []
    lab = labels(lang)
    rows = [(lab["weights"], number(est.weights_gb, "GB")),
            (lab["decode"], number(est.decode_tokens_per_s, "tok/s")),
            (lab["aggregate"], number(est.aggregate_tokens_per_s, "tok/s")),
            (lab["ttft"], number(est.ttft_s, "s")), (lab["tpot"], number(est.tpot_ms, "ms")),
            (lab["max_conc"], number(est.max_concurrency))]
    if not est.fits and getattr(est, "offload", None) is None:   # a GPU-only speed of a setup that does not fit
        rows = [rows[0], rows[-1]]
    return [(k, v) for k, v in rows if v != "—"]
