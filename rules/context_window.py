"""A context beyond the model's own window: extended where the model card documents it, else capped.

The config's window (`max_context`, max_position_embeddings) is what the model runs out of the box. Some
model cards document a longer one reached with RoPE scaling set at launch (Qwen3: 32,768 tokens natively,
131,072 with YaRN factor 4; catalog: `context_extension`). A user who asks for more than the config's
window is planned at that window with the scaling the card documents, its launch flags named; beyond
what the card documents, the plan stays at the longest documented window and says so. YaRN as vLLM and
Qwen implement it is static: the factor applies to short prompts too, so the card advises the smallest
factor that covers the need (65,536 tokens: 2.0), which is the one given here.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

from rules.catalog_schema import ContextExtension, ModelSpec

FLAG_SOURCES = {
    "vllm": "https://docs.vllm.ai/en/stable/features/context_extension/",
    "llama.cpp": "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md",
}
"""Where each engine documents how it takes RoPE scaling at launch."""


@dataclass(frozen=True)
class Window:
    """The window a plan uses for a requested context, and how it gets there."""

    requested: int
    planned: int
    native: int
    extension: ContextExtension | None
    factor: float | None
    """The YaRN factor to launch with (None: the native window suffices, or nothing documented extends it)."""

    @property
    def capped(self) -> bool:
        return self.planned < self.requested


def limit(spec: ModelSpec) -> int:
    """The longest window the model card documents (the config's when nothing extends it)."""
    ext = spec.context_extension
    return max(spec.max_context, ext.max_context) if ext else spec.max_context


def window(spec: ModelSpec, requested: int | None) -> Window | None:
    """The plan's window for `requested` tokens (None when it is within the config's own window)."""
    if not requested or requested <= spec.max_context:
        return None
    ext = spec.context_extension
    planned = min(requested, limit(spec))
    factor = None
    if ext and planned > spec.max_context:
        factor = min(ext.factor, math.ceil(planned / ext.original_context * 2) / 2)   # the smallest half-step that covers it
    return Window(requested, planned, spec.max_context, ext, factor)


WINDOW_FLAG = {"vllm": "--max-model-len", "dynamo": "--max-model-len", "sglang": "--context-length",
               "llama.cpp": "--ctx-size"}


def rope_flags(engine: str | None, w: Window) -> str | None:
    """The engine's RoPE-scaling launch flags for the extended window (None when not extended or not known here)."""
    ext, f = w.extension, w.factor
    if ext is None or f is None:
        return None
    rope = {"rope_type": "yarn", "factor": f, "original_max_position_embeddings": ext.original_context}
    compact = {"separators": (",", ":")}
    if engine in ("vllm", "dynamo"):
        return f"--hf-overrides '{json.dumps({'rope_parameters': rope}, **compact)}'"
    if engine == "sglang":
        return f"--json-model-override-args '{json.dumps({'rope_scaling': rope}, **compact)}'"
    if engine == "llama.cpp":
        return f"--rope-scaling yarn --rope-scale {f:g} --yarn-orig-ctx {ext.original_context}"
    return None


def launch_flags(engine: str | None, w: Window) -> str | None:
    """The RoPE-scaling flags with the window flag they go with."""
    rope = rope_flags(engine, w)
    return f"{rope} {WINDOW_FLAG[engine]} {w.planned}" if rope else None


def note(spec: ModelSpec, w: Window, engine: str | None) -> tuple[str, str]:
    """What the user reads (en, zh): the native window, the documented extension and its flag, what is planned."""
    ext = w.extension
    en = f"{spec.name}'s own window is {w.native:,} tokens (config max_position_embeddings); you asked for {w.requested:,}."
    zh = f"{spec.name} 本身的 context 是 {w.native:,} tokens（config 的 max_position_embeddings），你要的是 {w.requested:,}。"
    if w.factor is not None:
        flags = launch_flags(engine, w)
        from rules import engines
        name = engines.engine(engine).name if engine else "the engine"
        src = FLAG_SOURCES.get(engine or "") or ext.source
        how = (f" Launch {name} with {flags} ({src})." if flags else
               f" {name} has no launch flag for it documented here: set rope_scaling in the model's config.json.")
        how_zh = (f"{name} 啟動時加上 {flags}（{src}）。" if flags else
                  f"這裡沒有 {name} 的對應啟動參數：請在模型的 config.json 設定 rope_scaling。")
        en += (f" The model card documents {ext.max_context:,} tokens with YaRN (factor up to {ext.factor:g} over "
               f"{ext.original_context:,}; {ext.source}): planned at {w.planned:,} with factor {w.factor:g}, the smallest "
               f"that covers it (static YaRN also scales short prompts, so do not enable it when you do not need it).{how}")
        zh += (f"模型卡記載可用 YaRN 延伸到 {ext.max_context:,} tokens（以 {ext.original_context:,} 為基準，factor 最多 "
               f"{ext.factor:g}；{ext.source}）：以 {w.planned:,} tokens、factor {w.factor:g}（涵蓋所需的最小值）規劃"
               f"（靜態 YaRN 也會影響短提示，不需要時別開）。{how_zh}")
    if w.capped and w.factor is not None:
        en += " That is the longest the model card documents: longer inputs need chunking or another model."
        zh += "這是模型卡記載的最長長度：更長的輸入需要切段或換模型。"
    elif w.capped:
        en += (f" Planned at {w.planned:,} tokens instead (nothing on the model card extends it); longer inputs need "
               "chunking or another model.")
        zh += f"改以 {w.planned:,} tokens 規劃（模型卡沒有記載延伸方式）；更長的輸入需要切段或換模型。"
    return en, zh
