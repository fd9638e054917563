"""Documented defaults for what the user does not know, each with the reason shown as an assumption.

`default_for(field, profile)` proposes one value (or None when no honest default exists: the
hardware and the model must come from the user); `apply_defaults(profile, fields)` fills the
missing ones in dependency order and marks them `assumed` with the reason as the note.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from pydantic import BaseModel, ConfigDict

from rules import catalog, fit
from rules.facts import derive_facts
from rules.profile import Profile
from rules.quant import bits_per_weight
from rules.serving import busy_hour_load, peak_note, tier_from_counts
from rules.display import MODE_ZH

CONTEXT_BY_WORKLOAD = {"chat": 8192, "batch": 8192, "rag": 16384, "summarization": 32768,
                       "agent": 32768, "coding": 32768}
"""Chat turns stay within common 8K defaults; RAG prompts hold a handful of retrieved passages plus
the question (16K); summaries, agents and coding carry whole documents, tool output or repository
files, so 32K (the long-context threshold) is the honest starting point."""
LENGTHS_BY_WORKLOAD = {"chat": (1024, 512), "batch": (2048, 512), "rag": (6000, 300),
                       "summarization": (8000, 500), "agent": (16000, 800), "coding": (8000, 600)}
"""(prompt, answer) tokens: chat answers are as long as the question; RAG and summaries read far
more than they write (the article's long-prompt, short-answer shape); agents carry history."""
REASONING_MODELS = ("deepseek-r1", "qwq", "gpt-oss", "phi-4-reasoning", "kimi-k2-thinking")
"""Catalog ids (prefixes) of models that write a reasoning trace before every answer."""
REASONING_LENGTHS = (2000, 8000)
"""(prompt, answer) tokens for a reasoning model: the trace is part of the answer and commonly runs to
thousands of tokens."""
REASONING_CONTEXT = 32768
"""DeepSeek-R1's model card sets the maximum generation length to 32,768 tokens for its evaluations
(https://huggingface.co/deepseek-ai/DeepSeek-R1#1-evaluation-results); QwQ-32B's card serves 32K
without YaRN (https://huggingface.co/Qwen/QwQ-32B). A shorter window cuts traces off mid-thought."""
CONTEXT_STEPS = (4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576)
"""Windows a launch flag is rounded up to, so a 14,000-token prompt gets a 16K window, not 14,256."""
CONCURRENCY_BY_MODE = {"personal": 1, "demo": 5, "team": 32, "production": 128, "fleet": 512}
"""Requests in flight at the busy hour: one person; the article's 5-10 demo users; a 50-500
person team of whom a few dozen are active at once; external traffic in the hundreds."""
WEIGHT_SHARE = 0.75
"""A default quantization must leave a quarter of usable memory for the KV cache and batching."""
PRIORITY_BY_MODE = {"personal": "privacy", "demo": "dev-speed", "team": "throughput",
                    "production": "throughput", "fleet": "cost"}
"""What each serving mode usually optimises: a local setup keeps data private, a demo wants quick
iteration, shared services want throughput, fleets want cost per token."""
_BANDWIDTH_BOUND = ("edge", "cpu")
"""CPUs and edge boards: tens of GB/s of memory bandwidth, so decode speed is set by the weights' size."""
_LOCAL_CLASSES = {"consumer", "workstation", "apple", "edge", "cpu"}


def is_reasoning(model_id: str | None) -> bool:
    """A model that thinks before it answers (its answers, trace included, run to thousands of tokens)."""
    return bool(model_id) and any(model_id.startswith(r) for r in REASONING_MODELS)


def window_for(tokens: int, cap: int | None) -> int:
    """A launch window holding `tokens`: the next common size, within the model's maximum."""
    step = next((c for c in CONTEXT_STEPS if c >= tokens), tokens)
    return min(step, cap) if cap else step


def serving_lengths(workload: str | None, model_id: str | None, input_tokens: int | None,
                    output_tokens: int | None, context_length: int | None, cap: int | None) -> tuple[int, int, int]:
    """(prompt, answer, window) tokens a plan is estimated at and launched with: the stated numbers,
    else the workload's typical ones (a reasoning model's long answers), in a window that holds them."""
    wl = workload if workload in LENGTHS_BY_WORKLOAD else "chat"
    reasoning = is_reasoning(model_id)
    typical_in, typical_out = REASONING_LENGTHS if reasoning and wl == "chat" else LENGTHS_BY_WORKLOAD[wl]
    if reasoning:
        typical_out = max(typical_out, REASONING_LENGTHS[1])
    out = output_tokens or typical_out
    inp = input_tokens or typical_in
    if context_length:
        out = min(out, max(1, context_length // 2)) if not output_tokens else out
        inp = min(inp, max(0, context_length - out)) if not input_tokens else inp
        return inp, out, max(context_length, inp + out)
    typical_ctx = max(CONTEXT_BY_WORKLOAD.get(wl, 8192), REASONING_CONTEXT if reasoning else 0)
    if cap:
        out = min(out, max(1, cap // 2)) if not output_tokens else out
        inp = min(inp, max(0, cap - out)) if not input_tokens else inp
    need = inp + out
    if input_tokens:
        # the user's own prompt length sets the window (to the next 1K): a typical or next-power window
        # would judge the fit at a context nobody asked for (20.5K said, 32K judged)
        window = -(-need // 1024) * 1024
        return inp, out, min(window, cap) if cap and cap >= need else max(window, need)
    window = max(window_for(need, cap), min(typical_ctx, cap) if cap else typical_ctx)
    return inp, out, max(window, need)


class Default(BaseModel):
    """A proposed value for a field the user did not give, and why."""

    model_config = ConfigDict(extra="forbid")
    field: str
    value: Any
    note: str
    note_zh: str = ""
    """The same reason in zh-Hant."""


def _hw(p: Profile):
    return catalog.hardware(p.hardware) if p.hardware else None


def _workload(p: Profile) -> Default:
    return Default(field="workload", value="chat", note="assumed chat, the most common shape (short prompt, longer answer)",
                   note_zh="假設是最常見的聊天形態（短 prompt、較長回答）")


def _serving_mode(p: Profile) -> Default:
    if p.nodes > 1:
        return Default(field="serving_mode", value="production", note="several nodes point to a production service",
                       note_zh="多個節點代表是 production 服務")
    tier = tier_from_counts(p.users, p.concurrency)
    if tier is not None:
        return Default(field="serving_mode", value=tier.mode, note=tier.en, note_zh=tier.zh)
    service = _service_signal(p)
    if service is not None:
        return Default(field="serving_mode", value="team", note=service[0], note_zh=service[1])
    hw = _hw(p)
    if hw is not None and hw.hw_class == "datacenter":
        return Default(field="serving_mode", value="team", note="datacenter GPUs with no user count: assumed a shared internal service",
                       note_zh="資料中心 GPU、沒有使用人數：假設是共用的內部服務")
    return Default(field="serving_mode", value="personal", note="no user count on local hardware: assumed one person",
                   note_zh="本地硬體、沒有使用人數：假設一個人使用")


def _service_signal(p: Profile) -> tuple[str, str] | None:
    """(en, zh) reason when, with no user count, what the user said is still a shared service: several
    LoRA adapters served side by side (one per customer or task), or a pipeline run for throughput."""
    if (p.lora_adapters or 0) >= 2:
        return (f"{p.lora_adapters} LoRA adapters served from one base model is a multi-tenant service, not one person",
                f"同一個基礎模型上服務 {p.lora_adapters} 個 LoRA adapter，是多租戶的共用服務，不是一個人使用")
    said = {f for f in ("priority", "workload") if f in p.provenance and f not in p.assumed}
    if ("priority" in said and p.priority == "throughput") or ("workload" in said and p.workload == "batch"):
        return ("a pipeline run for throughput keeps many requests in flight, like a shared service",
                "追求吞吐量的批次管線同時有大量請求在跑，和共用服務一樣")
    return None


def _concurrency(p: Profile) -> Default:
    if p.users:
        value = busy_hour_load(p.users)
        return Default(field="concurrency", value=value, note=peak_note(p.users, value, "en"),
                       note_zh=peak_note(p.users, value, "zh"))
    mode = p.serving_mode or _serving_mode(p).value
    return Default(field="concurrency", value=CONCURRENCY_BY_MODE[mode], note=f"typical requests in flight for a {mode} setup",
                   note_zh=f"{MODE_ZH[mode]}常見的同時請求數")


def _max_context(p: Profile) -> int | None:
    return catalog.model(p.model).max_context if p.model else None


def _context_length(p: Profile) -> Default:
    workload = p.workload or "chat"
    value = CONTEXT_BY_WORKLOAD[workload]
    cap = _max_context(p)
    if p.input_tokens:   # the stated request sets the window, not the workload's typical one
        need = p.input_tokens + (p.output_tokens or LENGTHS_BY_WORKLOAD[workload][1])
        value = -(-need // 1024) * 1024
    if cap:
        value = min(value, cap)
    return Default(field="context_length", value=value, note=f"a typical window for {workload}",
                   note_zh=f"{workload} 常見的 context 長度")


def _lengths(p: Profile, index: int, field: str) -> Default:
    workload = p.workload or "chat"
    value = LENGTHS_BY_WORKLOAD[workload][index]
    if index == 0 and p.context_length:  # the prompt must leave room for the answer
        value = max(1, min(value, p.context_length - (p.output_tokens or 0)))
    kind = "prompt" if index == 0 else "answer"
    return Default(field=field, value=value, note=f"a typical {kind} length for {workload}",
                   note_zh=f"{workload} 常見的{'prompt' if index == 0 else '回答'}長度")


def _interconnect(p: Profile) -> Default | None:
    hw = _hw(p)
    if hw is None:
        return None
    if p.device_count == 1:
        value = "unified" if hw.hw_class == "apple" else "none"
        return Default(field="interconnect", value=value, note="one device: nothing to connect",
                       note_zh="只有一個裝置，不需要互連")
    return Default(field="interconnect", value=hw.interconnect, note=f"the usual link between {hw.name} devices",
                   note_zh=f"{hw.name.split(' (')[0]} 之間常見的連結方式")


_PLUGIN_PLATFORMS = ("intel-gaudi", "google-tpu", "aws-neuron", "huawei-ascend")
"""Accelerators reached through vendor plugins: BF16 is the format every plugin runs; GGUF runs on none."""
_SERVER_CLASSES = ("datacenter",)
"""Server GPUs keep published checkpoints (16-bit or FP8); local hardware quantizes to 8 or 4 bits."""


def _platform_rungs(hw) -> list[str]:
    """The formats a deployment on this hardware steps down through, highest precision first.

    Bare widths (int8, int4) mean each engine's own format (Q8_0/Q4_K_M on llama.cpp, EXL2 on
    ExLlama, MLX 4-bit on a Mac, AWQ on vLLM), so an assumed default never rules an engine out for
    lacking a file format. Server GPUs step 16-bit -> FP8 (Hopper, Ada, Blackwell, MI300) or INT8 ->
    4-bit (AWQ/GPTQ/INT4 checkpoints, e.g. Meta's int4 Llama 4 Scout on one H100); Volta and Turing
    have no BF16 and run FP16 (vLLM: --dtype half); Macs default to MLX 4-bit. Plugin accelerators
    start from BF16, the format every plugin runs, and step down only where the catalog gives one of
    their engines a kernel (`quant_ladder` drops the rest)."""
    if hw.platform in _PLUGIN_PLATFORMS:
        return ["bf16", "fp8", "int8", "int4"]
    if hw.platform == "apple-silicon":
        return ["int4"]
    cc = float(hw.cuda_cc) if hw.cuda_cc else None
    if hw.hw_class in _SERVER_CLASSES and hw.platform in ("nvidia-cuda", "amd-rocm") and (cc is None or cc >= 7.0):
        sixteen = "f16" if cc is not None and cc < 8.0 else "bf16"
        return [sixteen, "fp8" if hw.tflops.fp8 else "int8", "int4"]
    return ["int8", "int4"]


def quant_ladder(hw, native: str | None) -> list[str]:
    """Start from the model's native format, then step down through the platform's own formats.

    Only formats an engine that runs here has an optimized kernel for are kept (the native format
    needs only some kernel): an assumed format filters engines exactly as a stated one does, so a
    default no engine here runs well (BF16 on a GPU only llama.cpp supports, which loads BF16
    unoptimized) would leave the user with no engine. A model its makers ship quantized (DeepSeek V3 in FP8, gpt-oss in MXFP4)
    keeps that format on server GPUs: re-quantizing it is a departure from the published model, so a
    server that cannot hold it is told so; local hardware steps further down to its own formats, as
    people running those models at home do."""
    rungs = _platform_rungs(hw)
    if native is not None and bits_per_weight(native) < 16:
        if hw.hw_class in _SERVER_CLASSES and hw.platform in ("nvidia-cuda", "amd-rocm") and _runs_here(native, hw):
            return [native]   # (a GPU with no kernel for it at all, FP8 on an MI250, steps down like local hardware)   # re-quantizing a published FP8/MXFP4 model departs from it: a server is told so
        top = bits_per_weight(native)
        rungs = [native] + [q for q in rungs if bits_per_weight(q) < top]
    kept = [q for q in rungs if _runs_here(q, hw, kernel="optimized" if q != native else None)]
    return kept or [q for q in rungs if _runs_here(q, hw)] or rungs[:1]


def _runs_here(quant: str, hw, serving: bool = False, kernel: str | None = None, os_id: str | None = None) -> bool:
    """Some engine that runs on this hardware has a kernel for the format (FP8 runs on no Mac engine);
    with `serving`, a production-stance serving engine with an optimized kernel (vLLM's 4-bit AWQ on ROCm
    is an unoptimized Triton kernel); with `kernel`, a kernel of that grade ('optimized') or better."""
    from rules import engines
    from rules.ids import ENGINES
    grades = {"optimized": ("optimized",), "supported": ("optimized", "supported"), None: ("optimized", "supported")}
    for engine in ENGINES:
        spec = engines.engine(engine)
        if spec.kind == "orchestrator" or not engines.verdict(engine, hw).ok or engines.os_gate(engine, os_id):
            continue
        if serving and spec.production.stance != "production":
            continue
        found = engines.device_kernel(engine, quant, hw)
        if found in grades[kernel] and (not serving or found == "optimized"):
            return True
    return False


def _tries(p: Profile, ladder: list[str]) -> list[tuple[str, int]]:
    """(format, devices it must fit) in the order to try. For a service (more than one request at a
    time) without an NVLink-class link between the devices, a format that keeps the model on one
    device (replicas, no per-layer PCIe traffic) comes before a higher precision that must be split
    over PCIe (the article's pitfall 2). One person keeps the higher precision across the cards."""
    everything = [(q, p.device_count) for q in ladder]
    if p.device_count <= 1:
        return everything
    facts, _ = derive_facts(p)
    if facts.get("fast_interconnect") or facts.get("serving_mode") in (None, "personal") or (facts.get("load") or 1) <= 1:
        return everything
    hw = _hw(p)
    # On server GPUs a one-card format only helps if their serving engines run it there.
    served = hw is not None and (hw.hw_class in _SERVER_CLASSES
                                 or facts.get("serving_mode") in ("team", "production", "fleet"))
    one_card = [(q, 1) for q in ladder if not served or _runs_here(q, hw, serving=True)]
    return one_card + everything


def _served_ladder(p: Profile, hw, ladder: list[str]) -> list[str]:
    """A team or service on consumer GPUs needs a format its serving engines run: when none of the local
    rungs is one (8-bit on a Radeon RX 7900 is FP8 for vLLM, which RDNA3 lacks), the 16-bit weights come
    first."""
    facts, _ = derive_facts(p)
    if facts.get("serving_mode") not in ("team", "production", "fleet") or hw.hw_class in _SERVER_CLASSES:
        return ladder
    if any(_runs_here(q, hw, serving=True) for q in ladder):
        return ladder
    sixteen = next((q for q in ("bf16", "f16") if _runs_here(q, hw, serving=True)), None)
    return [sixteen, *ladder] if sixteen else ladder


_STEP_NOTE = ("you named {q}, but no engine that runs on {hw}{os} has a kernel for it: this is the same weights in "
              "{step} (each engine's own build of that width: GGUF for llama.cpp and Ollama, AWQ/GPTQ for vLLM); "
              "download or re-quantize that build")
_STEP_NOTE_ZH = ("你指定了 {q}，但能在 {hw}{os} 上跑的引擎都沒有它的 kernel：這裡改用同一份權重的 {step} 版本"
                 "（各引擎自己的格式：llama.cpp 與 Ollama 用 GGUF，vLLM 用 AWQ/GPTQ）；請下載或重新量化成那個版本")


def runnable_quantization(p: Profile) -> Profile:
    """A format no engine that runs on this hardware reads (NVFP4 on an Ada L40S, GPTQ on MI50s that only
    llama.cpp supports, FP8 on a CDNA2 MI210) never leaves the user with no engine: the same weights in
    the closest format that does run here take its place, marked assumed with the reason. Narrower
    widths come first (the user chose a small format), then wider ones that still fit; server GPUs
    first look for a format their serving engines run well (on an MI210 vLLM's FP8 and INT8 need FP8
    units, so an 8B model goes to BF16). A format some engine here reads, however slowly, is kept."""
    hw, quant, os_id = _hw(p), p.quantization, p.os
    if hw is None or not quant or _runs_here(quant, hw, os_id=os_id):
        return p
    top = bits_per_weight(quant)
    rungs = list(dict.fromkeys(_platform_rungs(hw) + ["int8", "int4"]))
    below = sorted((q for q in rungs if bits_per_weight(q) <= top), key=bits_per_weight, reverse=True)
    above = sorted((q for q in rungs if bits_per_weight(q) > top and _fits_devices(p, q)), key=bits_per_weight)
    order = below + above
    passes = ([dict(serving=True)] if hw.hw_class in _SERVER_CLASSES else []) + [dict(kernel="optimized"), {}]
    step = next((q for kw in passes for q in order if _runs_here(q, hw, os_id=os_id, **kw)), None)
    if step is None:
        return p
    where = {"windows": " under Windows", "macos": " under macOS"}.get(os_id or "", "")
    return p.with_value("quantization", step, assumed=True,
                        note=_STEP_NOTE.format(q=quant, hw=hw.name, os=where, step=step),
                        note_zh=_STEP_NOTE_ZH.format(q=quant, hw=hw.name, os=where.replace(" under ", "（") + ("）" if where else ""), step=step))


def _fits_devices(p: Profile, quant: str) -> bool:
    """The weights at `quant` leave a quarter of the devices' memory for the KV cache."""
    facts, _ = derive_facts(p.model_copy(update={"quantization": quant}))
    room = (facts["usable_memory_gb"] or 0) * p.device_count * WEIGHT_SHARE
    return facts["weights_gb"] is not None and facts["weights_gb"] <= room


def _latency_bound(p: Profile, hw) -> bool:
    """One person waiting on a bandwidth-bound CPU or board (a latency priority there; on an edge board, any
    personal use: the Raspberry Pi's 17 GB/s makes 8-bit half the speed of the 4-bit GGUF people run)."""
    if hw.hw_class not in _BANDWIDTH_BOUND:
        return False
    personal = (p.serving_mode or _serving_mode(p).value) == "personal" and (p.concurrency or 1) <= 1
    return p.priority == "latency" or (hw.hw_class == "edge" and personal)


def _native(p: Profile) -> str | None:
    spec = catalog.spec_for_profile(p)
    return spec.native_dtype if spec is not None else None


def _quantization(p: Profile) -> Default | None:
    hw = _hw(p)
    if hw is None:
        return None
    native = _native(p)
    ladder = _served_ladder(p, hw, quant_ladder(hw, native))
    if _latency_bound(p, hw):
        # one user waiting on a bandwidth-bound CPU/board: every token streams all weights, so 4-bit
        # (Q4_0/Q4_K_M) decodes about twice as fast as 8-bit
        ladder = [q for q in ladder if bits_per_weight(q) <= 4.5] or ladder
    if not (p.model or p.params_b or p.hf_config):
        value = ladder[0] if hw.hw_class in _SERVER_CLASSES else ladder[-1]
        return Default(field="quantization", value=value, note="model unknown: the usual format for this hardware",
                       note_zh="模型未知：這個硬體常用的格式")
    if not _runs_here(ladder[0], hw):   # no engine here reads any format of this model: say so
        en, zh = _no_headroom_note(p, ladder[0], native)
        return Default(field="quantization", value=ladder[0], note=en, note_zh=zh)
    for quant, devices in _tries(p, ladder):
        facts, _ = derive_facts(p.model_copy(update={"quantization": quant}))
        room = (facts["usable_memory_gb"] or 0) * devices * WEIGHT_SHARE
        if facts["weights_gb"] is not None and facts["weights_gb"] <= room:
            native_fmt = quant == native
            why = ("the model's native format" if native_fmt else
                   "the highest precision whose weights leave a quarter of memory for the KV cache")
            why_zh = "模型原生的格式" if native_fmt else "權重還能留下四分之一記憶體給 KV cache 的最高精度"
            if native and not native_fmt and bits_per_weight(native) < 16:
                why += f"; the model ships in {native}, so this means a re-quantized checkpoint of it"
                why_zh += f"；模型原本以 {native} 發布，所以這裡指的是重新量化過的版本"
            return Default(field="quantization", value=quant, note=why, note_zh=why_zh)
    en, zh = _no_headroom_note(p, ladder[-1], native)
    return Default(field="quantization", value=ladder[-1], note=en, note_zh=zh)


def _no_headroom_note(p: Profile, quant: str, native: str | None) -> tuple[str, str]:
    """Why the last rung is shown (en, zh): it fits with little KV room, needs system RAM, does not fit,
    or no engine that runs here has a kernel for it. Only engines that run on this hardware and read the
    format are judged: ExLlama fitting at 4 bpw says nothing on a Radeon it does not run on."""
    from rules import engines
    probe = p.model_copy(update={"quantization": quant})
    facts, _ = derive_facts(probe)
    hw = _hw(p)
    cannot = _cannot_run(probe)
    found = {e: f for e, f in fit.fits(probe, facts).items()
             if e not in cannot and engines.device_kernel(e, quant, hw) is not None}
    is_native = quant == native
    what = "the model's native format" if is_native else "the smallest format assumed for this hardware"
    what_zh = "模型原生的格式" if is_native else "這個硬體預設的最小格式"
    if not _runs_here(quant, hw):
        return (f"{what}; no engine that runs on {facts['setup']} has a kernel for it",
                f"{what_zh}；能在 {facts['setup_zh']} 上跑的引擎都沒有它的 kernel")
    if any(f.fits for f in found.values()) or (not found and facts.get("fits_total")):
        return (f"{what}; it fits, with less than a quarter of memory left for the KV cache",
                f"{what_zh}；放得下，但留給 KV cache 的記憶體不到四分之一")
    if any(f.offload for f in found.values()):
        return (f"{what}; it does not fit the GPU memory, so only engines that run the rest from system RAM can serve it",
                f"{what_zh}；GPU 記憶體放不下，只有能把其餘部分放到系統記憶體上跑的引擎能服務")
    return (f"{what}; even so the weights ({facts['weights_gb']} GB) and the KV cache of one sequence do not fit "
            f"{facts['setup']}",
            f"{what_zh}；即使如此，權重（{facts['weights_gb']} GB）加上一個序列的 KV cache 仍放不進 {facts['setup_zh']}")


def _cannot_run(p: Profile) -> set[str]:
    """Engines the rules rule out on this hardware (the catalog's verdicts and the hardware constraint
    rules, such as the engines Jetson modules do not get), whatever the model's size."""
    from rules.decide import decide
    from rules.ruleset import rule_index
    rules = rule_index()
    return {a.engine for a in decide(p).avoid
            if a.rule in rules and rules[a.rule].group == "constraints" and rules[a.rule].effects.check != "fit"}


def _shared_prefix(p: Profile) -> Default:
    value = p.workload in ("rag", "agent", "coding")
    why = "retrieved chunks, system prompts and histories repeat" if value else "chat prompts rarely share long prefixes"
    why_zh = "檢索片段、系統提示與對話歷史會重複" if value else "聊天 prompt 很少共用長前綴"
    return Default(field="shared_prefix", value=value, note=why, note_zh=why_zh)


def _priority(p: Profile) -> Default:
    mode = p.serving_mode or _serving_mode(p).value
    return Default(field="priority", value=PRIORITY_BY_MODE[mode], note=f"what a {mode} setup usually optimises",
                   note_zh=f"{mode} 情境通常優先考量的項目")


PROPOSERS: dict[str, Callable[[Profile], Default | None]] = {
    "workload": _workload,
    "serving_mode": _serving_mode,
    "concurrency": _concurrency,
    "context_length": _context_length,
    "output_tokens": lambda p: _lengths(p, 1, "output_tokens"),
    "input_tokens": lambda p: _lengths(p, 0, "input_tokens"),
    "interconnect": _interconnect,
    "quantization": _quantization,
    "shared_prefix": _shared_prefix,
    "priority": _priority,
}
"""Fields with a default, in the order they are filled (later ones read earlier ones)."""
NO_DEFAULT = ("hardware", "model")
"""The engine follows from these; guessing them would make the whole answer a guess."""


def default_for(field: str, profile: Profile) -> Default | None:
    """The documented default for `field` given what is known, or None when there is none."""
    propose = PROPOSERS.get(field)
    return propose(profile) if propose else None


def apply_defaults(profile: Profile, fields: Iterable[str] | None = None) -> Profile:
    """Fill the missing `fields` (all defaultable ones when None), each marked assumed with its reason."""
    wanted = set(PROPOSERS if fields is None else fields)
    for field in PROPOSERS:
        if field not in wanted or getattr(profile, field) is not None:
            continue
        proposal = default_for(field, profile)
        if proposal is not None:
            profile = profile.with_value(field, proposal.value, assumed=True, note=proposal.note,
                                         note_zh=proposal.note_zh or None)
    return runnable_quantization(profile) if "quantization" in wanted else profile
