"""The user's own setup in words, for the rule texts: "2× NVIDIA H100 SXM", "6 people", "Llama 3.1 70B".

A rule's rationale, warning or exclusion reason is a template; its `{placeholders}` are filled from
the decision's facts, so a reason names the user's hardware, model and numbers rather than an
example setup. Each display fact has a zh-Hant twin (`<name>_zh`) that `fill(..., lang="zh")` uses.
"""
from __future__ import annotations

from typing import Any

_BOXES = {"apple", "cpu", "edge"}
"""Device classes counted as machines ("台"), not cards ("張")."""
_MODE_EN = {"personal": "one person", "demo": "a demo or a small internal trial",
            "team": "an internal team service", "production": "an external production service",
            "fleet": "a fleet across machines"}
_MODE_ZH = {"personal": "一個人使用", "demo": "demo 或小規模內部試用", "team": "內部團隊服務",
            "production": "對外的 production 服務", "fleet": "跨機器的 fleet"}


MODE_ZH = _MODE_ZH
"""Serving modes in zh-Hant words (for texts that name the user's mode)."""


_GRAPHS = {"nvidia-cuda": ("CUDA graphs", "CUDA graph"), "amd-rocm": ("CUDA/HIP graphs", "CUDA/HIP graph"),
           "huawei-ascend": ("graph mode (ACLGraph / TorchAir)", "圖模式（ACLGraph／TorchAir）"),
           "intel-gaudi": ("HPU graphs", "HPU graph")}


def graph_capture(platform: str | None, lang: str = "en") -> str:
    """What captures the decode step as one graph on this platform, as its own software names it (CUDA graphs are
    not an Ascend or Gaudi setting)."""
    en, zh = _GRAPHS.get(platform or "", ("graph capture / compilation", "圖擷取／編譯"))
    return zh if lang == "zh" else en


def short_name(name: str) -> str:
    """A catalog name without its English qualifier in brackets ("NVIDIA GB200 (per Blackwell GPU ...)" →
    "NVIDIA GB200"): the zh-Hant texts name the part, the qualifier is catalog English."""
    return name.split(" (")[0].strip() or name


def local_name(hw: Any, lang: str = "en") -> str:
    """A device's name for a reader: the catalog name, or in zh-Hant its `name_zh` (class-level entries
    whose name is an English description) else the name without its bracketed English qualifier."""
    if lang != "zh":
        return hw.name
    return getattr(hw, "name_zh", None) or short_name(hw.name)


def _unit_zh(hw_class: str | None, unified: bool) -> str:
    return "台" if hw_class in _BOXES or unified else "張"


def setup(name: str, count: int, nodes: int, hw_class: str | None, unified: bool = False,
          name_zh: str | None = None) -> tuple[str, str]:
    """The devices as the user has them, (en, zh): "one NVIDIA RTX 4090", "2 nodes of 8× NVIDIA H100 SXM"."""
    unit, short = _unit_zh(hw_class, unified), name_zh or short_name(name)
    if nodes > 1:
        return f"{nodes} nodes of {count}× {name}", f"{nodes} 台各 {count} {unit} {short}"
    if count <= 1:
        return f"one {name}", f"1 {unit} {short}"
    return f"{count}× {name}", f"{count} {unit} {short}"


def audience(mode: str | None, users: int | None, concurrency: int | None,
             load: int | None, batch: bool = False) -> tuple[str | None, str | None]:
    """Who the service is for, (en, zh): "6 people", "30 requests at once", or the mode in words. An
    offline batch job stands in the team tier only for its requests in flight, so it is named as a job."""
    if users is not None and users > 1:
        at_once = f" (about {load} at once)" if load and load > 1 and concurrency is None else ""
        at_once_zh = f"（同時約 {load} 個）" if load and load > 1 and concurrency is None else ""
        if concurrency is not None and concurrency > 1:
            at_once, at_once_zh = f" ({concurrency} at once)", f"（同時 {concurrency} 個）"
        return f"{users} people{at_once}", f"{users} 人{at_once_zh}"
    if concurrency is not None and concurrency > 1:
        return f"{concurrency} requests at once", f"同時 {concurrency} 個請求"
    if users == 1:
        return "one person", "一個人使用"
    if mode is None:
        return None, None
    if batch and mode == "team":
        return "an offline batch job", "離線批次工作"
    return _MODE_EN[mode], _MODE_ZH[mode]


def number(value: Any) -> str:
    """A figure as people write it: 80 not 80.0, 1,024 not 1024."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.1f}" if value >= 10 else f"{value:,.2f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


class Line(str):
    """An English line that carries its zh-Hant twin (`.zh`); it is still a plain str everywhere."""

    zh: str

    def __new__(cls, en: str, zh: str) -> "Line":
        line = super().__new__(cls, en)
        line.zh = zh
        return line
