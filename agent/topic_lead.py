"""The answer to the question asked, first: two to five sentences per topic the user raised.

    lead(advice) -> ["**Speculative decoding**: ...", ...]     Markdown lines (empty: no topic)

A topic (agent.extract_topics: speculative decoding, prefix caching, multi-LoRA, ...) is answered
from three things only: what the technique does and when it pays (the texts below, in English and
zh-Hant, our summary of the knowledge notes), the user's own setup and the tools' figures (the
Advice), and which engines have the feature in the engine catalog (rules/catalog/engines.yaml,
each fact with its source URL, linked). Retrieved chunks that discuss the topic get their [n] marker.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from agent.names import display, model_name

if TYPE_CHECKING:
    from agent.advice import Advice

MAX_TOPICS = 2
"""At most this many topics open the answer (the rest would bury the recommendation)."""
ORDER = ("platform-support", "model-fit", "speculative-decoding", "prefix-caching", "multi-lora", "structured-output", "offload", "kv-quantization",
         "disaggregation", "cost-per-token", "parallelism", "quantization-format")
"""Which topic leads when a message raises several: a direct "does X run on Y" first, then the specific
technique before the general ones."""


@dataclass
class Ctx:
    """What a topic's sentences may name: the user's setup, the figures and the decision."""

    lang: str
    setup: str | None
    model: str | None
    platform: str | None
    concurrency: int
    context: int | None
    lora: int | None
    nodes: int
    advice: "Advice"

    def t(self, en: str, zh: str) -> str:
        return zh if self.lang == "zh" else en


def _tokens(n: int) -> str:
    """A token count as engineers write it: 128K, 32K, 1,500."""
    for unit in (1000, 1024):
        if n >= unit and n % unit == 0:
            return f"{n // unit}K"
    return f"{n:,}"


def _fmt(x: float | None) -> str:
    from agent.compose import fmt
    return fmt(x) if x is not None else "?"


def _ctx(advice: "Advice") -> Ctx:
    from rules import catalog, display as rdisplay
    from rules.errors import AdvisorError
    s, lang = advice.profile.summary, advice.language
    setup = platform = None
    if s.hardware:
        try:
            hw = catalog.hardware(s.hardware)
            unified = hw.hw_class in ("apple", "edge") or "unified" in (hw.memory_type or "").lower()
            en, zh = rdisplay.setup(hw.name, s.count or 1, s.nodes or 1, hw.hw_class, unified, hw.name_zh)
            setup, platform = (zh if lang == "zh" else en), hw.platform
        except AdvisorError:
            setup = s.hardware
    conc = s.concurrency or (advice.estimate.concurrency if advice.estimate else 1) or 1
    return Ctx(lang=lang, setup=setup, model=model_name(s.model) if s.model else None, platform=platform,
               concurrency=conc, context=s.context_length, lora=s.lora_adapters, nodes=s.nodes or 1, advice=advice)


# --- which engines have it (engine catalog) ---------------------------------------------------

def _candidates(c: Ctx, orchestration: bool = False) -> list[str]:
    """Engines worth naming: the decision's picks first, then the rest not told to avoid."""
    from rules.engines import all_engines
    d = c.advice.decision
    avoided = {a.engine for a in d.avoid}
    first = [e for e in (d.primary, *d.alternatives) if e]
    out = first + [e for e in all_engines() if e not in first and e not in avoided]
    if not out:   # every engine was set aside (nothing fits): name those that run on the hardware at all
        out = [e for e in all_engines() if _runs_here(c, e)]
    return [e for e in out if orchestration or e != "dynamo"]


def _runs_here(c: Ctx, engine_id: str) -> bool:
    """The engine supports the profile's hardware (True when the hardware is not known)."""
    from rules import engines
    hw = c.advice.profile.summary.hardware
    if not hw:
        return True
    try:
        return engines.supports(engine_id, hw)[0]
    except Exception:   # an id the catalog lacks: do not name it
        return False


def _support(c: Ctx, feature: str, orchestration: bool = False) -> list[str]:
    """One sentence: the candidates that have `feature` and those that lack it, with source links."""
    from rules.engines import engine
    have, lack, links = [], [], []
    for e in _candidates(c, orchestration):
        f = engine(e).feature(feature)
        (have if f.value else lack).append(display(e) + (c.t(" (unverified)", "（未經文件證實）") if f.unverified else ""))
        if f.value and len(links) < 3:
            links.append(f"[{display(e)}]({f.source})")
    if not have:
        return [c.t("No engine in the catalog documents it.", "引擎型錄裡沒有任何引擎的文件寫到這一點。")]
    sep = c.t(", ", "、")
    text = c.t(f"In the engine catalog it is documented for {sep.join(have)}", f"引擎型錄中有這項功能的：{sep.join(have)}")
    if lack:
        text += c.t(f"; not for {sep.join(lack)}", f"；沒有的：{sep.join(lack)}")
    return [text + c.t(f" (sources: {', '.join(links)}).", f"（來源：{'、'.join(links)}）。")]


# --- the topics -----------------------------------------------------------------------------

def _specdec(c: Ctx) -> list[str]:
    est = c.advice.estimate
    speed = c.t(f" (about {_fmt(est.decode_tokens_per_s)} tok/s per stream estimated)",
                f"（估計每條約 {_fmt(est.decode_tokens_per_s)} tok/s）") if est and est.decode_tokens_per_s else ""
    where = c.t(f" on {c.setup}", f"在 {c.setup} 上") if c.setup else ""
    if c.concurrency <= 4:
        streams = "one stream" if c.concurrency == 1 else f"{c.concurrency} streams"
        first = c.t(f"With {streams}{where} decode is bound by memory bandwidth{speed}, which is where "
                    "speculative decoding pays: a draft model or EAGLE heads propose several tokens and the target model "
                    "verifies them in one pass, so each read of the weights yields more than one token.",
                    f"{where}只有 {c.concurrency} 條串流時，decode 受記憶體頻寬限制{speed}，正是推測解碼（speculative decoding）"
                    "划算的情況：draft 模型或 EAGLE 預測頭先猜幾個 token，目標模型一次驗證，每讀一次權重就能產出不只一個 token。")
    else:
        first = c.t(f"At {c.concurrency} concurrent requests{where} the GPU is already busy batching, so speculative "
                    "decoding (draft model, EAGLE heads, n-gram) gains less and can even slow things down; it pays most "
                    "at one to a few streams, where decode is bound by memory bandwidth.",
                    f"{where}同時 {c.concurrency} 個請求時，GPU 已經忙著做批次，推測解碼（draft 模型、EAGLE 預測頭、n-gram）"
                    "的好處變小，甚至可能變慢；它在一到幾條串流、decode 受頻寬限制時最划算。")
    second = c.t("The gain depends on the acceptance rate: code and repetitive text accept more drafted tokens than "
                 "open-ended chat.", "效果取決於接受率：程式碼與重複性高的文字比開放式聊天接受更多猜測的 token。")
    return [first, second, *_support(c, "speculative_decoding"),
            c.t("Measure the acceptance rate and TPOT with it on and off, at your real concurrency.",
                "開與不開各量一次接受率與 TPOT，用真實的併發數。")]


def _prefix(c: Ctx) -> list[str]:
    return [c.t("Both reuse the KV cache of a prompt prefix that repeats, so its prefill is not recomputed: vLLM's "
                "automatic prefix caching hashes fixed-size KV blocks and reuses exact block matches, while SGLang's "
                "RadixAttention keeps a radix tree of tokens and also catches partial and branching overlaps.",
                "兩者都重用重複出現的提示前綴（prefix）的 KV cache，省掉那段 prefill：vLLM 的 automatic prefix caching "
                "以固定大小的 KV 區塊做雜湊、重用完全相同的區塊；SGLang 的 RadixAttention 用 radix tree 以 token 為單位比對，"
                "連部分重疊、分岔的前綴也能重用。"),
            c.t("The difference shows in multi-turn chat, agents, few-shot prompts and RAG with repeated passages; with "
                "one fixed system prompt both do well.",
                "差別出現在多輪對話、agent、few-shot 提示與重複段落的 RAG；只有一段固定 system prompt 時兩者都好。"),
            *_support(c, "prefix_caching"),
            c.t("Measure the cache hit rate (kv_cache_hit_rate) and TTFT with your real traffic.",
                "用真實流量量 cache 命中率（kv_cache_hit_rate）與 TTFT。")]


def _lora(c: Ctx) -> list[str]:
    n = c.t(f"{c.lora} adapters", f"{c.lora} 個 adapter") if c.lora else c.t("many adapters", "多個 adapter")
    return [c.t(f"Multi-LoRA serving loads the base model{(' ' + c.model) if c.model else ''} once and batches requests "
                f"for different LoRA adapters together, so {n} cost little memory compared with {n.split()[0]} full copies.",
                f"Multi-LoRA serving 只載入一次基礎模型{('（' + c.model + '）') if c.model else ''}，把不同 LoRA adapter 的請求"
                f"放進同一批次，{n}比起各放一份完整模型省下大量記憶體。"),
            c.t("The engine caps how many adapters sit in GPU memory at once (vLLM --max-loras, SGLang "
                "--max-loras-per-batch); the others wait in CPU memory and are swapped in.",
                "引擎會限制同時放在 GPU 記憶體裡的 adapter 數（vLLM 的 --max-loras、SGLang 的 --max-loras-per-batch），"
                "其餘留在 CPU 記憶體、需要時換入。"),
            *_support(c, "multi_lora"),
            c.t("Benchmark with the real adapter mix: switching and mixed batches add latency.",
                "用真實的 adapter 分佈做壓測：切換與混合批次會增加延遲。")]


def _structured(c: Ctx) -> list[str]:
    return [c.t("Structured output (a JSON schema, regex or grammar) masks the tokens that would break the format at "
                "every step; with a fast grammar backend such as XGrammar the cost is small, while older backends "
                "(Outlines-era guided decoding) slowed decoding a lot under load.",
                "結構化輸出（JSON schema、regex 或 grammar）在每一步遮掉會破壞格式的 token；用 XGrammar 這類快速的 grammar 後端時"
                "成本很小，舊的後端（Outlines 時代的 guided decoding）在負載下會明顯拖慢 decode。"),
            *_support(c, "structured_output"),
            c.t(f"Benchmark with the schema on, at {c.concurrency} concurrent requests, and compare TPOT with it off.",
                f"開著 schema、用 {c.concurrency} 個併發請求壓測，並和不開時比較 TPOT。")]


def _offload(c: Ctx) -> list[str]:
    from rules.engines import all_engines
    hybrid = [display(e) for e, spec in all_engines().items() if spec.hybrid_cpu.value]
    links = [f"[{display(e)}]({spec.hybrid_cpu.source})" for e, spec in all_engines().items() if spec.hybrid_cpu.value][:2]
    sep = c.t(", ", "、")
    est, here = c.advice.estimate, ""
    if est is not None and est.memory and not est.fits:
        room = max(0.0, est.memory.usable_gb - est.memory.reserve_gb) * est.count
        spill = max(0.0, est.weights_gb - room)
        here = c.t(f" Here {c.model or 'the model'} at {est.quantization} needs about {_fmt(est.weights_gb)} GB of weights "
                   f"against {_fmt(room)} GB usable on {c.setup}, so about {_fmt(spill)} GB "
                   "would live in system RAM.",
                   f"這裡 {c.model or '這個模型'} 以 {est.quantization} 計約需 {_fmt(est.weights_gb)} GB 權重，{c.setup}"
                   f"可用約 {_fmt(room)} GB，約 {_fmt(spill)} GB 得放在系統記憶體。")
    return [c.t("Offload keeps attention and the KV cache on the GPU and puts the layers, or just a MoE model's expert "
                "weights, that do not fit in system RAM; it runs, but decode then follows the system RAM bandwidth, "
                "far below VRAM." + here,
                "卸載（offload）把 attention 與 KV cache 留在 GPU，放不下的層（或 MoE 模型的專家權重）放到系統記憶體（RAM）；"
                "能跑，但 decode 速度會被遠低於顯存的系統記憶體頻寬拖住。" + here),
            c.t("For MoE models only the few active experts are read per token, which is why keeping experts in RAM "
                "(llama.cpp --n-cpu-moe / --override-tensor) works far better than offloading whole layers of a dense model.",
                "MoE 模型每個 token 只讀少數幾個啟用的專家，所以把專家放在 RAM（llama.cpp 的 --n-cpu-moe / --override-tensor）"
                "比把 dense 模型整層卸載好得多。"),
            c.t(f"Engines that split a model between GPU and CPU: {sep.join(hybrid)} (sources: {', '.join(links)}).",
                f"能把模型拆在 GPU 與 CPU 之間的引擎：{sep.join(hybrid)}（來源：{'、'.join(links)}）。")]


def _kvq(c: Ctx) -> list[str]:
    est = c.advice.estimate
    size = ""
    if est and est.kv_bytes_per_token:
        ctx_len = c.context or est.context_length
        gb = est.kv_bytes_per_token * ctx_len / 1e9 * (2 if est.kv_cache_dtype in ("fp8", "int8", "q8_0") else 1)
        size = c.t(f" For {c.model or 'this model'} one sequence at {_tokens(ctx_len)} tokens holds about {_fmt(gb)} GB of "
                   f"16-bit KV; 8-bit KV makes that about {_fmt(gb / 2)} GB.",
                   f"以 {c.model or '這個模型'} 來說，{_tokens(ctx_len)} tokens 的一條序列約佔 {_fmt(gb)} GB 的 16-bit KV；"
                   f"改成 8-bit 約 {_fmt(gb / 2)} GB。")
    if not size and c.context:
        size = c.t(f" At {_tokens(c.context)} tokens of context the KV cache, not the weights, usually decides what fits.",
                   f"在 {_tokens(c.context)} tokens 的 context 下，放不放得下通常取決於 KV cache，而不是權重。")
    return [c.t("Quantizing the KV cache to FP8 or 8-bit halves its bytes per token, so about twice the context or "
                "concurrent sequences fit in the same memory, and decode reads less per token." + size,
                "把 KV cache 量化成 FP8 或 8-bit 會讓每個 token 的 KV 位元組減半，同樣記憶體約可放兩倍的 context 或併發序列，"
                "decode 每個 token 要讀的資料也變少。" + size),
            c.t("The quality loss is usually small at 8 bits and grows at 4 bits; check it on your own long-context "
                "evaluation before turning it on in production.",
                "8-bit 的品質損失通常很小，4-bit 會明顯一些；正式開啟前用自己的長 context 評測確認。"),
            *_support(c, "kv_cache_quant")]


def _disagg(c: Ctx) -> list[str]:
    where = c.t(f"On {c.setup}", f"在 {c.setup} 上") if c.setup else c.t("Here", "在這個配置上")
    scale = (c.t(f"{where} it is worth testing once the TTFT and TPOT targets conflict.",
                 f"{where}（跨 {c.nodes} 個節點），當 TTFT 與 TPOT 目標互相牽制時值得實測。") if c.nodes > 1 else
             c.t(f"{where} (one node) start with chunked prefill and prefix caching; disaggregation pays off at "
                 "multi-node scale.", f"{where}（單一節點）先用 chunked prefill 與前綴快取；分離式部署在多節點規模才划算。"))
    return [c.t("Prefill/decode disaggregation runs the compute-bound prefill and the bandwidth-bound decode on separate "
                "GPU pools and ships the KV cache between them, so each pool scales for its own bottleneck and long "
                "prompts stop stalling other users' decode.",
                "Prefill/decode 分離（PD disaggregation）把吃算力的 prefill 與吃頻寬的 decode 放在不同的 GPU 群組，中間搬移 "
                "KV cache，讓兩邊依各自的瓶頸擴充，長 prompt 也不再卡住別人的 decode。"),
            scale, *_support(c, "pd_disaggregation", orchestration=True)]


def _cost(c: Ctx) -> list[str]:
    est = c.advice.estimate
    formula = c.t("Cost per 1M output tokens = price per hour of all devices ÷ (output tokens per hour / 1M).",
                  "每百萬（1M）輸出 token 成本 = 所有裝置每小時價格 ÷（每小時輸出 token 數 / 1M）。")
    if est and est.cost_per_1m_tokens and est.price_usd_per_hour:
        figure = c.t(f"At ${_fmt(est.price_usd_per_hour)} per device-hour × {est.count} and an estimated "
                     f"{_fmt(est.aggregate_tokens_per_s)} output tok/s at {est.concurrency} concurrent, that is about "
                     f"${_fmt(est.cost_per_1m_tokens)} per 1M output tokens.",
                     f"以每裝置每小時 ${_fmt(est.price_usd_per_hour)} × {est.count}、{est.concurrency} 個併發時估計輸出 "
                     f"{_fmt(est.aggregate_tokens_per_s)} tok/s 計算，約每百萬輸出 token ${_fmt(est.cost_per_1m_tokens)}。")
    else:
        figure = c.t("The catalog has no price for this device: give the $/hour you pay to get the figure.",
                     "型錄裡沒有這個裝置的價格：告訴我您每小時付多少美元，才能算出數字。")
    return [formula, figure, *_against_api(c),
            c.t("Throughput at your real concurrency decides it: measure output tok/s (and cost_per_1m_tokens) under load, "
                "not single-stream speed.", "決定成本的是真實併發下的吞吐：在負載下量輸出 tok/s（與 cost_per_1m_tokens），不是單人速度。")]


def _against_api(c: Ctx) -> list[str]:
    """The user's quoted price per 1M tokens (an API's) against the plan's own figure, or the device price
    at which the plan breaks even with it."""
    from agent.extract_amounts import api_prices
    quoted = api_prices(c.advice.question or "")
    est = c.advice.estimate
    if not quoted or est is None or not est.aggregate_tokens_per_s:
        return []
    api = quoted[-1][0]
    per_hour_m = est.aggregate_tokens_per_s * 3600 / 1e6   # million output tokens per hour at this load
    even = api * per_hour_m / max(1, est.count)
    line = c.t(f"Break-even with the ${_fmt(api)} per 1M tokens you quoted: about ${_fmt(even)} per device-hour at this load.",
               f"與您給的每百萬 token ${_fmt(api)} 打平的價格：在這個負載下約每裝置每小時 ${_fmt(even)}。")
    if est.cost_per_1m_tokens and est.price_usd_per_hour:
        ratio = api / est.cost_per_1m_tokens
        if ratio >= 1:
            verdict = c.t(f"Self-hosting at ${_fmt(est.cost_per_1m_tokens)} per 1M is about {_fmt(ratio)}× cheaper than the "
                          f"${_fmt(api)} you quoted, while the devices stay this busy; idle hours still cost.",
                          f"自架約每百萬 ${_fmt(est.cost_per_1m_tokens)}，在裝置保持這麼忙的前提下，比您給的 ${_fmt(api)} 便宜約 "
                          f"{_fmt(ratio)} 倍；閒置的時間一樣要付錢。")
        else:
            verdict = c.t(f"Self-hosting at ${_fmt(est.cost_per_1m_tokens)} per 1M costs about {_fmt(1 / ratio)}× the "
                          f"${_fmt(api)} you quoted, even with the devices this busy.",
                          f"自架約每百萬 ${_fmt(est.cost_per_1m_tokens)}，即使裝置保持這麼忙，也約是您給的 ${_fmt(api)} 的 "
                          f"{_fmt(1 / ratio)} 倍。")
        return [verdict, line]
    return [line]


def _parallel(c: Ctx) -> list[str]:
    plan = c.advice.plan
    par = plan.layout if plan is not None and plan.layout else c.advice.decision.parallelism
    here = ""
    if par and par.strategy:
        dims = par.degrees() or c.t("one device", "單一裝置")
        link = c.advice.profile.summary.interconnect
        from agent.names import value_text
        shown = value_text("interconnect", link, c.lang) if link else ""
        over = c.t(f" ({shown})", f"（互連：{shown}）") if link and link not in ("none", "unified") else ""
        here = c.t(f" For {c.setup or 'this setup'}{over} the plan is {par.strategy.upper()} ({dims}).",
                   f"{c.setup or '這個配置'}{over or ' '}的規劃是 {par.strategy.upper()}（{dims}）。")
    return [c.t("Tensor parallelism (TP) splits every layer across devices and all-reduces on every token, so it wants "
                "NVLink-class links; pipeline parallelism (PP) gives each device a block of layers and talks only at "
                "stage boundaries, so it tolerates PCIe but does not make one stream faster.",
                "張量平行（TP）把每一層切給多個裝置，每個 token 都要 all-reduce，需要 NVLink 等級的互連；管線平行（PP）讓每個裝置"
                "負責一段層，只在階段交界傳資料，走 PCIe 也撐得住，但不會讓單一串流變快。" ) + here,
            c.t("Expert parallelism (EP) suits large MoE models and is the hungriest for all-to-all bandwidth; data "
                "parallelism (DP) keeps a full copy per device group when the model fits.",
                "專家平行（EP）適合大型 MoE，最吃 all-to-all 頻寬；模型放得下時，資料平行（DP）讓每組裝置各放一份完整副本。")]


_ENGINE_WORDS = (("vllm", r"\bvllm\b"), ("sglang", r"\bsglang\b"), ("tensorrt-llm", r"\btensorrt|\btrt-?llm"),
                 ("ollama", r"\bollama\b"), ("llama.cpp", r"\bllama\.?cpp\b|\bllama-server\b"),
                 ("mlx-lm", r"\bmlx(?:-lm)?\b"), ("exllamav3", r"\bexllama\s*v?3\b"),
                 ("exllamav2", r"\bexllama(?:\s*v?2)?\b(?!\s*v?3)"), ("openvino-genai", r"\bopenvino\b"))
_OS_WORDS = (("windows", r"\bwindows\b|\bwin1[01]\b|\bwsl2?\b"),
             ("macos", r"\bmac(?:os|book|\s*studio|\s*mini)?\b|蘋果|\bapple\s+silicon\b"),
             ("linux", r"\blinux\b|\bubuntu\b"))
_OS_NAMES = {"windows": "Windows", "macos": "macOS", "linux": "Linux"}


def _named_engines(text: str) -> list[str]:
    """Engines the user's message names, in the order named (at most two)."""
    hits = sorted((m.start(), e) for e, rx in _ENGINE_WORDS for m in [re.search(rx, text, re.I)] if m)
    return [e for _, e in hits][:2]


def _asked_os(text: str) -> str | None:
    return next((o for o, rx in _OS_WORDS if re.search(rx, text, re.I)), None)


def _os_answer(c: Ctx, engine_id: str, os_id: str) -> str | None:
    """Yes / not natively / no for an engine on an operating system, from the catalog's `os` entry."""
    from rules.engines import engine
    spec = engine(engine_id)
    entry = spec.os.get(os_id) if spec.os else None
    name, osn = display(engine_id), _OS_NAMES[os_id]
    if entry is None:
        linux = spec.os.get("linux") if spec.os else None
        where = (c.t(f"; it is documented for Linux ([source]({linux.source}))", f"；文件寫的是 Linux（[來源]({linux.source})）")
                 if linux is not None and os_id != "linux" else "")
        return c.t(f"**{name} on {osn}: no** — the engine catalog lists no {osn} support for it{where}.",
                   f"**{name} 在 {osn} 上：不支援**——引擎型錄沒有列出它支援 {osn}{where}。")
    note = (entry.note or "").strip()
    link = f"[{c.t('source', '來源')}]({entry.source})"
    if entry.status == "native":
        return c.t(f"**{name} on {osn}: yes**, natively{(' — ' + note) if note else ''} ({link}).",
                   f"**{name} 在 {osn} 上：可以**，原生支援（{link}）。")
    zh_how = []
    if "WSL" in note:
        zh_how.append("在 WSL2（Windows 裡的 Linux 環境）中執行")
    if "Metal" in note:
        zh_how.append("原生的 macOS 版本只用 CPU、不會用到 GPU；要用 Mac 的 GPU 需安裝 vLLM-Metal plugin（以 MLX 為後端）"
                      if "CPU" in note else "透過 Metal plugin 使用 GPU")
    return c.t(f"**{name} on {osn}: not natively** — {note.rstrip('.')} ({link}).",
               f"**{name} 在 {osn} 上：沒有原生支援**——{'；'.join(zh_how) or '只有實驗性支援'}（{link}）。")


def _device_answer(c: Ctx, engine_id: str, hw_id: str) -> str:
    """Yes / partly / no for an engine on the user's device (rules.engines.verdict), and what to install."""
    from rules import catalog, cuda, engines
    v, hw, name = engines.verdict(engine_id, hw_id), catalog.hardware(hw_id), display(engine_id)
    where, link = c.setup or hw.name, f"[{c.t('source', '來源')}]({v.source})"
    status = engines.engine(engine_id).platforms.get(hw.platform)
    if not v.ok:
        out = c.t(f"**{name} on {where}: no** — {v.en} ({link}).", f"**{name} 在 {where} 上：不行**——{v.zh}（{link}）。")
    elif status is not None and status.status == "plugin" or v.caveat:
        out = c.t(f"**{name} on {where}: partly** — {v.en} ({link}).", f"**{name} 在 {where} 上：部分可以**——{v.zh}（{link}）。")
    else:
        out = c.t(f"**{name} on {where}: yes** — {v.en} ({link}).", f"**{name} 在 {where} 上：可以**——{v.zh}（{link}）。")
    kit = cuda.min_toolkit(hw.cuda_cc) if v.ok and hw.platform == "nvidia-cuda" else None
    if kit is not None:
        out += " " + c.t(f"Install a build made for CUDA {kit.min_cuda} or newer (the CUDA {kit.min_cuda} wheels or a "
                         f"current container image, and a driver that supports it): compute capability {hw.cuda_cc} "
                         f"kernels need it, and older builds fail with \"no kernel image is available\" "
                         f"([source]({kit.source})).",
                         f"要安裝以 CUDA {kit.min_cuda} 以上編譯的版本（CUDA {kit.min_cuda} 的 wheel 或新版容器映像，"
                         f"驅動也要支援）：compute capability {hw.cuda_cc} 的 kernel 需要它，舊版會出現"
                         f"「no kernel image is available」錯誤（[來源]({kit.source})）。")
    return out


def _asked(c: Ctx) -> list[str]:
    """The direct answer to "does <engine> run on <device / OS>", one line per named engine."""
    text = c.advice.question or ""
    hw_id, os_id = c.advice.profile.summary.hardware, _asked_os(text)
    out = []
    for e in _named_engines(text):
        if os_id in ("windows", "macos"):
            line = _os_answer(c, e, os_id)
        elif hw_id and c.platform == "apple-silicon":
            line = _os_answer(c, e, "macos")
        else:
            line = None
        if hw_id and c.platform != "apple-silicon":   # on a Mac the macOS entry already says how it runs
            line = " ".join(x for x in (line, _device_answer(c, e, hw_id)) if x)
        if line:
            out.append(line)
    return out


def _platform(c: Ctx) -> list[str]:
    asked = _asked(c)
    hw_id = c.advice.profile.summary.hardware
    measure = c.t("Support on paper is not speed: check the engine's release notes for your exact device and "
                  "measure before committing.", "文件上支援不等於跑得快：確認引擎版本說明是否列出您的裝置，實測後再定案。")
    if asked:   # a named engine gets its direct answer, not the whole list
        return [*asked, measure]
    if not c.platform or not hw_id:
        return []
    from rules import engines
    native, partial, none_, links = [], [], [], []
    for e, spec in engines.all_engines().items():
        ok, _, source = engines.supports(e, hw_id)
        status = spec.platforms.get(c.platform)
        if ok:
            native.append(display(e))
            if e in (c.advice.decision.primary, *c.advice.decision.alternatives) and len(links) < 3:
                links.append(f"[{display(e)}]({source})")
        elif status is not None and status.status == "experimental":
            partial.append(display(e))
        else:
            none_.append(display(e))
    sep = c.t(", ", "、")
    text = c.t(f"On {c.setup} ({c.platform}) the engine catalog lists {sep.join(native) or 'no engine'} as supported",
               f"在 {c.setup}（{c.platform}）上，引擎型錄列為支援的：{sep.join(native) or '沒有'}")
    if partial:
        text += c.t(f"; experimental only: {sep.join(partial)}", f"；只有實驗性支援：{sep.join(partial)}")
    if none_:
        text += c.t(f"; not for this device: {sep.join(none_)}", f"；這個裝置不支援：{sep.join(none_)}")
    text += (c.t(f" (sources: {', '.join(links)}).", f"（來源：{'、'.join(links)}）。") if links else c.t(".", "。"))
    return [text, measure]


def _model_fit(c: Ctx) -> list[str]:
    """The largest catalog model sizes that fit the user's memory at 4-bit with context room."""
    from rules import model_fit
    s = c.advice.profile.summary
    said = c.advice.profile.field("memory_gb")
    stated = float(said.value) if said is not None and isinstance(said.value, (int, float)) else None
    mac = bool(re.search(r"\bmac|蘋果|apple", c.advice.question or "", re.I))
    room = model_fit.room_gb(s.hardware, s.count or 1, stated, apple=mac and not s.hardware)
    if room is None:
        return [c.t("Tell me the GPU (or its memory in GB) and I will name the largest model sizes that fit.",
                    "告訴我 GPU 型號（或它的記憶體 GB 數），我就能列出放得下的最大模型。")]
    picks = model_fit.largest_fitting(room)
    tight = model_fit.largest_fitting(room, k=1, share=1.0)
    where = c.setup or c.t(f"{_fmt(stated)} GB", f"{_fmt(stated)} GB 的記憶體")
    ctx = _tokens(model_fit.CONTEXT)
    if not picks:
        return [c.t(f"On {where} (about {_fmt(room)} GB usable) no catalog model fits at 4-bit with {ctx} of context.",
                    f"{where}（可用約 {_fmt(room)} GB）放不下型錄中任何 4-bit 模型加 {ctx} context。")]
    sep = c.t("; ", "；")
    listed = sep.join(c.t(f"{p.name} ({_fmt(p.weights_gb)} GB weights + {_fmt(p.kv_gb)} GB KV)",
                          f"{p.name}（權重 {_fmt(p.weights_gb)} GB + KV {_fmt(p.kv_gb)} GB）") for p in picks)
    top = round(picks[0].params_b)
    out = [c.t(f"On {where} (about {_fmt(room)} GB usable) models up to about {top}B fit at 4-bit (Q4_K_M) with room for "
               f"{ctx} tokens of context and a quarter of the memory left for the KV cache: {listed}.",
               f"{where}（可用約 {_fmt(room)} GB）以 4-bit（Q4_K_M）可以跑到約 {top}B 的模型，並保留 {ctx} tokens 的 context "
               f"與四分之一記憶體給 KV cache：{listed}。")]
    if tight and round(tight[0].params_b) > top:
        out.append(c.t(f"Up to {tight[0].name} loads, but with little room left (short context, one user).",
                       f"最大到 {tight[0].name} 也載得進去，但幾乎沒有餘裕（只適合短 context、單人使用）。"))
    out.append(c.t("At 8-bit the same memory holds models about half that size; `advisor catalog models` lists all of them.",
                   "改用 8-bit 時，同樣記憶體約只能放一半大小的模型；`advisor catalog models` 可列出全部模型。"))
    return out


_QUANT_NAMES = {"f16": "FP16", "bf16": "BF16", "fp8": "FP8", "int8": "INT8", "int4": "INT4", "awq": "AWQ",
                "gptq-4bit": "GPTQ 4-bit", "mxfp4": "MXFP4", "nvfp4": "NVFP4"}


def _loaders(c: Ctx) -> list[str]:
    """Which engines load a stated format at all (engine catalog), when the hardware is not known yet."""
    s = c.advice.profile.summary
    said = c.advice.profile.field("quantization")
    if s.hardware or not s.quantization or said is None or said.origin != "said":
        return []
    quant = s.quantization
    from rules import engines
    fast, slow, none_, links = [], [], [], []
    for e in engines.all_engines():
        kernel = engines.quant_kernel(e, quant)
        (fast if kernel == "optimized" else slow if kernel == "supported" else none_).append(display(e))
        entry = engines.quant_support(e, quant)
        if kernel and entry is not None and len(links) < 3:
            links.append(f"[{display(e)}]({entry.source})")
    sep, q = c.t(", ", "、"), _QUANT_NAMES.get(quant, quant.upper())
    text = c.t(f"{q} weights load directly in {sep.join(fast + slow) or 'no engine'}",
               f"{q} 權重可以直接載入的引擎：{sep.join(fast + slow) or '沒有'}")
    if slow:
        text += c.t(f" (without an optimized kernel in {sep.join(slow)})", f"（其中 {sep.join(slow)} 沒有最佳化的 kernel）")
    if none_:
        text += c.t(f"; {sep.join(none_)}: convert to the engine's own format first",
                    f"；{sep.join(none_)} 要先轉成自己的格式")
    return [text + (c.t(f" (sources: {', '.join(links)}).", f"（來源：{'、'.join(links)}）。") if links else c.t(".", "。")),
            c.t("Tell me the GPU or machine to get an engine and a plan for it.", "告訴我 GPU 或機器，才能給出引擎與部署規劃。")]


def _precision(c: Ctx) -> list[str]:
    """When the device lacks native compute for the chosen format (FP8 before Ada/Hopper, BF16 before
    Ampere), what actually runs: the catalog's fallback kernel for the recommended engine."""
    from rules import catalog, engines
    from rules.display import short_name
    s, d = c.advice.profile.summary, c.advice.decision
    if not s.quantization:
        return []
    if not s.hardware:
        said = c.advice.profile.field("quantization")
        return []
    hw = catalog.hardware(s.hardware)
    if hw.platform != "nvidia-cuda":
        return []
    name = short_name(hw.name) if c.lang == "zh" else hw.name
    eng = d.primary or next(iter(d.alternatives), None)
    if s.quantization == "fp8" and not hw.tflops.fp8:
        entry = engines.quant_support(eng, "fp8") if eng else None
        if entry is None or entry.below_min_cc is None:
            return [c.t(f"{name} (compute capability {hw.cuda_cc}) has no FP8 tensor cores, and "
                        f"{display(eng) if eng else 'no recommended engine'} has no FP8 path for it.",
                        f"{name}（compute capability {hw.cuda_cc}）沒有 FP8 tensor core，"
                        f"{display(eng) if eng else '推薦的引擎'}在這張卡上沒有 FP8 的執行路徑。")]
        return [c.t(f"{name} (compute capability {hw.cuda_cc}) has no FP8 tensor cores, so FP8 brings no compute "
                    f"speed-up there: {display(eng)} runs an FP8 checkpoint weight-only (W8A16), which still halves the "
                    f"weight memory against 16-bit ([source]({entry.source})).",
                    f"{name}（compute capability {hw.cuda_cc}）沒有 FP8 tensor core，所以 FP8 在這張卡上不會帶來算力加速："
                    f"{display(eng)} 以 weight-only（W8A16）方式執行 FP8 checkpoint，權重記憶體仍比 16-bit 省一半"
                    f"（[來源]({entry.source})）。"),
                c.t("Measure TPOT against the 16-bit or INT8/AWQ build before choosing the format.",
                    "選格式前，和 16-bit 或 INT8／AWQ 版本比較實測 TPOT。")]
    if s.quantization in ("bf16", "f16") and hw.tflops.fp16 and not hw.tflops.bf16:
        return [c.t(f"{name} has no BF16 compute (the hardware catalog lists FP16 only), so a BF16 checkpoint runs "
                    "converted to FP16 (half precision); a few models overflow in FP16, so check outputs.",
                    f"{name} 沒有 BF16 運算（硬體型錄只列 FP16），BF16 的 checkpoint 會轉成 FP16（半精度）執行；"
                    "少數模型在 FP16 下會溢位，請檢查輸出。")]
    return []


def _quant(c: Ctx) -> list[str]:
    from rules.engines import all_engines
    sep = c.t(", ", "、")
    parts = []
    for e in _candidates(c)[:4]:
        fmt4 = (all_engines()[e].generic_formats.int4 if all_engines()[e].generic_formats else None) or []
        if fmt4:
            parts.append(f"{display(e)}: {'/'.join(fmt4)}")
    return [c.t("A generic \"4-bit\" means each engine's own format: GGUF Q4_K_M for llama.cpp and Ollama, EXL2/EXL3 at "
                "about 4 bits per weight for ExLlama, AWQ or GPTQ for vLLM, SGLang and TensorRT-LLM, MLX 4-bit on a Mac; "
                "start from the model's native format and quantize only as far as memory requires.",
                "一般說的「4-bit」指的是各引擎自己的格式：llama.cpp 與 Ollama 用 GGUF Q4_K_M，ExLlama 用約 4 bpw 的 EXL2/EXL3，"
                "vLLM、SGLang、TensorRT-LLM 用 AWQ 或 GPTQ，Mac 上用 MLX 4-bit；從模型原生格式出發，只量化到記憶體需要的程度。"),
            c.t(f"Here: {sep.join(parts)}.", f"在這個配置：{sep.join(parts)}。") if parts else ""]


TOPICS: dict[str, tuple[tuple[str, str], Callable[[Ctx], list[str]], str]] = {
    "speculative-decoding": (("Speculative decoding", "推測解碼"), _specdec, r"speculat|draft|EAGLE|推測"),
    "prefix-caching": (("Prefix caching", "前綴快取"), _prefix, r"prefix|radix|前綴"),
    "multi-lora": (("Multi-LoRA", "Multi-LoRA"), _lora, r"LoRA"),
    "structured-output": (("Structured output", "結構化輸出"), _structured, r"structured|JSON|grammar|結構化"),
    "offload": (("CPU / MoE offload", "CPU／MoE 卸載"), _offload, r"offload|hybrid|system RAM|卸載"),
    "kv-quantization": (("KV cache quantization", "KV cache 量化"), _kvq, r"KV[\s-]*cache.{0,40}(?:FP8|quantiz|8-bit)|KV 量化"),
    "disaggregation": (("Prefill/decode disaggregation", "Prefill／decode 分離"), _disagg, r"disaggregat|分離"),
    "cost-per-token": (("Cost per 1M tokens", "每百萬 token 成本"), _cost, r"cost|\$|成本"),
    "platform-support": (("Platform support", "平台支援"), _platform, r"ROCm|support|支援"),
    "model-fit": (("Which model size fits", "放得下多大的模型"), _model_fit, r"VRAM|fit|放得下|記憶體"),
    "parallelism": (("TP, PP or EP", "TP、PP 還是 EP"), _parallel, r"tensor parallel|pipeline parallel|all-reduce|張量平行|管線平行"),
    "quantization-format": (("Quantization format", "量化格式"), _quant, r"GGUF|AWQ|GPTQ|EXL2|量化"),
    "precision": (("Precision on this hardware", "這個硬體上的精度"), _precision, r"FP8|BF16|FP16"),
    "formats": (("Which engines load it", "哪些引擎能直接載入"), _loaders, r"FP16|GGUF|AWQ|EXL2|safetensors"),
}


def _markers(advice: "Advice", pattern: str) -> str:
    """[n] markers of the retrieved chunks (at most two) that discuss the topic."""
    rx = re.compile(pattern, re.I)
    nums = [n for n, ch in enumerate(advice.citations, start=1) if rx.search(ch.title) or rx.search(ch.text)]
    return "".join(f"[{n}]" for n in nums[:2])


def pattern(advice: "Advice") -> "re.Pattern | None":
    """One regex for the topics the user asked about (to pick the sentences of a chunk on them)."""
    asked = [TOPICS[t][2] for t in ORDER if t in advice.topics]
    return re.compile("|".join(asked), re.I) if asked else None


def lead(advice: "Advice") -> list[str]:
    """The opening paragraphs that answer the topics the user asked about (in the user's language)."""
    asked = [t for t in ORDER if t in advice.topics][:MAX_TOPICS]
    c = _ctx(advice)
    for implied in ("precision", "formats"):   # not asked as a topic, but what the stated format means here
        if len(asked) < MAX_TOPICS and TOPICS[implied][1](c):
            asked.append(implied)
    if not asked:
        return []
    out: list[str] = []
    for topic in asked:
        (title_en, title_zh), build, pattern = TOPICS[topic]
        sentences = [s for s in build(c) if s]
        if not sentences:
            continue
        marks = _markers(advice, pattern)
        body = (" " if c.lang == "en" else "").join(sentences)
        out += [f"**{c.t(title_en, title_zh)}**{c.t(': ', '：')}{body}{(' ' + marks) if marks else ''}", ""]
    return out
