"""When the setup as stated does not fit: the nearest setups that do, each planned in full.

"Does not fit, no engine" leaves the user where they started. An engineer answers with the changes
that make it work, cheapest first, each with the engine, layout and speed it would get: a smaller
format on the same devices, a device of the same family with more memory, or more of the same
devices (a second node when one holds no more). Every option is run through the same rules and
planner as the user's own setup, so its figures are the estimator's, never a guess.
"""
from __future__ import annotations

import re
from typing import Any

from agent.advice import Workable
from agent.tools import Tools, as_dict
from rules.errors import AdvisorError
from rules.fit import PERSONAL_STREAMS
from rules.profile import Profile
from rules.quant import bits_per_weight

GGUF_PLATFORMS = frozenset({"apple-silicon", "x86-cpu", "arm-cpu", "intel-gpu"})
"""Platforms whose engines quantize with GGUF formats (the estimator's ladder uses the same split)."""
GGUF_LADDER = ("q8_0", "q4_k_m")
DEVICES_PER_NODE = 8
"""Accelerators one server holds (HGX / OAM baseboards and 8-slot PCIe servers)."""
MAX_OPTIONS = 3


def _ladder(platform: str, fp8: bool, bits: float) -> list[str]:
    """Formats smaller than the current one that the platform's engines run, largest first."""
    steps = GGUF_LADDER if platform in GGUF_PLATFORMS else ("fp8", "int8", "awq")
    return [q for q in steps if bits_per_weight(q) < bits and (q != "fp8" or fp8)]


def _layout_of(count: int) -> dict[str, int]:
    """Devices split into nodes of at most DEVICES_PER_NODE."""
    if count <= DEVICES_PER_NODE:
        return {"count": count, "nodes": 1}
    return {"count": DEVICES_PER_NODE, "nodes": -(-count // DEVICES_PER_NODE)}


def _try(tools: Tools, profile: Profile, change: str, update: dict[str, Any],
         offload: bool = False) -> Workable | None:
    """The full plan of the profile with `update` applied; None unless it fits with room for a sequence
    (or, with `offload`, runs with part of the weights in system RAM, as the user's own plan does)."""
    candidate = profile.model_copy(update=update)
    try:
        decision = as_dict(tools.decide(candidate))
        found = tools.plan(candidate, decision)
    except AdvisorError:
        return None
    if not found:
        return None
    _, est, _ = found
    runs = est is not None and (est.fits or (offload and est.offload is not None))
    if not runs or est.max_concurrency < 1:
        return None
    return Workable(change=change, hardware=candidate.hardware, count=candidate.count or 1, nodes=candidate.nodes,
                    model=candidate.model,
                    quantization=est.quantization, engine=est.engine, parallelism=dict(est.parallelism),
                    decode_tokens_per_s=est.decode_tokens_per_s, aggregate_tokens_per_s=est.aggregate_tokens_per_s,
                    max_concurrency=est.max_concurrency, context_length=est.context_length,
                    weights_gb=est.weights_gb, ram_gb=est.offload.ram_gb if est.offload is not None else None)


def _larger_devices(hw: Any, need_gb: float) -> list[Any]:
    """Devices of the same vendor, platform and class with more memory that could hold `need_gb` of
    weights per device: the same generation and package first (H100 SXM -> H200 SXM, M4 -> M4 Pro),
    then by memory, smallest first."""
    from rules import catalog
    found = [h for h in catalog.all_hardware().values()
             if h.vendor == hw.vendor and h.platform == hw.platform and h.hw_class == hw.hw_class
             and not h.approximate and h.memory_gb > hw.memory_gb and h.memory_gb * 0.9 > need_gb]
    found = [h for h in found if _compute(h) >= 0.9 * _compute(hw)]   # more memory, not a slower chip
    return sorted(found, key=lambda h: (h.form_factor != hw.form_factor, _generation(h) != _generation(hw),
                                        h.memory_gb, not h.default_variant, h.id))


def _compute(hw: Any) -> float:
    """16-bit dense TFLOPS (0 when not published: such a device is compared on memory alone)."""
    return hw.tflops.bf16 or hw.tflops.fp16 or 0.0


def _generation(hw: Any) -> str:
    return (hw.arch or "").split()[0] if hw.arch else ""


_SIZE = re.compile(r"-(\d+(?:\.\d+)?)b(?=-|$)")


def _smaller_models(model_id: str | None) -> list[str]:
    """Catalog models of the same series and shape with fewer parameters, largest first
    (qwen2.5-72b -> qwen2.5-32b, qwen2.5-14b, ...; a MoE's '-a3b' suffix must match too)."""
    if not model_id:
        return []
    from rules import catalog
    parts = _SIZE.split(model_id, maxsplit=1)
    if len(parts) != 3:
        return []
    prefix, size, suffix = parts[0], float(parts[1]), parts[2]
    out = []
    for other in catalog.all_models():
        o = _SIZE.split(other, maxsplit=1)
        if len(o) == 3 and o[0] == prefix and o[2] == suffix and float(o[1]) < size:
            out.append((float(o[1]), other))
    return [m for _, m in sorted(out, reverse=True)]


def workable_options(tools: Tools, profile: Profile, est: Any) -> list[Workable]:
    """Up to MAX_OPTIONS changes that make a setup which does not fit work, cheapest first: software
    changes (a smaller format, a smaller model of the same series) before hardware ones (a device
    with more memory, more devices)."""
    if tools.plan is None or est is None or est.fits or profile.hardware is None:
        return []
    from rules import catalog
    hw = catalog.hardware(profile.hardware)
    devices = (profile.count or 1) * profile.nodes
    bits = bits_per_weight(est.quantization)
    # The user's plan already runs partly from system RAM (one or two streams): so may a smaller format.
    offload = est.offload is not None and est.concurrency <= PERSONAL_STREAMS
    ladder = [q for q in GGUF_LADDER if bits_per_weight(q) < bits] if offload else \
        _ladder(hw.platform, bool(hw.tflops.fp8), bits)
    found: list[Workable] = []
    tries: list[tuple[str, list[dict[str, Any]]]] = [
        ("quantize", [{"quantization": q} for q in ladder]),
        ("smaller_model", [{"model": m, "params_b": None, "active_params_b": None, "architecture": None}
                           for m in _smaller_models(profile.model)[:3]]),
        ("larger_device", [{"hardware": h.id, "memory_gb": None, "interconnect": None}
                           for h in _larger_devices(hw, est.weights_gb / devices)[:2]]),
    ]
    if not hw.unified_memory:   # two Macs or two mini PCs are not one server with more devices
        more = [devices * 2 ** k for k in range(1, 4) if devices * 2 ** k <= 64]
        smallest = ladder[-1:] if ladder else []
        tries.append(("more_devices", [{**_layout_of(n), "interconnect": None, **({"quantization": q} if q else {})}
                                       for n in more for q in [*smallest, None]]))
    for change, updates in tries:
        runs = [o for o in (_try(tools, profile, change, u, offload=offload and change == "quantize")
                            for u in updates) if o is not None] if change == "quantize" and offload else None
        if runs:   # from RAM: the first format that fits the GPU, else the smallest (the fastest from RAM)
            found.append(next((o for o in runs if o.ram_gb is None), runs[-1]))
            continue
        for update in updates:
            option = _try(tools, profile, change, update)
            if option:
                found.append(option)
                break
    return found[:MAX_OPTIONS]


_WORDS = {
    "en": {"head": "Workable instead (each planned in full):", "quantize": "quantize to {q} on the same {where}",
           "smaller_model": "{model} at {q} on the same {where}", "larger_device": "{where} at {q}",
           "more_devices": "{where} at {q}", "fits": "fits",
           "per_stream": "tok/s single-stream", "total": "tok/s in total", "holds": "holds {n:,} sequence{s} at {ctx:,} tokens", "ram": "{gb} GB of it in system RAM",
           "nodes": "{count} × {name} in each of {nodes} nodes"},
    "zh": {"head": "可行的替代方案（每個都完整規劃過）：", "quantize": "在同樣的 {where} 上量化成 {q}",
           "smaller_model": "在同樣的 {where} 上改用 {model}（{q}）", "larger_device": "{where}，{q}",
           "more_devices": "{where}，{q}", "fits": "放得下",
           "per_stream": "tok/s（每條串流）", "total": "tok/s（合計）", "holds": "{ctx:,} tokens 下可容納 {n:,} 個序列", "ram": "其中 {gb} GB 放在系統記憶體",
           "nodes": "{nodes} 台機器、每台 {count} × {name}"},
}


def _where(option: Workable, lang: str) -> str:
    from agent.names import hardware_name
    name = hardware_name(option.hardware, lang)
    if option.nodes > 1:
        return _WORDS[lang]["nodes"].format(count=option.count, name=name, nodes=option.nodes)
    return f"{option.count} × {name}" if option.count > 1 else name


def _model_name(model_id: str | None) -> str:
    if not model_id:
        return ""
    from rules import catalog
    try:
        return catalog.model(model_id).name
    except AdvisorError:   # an id the catalog lost since: show the id
        return model_id


def option_line(option: Workable, lang: str) -> str:
    """One option in one line: the change, engine and layout, fit and speed."""
    from agent.names import display
    from agent.compose import fmt
    w = _WORDS["zh" if lang == "zh" else "en"]
    q = option.quantization.upper()
    where = _where(option, lang)
    what = w[option.change].format(q=q, where=where, model=_model_name(option.model))
    degrees = ", ".join(f"{k.upper()}={option.parallelism[k]}" for k in ("tp", "pp", "ep", "dp")
                        if isinstance(option.parallelism.get(k), int) and option.parallelism[k] > 1)
    engine = display(option.engine) + (f" {degrees}" if degrees else "") if option.engine else degrees
    bits = [w["fits"] if option.ram_gb is None else w["ram"].format(gb=fmt(option.ram_gb))]
    if option.decode_tokens_per_s:
        bits.append(f"~{fmt(option.decode_tokens_per_s)} {w['per_stream']}")
    if option.aggregate_tokens_per_s and option.aggregate_tokens_per_s > (option.decode_tokens_per_s or 0) * 1.05:
        bits.append(f"{fmt(option.aggregate_tokens_per_s)} {w['total']}")
    bits.append(w["holds"].format(n=option.max_concurrency, ctx=option.context_length,
                                  s="" if option.max_concurrency == 1 else "s"))
    sep = "；" if lang == "zh" else "; "
    return f"{what}: {engine} — {sep.join(bits)}" if lang != "zh" else f"{what}：{engine} — {sep.join(bits)}"


def lines(options: list[Workable], lang: str, limit: str) -> list[str]:
    """What does not fit, then the options as a short list under it (the limit alone when there are none)."""
    if not options:
        return [f"- {limit}"]
    w = _WORDS["zh" if lang == "zh" else "en"]
    end = "" if limit.endswith((".", "。")) else ("。" if lang == "zh" else ".")
    return [f"- {limit}{end} {w['head']}", *[f"  - {option_line(o, lang)}" for o in options]]
