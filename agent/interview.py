"""The interview policy: which missing fields matter for this profile, and how to ask for them.

Pure functions of the profile (and, for the last filter, of the pure rule engine): the graph's
interview node only calls them and pauses; no model ever decides what to ask.
"""
from __future__ import annotations

from typing import Any, Callable

MAX_ROUNDS = 3
FIELDS_PER_ROUND = 3

# Values tried for a field to see whether the rules care about it for this profile.
PROBES: dict[str, tuple[Any, ...]] = {
    "interconnect": ("nvlink", "pcie"),
    "serving_mode": ("personal", "team", "production"),
    "concurrency": (1, 16, 128),
    "workload": ("chat", "rag", "agent", "batch"),
    "context_length": (8192, 131072),
    "quantization": ("bf16", "fp8", "awq", "q4_k_m", "exl3-4.0"),
    "shared_prefix": (True, False),
    "priority": ("latency", "throughput", "cost"),
}
SHARED = ("team", "production", "fleet")
LONG_CONTEXT_WORKLOADS = ("rag", "agent", "coding", "summarization")
REFINES_SETUP = ("interconnect", "quantization", "context_length")
"""Fields whose effect (fit, kernels, parallelism) depends on both the device and the model: asked
only once both are known (the device's memory is enough), so a vague opening asks hardware, model
and serving mode first."""


_SHIPS_QUANTIZED = ("mxfp4", "nvfp4", "int4", "fp8")
"""Native formats of models released in one quantized format (gpt-oss ships MXFP4 only; DeepSeek-V3/R1,
Kimi K2 and MiniMax M2 ship FP8 weights only): the default is that format, so there is nothing to ask."""


def link_question(profile: Any) -> str | None:
    """Which interconnect question the catalog leaves open (a PHRASES key), or None.

    One device, or a part whose link is fixed (SXM/OAM boards, NVL pairs, superchips, Apple) within a
    node, leaves nothing to ask there; a PCIe card without any bridge talks over PCIe. What stays open:
    whether bridge-capable PCIe cards are bridged, and how several machines are connected.
    """
    p = profile
    if p.interconnect is not None or p.hardware is None or p.device_count <= 1:
        return None
    from rules import catalog
    from rules.errors import AdvisorError
    try:
        hw = catalog.hardware(p.hardware)
    except AdvisorError:
        return "interconnect"
    several_machines = p.nodes > 1
    if hw.interconnect != "pcie" or hw.scaleup_gbs is None:
        return "interconnect_nodes" if several_machines else None
    return "interconnect" if several_machines else "interconnect_bridge"


def _runs_as_released(spec: Any, hw: Any, devices: int) -> bool:
    """FP8 weights run as released: the device computes FP8 and all devices together hold the weights
    (otherwise the user has a format to choose: a smaller one, or one their engine offloads)."""
    from rules.quant import bits_per_weight
    return hw.tflops.fp8 is not None and spec.params_b * bits_per_weight("fp8") / 8 < hw.memory_gb * devices


def ships_one_format(profile: Any) -> bool:
    """True when the catalog model is released in a single quantized format (nothing to choose)."""
    if profile.model is None:
        return False
    from rules import catalog
    from rules.errors import AdvisorError
    try:
        spec = catalog.model(profile.model)
        if spec.native_dtype == "fp8":   # as released only where the devices compute FP8 and hold the weights
            return profile.hardware is not None and _runs_as_released(spec, catalog.hardware(profile.hardware),
                                                                      profile.device_count)
        return spec.native_dtype in _SHIPS_QUANTIZED
    except AdvisorError:
        return False


def questions_needed(profile: Any, intent: str, asked: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Missing fields that matter for this profile and intent, most important first.

    Only what the catalog cannot answer is asked (see `link_question`, `ships_one_format`); when the
    user's concern is latency, the load (concurrency) is asked before who uses it.
    """
    if intent == "explain":
        return []
    p = profile
    if intent == "size":   # sizing chooses the hardware: it needs the model and the load only
        wants = [("model", p.model is None and p.params_b is None),
                 ("concurrency", p.concurrency is None and p.users is None)]
        return [f for f, missing in wants if missing and f not in asked]
    mode, shared = p.serving_mode, p.serving_mode in SHARED
    known_load = p.concurrency is not None or p.users is not None
    known_setup = (p.hardware is not None or p.memory_gb is not None) \
        and (p.model is not None or p.params_b is not None)
    wants: list[tuple[str, bool]] = [
        ("hardware", p.hardware is None),
        ("model", p.model is None and p.params_b is None),
        ("concurrency", p.concurrency is None and p.priority == "latency"),
        ("serving_mode", intent in ("recommend", "benchmark") and mode is None and not known_load),
        ("interconnect", link_question(p) is not None),
        ("quantization", intent == "estimate" and p.quantization is None and not ships_one_format(p)),
        ("concurrency", p.concurrency is None and (shared or intent == "benchmark")),
        ("workload", p.workload is None and intent != "estimate" and mode not in ("personal", "demo")),
        ("context_length", p.context_length is None and p.input_tokens is None
         and p.workload in LONG_CONTEXT_WORKLOADS),
        ("quantization", p.quantization is None and intent in ("recommend", "benchmark") and not ships_one_format(p)),
        ("shared_prefix", p.shared_prefix is None and p.workload in ("rag", "agent") and shared),
        ("priority", p.priority is None and mode in ("production", "fleet") and intent == "recommend"),
    ]
    return list(dict.fromkeys(f for f, missing in wants if missing and f not in asked
                              and (known_setup or f not in REFINES_SETUP)))


def _signature(decision: Any) -> tuple:
    """What a user would notice changing: engines, avoid list, bottleneck, parallelism."""
    d = decision if isinstance(decision, dict) else decision.model_dump(mode="json")
    avoid = frozenset(a.get("engine") for a in d.get("avoid") or [])
    strategy = (d.get("parallelism") or {}).get("strategy")
    return d.get("primary"), tuple(d.get("alternatives") or ())[:2], avoid, d.get("bottleneck"), strategy


def changes_decision(field: str, profile: Any, decide: Callable[[Any], Any],
                     outcome: Callable[[Any], tuple] | None = None) -> bool:
    """True when trying the field's probe values changes the decision (unknown → True). `outcome`,
    when given, is the rule engine's brief run (`rules.decide.decide_outcome`): the same signature
    as `_signature(decide(p))` without building the texts and the trace of each probe."""
    probes = PROBES.get(field)
    if not probes or profile.hardware is None or (profile.model is None and profile.params_b is None):
        return True
    sign = outcome or (lambda p: _signature(decide(p)))
    seen = set()
    for value in probes:
        try:
            seen.add(sign(profile.with_value(field, value, assumed=True)))
        except Exception:  # an impossible probe (e.g. context > model max) says nothing
            continue
        if len(seen) > 1:
            return True
    return not seen


def next_round(profile: Any, intent: str, asked: list[str], rounds: int,
               decide: Callable[[Any], Any] | None = None, outcome: Callable[[Any], tuple] | None = None) -> list[str]:
    """Up to three fields to ask now, or [] when the interview is over."""
    if rounds >= MAX_ROUNDS:
        return []
    needed = questions_needed(profile, intent, asked)
    if decide is not None and intent in ("recommend", "benchmark"):
        # A latency problem is diagnosed from the load: its concurrency is asked even when the engine
        # would not change, because the estimate and the bottleneck the answer explains depend on it.
        keep = {"concurrency"} if getattr(profile, "priority", None) == "latency" else set()
        chosen: list[str] = []
        for f in needed:   # probing stops once the round is full (each probe runs the rule engine)
            if f in keep or changes_decision(f, profile, decide, outcome):
                chosen.append(f)
                if len(chosen) == FIELDS_PER_ROUND:
                    break
        return chosen
    return needed[:FIELDS_PER_ROUND]


PHRASES: dict[str, dict[str, str]] = {
    "hardware": {"en": "what hardware it will run on (GPU model and how many, or a Mac / CPU server)",
                 "zh": "要跑在什麼硬體上（GPU 型號與張數，或 Mac、CPU 伺服器）"},
    "model": {"en": "which model (and size) you plan to serve",
              "zh": "打算跑哪個模型、多大"},
    "serving_mode": {"en": "who will use it: just you, a demo, an internal team, or an external production service",
                     "zh": "給誰用：自己、展示用、內部團隊，還是對外正式服務"},
    "interconnect": {"en": "how the GPUs are connected (NVLink bridge or PCIe only inside a machine; InfiniBand or Ethernet between machines)",
                     "zh": "GPU 之間怎麼互連（機器內有 NVLink 橋或只有 PCIe；機器之間用 InfiniBand 或乙太網路）"},
    "interconnect_bridge": {"en": "whether the cards are joined by an NVLink bridge or talk over PCIe only",
                            "zh": "卡之間有沒有接 NVLink 橋，還是只走 PCIe"},
    "interconnect_nodes": {"en": "how the machines are connected to each other (InfiniBand, or RoCE/Ethernet)",
                           "zh": "機器之間怎麼連（InfiniBand，或 RoCE／乙太網路）"},
    "quantization": {"en": "which precision or quantization (BF16, FP8, Q4_K_M, AWQ, ...)",
                     "zh": "用什麼精度或量化（BF16、FP8、Q4_K_M、AWQ 等）"},
    "concurrency": {"en": "how many requests run at the same time at peak",
                    "zh": "尖峰時同時有多少個請求"},
    "workload": {"en": "what the workload is (chat, RAG, summarization, agents, coding or batch jobs)",
                 "zh": "主要工作負載是什麼（聊天、RAG、摘要、agent、寫程式或批次）"},
    "context_length": {"en": "how long the context gets (e.g. 8K, 32K or 128K tokens)",
                       "zh": "context 最長到多少（例如 8K、32K、128K tokens）"},
    "shared_prefix": {"en": "whether requests share a long common prefix (system prompt, same documents)",
                      "zh": "請求之間是否共用很長的前綴（system prompt、相同文件）"},
    "priority": {"en": "what matters most: latency, throughput, cost, privacy, portability or development speed",
                 "zh": "最重視什麼：延遲、吞吐量、成本、隱私、可攜性還是開發速度"},
}


MAX_OPTIONS = 4


def device_options(unknown: list[dict]) -> list[str]:
    """Names of the catalog devices closest to the words we did not know (quick replies)."""
    from rules import catalog
    ids = list(dict.fromkeys(i for u in unknown for i in u.get("suggestions") or []))[:MAX_OPTIONS]
    return [catalog.hardware(i).name.split(" (")[0] for i in ids]


def _unknown_note(unknown: list[dict], lang: str) -> str:
    words = "、".join(f"「{u['text']}」" for u in unknown) if lang == "zh" else \
        ", ".join(f"\u201c{u['text']}\u201d" for u in unknown)
    options = device_options(unknown)
    if lang == "zh":
        near = f"最接近的是：{'、'.join(options)}。" if options else ""
        return f"我不認得{words}這個裝置。{near}"
    near = f" The closest I know: {', '.join(options)}." if options else ""
    return f"I did not recognise {words} as a device I know.{near} "


_BRIDGES = {"amd-rocm": "Infinity Fabric (XGMI)"}
"""The bridge a PCIe card's vendor sells under another name than NVIDIA's NVLink."""


def _bridge_named(text: str, profile: Any) -> str:
    """The bridge question names the bridge of the card's own vendor (no NVLink for an AMD card)."""
    from rules import catalog
    from rules.errors import AdvisorError
    try:
        bridge = _BRIDGES.get(catalog.hardware(profile.hardware).platform)
    except (AdvisorError, AttributeError):
        bridge = None
    return text.replace("NVLink", bridge) if bridge else text


def phrase(fields: list[str], language: str, unknown: list[dict] | None = None, profile: Any = None) -> str:
    """One concise question covering `fields`, in English or Traditional Chinese; device words we did
    not recognise are quoted first, with the closest catalog devices. With the profile, the
    interconnect question offers only the links this hardware can have."""
    lang = "zh" if language == "zh" else "en"
    keys = [(link_question(profile) or f) if f == "interconnect" and profile is not None else f for f in fields]
    parts = [_bridge_named(PHRASES[k][lang], profile) if k == "interconnect_bridge" else PHRASES[k][lang]
             for k in keys]
    note = _unknown_note(unknown, lang) if unknown and "hardware" in fields else ""
    if lang == "zh":
        return note + "請問" + "；".join(parts) + "？"
    if len(parts) == 1:
        body = parts[0]
    else:
        body = "; ".join(parts[:-1]) + "; and " + parts[-1]
    return f"{note}To choose well I need to know {body}?"
