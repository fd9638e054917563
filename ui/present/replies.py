"""Quick replies: for each field an open question asks about, the answers that are possible here.

Possible means the catalog allows it for the profile understood so far: a bridge only for cards that
take one (NVLink for NVIDIA, Infinity Fabric for AMD), links between machines only for several
machines, FP8 only on devices with FP8 compute, context lengths up to the model's maximum, AWQ only
on CUDA/ROCm. Each reply is written so that the interview's own reader (`agent.extract.extract_answer`)
maps it back to the intended value, and to nothing else (tests/web/test_replies.py walks them all).
Devices and models are named by their catalogs.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agent.names import field_label, hardware_name

DONT_KNOW = {"en": "I don't know", "zh": "不知道"}
COMMON_DEVICES = (("rtx4090", 1), ("rtx4090", 2), ("h100_sxm", 8), ("m3_ultra", 1), ("epyc_genoa", 1))
"""Devices offered when the hardware is not known at all (one of each kind of machine)."""
COMMON_MODELS = (("llama-3.1-8b", "Llama 3.1 8B"), ("qwen3-32b", "Qwen3 32B"), ("llama-3.1-70b", "Llama 3.3 70B"),
                 ("gpt-oss-120b", "gpt-oss-120b"))
"""Models offered when none is known, each by one of its catalog aliases."""
CONTEXTS = (8000, 32000, 128000)
"""As people write them: "32K" is read as 32,000 tokens."""
PHRASES: dict[str, dict[str, dict[Any, str]]] = {
    "serving_mode": {"en": {"personal": "Just me", "demo": "A demo", "team": "Internal team",
                            "production": "External production"},
                     "zh": {"personal": "只有我自己用", "demo": "展示", "team": "內部團隊", "production": "對外正式上線"}},
    "workload": {"en": {"chat": "Chat", "rag": "RAG", "agent": "Agents", "coding": "Coding",
                        "summarization": "Summarization", "batch": "Batch jobs"},
                 "zh": {"chat": "聊天", "rag": "RAG", "agent": "Agent", "coding": "寫程式", "summarization": "摘要",
                        "batch": "批次作業"}},
    "concurrency": {"en": {1: "1 at a time", 10: "10 concurrent", 50: "50 concurrent", 200: "200 concurrent"},
                    "zh": {1: "一次一個", 10: "10 個併發", 50: "50 個併發", 200: "200 個併發"}},
    "priority": {"en": {"latency": "Latency", "throughput": "Throughput", "cost": "Cost"},
                 "zh": {"latency": "延遲", "throughput": "吞吐量", "cost": "成本"}},
    "shared_prefix": {"en": {True: "Yes", False: "No"}, "zh": {True: "是", False: "否"}},
    "bridge": {"en": {"pcie": "PCIe only"}, "zh": {"pcie": "只有 PCIe"}},
    "between": {"en": {"infiniband": "InfiniBand", "ethernet": "Ethernet"},
                "zh": {"infiniband": "InfiniBand", "ethernet": "乙太網路"}},
    "quantization": {"en": {"bf16": "BF16", "fp8": "FP8", "awq": "AWQ 4-bit", "q4_k_m": "GGUF Q4_K_M"},
                     "zh": {"bf16": "BF16", "fp8": "FP8", "awq": "AWQ 4-bit", "q4_k_m": "GGUF Q4_K_M"}},
}


class Reply(BaseModel):
    """One possible answer: the words sent, and the value they stand for."""

    model_config = ConfigDict(extra="forbid")
    text: str
    value: Any


class ReplyGroup(BaseModel):
    """The possible answers to one field of the open question."""

    model_config = ConfigDict(extra="forbid")
    field: str
    label: str
    replies: list[Reply] = Field(default_factory=list)


def _lang(lang: str | None) -> str:
    return "zh" if lang == "zh" else "en"


def _phrased(kind: str, values: list[Any], lang: str) -> list[Reply]:
    table = PHRASES[kind][lang]
    return [Reply(text=table[v], value=v) for v in values if v in table]


def _hardware(profile: Any, question: dict[str, Any]) -> list[Reply]:
    """The catalog's closest devices to unrecognised words, else one device of each kind."""
    from rules import catalog
    known = catalog.all_hardware()
    suggested = list(question.get("options") or [])
    if suggested:
        return [Reply(text=s, value=catalog.resolve_hardware(s)) for s in suggested]
    return [Reply(text=f"{n}× {hardware_name(h)}" if n > 1 else hardware_name(h), value=h)
            for h, n in COMMON_DEVICES if h in known]


def _model() -> list[Reply]:
    """A few well-known catalog models, each written as one of its catalog aliases."""
    from rules import catalog
    models = catalog.all_models()
    return [Reply(text=alias, value=mid) for mid, alias in COMMON_MODELS
            if mid in models and alias in models[mid].aliases]


def _hw(profile: Any) -> Any:
    from rules import catalog
    from rules.errors import AdvisorError
    try:
        return catalog.hardware(profile.hardware) if profile is not None and profile.hardware else None
    except AdvisorError:
        return None


def _interconnect(profile: Any, lang: str) -> list[Reply]:
    """Links the catalog leaves open (agent.interview.link_question)."""
    from agent.interview import link_question
    which = link_question(profile) if profile is not None else "interconnect"
    hw = _hw(profile)
    bridge: list[Reply] = []
    if hw is not None and hw.scaleup_gbs and hw.interconnect == "pcie":
        name = "Infinity Fabric" if hw.platform == "amd-rocm" else "NVLink"
        value = "infinity-fabric" if hw.platform == "amd-rocm" else "nvlink"
        bridge = [Reply(text=f"{name} bridge" if lang == "en" else f"有 {name} 橋接", value=value)]
    inside = bridge + _phrased("bridge", ["pcie"], lang)
    between = _phrased("between", ["infiniband", "ethernet"], lang)
    if which in ("interconnect_bridge", None):   # None: the part fixes the link inside one machine
        return inside
    if which == "interconnect_nodes":
        return between
    return inside + between


def _quantization(profile: Any, lang: str) -> list[Reply]:
    """Formats the device can run: FP8 needs FP8 compute, AWQ needs CUDA or ROCm."""
    hw = _hw(profile)
    values = ["bf16"]
    if hw is None or hw.tflops.fp8:
        values.append("fp8")
    if hw is None or hw.platform in ("nvidia-cuda", "amd-rocm"):
        values.append("awq")
    values.append("q4_k_m")
    return _phrased("quantization", values, lang)


def _context(profile: Any, lang: str) -> list[Reply]:
    """Context lengths up to the model's maximum."""
    from rules import catalog
    from rules.errors import AdvisorError
    top = None
    try:
        top = catalog.model(profile.model).max_context if profile is not None and profile.model else None
    except AdvisorError:
        pass
    sizes = [c for c in CONTEXTS if top is None or c <= top] or [min(CONTEXTS)]
    word = "tokens" if lang == "en" else "token"
    return [Reply(text=f"{c // 1000}K {word}", value=c) for c in sizes]


def replies_for(field: str, profile: Any, question: dict[str, Any], lang: str) -> list[Reply]:
    """The possible answers to one field for this profile."""
    lang = _lang(lang)
    if field == "hardware":
        return _hardware(profile, question)
    if field == "model":
        return _model()
    if field == "interconnect":
        return _interconnect(profile, lang)
    if field == "quantization":
        return _quantization(profile, lang)
    if field == "context_length":
        return _context(profile, lang)
    if field in PHRASES:
        return _phrased(field, list(PHRASES[field][lang]), lang)
    return []


def groups(question: dict[str, Any] | None, profile: Any, lang: str) -> list[ReplyGroup]:
    """One group of possible answers per field the open question asks about (every one of them)."""
    if not question:
        return []
    return [ReplyGroup(field=f, label=field_label(f, lang), replies=replies_for(f, profile, question, lang))
            for f in question.get("fields") or []]


def compose(choices: list[str | None], lang: str) -> str:
    """The message the chosen replies make (joined the way people list answers)."""
    picked = list(dict.fromkeys(c for c in choices if c))   # "don't know" twice is said once
    return ("；" if _lang(lang) == "zh" else "; ").join(picked)


CORRECTABLE = ("hardware", "count", "model", "quantization", "workload", "context_length", "users", "concurrency",
               "serving_mode", "interconnect", "priority")
"""Fields the profile panel lets people correct (what the advisor reads from words)."""
_CORRECTION_WORDS = {"count": {"en": "{v} GPUs", "zh": "{v} 張 GPU"},
                     "priority": {"en": "{v} matters most", "zh": "最重視{v}"}}
"""How a bare value is said for fields whose number or word alone is ambiguous."""


def correction(field: str, value: str, lang: str) -> str:
    """The correction turn for one field: "Concurrent requests: 40", "Devices per node: 8 GPUs"."""
    lang = _lang(lang)
    said = _CORRECTION_WORDS.get(field, {}).get(lang, "{v}").format(v=value.strip())
    return f"{field_label(field, lang)}: {said}"
