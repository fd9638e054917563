"""One summary line when the user asked for more context than the model's own window (rules.context_window):
the window, what is planned and how, so a busy reader sees it beside the headline (the full note, with the
sources, is the first warning)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.advice import Advice


def window_line(advice: "Advice") -> str | None:
    """'- Context: ...' in the user's language (None when the request is within the model's window)."""
    from rules import catalog, context_window
    from rules.errors import AdvisorError
    s, est = advice.profile.summary, advice.estimate
    if not s.model or not s.context_length or est is None:
        return None
    try:
        spec = catalog.model(s.model)
    except AdvisorError:
        return None
    w = context_window.window(spec, s.context_length)
    if w is None:
        return None
    zh = advice.language == "zh"
    if w.factor is not None:
        asked = (f"（你要的是 {w.requested:,}，這是模型卡記載的上限）" if zh else
                 f" (you asked for {w.requested:,}; that is the most its model card documents)") if w.capped else ""
        return (f"- Context 長度：{spec.name} 本身的 context 是 {w.native:,} tokens；依模型卡以 YaRN（factor {w.factor:g}）"
                f"延伸，以 {w.planned:,} tokens 規劃{asked}（啟動參數見下方）。" if zh else
                f"- Context: {spec.name}'s own window is {w.native:,} tokens; planned at {w.planned:,}{asked} with YaRN "
                f"(factor {w.factor:g}, as its model card documents; the launch flag is below).")
    return (f"- Context 長度：{spec.name} 的 context 上限是 {w.native:,} tokens，模型卡沒有記載延伸方式，改以 {w.native:,} "
            f"tokens 規劃（你要的是 {w.requested:,}）。" if zh else
            f"- Context: {spec.name}'s window is {w.native:,} tokens and its model card documents no extension: planned "
            f"at {w.native:,} (you asked for {w.requested:,}).")
