"""The facts the rules read: the profile's values plus what follows from them and the catalogs.

`derive_facts(profile)` computes them once per decision (hardware class and platform, device and
node counts, NVLink, MoE, weight size against memory, long context, prefill- or decode-heavy
shape, load). Unknown stays None: a rule never fires on a guess. Facts that are inferred rather
than stated (an interconnect taken from the hardware's usual form) come with an assumption line.
"""
from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from rules import catalog
from rules.ids import (
    Architecture, HardwareClass, InterconnectId, Language, Platform, Priority, ServingMode, WorkloadKind,
)
from rules.profile import Profile
from rules.quant import as_said, bits_per_weight
from rules import display
from rules.roofline import memory
from rules.fit import device_memory
from rules.serving import reconcile

QuantFamily = Literal["16bit", "fp8", "int8", "gguf", "gpu-int4", "exl2", "exl3", "mxfp4", "nvfp4"]
Vendor = Literal["nvidia", "amd", "apple", "intel", "other"]

LONG_CONTEXT = 32_768
"""From this context length on the KV cache, not the weights, drives memory (the article's
long-context branch; 32K is where common chat defaults end)."""
VERY_LONG_CONTEXT = 80_000
"""The article's coding-agent example works with 80K tokens and more."""
MANY_USERS_CONCURRENCY = 16
"""Above a demo's handful of users (the article: fine up to 5-10) scheduling quality matters."""
MANY_USERS_HEADCOUNT = 50
"""The article's turning point for Ollama-class servers: 50+ users."""
FAST_SCALEUP_GBS = 390
"""A device's own scale-up fabric at this rate or more (e.g. Gaudi 3's on-die RoCE, 1200 GB/s; the Ascend 910B's
HCCS mesh, 392 GB/s, the class of the A800/H800's capped 400 GB/s NVLink) counts as fast as NVLink for splitting
a model; PCIe Gen5 x16 is ~128 GB/s."""
SLOW_FP16_CC = (6.1, 6.2)
"""NVIDIA compute capabilities whose FP16 arithmetic runs at a small fraction of FP32 (GP102/104/106/107
and Jetson TX2: P40, P4, GTX 10xx). Source: CUDA C++ Programming Guide, arithmetic instruction
throughput table (16-bit floating-point add/multiply per clock per SM: 128 on 6.0, 2 on 6.1)."""
UNKNOWN_DEVICE_HEADROOM = 0.9
"""Share of a stated memory size the weights may take on a device we do not know (runtime, buffers and
a little KV cache need the rest; catalog devices use the roofline's own reserve instead)."""
PREFILL_RATIO = 4
"""Prompt at least 4x the answer: prefill dominates (RAG, summaries)."""

_QUANT_FAMILIES = {
    "bf16": "16bit", "f16": "16bit", "fp8": "fp8", "int8": "int8", "q8_0": "gguf", "q6_k": "gguf",
    "q5_k_m": "gguf", "q4_k_m": "gguf", "q4_0": "gguf", "int4": "gpu-int4", "awq": "gpu-int4",
    "gptq-4bit": "gpu-int4", "mxfp4": "mxfp4", "nvfp4": "nvfp4",
}
_NETWORK_LINKS = ("infiniband", "ethernet")
_PREFILL_WORKLOADS = {"rag", "summarization"}
_DECODE_WORKLOADS = {"chat", "batch"}
_SHARED_MODES = {"team", "production", "fleet"}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Facts(BaseModel):
    """Everything a rule condition may read (the vocabulary of `when`)."""

    model_config = ConfigDict(extra="forbid")
    # hardware
    hardware: str | None = None
    hardware_name: str | None = None
    hardware_name_zh: str | None = None
    """The device's name without the catalog's English qualifier, for the zh-Hant texts."""
    setup: str | None = None
    """The devices in words ("2× NVIDIA H100 SXM"), for the rule texts; `setup_zh` is its zh-Hant twin."""
    setup_zh: str | None = None
    unified_memory: bool | None = None
    local_engines: str = "llama.cpp, MLX-LM, ExLlamaV2"
    """The article's personal-use engines that run on this hardware (all three when it is not known)."""
    local_engines_zh: str = "llama.cpp、MLX-LM、ExLlamaV2"
    """CPU and GPU share one memory pool (Apple silicon, DGX Spark, Jetson, Strix Halo)."""
    slow_fp16: bool | None = None
    """FP16 math runs at a small fraction of FP32 on this GPU (see SLOW_FP16_CC)."""
    hw_class: HardwareClass | None = None
    platform: Platform | None = None
    vendor: Vendor | None = None
    cuda_cc: float | None = None
    is_blackwell: bool | None = None
    """NVIDIA compute capability 10+ (B200, GB200, RTX 50, RTX PRO 6000 Blackwell)."""
    fp8_native: bool | None = None
    """FP8 tensor cores (NVIDIA cc >= 8.9, AMD MI300 class)."""
    memory_gb: float | None = None
    host_memory_gb: float | None = None
    """System RAM the user stated next to a discrete GPU (what layers offloaded to the CPU may use)."""
    usable_memory_gb: float | None = None
    mem_bw_gbs: float | None = None
    hw_approximate: bool | None = None
    """The hardware is a class-level stand-in ("an i7 laptop"): typical figures, not a datasheet."""
    count: int = 1
    nodes: int = 1
    device_count: int = 1
    multi_device: bool = False
    multi_node: bool = False
    interconnect: InterconnectId | None = None
    """The link between the devices of one node (what tensor/expert parallel traffic crosses)."""
    inter_node_link: InterconnectId | None = None
    """The fabric between nodes (InfiniBand, Ethernet) when the user named one for a multi-node setup."""
    interconnect_inferred: bool = False
    has_nvlink: bool | None = None
    fast_interconnect: bool | None = None
    """NVLink / NVSwitch, AMD Infinity Fabric, or the device's own scale-up fabric of >= 400 GB/s."""
    p2p: bool | None = None
    # model
    model: str | None = None
    model_name: str | None = None
    params_b: float | None = None
    active_params_b: float | None = None
    architecture: Architecture | None = None
    is_moe: bool | None = None
    quantization: str | None = None
    weights_format: str | None = None
    """The format the weights are sized in: the stated or assumed quantization, else the model's native one."""
    quantization_assumed: bool = False
    """True when the quantization is a default, not the user's choice (no kernel penalties then)."""
    quant_family: QuantFamily | None = None
    bits_per_weight: float | None = None
    weights_gb: float | None = None
    devices_needed: int | None = None
    fits_stated_memory: bool | None = None
    """Hardware unknown but its memory stated: do the weights fit in it (with the usual headroom)?"""
    fits_one_device: bool | None = None
    wired_share: float | None = None
    """On a Mac: the weights' share of the memory the GPU may keep wired by default (macOS's limit)."""
    fits_node: bool | None = None
    fits_total: bool | None = None
    usable_total_gb: float | None = None
    """Memory the weights may take over all devices (usable minus the runtime reserve)."""
    kv_bytes_per_token: float | None = None
    shape_guessed: bool = False
    """The model is not in the catalog and came with no config.json: its shape (and KV cache) is a guess."""
    kv_bytes_per_token_mha: float | None = None
    """For a guessed shape: the KV bytes per token if the model used full multi-head attention (the worst case)."""
    kv_gb: float | None = None
    """KV cache for `load` sequences at the context length (BF16 unless a KV dtype is set)."""
    kv_capacity: int | None = None
    """Sequences whose KV cache fits at the context length next to the weights and runtime reserve."""
    kv_fits: bool | None = None
    """`kv_capacity` covers the `load`."""
    # workload
    workload: WorkloadKind | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    context_length: int | None = None
    context_assumed: bool = False
    """True when the context length is a default (KV budgets from it are estimates)."""
    long_context: bool | None = None
    very_long_context: bool | None = None
    heavy_prefill: bool | None = None
    heavy_decode: bool | None = None
    concurrency: int | None = None
    load: int | None = None
    """Sequences in flight to plan memory for: the stated concurrency, else the documented default
    (a share of the stated users, or the serving mode's typical load)."""
    load_assumed: bool = False
    users: int | None = None
    many_users: bool | None = None
    shared_prefix: bool | None = None
    structured_output: bool | None = None
    streaming: bool | None = None
    lora_adapters: int | None = None
    multi_lora: bool | None = None
    kv_cache_dtype: str | None = None
    # serving
    serving_mode: ServingMode | None = None
    audience: str | None = None
    """Who the service is for in words ("6 people", "30 requests at once"); `audience_zh` in zh-Hant."""
    audience_zh: str | None = None
    priority: Priority | None = None
    language: Language = "en"
    os: str | None = None
    """The operating system stated (linux, macos, windows)."""


def quant_family(quant: str) -> str:
    """The kernel family of a quantization id (GGUF k-quants, EXL2/EXL3, GPU int4, FP8, ...)."""
    return _QUANT_FAMILIES.get(quant) or quant.split("-", 1)[0]


def _vendor(name: str | None) -> str | None:
    low = (name or "").lower()
    for v in ("nvidia", "amd", "apple", "intel"):
        if v in low:
            return v
    return "other" if low else None


def _hardware_facts(p: Profile, notes: list[str]) -> dict[str, Any]:
    if not p.hardware:
        return {}
    hw = catalog.hardware(p.hardware)
    cc = float(hw.cuda_cc) if hw.cuda_cc else None
    stated, host = device_memory(hw, p.memory_gb)
    host = p.host_memory_gb or host   # RAM said as the host's ("256GB DDR5") beats a size read off the card's
    mem = stated or hw.memory_gb
    out: dict[str, Any] = {
        "hardware": hw.id, "hw_class": hw.hw_class, "platform": hw.platform, "vendor": _vendor(hw.vendor),
        "cuda_cc": cc, "is_blackwell": cc >= 10 if cc else (False if hw.platform != "nvidia-cuda" else None),
        "fp8_native": bool(hw.tflops.fp8), "memory_gb": mem,
        "usable_memory_gb": round(memory.usable_bytes(hw, stated).value / 1e9, 2), "host_memory_gb": host,
        "mem_bw_gbs": hw.mem_bw_gbs, "p2p": hw.p2p, "hw_approximate": hw.approximate,
    }
    unified = hw.hw_class in ("apple", "edge") or "unified" in (hw.memory_type or "").lower()
    out["setup"], out["setup_zh"] = display.setup(hw.name, p.count or 1, p.nodes, hw.hw_class, unified,
                                                  hw.name_zh)
    out.update(hardware_name=hw.name, hardware_name_zh=display.local_name(hw, "zh"), unified_memory=unified,
               slow_fp16=cc in SLOW_FP16_CC if cc is not None else (False if hw.platform != "nvidia-cuda" else None))
    names = _local_engines(hw, out["slow_fp16"])
    out["local_engines"], out["local_engines_zh"] = ", ".join(names), "、".join(names)
    out.update(_link_facts(p, hw, notes))
    return out


_LOCAL_ENGINES = ("llama.cpp", "mlx-lm", "exllamav2")
"""The source article's picks for one person on their own machine (decision list 3)."""


def _local_engines(hw, slow_fp16: bool | None) -> list[str]:
    """The personal-use engines this device runs (engine catalog verdicts): a Mac never hears ExLlamaV2,
    a P40 never hears an FP16-kernel engine."""
    from rules import engines   # lazy: engines loads its catalog on first use
    names = [engines.engine(e).name for e in _LOCAL_ENGINES if engines.verdict(e, hw, bool(slow_fp16)).ok]
    return names or ["llama.cpp"]


def _link_facts(p: Profile, hw, notes: list[str]) -> dict[str, Any]:
    """The link between devices that TP/EP traffic crosses, and the fabric between nodes.

    A network fabric named for a multi-node setup (InfiniBand, Ethernet) is the inter-node link;
    inside each node the devices keep their usual link (NVLink on SXM boards, PCIe on cards).
    """
    link, between = p.interconnect, None
    if p.nodes > 1 and link in _NETWORK_LINKS:
        between, link = link, (hw.interconnect if (p.count or 1) > 1 else link)
        if (p.count or 1) > 1:
            notes.append(display.Line(f"interconnect = {link} inside each node: {between} was given for between the nodes",
                                      f"interconnect = {link}：節點內用這個連結，{between} 是節點之間的網路"))
    if link is None and p.device_count > 1 and hw.fabric:
        link = hw.interconnect   # HCCS, ICI: the device's own fabric, named as its vendor names it (not "Ethernet")
        notes.append(display.Line(f"interconnect = {hw.fabric}: not given, assumed {hw.name}'s own {hw.fabric} fabric "
                                  "between the devices of one machine",
                                  f"interconnect = {hw.fabric}：沒有說明，假設同一台機器內的 {display.short_name(hw.name)} "
                                  f"走它自己的 {hw.fabric} 互連"))
    elif link is None and p.device_count > 1:
        link = hw.interconnect
        notes.append(display.Line(f"interconnect = {link}: not given, assumed the usual link of {hw.name}",
                                  f"interconnect = {link}：沒有說明，假設是 {display.short_name(hw.name)} 常見的連結方式"))
    elif link is None:
        link = "unified" if hw.hw_class == "apple" else "none"
    if link == "nvlink" and hw.interconnect == "pcie" and (hw.scaleup_domain or 1) < 2 and not hw.scaleup_gbs:
        # a PCIe card with no NVLink at all (catalog: no scale-up link): the cards talk over PCIe whatever was said.
        # Cards with NVLink bridges keep "nvlink": the planner limits TP/EP groups to the bridged pairs (the catalog's
        # scaleup_domain, rules.plan.topology), so 8 H800 PCIe are never one NVLink domain (r6-zh-04)
        link = "pcie"
        notes.append(display.Line(f"interconnect = pcie: {hw.name} has no NVLink, so the cards talk over PCIe",
                                  f"interconnect = pcie：{display.short_name(hw.name)} 沒有 NVLink，卡與卡之間走 PCIe"))
    own_fabric = link == hw.interconnect and link not in ("pcie", "none") and (hw.scaleup_gbs or 0) >= FAST_SCALEUP_GBS
    return {
        "interconnect": link, "inter_node_link": between,
        "interconnect_inferred": p.interconnect is None and p.device_count > 1,
        "has_nvlink": link == "nvlink",
        "fast_interconnect": link in ("nvlink", "infinity-fabric") or own_fabric,
    }


def _model_spec(p: Profile):
    """The catalog spec of the model, or a generic one described from the user's numbers."""
    return catalog.spec_for_profile(p)


def _model_facts(p: Profile, spec) -> dict[str, Any]:
    out: dict[str, Any] = {"params_b": p.params_b, "active_params_b": p.active_params_b,
                           "architecture": p.architecture}
    if spec is not None:
        out["model_name"] = spec.name
        out["params_b"] = p.params_b or spec.params_b
        out["active_params_b"] = p.active_params_b or spec.active_params_b
        out["architecture"] = p.architecture or spec.architecture
        out["kv_bytes_per_token"] = memory.kv_bytes_per_token(spec, p.kv_cache_dtype).value
        if spec.id == "custom" and p.hf_config is None:   # describe_model(): GQA with 8 KV heads assumed
            out["shape_guessed"] = True
            out["kv_bytes_per_token_mha"] = out["kv_bytes_per_token"] * spec.q_heads / spec.kv_heads
    out["is_moe"] = out["architecture"] == "moe" if out["architecture"] else None
    return out


def _capacity_facts(f: dict[str, Any], p: Profile, spec) -> dict[str, Any]:
    """Weights (and KV cache) against the devices' usable memory, via the roofline's memory model."""
    quant = f.get("quantization") or (spec.native_dtype if spec is not None else None)
    out: dict[str, Any] = {"bits_per_weight": bits_per_weight(quant) if quant else None, "weights_format": quant}
    if spec is None:
        return out
    out["weights_gb"] = round(memory.weight_bytes(spec, quant).value / 1e9, 2)
    if not p.hardware:
        if p.memory_gb:   # "my card has 24 GB" with a card we do not know: the fit arithmetic still holds
            out["memory_gb"] = p.memory_gb
            out["fits_stated_memory"] = out["weights_gb"] <= p.memory_gb * (p.count or 1) * UNKNOWN_DEVICE_HEADROOM
        return out
    hw = catalog.hardware(p.hardware)
    usable = memory.usable_bytes(hw, device_memory(hw, p.memory_gb)[0]).value
    per_device = usable - memory.reserve_bytes(hw, None, usable).value
    weights = out["weights_gb"] * 1e9
    need = max(1, math.ceil(weights / per_device))
    out["usable_total_gb"] = round(per_device * f["device_count"] / 1e9, 1)
    out.update(devices_needed=need, fits_one_device=need == 1, fits_node=need <= f["count"],
               fits_total=need <= f["device_count"])
    if hw.platform == "apple-silicon" and usable > 0:
        out["wired_share"] = round(weights / (usable * f["device_count"]), 2)
    out.update(_kv_facts(f, p, spec, hw, usable, weights))
    return out


def _kv_facts(f: dict[str, Any], p: Profile, spec, hw, usable: float, weights: float) -> dict[str, Any]:
    """How many sequences' KV cache fit at the context, against the load to serve.

    A shared service runs a server engine, which keeps back a larger share (as the roofline does
    for vLLM-class engines), so the count matches the estimate shown next to the decision.
    """
    ctx, load = f.get("context_length"), f.get("load") or 1
    if not ctx:
        return {}
    engine = "vllm" if f.get("serving_mode") in _SHARED_MODES else None
    free = (usable - memory.reserve_bytes(hw, engine, usable).value) * f["device_count"] - weights
    # a server engine's prefix cache holds the prompt every request shares once, not once per sequence
    prefix = p.prefix_tokens if engine and p.shared_prefix and p.prefix_tokens and p.prefix_tokens < ctx else 0
    per_seq = memory.kv_bytes(spec, ctx - prefix, p.kv_cache_dtype).value
    shared = memory.kv_bytes(spec, prefix, p.kv_cache_dtype).value if prefix else 0.0
    capacity = max(0, math.floor((free - shared) / per_seq)) if per_seq > 0 else 0
    return {"kv_gb": round((per_seq * load + shared) / 1e9, 2), "kv_capacity": capacity, "kv_fits": capacity >= load}


def _load(p: Profile) -> tuple[int | None, bool]:
    """The stated concurrency, else the documented default for it (None for a bare profile)."""
    assumed = "concurrency" in p.assumed
    if p.concurrency is not None:
        return p.concurrency, assumed
    if p.users is None and p.serving_mode is None:
        return None, False
    from rules.defaults import default_for  # lazy: defaults reads these facts for its own proposals

    proposal = default_for("concurrency", p)
    return (proposal.value, True) if proposal else (None, False)


def _workload_facts(p: Profile) -> dict[str, Any]:
    ctx = p.context_length or ((p.input_tokens or 0) + (p.output_tokens or 0)) or None
    out: dict[str, Any] = {"context_length": ctx, "context_assumed": "context_length" in p.assumed}
    out["long_context"] = ctx >= LONG_CONTEXT if ctx else None
    out["very_long_context"] = ctx >= VERY_LONG_CONTEXT if ctx else None
    if p.input_tokens and p.output_tokens:
        out["heavy_prefill"] = p.input_tokens >= PREFILL_RATIO * p.output_tokens
    elif p.workload:
        out["heavy_prefill"] = p.workload in _PREFILL_WORKLOADS
    if p.input_tokens and p.output_tokens:
        out["heavy_decode"] = not out["heavy_prefill"]
    elif p.workload:
        out["heavy_decode"] = p.workload in _DECODE_WORKLOADS
    # Requests in flight measure load directly and win when the user stated them; an assumed
    # concurrency (a share of the head count) must not hide a stated 50+ audience.
    by_load = p.concurrency >= MANY_USERS_CONCURRENCY if p.concurrency is not None else None
    by_heads = p.users >= MANY_USERS_HEADCOUNT if p.users is not None else None
    stated_load = p.concurrency is not None and not (p.provenance.get("concurrency") and p.provenance["concurrency"].assumed)
    if stated_load or by_heads is None:
        out["many_users"] = by_load
    else:
        out["many_users"] = bool(by_heads or by_load)
    out["multi_lora"] = p.lora_adapters >= 2 if p.lora_adapters is not None else None
    return out


def _quantization(p: Profile) -> str | None:
    """The format the user meant: "Q4" alone is a 4-bit width, each engine's own format of it."""
    prov = p.provenance.get("quantization")
    return as_said(p.quantization, prov.evidence if prov else None)


def _serving_mode(p: Profile, notes: list[str]) -> str | None:
    """The serving tier the rules use: the stated people and load decide it over a mode word
    that only names the audience ("our team of 6" is the small-group tier)."""
    stated_load = p.concurrency if "concurrency" not in p.assumed else None
    mode, tier = reconcile(p.serving_mode, p.users, stated_load)
    if tier is not None:
        said = f" (said: {p.serving_mode})" if p.serving_mode else ""
        said_zh = f"（原本說的是 {p.serving_mode}）" if p.serving_mode else ""
        notes.append(display.Line(f"serving_mode = {mode}: {tier.en}{said}", f"serving_mode = {mode}：{tier.zh}{said_zh}"))
    return mode


def derive_facts(profile: Profile) -> tuple[dict[str, Any], list[str]]:
    """The facts dict for the rules and the assumption lines behind inferred facts (derived once per
    turn for a profile: the rule engine and the planner both ask; each caller gets its own copy)."""
    from rules import memo
    # by the object first (a turn's nodes share the state's Profile), then by value (a probe's copy)
    facts, notes = memo.once_per_object("derive_facts", profile, lambda: memo.once(
        ("derive_facts", profile.model_dump_json()), lambda: _derive_facts(profile)))
    return dict(facts), list(notes)


def _derive_facts(profile: Profile) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    p = profile
    f: dict[str, Any] = {k: getattr(p, k) for k in (
        "hardware", "model", "quantization", "workload", "input_tokens", "output_tokens", "concurrency",
        "users", "shared_prefix", "structured_output", "streaming", "lora_adapters", "kv_cache_dtype",
        "serving_mode", "priority", "language", "nodes", "os")}
    f["serving_mode"] = _serving_mode(p, notes)
    f["count"] = p.count or 1
    f["device_count"] = p.device_count
    f["multi_device"] = p.device_count > 1
    f["multi_node"] = p.nodes > 1
    f["quantization"] = _quantization(p)
    f["quant_family"] = quant_family(f["quantization"]) if f["quantization"] else None
    f["quantization_assumed"] = "quantization" in p.assumed
    f.update(_hardware_facts(p, notes))
    spec = _model_spec(p)
    f.update(_model_facts(p, spec))
    f.update(_workload_facts(p))
    f["load"], f["load_assumed"] = _load(p)
    f.update(_capacity_facts(f, p, spec))
    stated_load = p.concurrency if "concurrency" not in p.assumed else None
    f["audience"], f["audience_zh"] = display.audience(f["serving_mode"], p.users, stated_load, f["load"],
                                                       batch=p.workload == "batch" and "workload" not in p.assumed)
    # Facts holds plain values only (no nested models): its fields as validated are its dump
    return dict(Facts.model_validate(f).__dict__), notes


def fill(text: str, facts: dict[str, Any], lang: str = "en") -> str:
    """Replace `{fact}` placeholders in a rule's text with the fact's value, in `lang` (a zh-Hant
    text takes a fact's `<name>_zh` twin where there is one); unknown names stay as they are."""
    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in Facts.model_fields or facts.get(name) is None:
            return match.group(0)
        twin = f"{name}_zh"
        if lang == "zh" and facts.get(twin) is not None:
            return str(facts[twin])
        return display.number(facts[name])

    return _PLACEHOLDER.sub(value, text)
