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
DIRECT = ("engine", "capability", "need-count", "fit", "ceiling", "growth", "layouts", "cost-compare", "batch-time", "slow-setup", "backend", "settings")
"""Parts answered with a verdict or a number of their own; they lead and do not use up MAX_TOPICS."""
ORDER = (*DIRECT, "worth", "platform-support", "options", "engine-compare", "engine-verdict", "models", "model-fit", "speculative-decoding", "prefix-caching", "multi-lora", "structured-output", "tool-calling", "flash-attention", "power-mode", "offload", "kv-quantization",
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
    return [first, second, *_draft(c), *_support(c, "speculative_decoding"),
            c.t("Measure the acceptance rate and TPOT with it on and off, at your real concurrency.",
                "開與不開各量一次接受率與 TPOT，用真實的併發數。")]


def _shared_prefix(c: Ctx) -> list[str]:
    """The user's own repeated prefix: what caching it does to their TTFT (empty when none was stated)."""
    s, est = c.advice.profile.summary, c.advice.estimate
    said_prefix = c.advice.profile.field("shared_prefix")
    evidence = (said_prefix.evidence or "") if said_prefix is not None else ""
    if not s.shared_prefix or re.search(TOPICS["prefix-caching"][2] + r"|cach|快取|radix", evidence, re.I):
        return []   # the technique named ("prefix caching vs RadixAttention?"), not a prompt the user shares
    said = c.advice.profile.field("input_tokens")
    prompt = s.input_tokens if said is not None and said.origin == "said" else None   # never an assumed length
    size = c.t(f" (prompts of about {_tokens(prompt)} tokens)", f"（每次約 {_tokens(prompt)} tokens 的提示）") if prompt else ""
    ttft = (c.t(f"; the estimate here, {_fmt(est.ttft_s)} s TTFT at {c.concurrency} concurrent, counts the whole prompt",
                f"；這裡的估計（{c.concurrency} 個併發時 TTFT {_fmt(est.ttft_s)} s）是以整段提示計算的")
            if est is not None and est.ttft_s else "")
    return [c.t(f"Every request here starts with the same prefix{size}: with prefix caching on, its KV cache is computed "
                f"once and reused, so TTFT covers only each request's new tokens and the GPUs stop re-doing the same "
                f"prefill for every request{ttft}. Turn it on first (vLLM --enable-prefix-caching, "
                "the default in its V1 engine; SGLang's RadixAttention is on by default) and keep the shared part "
                "byte-identical at the very start of the prompt.",
                f"這裡每個請求都以同一段前綴開頭{size}：開啟前綴快取（prefix caching）後，這段的 KV cache 只算一次、之後重用，"
                f"TTFT 只剩每個請求新增的 token，每個請求也不再重複做同一段 prefill{ttft}。"
                "先把它打開（vLLM 的 --enable-prefix-caching，V1 引擎預設開啟；SGLang 的 RadixAttention 預設開啟），"
                "並讓共用的部分逐字相同、放在提示的最前面。")]


_DRAFT_FLAGS = {
    "vllm": ("vLLM --speculative-config '{{\"model\": \"{hf}\", \"num_speculative_tokens\": 5, \"method\": \"draft_model\"}}'",
             "https://docs.vllm.ai/en/latest/features/spec_decode/"),
    "sglang": ("SGLang --speculative-algorithm STANDALONE --speculative-draft-model-path {hf}",
               "https://docs.sglang.io/docs/advanced_features/speculative_decoding"),
    "llama.cpp": ("llama-server --model-draft <{name} GGUF>", "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md"),
}


def _draft(c: Ctx) -> list[str]:
    """The draft model for the user's model: the smallest catalog model of the same family with the same
    vocabulary (a draft must share the tokenizer), and how the recommended engines take it."""
    from rules import catalog
    mid = c.advice.profile.summary.model
    if not mid:
        return []
    target = catalog.model(mid)
    same = [m for m in catalog.all_models().values() if m.id != mid and m.family == target.family
            and m.vocab == target.vocab and m.params_b * 4 <= target.params_b and m.architecture == "dense"]
    if not same:
        return [c.t(f"A draft model must share {c.model}'s tokenizer; the catalog has no smaller model of its family with "
                    "the same vocabulary, so use EAGLE heads or n-gram (prompt lookup) instead.",
                    f"draft 模型必須和 {c.model} 用同一個 tokenizer；型錄裡沒有同家族、同詞彙表的較小模型，"
                    "請改用 EAGLE 預測頭或 n-gram（prompt lookup）。")]
    d = min(same, key=lambda m: m.params_b)
    flags = [f.format(hf=d.hf_id, name=d.name) + f" ([{c.t('source', '來源')}]({src}))"
             for e in _candidates(c) if e in _DRAFT_FLAGS for f, src in [_DRAFT_FLAGS[e]]][:2]
    how = (c.t(" Launch: ", "啟動方式：") + c.t("; ", "；").join(flags) + c.t(".", "。")) if flags else ""
    return [c.t(f"A draft model must share the target's tokenizer: {d.name} (same family, the same {d.vocab:,}-token "
                f"vocabulary, {_fmt(d.params_b)}B) is the catalog's candidate for {c.model}.{how}",
                f"draft 模型必須和目標模型用同一個 tokenizer：{d.name}（同家族、同樣 {d.vocab:,} 個 token 的詞彙表，"
                f"{_fmt(d.params_b)}B）是型錄中 {c.model} 的候選。{how}")]


def _prefix(c: Ctx) -> list[str]:
    own = _shared_prefix(c)
    if own and "prefix-caching" not in c.advice.topics:   # a stated shared prompt, not a question about the techniques
        return [*own, *_support(c, "prefix_caching"),
                c.t("Measure the cache hit rate (kv_cache_hit_rate) and TTFT with your real traffic.",
                    "用真實流量量 cache 命中率（kv_cache_hit_rate）與 TTFT。")]
    return [*own,c.t("Both reuse the KV cache of a prompt prefix that repeats, so its prefill is not recomputed: vLLM's "
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
    if c.lora == 1:   # one adapter: nothing to share, and merging removes the LoRA kernels from every step
        return [c.t(f"With one adapter, merge it into the base weights{(' of ' + c.model) if c.model else ''} and serve the merged "
                    "model: the per-layer LoRA kernels disappear, so throughput and latency match the plain model. Unmerged "
                    "serving costs more the higher the adapter's rank (vLLM sizes its LoRA buffers by --max-lora-rank: set it "
                    "to the real rank, not higher).",
                    f"只有一個 adapter 時，把它合併進基礎模型{('（' + c.model + '）') if c.model else ''}的權重再服務：每層的 LoRA kernel "
                    "就不存在了，吞吐與延遲和原模型相同。不合併時，adapter 的 rank 越高成本越大（vLLM 依 --max-lora-rank 配置 LoRA "
                    "緩衝區：設成實際的 rank，不要更高）。"),
                *_support(c, "multi_lora")]
    n = c.t(f"{c.lora} adapters", f"{c.lora} 個 adapter") if c.lora else c.t("many adapters", "多個 adapter")
    copies = c.t(f"{c.lora} full copies", f"{c.lora} 份完整模型") if c.lora else c.t("a full copy each", "各放一份完整模型")
    return [c.t(f"Multi-LoRA serving loads the base model{(' ' + c.model) if c.model else ''} once and batches requests "
                f"for different LoRA adapters together, so {n} cost little memory compared with {copies}.",
                f"Multi-LoRA serving 只載入一次基礎模型{('（' + c.model + '）') if c.model else ''}，把不同 LoRA adapter 的請求"
                f"放進同一批次，{n}比起各放一份完整模型省下大量記憶體。"),
            c.t("The engine caps how many adapters sit in GPU memory at once (vLLM --max-loras, SGLang "
                "--max-loras-per-batch); the others wait in CPU memory (vLLM --max-cpu-loras) and are swapped in. "
                "Set vLLM's --max-lora-rank to the largest real rank: its buffers are sized by it.",
                "引擎會限制同時放在 GPU 記憶體裡的 adapter 數（vLLM 的 --max-loras、SGLang 的 --max-loras-per-batch），"
                "其餘留在 CPU 記憶體（vLLM 的 --max-cpu-loras）、需要時換入。vLLM 的 --max-lora-rank 請設成實際最大的 rank："
                "它的緩衝區依此配置。"),
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


_TOOL_FLAGS = {
    "vllm": ("--enable-auto-tool-choice --tool-call-parser <parser for the model family>",
             "https://docs.vllm.ai/en/latest/features/tool_calling/"),
    "sglang": ("--tool-call-parser <parser for the model family>",
               "https://docs.sglang.io/docs/advanced_features/tool_parser"),
    "llama.cpp": ("--jinja (on by default in current llama-server builds; the model's chat template must support tools)",
                  "https://github.com/ggml-org/llama.cpp/blob/master/docs/function-calling.md"),
    "ollama": ("nothing: pass `tools` in the chat request to a model whose template supports tools",
               "https://docs.ollama.com/capabilities/tool-calling"),
}
_TOOL_FLAGS_ZH = {
    "vllm": "--enable-auto-tool-choice --tool-call-parser <對應模型家族的 parser>",
    "sglang": "--tool-call-parser <對應模型家族的 parser>",
    "llama.cpp": "--jinja（目前的 llama-server 預設已開啟；模型的 chat template 要支援 tools）",
    "ollama": "不用設定：在 chat 請求裡帶 `tools`，模型的 template 要支援 tools",
}


def _tools(c: Ctx) -> list[str]:
    """How tool calling is turned on in the engines this answer names (the recommended one first)."""
    named = [e for e in (*named_engines(c.advice.question or "", limit=None), *_candidates(c)) if e in _TOOL_FLAGS]
    shown = list(dict.fromkeys(named))[:3]
    if not shown:
        return []
    parts = [c.t(f"{display(e)}: {_TOOL_FLAGS[e][0]} ([source]({_TOOL_FLAGS[e][1]}))",
                 f"{display(e)}：{_TOOL_FLAGS_ZH[e]}（[來源]({_TOOL_FLAGS[e][1]})）") for e in shown]
    return [c.t("Tool calling is the model writing a function call in its own format and the server parsing it into the "
                "OpenAI `tool_calls` field, so it depends on the model's chat template and the server's parser for that "
                "model family.", "工具呼叫（tool calling）是模型用自己的格式寫出函式呼叫，再由 server 解析成 OpenAI 的 `tool_calls` "
                "欄位，所以取決於模型的 chat template 與 server 對該模型家族的 parser。"),
            c.t("How to turn it on: ", "怎麼開啟：") + c.t("; ", "；").join(parts) + c.t(".", "。"),
            c.t("Test it with your real tool schemas: small or heavily quantized models miss calls more often.",
                "用真實的 tool schema 測試：小模型或量化很重的模型比較容易漏掉呼叫。")]


def _flash(c: Ctx) -> list[str]:
    """llama.cpp's -fa flag: what it does and its default."""
    return [c.t("In llama.cpp -fa / --flash-attn takes on, off or auto, and auto is the default in current builds: it "
                "turns flash attention on where the backend supports it and silently off where it does not. Pass "
                "`-fa on` to be sure (it lowers the attention memory at long context and a quantized V cache, "
                "--cache-type-v q8_0, needs it); check the startup log for what was used.",
                "llama.cpp 的 -fa／--flash-attn 可設 on、off 或 auto，目前版本預設是 auto：後端支援時開啟 flash attention，不支援時"
                "會默默關掉。想確定就傳 `-fa on`（長 context 時能降低 attention 的記憶體，而量化的 V cache，"
                "--cache-type-v q8_0，一定要開）；啟動 log 會寫實際用了哪個。"),
            c.t("[source](https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md)",
                "[來源](https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md)")]


_POWER_SOURCE = "https://nvlabs.github.io/sionna/_sources/rk/setup/perf.rst.txt"


def _power(c: Ctx) -> list[str]:
    """Jetson power modes: which one to run, and what a lower one does to decode (memory-bound)."""
    from rules import catalog
    hw_id = c.advice.profile.summary.hardware
    hw = catalog.hardware(hw_id) if hw_id else None
    if hw is None or "jetson" not in hw.id:
        return []
    mode = c.t("`sudo nvpmodel -m 0` (MAXN)" if "agx" in hw.id else "the MAXN mode (`sudo nvpmodel -q --verbose` lists "
               "the modes and their ids on this module)", "`sudo nvpmodel -m 0`（MAXN）" if "agx" in hw.id else
               "MAXN 模式（`sudo nvpmodel -q --verbose` 會列出這個模組的模式與編號）")
    return [c.t(f"Run {hw.name} in its highest power mode your power budget allows: {mode}, then "
                "`sudo jetson_clocks`, which locks the clocks at that mode's maximum. Lower modes cap the GPU and memory "
                f"(EMC) clocks, and decode here is bound by memory bandwidth ({_fmt(hw.mem_bw_gbs)} GB/s at full clock in "
                "the hardware catalog, which the estimate assumes), so tokens per second drop roughly with the memory "
                f"clock. Check the mode with `sudo nvpmodel -q` and watch tegrastats while generating ([source]({_POWER_SOURCE})).",
                f"在電力預算允許的範圍內，讓 {hw.name} 跑最高的功耗模式：{mode}，再執行 `sudo jetson_clocks` "
                "把時脈鎖在該模式的上限。較低的模式會限制 GPU 與記憶體（EMC）時脈，而這裡的 decode 受記憶體頻寬限制"
                f"（硬體型錄中全速為 {_fmt(hw.mem_bw_gbs)} GB/s，估算即以此為準），所以每秒 token 數大約隨記憶體時脈下降。"
                f"用 `sudo nvpmodel -q` 確認模式，生成時看 tegrastats（[來源]({_POWER_SOURCE})）。")]


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
    from agent.cost_volume import volume_lines
    at_volume = volume_lines(c.advice)   # the user's own volume: its bill replaces the planned-load figure
    return [formula, *(at_volume or [figure, *_against_api(c)]),
            c.t("Throughput at your real concurrency decides it: measure output tok/s (and cost_per_1m_tokens) under load, "
                "not single-stream speed.", "決定成本的是真實併發下的吞吐：在負載下量輸出 tok/s（與 cost_per_1m_tokens），不是單人速度。")]


def _against_api(c: Ctx) -> list[str]:
    """The user's quoted price per 1M tokens (an API's) against the plan's own figure, or the device price
    at which the plan breaks even with it."""
    from agent.extract_amounts import api_prices
    quoted = api_prices(c.advice.question or "")
    est = c.advice.estimate
    if not quoted and est is not None and est.cost_per_1m_tokens and re.search(r"\bAPIs?\b", c.advice.question or "", re.I):
        x = _fmt(est.cost_per_1m_tokens)   # no API price given: the conclusion is the break-even price itself
        return [c.t(f"So against an API: self-hosting wins when the API charges more than about ${x} per 1M output tokens "
                    f"for a model of this class, and only while the devices stay this busy ({est.concurrency} requests in "
                    "flight); the hourly price is paid when they idle, so at a tenth of this load it costs ten times as "
                    "much per token. Give the API's price per 1M tokens for a direct comparison.",
                    f"所以和 API 比：只要 API 對同級模型每百萬輸出 token 收費高於約 ${x}，而且裝置保持這麼忙（同時 {est.concurrency} "
                    "個請求），自架就比較便宜；閒置時每小時的價格照付，負載只有十分之一時，每個 token 的成本就是十倍。"
                    "給我 API 每百萬 token 的價格，就能直接比較。")]
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


def _other_estimate(c: Ctx, model_id: str):
    """The roofline estimate of another named model on the same devices, with the same engine and the
    documented defaults for what the user did not say (None when it cannot be estimated)."""
    from rules.defaults import apply_defaults
    from rules.errors import AdvisorError
    from rules.profile import build_profile
    from rules.roofline.estimate import estimate_for_profile
    s = c.advice.profile.summary
    said = c.advice.profile.field("quantization")
    main = c.advice.estimate   # the same load and window as the answer's own plan: one figure per load
    data = {"hardware": s.hardware, "count": s.count or 1, "nodes": s.nodes or 1, "model": model_id,
            "concurrency": s.concurrency or (main.concurrency if main else None),
            "context_length": s.context_length or (main.context_length if main else None),
            "serving_mode": s.serving_mode, "interconnect": s.interconnect,
            "workload": getattr(c.advice.profile.field("workload"), "value", None),
            "quantization": s.quantization if said is not None and said.origin == "said" else None}
    try:
        p = apply_defaults(build_profile({k: v for k, v in data.items() if v is not None}))
        return estimate_for_profile(p, engine=c.advice.decision.primary)
    except (AdvisorError, ValueError):
        return None


_MEMORY_SHARE = {
    "vllm": ("vLLM --gpu-memory-utilization, e.g. in proportion to the weights", "vLLM 的 --gpu-memory-utilization，例如按權重比例"),
    "sglang": ("SGLang --mem-fraction-static, e.g. in proportion to the weights", "SGLang 的 --mem-fraction-static，例如按權重比例"),
}
"""The flag that caps one server's share of device memory, for the engines that reserve it up front."""


def _is_apple(hardware: str) -> bool:
    from rules import catalog
    try:
        return catalog.hardware(hardware).hw_class == "apple"
    except Exception:   # an id the catalog does not know: not a Mac as far as we can tell
        return False


def _memory_share(engine: str | None, lang: str, hardware: str | None = None) -> str:
    # vLLM/SGLang memory flags mean nothing on a Mac (neither runs there on the GPU): the platform decides
    if hardware and _is_apple(hardware):
        engine = None
    en, zh = _MEMORY_SHARE.get(engine or "", ("each server's context size caps its KV cache",
                                             "每個 server 以自己的上下文長度限制 KV cache"))
    return zh if lang == "zh" else en


def _models(c: Ctx) -> list[str]:
    """Two or more models named: the fit and speed of each on the same devices, and of all of them at once."""
    from agent.extract_model import model_names
    ids = list(dict.fromkeys(n.id for n in model_names(c.advice.question or "")))
    if len(ids) < 2 or not c.advice.profile.summary.hardware:
        return []
    eng = display(c.advice.decision.primary) if c.advice.decision.primary else c.t("the engine", "引擎")
    lines, total, room = [], 0.0, None
    s = c.advice.profile.summary
    for mid in ids[:3]:
        where, by = c.setup, eng
        if mid == s.model and c.advice.estimate is not None:
            est = c.advice.estimate   # the same figures as the recommendation below
        else:
            from agent.direct import run_option, setup_text
            got = None
            if (s.nodes or 1) > 1:   # a model that fits one node runs there (same engine), not over the network
                got = run_option(c, s.hardware, s.count or 1, 1, model=mid, engine=c.advice.decision.primary, plan=False)
                if got is not None and got[1].fits:
                    where = setup_text(c, s.hardware, s.count or 1)
                else:
                    got = None
            est = got[1] if got else _other_estimate(c, mid)
        if est is None:
            continue
        total += est.weights_gb
        if est.memory is not None and room is None:
            room = max(0.0, est.memory.usable_gb - est.memory.reserve_gb) * est.count
        speed = (c.t(f", about {_fmt(est.decode_tokens_per_s)} tok/s per stream",
                     f"，每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s") if est.fits and est.decode_tokens_per_s else "")
        fit = c.t("fits" if est.fits else "does not fit", "放得下" if est.fits else "放不下")
        lines.append(c.t(f"{model_name(mid)} at {est.quantization}: {_fmt(est.weights_gb)} GB of weights, {fit} on "
                         f"{where} by itself{speed} ({by}).",
                         f"{model_name(mid)}（{est.quantization}）：權重 {_fmt(est.weights_gb)} GB，單獨放在 {where} 上"
                         f"{fit}{speed}（{by}）。"))
    if len(lines) < 2:
        return []
    if room is not None and co_hosted(c.advice.question or ""):
        both = total <= room * 0.8   # leave a fifth of the memory for the KV caches of both servers
        lines.append(c.t(f"Both at once: {_fmt(total)} GB of weights against about {_fmt(room)} GB usable, "
                         + ("so they fit together: run one server per model and give each its share of the memory "
                            f"({_memory_share(c.advice.decision.primary, 'en', s.hardware)}), with the rest for KV cache."
                            if both else "which leaves too little for the KV cache: use a smaller format for one of them, "
                            "or a device per model."),
                         f"兩個同時放：權重共 {_fmt(total)} GB，可用約 {_fmt(room)} GB，"
                         + (f"放得下：每個模型各開一個 server，各分一份記憶體（{_memory_share(c.advice.decision.primary, 'zh', s.hardware)}），"
                            "其餘留給 KV cache。" if both else "KV cache 會不夠：其中一個改用較小的格式，或每個模型各用一張卡。")))
    return lines


def _option_estimate(c: Ctx, hw_id: str, count: int, memory_gb: float | None = None):
    """(primary engine, Plan, Estimate, Decision) for the user's model and workload on another hardware option: the
    same rules and planner the answer uses, with that device's own usual link (None when it cannot run)."""
    from rules.decide import decide
    from rules.defaults import apply_defaults
    from rules.errors import AdvisorError
    from rules.plan import plan_for_profile
    from rules.profile import build_profile
    s = c.advice.profile.summary
    said = lambda f: (lambda v: v.value if v is not None and v.origin == "said" else None)(c.advice.profile.field(f))  # noqa: E731
    data = {"hardware": hw_id, "count": count, "nodes": 1, "model": s.model, "params_b": None if s.model else s.params_b,
            "quantization": said("quantization"), "concurrency": said("concurrency"), "users": said("users"),
            "context_length": said("context_length"), "input_tokens": s.input_tokens, "output_tokens": s.output_tokens,
            "workload": said("workload"), "priority": said("priority"), "serving_mode": said("serving_mode"),
            "memory_gb": memory_gb}
    try:
        p = apply_defaults(build_profile({k: v for k, v in data.items() if v is not None}))
        dec = decide(p)
        if dec.primary is None and data["quantization"]:   # no engine runs the user's format on this device
            data["quantization"] = None                       # (EXL2 on a P40): the device's own engine and format
            p = apply_defaults(build_profile({k: v for k, v in data.items() if v is not None}))
            dec = decide(p)
        found = plan_for_profile(p, dec.model_dump(mode="json"))
    except (AdvisorError, ValueError):
        return None
    if not found or found[1] is None:
        return None
    return dec.primary, found[0], found[1], dec


def option_list(c: Ctx) -> list[tuple[str, int]]:
    """The hardware options to answer one by one: the profile's device, the options the user weighed
    ("2x L40S or one A100?") and any other device the message names ("two Macs: an M1 Pro and an M4 Max")."""
    from agent.direct import devices
    s = c.advice.profile.summary
    if not s.hardware:
        return []
    opts = [(s.hardware, s.count or 1), *[(o["hardware"], o.get("count") or 1) for o in (s.compared_hardware or [])
                                          if o.get("hardware")]]
    opts += devices(c.advice.question or "")
    out: dict[str, int] = {}
    for hw_id, n in opts:
        out.setdefault(hw_id, n)
    return list(out.items())[:3]


USABLE_TOK_S = 15.0
"""Per-stream decode speed a person reads comfortably: the bar for "the best model for this device"."""


def _fit_pick(c: Ctx, hw_id: str, count: int, memory_gb: float | None = None):
    """(model id, engine, Estimate, Decision) for a device when the user named no model (or theirs does not
    fit): the largest catalog model that fits at 4-bit and still decodes at USABLE_TOK_S per stream (else the
    fastest that fits). 4-bit is each engine's own format ("int4": GGUF, MLX, AWQ)."""
    from agent.direct import run_option
    from rules import model_fit
    room = model_fit.room_gb(hw_id, count, memory_gb)
    if room is None:
        return None
    tried = []
    mem = {"memory_gb": memory_gb} if memory_gb else {}
    for fit in model_fit.largest_fitting(room, k=8):
        got = run_option(c, hw_id, count, model=fit.model, plan=False, with_decision=True, **mem)
        if got is None or not got[1].fits or not got[1].decode_tokens_per_s:
            continue
        tried.append((fit.model, *got))
        if got[1].decode_tokens_per_s >= USABLE_TOK_S:
            return tried[-1]
    return max(tried, key=lambda t: t[2].decode_tokens_per_s) if tried else None


def _also(c: Ctx, dec, engine: str | None) -> str:
    """The other engines the rules recommend on that device (", also: vLLM, SGLang")."""
    others = [display(e) for e in (dec.primary, *dec.alternatives) if e and e != engine and e != "dynamo"][:3] if dec else []
    return c.t(f"; also runs {', '.join(others)}", f"；也可用 {'、'.join(others)}") if others else ""


def _toolkit(c: Ctx, hw_id: str) -> str:
    """A new NVIDIA generation needs a recent CUDA build ("; needs a CUDA 12.8+ build"), from the CUDA catalog."""
    from rules import catalog, cuda
    hw = catalog.hardware(hw_id)
    kit = cuda.min_toolkit(hw.cuda_cc) if hw.platform == "nvidia-cuda" else None
    if kit is None:
        return ""
    return c.t(f"; needs engine builds for CUDA {kit.min_cuda}+ (compute capability {hw.cuda_cc}, [source]({kit.source}))",
               f"；需要以 CUDA {kit.min_cuda} 以上編譯的引擎版本（compute capability {hw.cuda_cc}，[來源]({kit.source})）")


def _pick_line(c: Ctx, where: str, picked) -> str:
    mid, engine, est, dec = picked
    return c.t(f"{model_name(mid)} at {est.quantization} ({_fmt(est.weights_gb)} GB) with {display(engine)}, about "
               f"{_fmt(est.decode_tokens_per_s)} tok/s per stream (the largest catalog model that fits and stays above "
               f"{USABLE_TOK_S:g} tok/s){_also(c, dec, engine)}",
               f"{model_name(mid)}（{est.quantization}，{_fmt(est.weights_gb)} GB）用 {display(engine)}，每條串流約 "
               f"{_fmt(est.decode_tokens_per_s)} tok/s（型錄中放得下、且維持 {USABLE_TOK_S:g} tok/s 以上的最大模型）{_also(c, dec, engine)}")


def _options(c: Ctx) -> list[str]:
    """Hardware options the user weighed ("2x L40S or one A100?", "two Macs"): each gets its own line with the
    engine, plan, fit and speed (a model picked for it when none was named, or when the user's does not fit),
    then which one serves this workload better (more tokens/s for many users, faster streams for a few)."""
    from agent.direct import device_memory, setup_text
    s = c.advice.profile.summary
    options = option_list(c)
    if len(options) < 2:
        return []
    lines, scored = [], []
    text = c.advice.question or ""
    memory = device_memory(text)
    has_model = bool(s.model or s.params_b)
    for hw_id, count in options:
        from rules import catalog
        hw = catalog.hardware(hw_id)
        where = setup_text(c, hw_id, count)
        if not has_model:
            picked = _fit_pick(c, hw_id, count, memory.get(hw_id))
            lines.append((f"{where}{c.t(': ', '：')}" + _pick_line(c, where, picked) + c.t(".", "。") if picked else
                                 c.t(f"{where}: no catalog model fits it at 4-bit.", f"{where}：型錄中沒有 4-bit 放得下的模型。")))
            continue
        own = hw_id == s.hardware and c.advice.estimate is not None
        if own:   # the answer's own device: the same figures as the recommendation below
            engine, plan, est, dec = c.advice.decision.primary, c.advice.plan, c.advice.estimate, c.advice.decision
        else:
            got = _option_estimate(c, hw_id, count, memory.get(hw_id))
            engine, plan, est, dec = got if got else (None, None, None, None)
        if est is None:
            lines.append(c.t(f"{where}: no estimate (the model or format does not run there).",
                                    f"{where}：無法估算（模型或格式在這個硬體上跑不了）。"))
            continue
        eng = display(engine) if engine else c.t("the default engine", "預設引擎")
        if not est.fits:
            instead = _fit_pick(c, hw_id, count, memory.get(hw_id))
            alt = (c.t("; instead: ", "；改跑：") + _pick_line(c, where, instead)) if instead else ""
            lines.append(c.t(f"{where}: {c.model or 'the model'} at {est.quantization} ({_fmt(est.weights_gb)} GB of weights) "
                                    f"does not fit ({eng}){alt}{_toolkit(c, hw_id)}.",
                                    f"{where}：{c.model or '這個模型'}（{est.quantization}，權重 {_fmt(est.weights_gb)} GB）放不下（{eng}）{alt}"
                                    f"{_toolkit(c, hw_id)}。"))
            continue
        ttft = (c.t(f", TTFT about {_fmt(est.ttft_s)} s", f"，TTFT 約 {_fmt(est.ttft_s)} 秒") if est.ttft_s else "")
        agg = est.aggregate_tokens_per_s
        total = (c.t(f" and {_fmt(agg)} tok/s in total at {est.concurrency} requests at once",
                     f"，{est.concurrency} 個同時請求時總計約 {_fmt(agg)} tok/s") if agg and est.concurrency > 1 else "")
        chosen = getattr(plan, "chosen", None) if plan is not None else None
        layout = chosen.layout if chosen is not None else getattr(plan, "layout", None)
        if layout is not None and hasattr(layout, "describe"):
            lay = layout.describe(c.lang)
        elif layout is not None and getattr(layout, "strategy", None):
            lay = layout.degrees() or c.t("single device", "單一裝置")
        else:
            lay = ""
        lay = f"{lay}, " if lay else ""
        lines.append(c.t(f"{where}: {eng}, {lay}{est.quantization}; about {_fmt(est.decode_tokens_per_s)} tok/s per "
                                f"stream{total}{ttft}{_also(c, dec, engine)}{_toolkit(c, hw_id)}.",
                                f"{where}：{eng}，{lay.replace(', ', '，')}{est.quantization}；每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s"
                                f"{total}{ttft}{_also(c, dec, engine)}{_toolkit(c, hw_id)}。"))
        scored.append((where, est))
    if len(lines) < 2:
        return []
    if len(scored) >= 2:
        many = max(e.concurrency for _, e in scored) > 4
        key = (lambda e: e.aggregate_tokens_per_s or 0) if many else (lambda e: e.decode_tokens_per_s or 0)
        best = max(scored, key=lambda x: key(x[1]))
        lines.insert(0, c.t(f"Of the options you named, {best[0]} serves this best "
                            + ("(most tokens/s at your load)." if many else "(fastest streams for a few users)."),
                            f"在您列出的選項中，{best[0]} 最適合"
                            + ("（在您的負載下總吞吐最高）。" if many else "（少數使用者時每條串流最快）。")))
        formats = list(dict.fromkeys(e.quantization for _, e in scored))
        if len(formats) > 1:   # each option runs the format that suits it: the speeds are not like for like
            lines.insert(1, c.t(f"They run different formats ({' vs '.join(formats)}), so weigh quality as well as speed.",
                                f"兩者跑的格式不同（{' 對 '.join(formats)}），除了速度也要比較品質。"))
    elif len(scored) == 1 and has_model:
        lines.insert(0, c.t(f"Of the options you named, only {scored[0][0]} runs {c.model or 'this model'} as asked.",
                            f"在您列出的選項中，只有 {scored[0][0]} 能照您的需求跑 {c.model or '這個模型'}。"))
    return lines


def _parallel(c: Ctx) -> list[str]:
    plan = c.advice.plan
    par = plan.layout if plan is not None and plan.layout else c.advice.decision.parallelism
    here = ""
    if par and par.strategy:
        dims = par.degrees() or c.t("one device", "單一裝置")
        link = c.advice.profile.summary.interconnect
        from agent.names import link_text
        summ = c.advice.profile.summary
        shown = link_text(summ.hardware, summ.count, link, c.lang) if link else ""
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
                 ("mlx-lm", r"\bmlx(?:-lm)?\b"), ("exllamav3", r"\bexllama\s*v?3\b"), ("dynamo", r"\bdynamo\b"),
                 ("exllamav2", r"\bexllama(?:\s*v?2)?\b(?!\s*v?3)"), ("openvino-genai", r"\bopenvino\b"))
_OS_WORDS = (("windows", r"\bwindows\b|\bwin1[01]\b|\bwsl2?\b"),
             ("macos", r"\bmac(?:os|book|\s*studio|\s*mini)?\b|蘋果|\bapple\s+silicon\b"),
             ("linux", r"\blinux\b|\bubuntu\b"))
_OS_NAMES = {"windows": "Windows", "macos": "macOS", "linux": "Linux"}
_WINDOWS = re.compile(r"\bwindows\b|\bwin1[01]\b", re.I)
_NOT_WINDOWS = re.compile(r"\bwsl2?\b|\blinux\b|\bubuntu\b|\bmac(?:os|book)?\b|\bdual[- ]boot\b", re.I)


def stated_os(text: str) -> str | None:
    """"windows" when the user says they run Windows and names no Linux/WSL/Mac beside it (WSL2 is Linux,
    where vLLM runs); None otherwise."""
    return "windows" if _WINDOWS.search(text or "") and not _NOT_WINDOWS.search(text or "") else None


def named_engines(text: str, limit: int | None = 2) -> list[str]:
    """Engines the user's message names, in the order named (at most `limit`); read once per turn
    (the decision's lead and several answer lines ask about the same message)."""
    from rules import memo
    return memo.once(("named-engines", text), lambda: _engines_in(text))[:limit]


def _engines_in(text: str) -> list[str]:
    hits = sorted((m.start(), e) for e, rx in _ENGINE_RX for m in [rx.search(text)] if m)
    return [e for _, e in hits]


_ENGINE_RX = tuple((e, re.compile(rx, re.I)) for e, rx in _ENGINE_WORDS)


_named_engines = named_engines
_LEAVING = re.compile(r"\b(?:instead|switch(?:ing)?|replac\w*|migrat\w*|move\s+(?:away|off)|outgr\w*|moving\s+from"
                      r"|currently|(?:is|are|gets?|got|getting|runs?|too|very|so)\s+(?:very\s+|really\s+)?slow"
                      r"|queu\w*|crawl\w*|alternatives?\s+to)\b|改用|換掉|換成|太慢|很慢|變慢|取代|排隊", re.I)


_ABANDON = re.compile(r"\binstead\b|\b(?:is|are|gets?|got|getting|runs?|too|very|so)\s+(?:very\s+|really\s+)?slow\b"
                      r"|\breplac\w*|\bmigrat\w*|\bmove\s+(?:away|off)\b|\boutgr\w*|\bcrawl\w*"
                      r"|改用|換掉|換成|太慢|很慢|變慢|取代", re.I)


_AT_ONCE = re.compile(r"\bat\s+the\s+same\s+time\b|\bsimultaneous\w*|\bconcurren\w*|\beveryone\b|\ball\s+at\s+once\b"
                      r"|\bin\s+parallel\b|同時|一起用|併發|並發", re.I)


def many_at_once(text: str) -> bool:
    """The message speaks of many requests at the same time ("when everyone uses it at the same time")."""
    return bool(_AT_ONCE.search(text))


_ASKING_IF = re.compile(r"(?:會不會|會不會變得|會|will\s+it(?:\s+be)?|would\s+it(?:\s+be)?|is\s+it)\s*$", re.I)
"""Words before a "slow" that make it a question about the plan ("長 prompt 會不會很慢？"), not a complaint."""


_ANY_ENGINE = "(?:" + "|".join(rx for _, rx in _ENGINE_WORDS) + ")"
_LEAVE_ENGINE = re.compile(r"(?:\breplac\w*|\bswitch\w*\s+(?:away\s+)?from|\bmov(?:e|ing)\s+(?:away\s+)?(?:from|off)"
                           r"|\bmigrat\w*\s+(?:away\s+)?from|\bget(?:ting)?\s+(?:rid\s+of|off)|\bditch\w*|\bdrop(?:ping)?"
                           r"|\boutgr\w*|\balternatives?\s+to|\binstead\s+of|\bleav(?:e|ing)|換掉|取代|替換掉?|放棄|不想再?用|不再用)"
                           r"\s*(?:\w+\s+){0,2}?" + _ANY_ENGINE + "|" + _ANY_ENGINE + r"[^。？！?.!]{0,12}(?:換掉|不用了|不想用了)", re.I)
"""An engine as the object of leaving ("replace Ollama", "move off vLLM", "換掉 vLLM"): not hardware ("replacing
the 3090s with two R9700", "換成 8 張 H20")."""
_ANOTHER = re.compile(r"\binstead\b|\bwhat\s+else\b|\b(?:another|other|different|better)\s+(?:engine|server|runtime|option|tool)s?\b"
                      r"|\balternatives?\b|\bsomething\s+else\b|改用什麼|換什麼|換成什麼|換哪|其他(?:的)?引擎|別的引擎|換.{0,4}引擎", re.I)
"""A request for another engine: with a complaint about the one in use, the user is leaving it."""
_ONLY_ASKING = re.compile(r"(?:\bshould\s+(?:we|i)|\bdo\s+(?:we|i)\s+need\s+to|\bworth|\bwhether\s+to|要不要|該不該|需不需要)\s*$", re.I)


def abandoning(text: str) -> bool:
    """The user states they are leaving a named engine ("we want to replace Ollama", "it gets very slow ... what
    should we run instead?"), not merely asking whether to ("should we switch?"), whether the plan will be slow
    ("會不會很慢？"), or complaining without asking for another engine ("生成就變得很慢，跟硬體有關嗎？")."""
    said = any(not _ONLY_ASKING.search(text[max(0, m.start() - 24):m.start()]) for m in _LEAVE_ENGINE.finditer(text))
    complaint = any(not _ASKING_IF.search(text[max(0, m.start() - 12):m.start()]) for m in _ABANDON.finditer(text))
    return said or (complaint and bool(_ANOTHER.search(text)))


def leaving(text: str) -> bool:
    """The user names an engine to move away from ("we run Ollama and it is slow: what instead?")."""
    return bool(_LEAVING.search(text))


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


def _os_native(engine_id: str, os_id: str) -> bool:
    from rules.engines import engine
    spec = engine(engine_id)
    entry = spec.os.get(os_id) if spec.os else None
    return entry is not None and entry.status == "native"


def _device_answer(c: Ctx, engine_id: str, hw_id: str) -> str:
    """Yes / partly / no for an engine on the user's device (rules.engines.verdict), and what to install."""
    from rules import catalog, cuda, engines
    v, hw, name = engines.verdict(engine_id, hw_id), catalog.hardware(hw_id), display(engine_id)
    where, link = c.setup or hw.name, f"[{c.t('source', '來源')}]({v.source})"
    status = engines.engine(engine_id).platforms.get(hw.platform)
    quant = c.advice.profile.summary.quantization
    said = c.advice.profile.field("quantization")
    no_kernel = (v.ok and quant and said is not None and said.origin == "said"
                 and engines.quant_kernel(engine_id, quant, hw.platform, hw.cuda_cc) is None)
    if not v.ok:
        out = c.t(f"**{name} on {where}: no** — {v.en} ({link}).", f"**{name} 在 {where} 上：不行**——{v.zh}（{link}）。")
    elif no_kernel:   # the engine runs on the device, but not in the format the user asked about
        q = _QUANT_NAMES.get(quant, quant.upper())
        out = c.t(f"**{name} on {where}: yes, but not in {q}** — it runs on the device ({link}), but the engine catalog "
                  f"lists no {q} kernel for it on compute capability {hw.cuda_cc}.",
                  f"**{name} 在 {where} 上：可以，但不能用 {q}**——引擎能在這個裝置上跑（{link}），但引擎型錄沒有它在 "
                  f"compute capability {hw.cuda_cc} 上的 {q} kernel。")
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


def _under_linux(c: Ctx, engine_id: str, hw_id: str) -> str:
    """Whether the engine supports the card once it runs under Linux (WSL2 or a Linux machine), in words that
    do not read as a yes for the OS the user asked about."""
    from rules import engines
    v, name, where = engines.verdict(engine_id, hw_id), display(engine_id), c.setup or hw_id
    link = f"[{c.t('source', '來源')}]({v.source})"
    if v.ok:
        return c.t(f"Under Linux (WSL2 or a Linux machine) {name} does support {where} ({link}).",
                   f"在 Linux（WSL2 或 Linux 主機）上，{name} 支援 {where}（{link}）。")
    return c.t(f"Even under Linux {name} does not support {where}: {v.en} ({link}).",
               f"即使在 Linux 上，{name} 也不支援 {where}：{v.zh}（{link}）。")


def _asked(c: Ctx) -> list[str]:
    """The direct answer to "does <engine> run on <device / OS>", one line per named engine."""
    text = c.advice.question or ""
    hw_id, os_id = c.advice.profile.summary.hardware, _asked_os(text)
    out = []
    from agent.direct import asked_engines
    for e in asked_engines(text):
        if os_id in ("windows", "macos"):
            line = _os_answer(c, e, os_id)
        elif hw_id and c.platform == "apple-silicon":
            line = _os_answer(c, e, "macos")
        else:
            line = None
        native_os = os_id not in ("windows", "macos") or _os_native(e, os_id)
        if hw_id and c.platform != "apple-silicon" and native_os:   # a "not natively" for the OS is the answer;
            line = " ".join(x for x in (line, _device_answer(c, e, hw_id)) if x)   # a device "yes" would contradict it
        elif hw_id and c.platform != "apple-silicon" and os_id == "windows" and _os_native(e, "linux"):
            # "can vLLM use this card on Windows?": not natively; whether it would under Linux (WSL2 or a Linux box)
            line = " ".join(x for x in (line, _under_linux(c, e, hw_id)) if x)
        if line:
            out.append(line)
    return out


_VERDICT_CUE = re.compile(
    r"\bshould\s+(?:we|i)\s+(?:switch|move|migrate|keep|stay|stick|use|go\s+with|drop)\b"
    r"|\b(?:is|would|will)\s+(?:\w+\s+){0,3}(?:fine|ok(?:ay)?|enough|good\s+enough|sufficient|suitable|a\s+good\s+(?:fit|choice|idea))\b"
    r"|\bcan\s+(?:we|i)\s+(?:keep|stay\s+on|stick\s+with)\b|\bworth\s+switching\b"
    r"|\b(?:can|could|will|would)\s+(?:\S+\s+){0,2}(?:do\s+(?:it|this|that)|handle|cope|serve\s+(?:it|this|that|them|us))\b"
    r"|(?:可以嗎|好嗎|夠嗎|適合嗎|行嗎|要不要換|該不該換|需要換|撐得住嗎)", re.I)


def verdict_asked(text: str) -> list[str]:
    """The engines a yes/no question is about ("is Ollama fine for 6 people?", "should we switch from Ollama?")."""
    return named_engines(text) if _VERDICT_CUE.search(text) else []


def _engine_verdict(c: Ctx) -> list[str]:
    """Yes / it works but / no for each engine the question is about, from the decision and its reasons."""
    d, out = c.advice.decision, []
    prim = display(d.primary) if d.primary else None
    why = next(iter(d.favouring()), None)
    because = (c.t(" Reason: ", "理由：") + ((why.rationale_zh if c.lang == "zh" and why.rationale_zh else why.rationale)
                                            .strip())) if why else ""
    avoided = {a.engine: a for a in d.avoid}
    moving = leaving(c.advice.question or "")   # "we run X, should we switch?": the answer is about leaving X
    for e in verdict_asked(c.advice.question or ""):
        name = display(e)
        if moving and e in avoided and prim:
            a = avoided[e]
            reason = ((a.reason_zh or a.reason) if c.lang == "zh" else a.reason).rstrip(".。")
            out.append(c.t(f"**Switch from {name}: yes** — {reason}. Move to {prim}.",
                           f"**要從 {name} 換掉：是**——{reason}。改用 {prim}。"))
        elif moving and e == d.primary:
            out.append(c.t(f"**Stay on {name}: yes** — it is still the recommendation for this setup.{because}",
                           f"**繼續用 {name}：可以**——它仍是這個配置的建議引擎。{because}"))
        elif e == d.primary:
            out.append(c.t(f"**{name}: yes** — it is the recommendation for this setup.{because}",
                           f"**{name}：可以**——它就是這個配置的建議引擎。{because}"))
        elif e in d.alternatives and prim:
            out.append(c.t(f"**{name}: it works, but {prim} fits better** — {name} is an alternative here.{because}",
                           f"**{name}：可以用，但 {prim} 更合適**——{name} 在這裡是備選。{because}"))
        elif e in avoided:
            a = avoided[e]
            reason = (a.reason_zh or a.reason) if c.lang == "zh" else a.reason
            to = c.t(f" Use {prim} instead.", f"改用 {prim}。") if prim else ""
            out.append(c.t(f"**{name}: no** — {reason}.{to}", f"**{name}：不建議**——{reason}。{to}").replace("..", ".")
                       .replace("。。", "。"))
        elif prim:
            out.append(c.t(f"**{name}: not the first choice here** — {prim} is.{because}",
                           f"**{name}：不是這裡的首選**——首選是 {prim}。{because}"))
        if out:
            out[-1] += _not_on_other_devices(c, e)
    return out


def _not_on_other_devices(c: Ctx, engine_id: str) -> str:
    """The other devices the user named on which the engine cannot run well (ExLlamaV2 on a P40 beside a 3090):
    the verdict above is for the recommended device only, so say where it does not hold (engine catalog)."""
    from rules import catalog, engines
    from rules.facts import SLOW_FP16_CC
    notes = []
    for hw_id, _ in option_list(c)[1:]:
        hw = catalog.hardware(hw_id)
        cc = float(hw.cuda_cc) if hw.cuda_cc else None
        v = engines.verdict(engine_id, hw, slow_fp16=cc in SLOW_FP16_CC if cc is not None else False)
        if not v.ok:
            notes.append(c.t(f" Not on the {hw.name}: {v.en.rstrip('.')}.", f"但不適用於 {hw.name}：{v.zh.rstrip('。')}。"))
    return "".join(notes)


_COMPARE_CUE = re.compile(r"\b(?:faster|slower|quicker|better|worse|vs\.?|versus|compared?|comparison|or)\b|比較|還是|哪個快|比.{0,12}快", re.I)


def compare_asked(text: str) -> list[str]:
    """Two engines the message compares ("is MLX really faster than llama.cpp?", "vLLM or SGLang?")."""
    named = named_engines(text)
    return named if len(named) == 2 and _COMPARE_CUE.search(text) else []


def _engine_estimates(c: Ctx) -> dict[str, "object"]:
    """The estimate of each engine at the plan's layout: the primary's own and the alternatives table."""
    out = {}
    if c.advice.estimate is not None and c.advice.decision.primary:
        out[c.advice.decision.primary] = c.advice.estimate
    plan = c.advice.plan
    for o in (plan.alternatives if plan is not None else []):
        if o.engine and o.estimate is not None:
            out.setdefault(o.engine, o.estimate)
    return out


SAME_SPEED_PCT = 3.0
"""Two estimates closer than this are the same figure: the estimator's own error is larger (ERROR_BAND)."""


def _compare(c: Ctx) -> list[str]:
    """Two named engines side by side: the tools' figures for each on the user's setup, and which one leads here."""
    pair = compare_asked(c.advice.question or "")
    if not pair:
        return []
    a, b = pair
    ests, d = _engine_estimates(c), c.advice.decision
    avoided = {x.engine: x for x in d.avoid}
    from agent.diagnosis import measured_pair
    out, measured_faster = measured_pair(c, a, b)   # the user's own figures for both come first and win
    if a in ests and b in ests and ests[a].decode_tokens_per_s and ests[b].decode_tokens_per_s:
        ea, eb = ests[a], ests[b]
        gap = abs(ea.decode_tokens_per_s / eb.decode_tokens_per_s - 1) * 100
        where = c.setup or c.t("this setup", "這個配置")
        q = c.advice.question or ""
        which = re.search(r"\bwhich\b|哪(?:個|一個|一款)", q, re.I)
        said_faster = re.search(r"\b(?:faster|quicker)\b|(?<!哪個)(?<!哪一個)比(?!較)[^。？?]{0,16}快", q, re.I)
        if gap < SAME_SPEED_PCT:   # the estimate cannot tell them apart: never "faster by 0.00%"
            out.append(c.t(f"About the same here: the estimate puts the two within {SAME_SPEED_PCT:g}% of each other in "
                           "decode, inside its own error; measure both on your prompts.",
                           f"在這裡差不多：估計兩者的 decode 相差不到 {SAME_SPEED_PCT:g}%，在估計本身的誤差之內；請用自己的 prompt 兩個都量。"))
        elif which:   # "which is faster?": name the faster one
            fast, slow = (a, b) if ea.decode_tokens_per_s >= eb.decode_tokens_per_s else (b, a)
            out.append(c.t(f"{display(fast)}, by about {_fmt(gap)}% in decode over {display(slow)} in the estimate.",
                           f"{display(fast)}，估計 decode 比 {display(slow)} 快約 {_fmt(gap)}%。"))
        elif said_faster:   # "is A faster than B?": yes or no first, in the order the user named them
            yes = ea.decode_tokens_per_s > eb.decode_tokens_per_s
            out.append(c.t(f"{'Yes' if yes else 'No'}, {'by about ' + _fmt(gap) + '% in decode' if yes else 'not here'}.",
                           f"{'是' if yes else '不是'}，{'decode 約快 ' + _fmt(gap) + '%' if yes else '在這裡沒有比較快'}。"))
        apart = c.t(f"{_fmt(gap)}% apart", f"差 {_fmt(gap)}%") if gap >= SAME_SPEED_PCT else c.t("the same", "相同")
        out.append(c.t(f"On {where} the estimate gives {display(a)} about {_fmt(ea.decode_tokens_per_s)} tok/s and "
                       f"{display(b)} about {_fmt(eb.decode_tokens_per_s)} tok/s per stream ({apart}): both read "
                       "the same weights through the same memory bandwidth, so the gap comes from each engine's kernels "
                       "and weight format, not from the hardware.",
                       f"在 {where} 上，估計 {display(a)} 每條串流約 {_fmt(ea.decode_tokens_per_s)} tok/s、{display(b)} 約 "
                       f"{_fmt(eb.decode_tokens_per_s)} tok/s（{apart}）：兩者以同樣的記憶體頻寬讀同樣的權重，差距來自各自的 "
                       "kernel 與權重格式，而不是硬體。"))
    for e in pair:
        if e in avoided:
            r = (avoided[e].reason_zh or avoided[e].reason) if c.lang == "zh" else avoided[e].reason
            out.append(c.t(f"{display(e)} is set aside here: {r.rstrip('.')}.", f"{display(e)} 在這裡不建議：{r.rstrip('。')}。"))
    lead = next((e for e in (d.primary, *d.alternatives) if e in pair), None)
    if lead and measured_faster in (None, lead):
        out.append(c.t(f"For this setup {display(lead)} leads; measure both with your own prompt lengths before switching "
                       "(decode tok/s and time to first token).",
                       f"這個配置以 {display(lead)} 為先；換引擎前，用自己的 prompt 長度把兩者都量一次（decode tok/s 與首字延遲）。"))
    return out


_WORTH_BUY = re.compile(r"\bworth\s+(?:buying|getting|the\s+money|a\s+buy)\b|\bgood\s+buy\b|值得買|值得入手", re.I)
_WORTH_IT = re.compile(r"\bworth\s+it\b|值不值得|值得嗎|划不划算", re.I)
_BUYING = re.compile(r"\b(?:used|second[\s-]hand|buy|buying|bought|purchase|ebay)\b|二手|買|入手", re.I)


def _asks_worth(text: str) -> bool:
    """A question about buying the hardware (not "is speculative decoding worth it?")."""
    return bool(_WORTH_BUY.search(text) or (_WORTH_IT.search(text) and _BUYING.search(text)))


def _worth(c: Ctx) -> list[str]:
    """"Is this card worth buying?": what it runs for the user's model, and which engines it rules out."""
    if not c.setup or not _asks_worth(c.advice.question or ""):
        return []
    d, est = c.advice.decision, c.advice.estimate
    sep = c.t(", ", "、")
    runs = [display(e) for e in (d.primary, *d.alternatives) if e]
    off = [display(a.engine) for a in d.avoid
           if a.rule == "constraint-hardware-support" and engines_native(a.engine, c) and a.engine != "dynamo"]
    fit = ""
    if est is not None and c.model:
        fit = (c.t(f"{c.model} fits at {est.quantization}, about {_fmt(est.decode_tokens_per_s)} tok/s per stream with "
                   f"{runs[0]}. ", f"{c.model} 以 {est.quantization} 放得下，用 {runs[0]} 每條串流約 "
                   f"{_fmt(est.decode_tokens_per_s)} tok/s。") if est.fits and est.decode_tokens_per_s and runs else
               c.t(f"{c.model} does not fit it. ", f"{c.model} 放不下。") if not est.fits else "")
    who = c.t(f"It is worth it as a card for {sep.join(runs)}", f"當作 {sep.join(runs)} 用的卡是值得的") if runs else ""
    notfor = (c.t(f"; not if you need {sep.join(off)}, which do not run well on it (see below)",
                  f"；如果需要 {sep.join(off)}，就不值得，它們在這張卡上跑不好（見下方）") if off else "")
    return [fit + who + notfor + c.t(".", "。")] if who else []


def engines_native(engine_id: str, c: Ctx) -> bool:
    """The engine supports the device's platform at all (its refusal is then about this device: compute
    capability, FP16 speed)."""
    from rules.engines import engine
    status = engine(engine_id).platforms.get(c.platform) if c.platform else None
    return status is not None and status.status != "experimental"


_PLATFORM_WORDS = (("amd-rocm", r"\bROCm\b|\bAMD\b|\bRadeon\b|\bInstinct\b|\bMI\d{2,3}X?\b"),
                   ("intel-gaudi", r"\bGaudi\b|\bHPU\b"), ("intel-gpu", r"\bIntel\s+(?:Arc|GPU|XPU)\b|\bXPU\b|\boneAPI\b"),
                   ("apple-silicon", r"\bApple\s+Silicon\b|\bMetal\b"), ("google-tpu", r"\bTPUs?\b"),
                   ("huawei-ascend", r"\bAscend\b|昇騰"), ("aws-neuron", r"\bNeuron\b|\bInferentia\b|\bTrainium\b"),
                   ("x86-cpu", r"\bCPU[\s-]only\b|\bx86\b"), ("arm-cpu", r"\baarch64\b|\bARM\s+CPU\b"))
_PLATFORM_NAMES = {"amd-rocm": "AMD GPUs (ROCm)", "intel-gaudi": "Intel Gaudi", "intel-gpu": "Intel GPUs",
                   "apple-silicon": "Apple silicon", "google-tpu": "Google TPU", "huawei-ascend": "Huawei Ascend",
                   "aws-neuron": "AWS Neuron", "x86-cpu": "x86 CPUs", "arm-cpu": "ARM CPUs"}
_STATUS = {"native": ("yes", "可以"), "plugin": ("through a plugin", "透過 plugin"), "experimental": ("experimental only", "只有實驗性支援")}


def _platform_word_answer(c: Ctx) -> list[str]:
    """"Does vLLM run on ROCm?" with no device named: the engine catalog's entry for that platform."""
    from rules.engines import engine
    text = c.advice.question or ""
    platform = next((p for p, rx in _PLATFORM_WORDS if re.search(rx, text, re.I)), None)
    if platform is None:
        return []
    out, where = [], _PLATFORM_NAMES.get(platform, platform)
    for e in _named_engines(text):
        entry = engine(e).platforms.get(platform)
        name = display(e)
        if entry is None:
            out.append(c.t(f"**{name} on {where}: no** — the engine catalog lists no {where} support for it.",
                           f"**{name} 在 {where} 上：不支援**——引擎型錄沒有列出它支援 {where}。"))
            continue
        en, zh = _STATUS.get(entry.status, (entry.status, entry.status))
        note = f" — {entry.note.rstrip('.')}" if entry.note and c.lang != "zh" else ""
        out.append(c.t(f"**{name} on {where}: {en}**{note} ([source]({entry.source})).",
                       f"**{name} 在 {where} 上：{zh}**（[來源]({entry.source})）。"))
    return out


def _mac_too(c: Ctx, named: list[str], os_id: str | None) -> list[str]:
    """A Mac named beside the device the answer is about ("on Windows with a 4080, and on my M3 Max?"): the
    named engines on macOS and what runs there natively (MLX-LM first: the engine built for Apple silicon)."""
    from agent.direct import devices
    from rules import catalog
    macs = [h for h, _ in devices(c.advice.question or "") if catalog.hardware(h).platform == "apple-silicon"]
    if os_id == "macos" or not macs or c.platform == "apple-silicon":
        return []
    mac = catalog.hardware(macs[0]).name
    out = [c.t(f"On the {mac}: ", f"在 {mac} 上：") + " ".join(x for x in (_os_answer(c, e, "macos") for e in named) if x)]
    native = [display(e) for e in ("mlx-lm", "llama.cpp", "ollama") if _os_native(e, "macos")]
    if native and not all(_os_native(e, "macos") for e in named):
        out.append(c.t(f"Natively on macOS (Metal GPU): {', '.join(native)}.", f"在 macOS 上原生可用（Metal GPU）：{'、'.join(native)}。"))
    return out


def _platform(c: Ctx) -> list[str]:
    asked = _asked(c) or ([] if c.advice.profile.summary.hardware else _platform_word_answer(c))
    hw_id = c.advice.profile.summary.hardware
    measure = c.t("Support on paper is not speed: check the engine's release notes for your exact device and "
                  "measure before committing.", "文件上支援不等於跑得快：確認引擎版本說明是否列出您的裝置，實測後再定案。")
    if asked:   # a named engine gets its direct answer, not the whole list
        os_id = _asked_os(c.advice.question or "") or ("macos" if c.platform == "apple-silicon" else None)
        named = _named_engines(c.advice.question or "")
        if os_id in ("windows", "macos") and not all(_os_native(e, os_id) for e in named):
            native = [display(e) for e in _candidates(c) if e not in named and _os_native(e, os_id)][:3]
            if native:
                sep = c.t(", ", "、")
                asked.append(c.t(f"Natively on {_OS_NAMES[os_id]}: {sep.join(native)}.",
                                 f"在 {_OS_NAMES[os_id]} 上原生可用的：{sep.join(native)}。"))
        asked += _mac_too(c, named, os_id)
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
    if stated is None and s.hardware:
        from agent.direct import device_memory
        stated = device_memory(c.advice.question or "").get(s.hardware)
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
    picked = _fit_pick(c, s.hardware, s.count or 1, stated) if s.hardware else None
    if picked is not None:   # "and how fast?": the largest that is still pleasant to read, with its speed
        out.append(c.t(f"For speed: {_pick_line(c, where, picked)}.", f"考慮速度：{_pick_line(c, where, picked)}。"))
    out.append(c.t("At 8-bit the same memory holds models about half that size; `advisor catalog models` lists all of them.",
                   "改用 8-bit 時，同樣記憶體約只能放一半大小的模型；`advisor catalog models` 可列出全部模型。"))
    return out


_BF16_WORDS = re.compile(r"\bbf16\b|\bbfloat16\b|\bbfloat\b", re.I)
"""The user names BF16 (often an error message: "does not support bfloat16")."""

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
    if not s.hardware or not (s.quantization or _BF16_WORDS.search(c.advice.question or "")):
        return []
    hw = catalog.hardware(s.hardware)
    if hw.platform != "nvidia-cuda":
        return []
    name = short_name(hw.name) if c.lang == "zh" else hw.name
    asked = [e for e in named_engines(c.advice.question or "") if e != "dynamo"]
    eng = (asked[0] if asked else None) or d.primary or next(iter(d.alternatives), None)   # the engine asked about first
    if s.quantization == "fp8" and not hw.tflops.fp8:
        entry = engines.quant_support(eng, "fp8") if eng else None
        if entry is None or entry.below_min_cc is None:
            need = (c.t(f" Its FP8 needs compute capability {entry.min_cuda_cc:g} or newer (Ada, Hopper, Blackwell) "
                        f"([source]({entry.source})); on this card use INT8 or 4-bit (AWQ, GPTQ, GGUF) instead.",
                        f"它的 FP8 需要 compute capability {entry.min_cuda_cc:g} 以上（Ada、Hopper、Blackwell）"
                        f"（[來源]({entry.source})）；這張卡請改用 INT8 或 4-bit（AWQ、GPTQ、GGUF）。")
                    if entry is not None and entry.min_cuda_cc else "")
            return [c.t(f"{name} (compute capability {hw.cuda_cc}) has no FP8 tensor cores, and "
                        f"{display(eng) if eng else 'no recommended engine'} has no FP8 path for it.",
                        f"{name}（compute capability {hw.cuda_cc}）沒有 FP8 tensor core，"
                        f"{display(eng) if eng else '推薦的引擎'}在這張卡上沒有 FP8 的執行路徑。") + need]
        return [c.t(f"{name} (compute capability {hw.cuda_cc}) has no FP8 tensor cores, so FP8 brings no compute "
                    f"speed-up there: {display(eng)} runs an FP8 checkpoint weight-only (W8A16), which still halves the "
                    f"weight memory against 16-bit ([source]({entry.source})).",
                    f"{name}（compute capability {hw.cuda_cc}）沒有 FP8 tensor core，所以 FP8 在這張卡上不會帶來算力加速："
                    f"{display(eng)} 以 weight-only（W8A16）方式執行 FP8 checkpoint，權重記憶體仍比 16-bit 省一半"
                    f"（[來源]({entry.source})）。"),
                c.t("Measure TPOT against the 16-bit or INT8/AWQ build before choosing the format.",
                    "選格式前，和 16-bit 或 INT8／AWQ 版本比較實測 TPOT。")]
    asked16 = s.quantization in ("bf16", "f16") or bool(_BF16_WORDS.search(c.advice.question or ""))
    if asked16 and hw.tflops.fp16 and not hw.tflops.bf16:
        return [c.t(f"{name} (compute capability {hw.cuda_cc}) has no BF16 compute (the hardware catalog lists FP16 "
                    "only), so a BF16 checkpoint runs converted to FP16 (half precision): start vLLM or SGLang with "
                    "--dtype half (llama.cpp's F16 GGUF needs nothing); a few models overflow in FP16, so check outputs.",
                    f"{name}（compute capability {hw.cuda_cc}）沒有 BF16 運算（硬體型錄只列 FP16），BF16 的 checkpoint 要轉成 "
                    "FP16（半精度）執行：vLLM 或 SGLang 啟動時加 --dtype half（llama.cpp 的 F16 GGUF 不用設定）；"
                    "少數模型在 FP16 下會溢位，請檢查輸出。")]
    if not s.quantization:
        return []
    return []


def _quant(c: Ctx) -> list[str]:
    from rules import catalog, engines
    from rules.engines import all_engines
    sep = c.t(", ", "、")
    parts = []
    hw_id = c.advice.profile.summary.hardware
    hw = catalog.hardware(hw_id) if hw_id else None
    for e in _candidates(c)[:4]:
        fmt4 = (all_engines()[e].generic_formats.int4 if all_engines()[e].generic_formats else None) or []
        # only the formats the engine runs on this device (vLLM's AWQ needs CC 7.5: not on a V100)
        fmt4 = [f for f in fmt4 if hw is None
                or engines.device_kernel(e, f"{f}-4.0" if f in ("exl2", "exl3") else f, hw, exact=True) is not None]
        if fmt4:
            parts.append(f"{display(e)}: {'/'.join(fmt4)}")
    return [c.t("A generic \"4-bit\" means each engine's own format: GGUF Q4_K_M for llama.cpp and Ollama, EXL2/EXL3 at "
                "about 4 bits per weight for ExLlama, AWQ or GPTQ for vLLM, SGLang and TensorRT-LLM, MLX 4-bit on a Mac; "
                "start from the model's native format and quantize only as far as memory requires.",
                "一般說的「4-bit」指的是各引擎自己的格式：llama.cpp 與 Ollama 用 GGUF Q4_K_M，ExLlama 用約 4 bpw 的 EXL2/EXL3，"
                "vLLM、SGLang、TensorRT-LLM 用 AWQ 或 GPTQ，Mac 上用 MLX 4-bit；從模型原生格式出發，只量化到記憶體需要的程度。"),
            c.t(f"Here: {sep.join(parts)}.", f"在這個配置：{sep.join(parts)}。") if parts else ""]


def _direct(name: str, module: str = "direct") -> Callable[[Ctx], list[str]]:
    """A part answered by agent.direct or agent.direct_fit (imported when used)."""
    def build(c: Ctx) -> list[str]:
        import importlib
        return getattr(importlib.import_module(f"agent.{module}"), name)(c)
    return build


def _engine_behaviour(c: Ctx) -> list[str]:
    from agent import direct_engine
    return direct_engine.answer(c)


TOPICS: dict[str, tuple[tuple[str, str], Callable[[Ctx], list[str]], str]] = {
    "engine": (("How the engine behaves", "引擎的行為"), _engine_behaviour, r"prefix|LoRA|speculat|batch|parallel|NUMA|AMX"),
    "capability": (("Format on this hardware", "這個硬體上的格式"), _direct("capability"), r"FP8|FP4|MXFP4|NVFP4|tensor core"),
    "need-count": (("How many you need", "需要幾個"), _direct("need_count"), r"node|enough|fits?|放得下|節點"),
    "fit": (("Does it fit", "放得下嗎"), _direct("fit", "direct_fit"), r"\bfit|OOM|out of memory|放得下|顯存"),
    "ceiling": (("How many at once", "同時能服務多少"), _direct("ceiling", "direct_fit"), r"concurren|KV cache|併發"),
    "growth": (("Why memory grows", "記憶體為什麼暴增"), _direct("growth", "direct_fit"), r"num_ctx|KV cache|context"),
    "layouts": (("The layouts you named", "您提到的配置"), _direct("layouts", "direct_fit"), r"tensor parallel|pipeline parallel|replica"),
    "cost-compare": (("Cost per 1M tokens on each", "各裝置每百萬 token 成本"), _direct("cost_compare", "direct_fit"), r"cost|\$|成本"),
    "batch-time": (("How long the job takes", "批次要跑多久"), _direct("batch_time"), r"batch|offline|批次|離線"),
    "slow-setup": (("Is the setup wrong", "是不是設定錯了"), _direct("slow_setup"), r"bandwidth|decode|頻寬"),
    "backend": (("Vulkan or ROCm", "Vulkan 還是 ROCm"), _direct("backend"), r"Vulkan|ROCm|HIP"),
    "settings": (("Settings", "設定"), _direct("settings"), r"--max-num-seqs|--max-model-len|launch"),
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
    "options": (("The options you compared", "您比較的選項"), _options, r"\bvs\b|\bor\b|還是|或"),
    "worth": (("Is it worth it", "值不值得"), _worth, r"worth|值得"),
    "engine-compare": (("The two engines you compared", "您比較的兩個引擎"), _compare, r"faster|slower|\bvs\b|比較"),
    "engine-verdict": (("The engine you asked about", "您問的引擎"), _engine_verdict, r"\bollama\b|\bvllm\b|\bsglang\b"),
    "models": (("Each model", "各個模型"), _models, r"gpu-memory-utilization|several models|multiple models|多個模型"),
    "power-mode": (("Power mode", "功耗模式"), _power, r"nvpmodel|power mode|MAXN|功耗"),
    "tool-calling": (("Tool calling", "工具呼叫"), _tools, r"tool[\s-]call|function[\s-]call|工具呼叫"),
    "flash-attention": (("Flash attention (-fa)", "Flash attention（-fa）"), _flash, r"flash[\s-]?att|--flash-attn"),
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


# Words that put named things up as choices ("X or Y", "X vs Y", "which one", 還是, 哪個, 選)
_CHOICE = re.compile(r"\bor\b|\bvs\.?(?!\w)|\bversus\b|\bwhich\s+(?:one|is|of|would|should|card|gpu|box|mac|model|setup)\b"
                     r"|\bbetter\b|\bcompar\w*|\bchoose\b|\bpick\b|\binstead\s+of\b|\beither\b|還是|或(?:是|者)?|哪(?:個|一|台|張|種|款)"
                     r"|\bbetween\b|\bwhat\s+about\b|選|比較|划算|差在哪|差別|差異", re.I)
# Words that ask about each named thing, also in the sentence right after the last one ("... on each?")
_EACH = re.compile(r"\b(?:on|for|with|of|in)\s+each\b|\beach\s+(?:one|of\s+them|option|box|machine|setup)\b"
                   r"|\bwhich\s+(?:one|box|card|gpu|mac|machine|setup|is)\b|各(?:自|用|要|跑|需要|適合)|哪(?:個|台|張|一台|一張)|差在哪", re.I)
# Words that ask to run several models together
_CO_HOST = re.compile(r"\bboth\b|\btogether\b|\balongside\b|\bco-?host|\bside\s+by\s+side\b|\bsame\s+(?:gpu|card|box|node|machine|server)\b"
                      r"|\bat\s+once\b(?=[^.?!]{0,40}\bmodels?\b)|同時(?:跑|放|載入|服務|部署|開)|一起|共用|都要|兩個都", re.I)
_SENT_END = re.compile(r"[.?!。？！\n]")


def _spans(text: str, kind: str) -> list[tuple[int, int]]:
    if kind == "model":
        from agent.extract_model import model_names
        return sorted((n.start, n.end) for n in model_names(text))
    from agent.extract_aliases import hardware_index
    return sorted((h.start, h.end) for h in hardware_index().find(text))


def weighed(text: str, kind: str = "device") -> bool:
    """Whether the named devices (or models) are put up as choices: a choice word from the sentence of the
    first mention to the end of the sentence of the last ("2x 3090 or one 5090?", "M1 Pro and M4 Max:
    which one?"). A device named for contrast ("the recipe is for B200, but we own H100") is not."""
    lines = text.split("\n")
    if len(lines) > 1:   # facts added on lines of their own (answers) are not weighed against the question's
        return any(weighed(line, kind) for line in lines)
    spans = _spans(text, kind)
    if len(spans) < 2:
        return False
    start = max((m.end() for m in _SENT_END.finditer(text, 0, spans[0][0])), default=0)
    ends = [m.end() for m in _SENT_END.finditer(text, spans[-1][1])][:2]
    end, after = (ends + [len(text), len(text)])[0], (ends + [len(text), len(text)])[1]
    # models are often weighed in the question that follows them ("Qwen3-8B and 14B run faster. Which model should I pick?")
    return bool(_CHOICE.search(text, start, after if kind == "model" else end) or _EACH.search(text, start, after))


def co_hosted(text: str) -> bool:
    """Whether the message asks to run several models at the same time ("both on one card", "一起跑")."""
    return bool(_CO_HOST.search(text))


def _several_models(text: str) -> bool:
    from agent.extract_model import model_names
    return len({n.id for n in model_names(text)}) >= 2


_HOST_CPUS = ("x86-cpu", "arm-cpu")


def _devices(advice: "Advice") -> list[tuple[str, int]]:
    """The devices the message names as options. A CPU named beside an accelerator is that box's host
    ("EPYC 9654 + one 4090": one machine that offloads to RAM), not an alternative, unless the message
    compares them (then `compared_hardware` holds it)."""
    from agent.direct import devices
    from rules import catalog
    if not advice.profile.summary.hardware:
        return []
    named = devices(advice.question or "")
    if advice.profile.summary.compared_hardware:
        return named
    platforms = {hw_id: catalog.all_hardware()[hw_id].platform if hw_id in catalog.all_hardware() else None
                 for hw_id, _ in named}
    if any(p not in _HOST_CPUS for p in platforms.values()):
        named = [(hw_id, n) for hw_id, n in named if platforms[hw_id] not in _HOST_CPUS]
    return named


def _direct_raised(advice: "Advice") -> set[str]:
    """The direct parts the message asks (each detector is cheap: a regex on the user's words)."""
    from agent import direct
    text, out = advice.question or "", set()
    if re.search(r"FP8|FP4|MXFP4|NVFP4", text, re.I):
        out.add("capability")
    if direct.need_asked(text):
        out.add("need-count")
    if direct.batch_job(text):
        out.add("batch-time")
    if direct.slow_asked(text):
        out.add("slow-setup")
    if direct.backend_asked(text):
        out.add("backend")
    if direct.settings_asked(text):
        out.add("settings")
    if direct.os_support_asked(text):   # "can vLLM use this card on Windows?"
        out.add("platform-support")
    from agent import direct_fit   # answered from the tools' numbers: ceiling, fit, memory growth, named layouts
    s = advice.profile.summary
    fit_frames = direct_fit.asked(text, (s.count or 1) * (s.nodes or 1))
    if "need-count" in out or "offload" in advice.topics or _several_models(text):
        fit_frames.discard("fit")   # "is one enough?" is the fit verdict already; offload and co-hosting have their own parts
    out |= fit_frames
    from agent import direct_engine
    asked = direct_engine.frames(text)
    if asked:   # "will Ollama use all 8 GPUs?": the verdict on the engine's behaviour replaces a generic diagnosis
        out.add("engine")
        if any(f in direct_engine.EXPLAINS_SLOWNESS for f in asked):
            out.discard("slow-setup")
    return out


def pattern(advice: "Advice") -> "re.Pattern | None":
    """One regex for the topics the user asked about (to pick the sentences of a chunk on them)."""
    asked = [TOPICS[t][2] for t in ORDER if t in advice.topics]
    return re.compile("|".join(asked), re.I) if asked else None


def lead(advice: "Advice") -> list[str]:
    """The opening paragraphs that answer the topics the user asked about (in the user's language)."""
    raised = set(advice.topics)
    if advice.profile.summary.shared_prefix:   # a stated shared prompt is a prefix-caching question even unnamed
        raised.add("prefix-caching")
    if _asks_worth(advice.question or "") and advice.profile.summary.hardware:   # "is a used P40 worth buying?"
        raised.add("worth")
    if advice.profile.summary.compared_hardware or (len(_devices(advice)) >= 2 and weighed(advice.question or "")):
        raised.add("options")   # "2x L40S or one A100?", "an M1 Pro and an M4 Max: which one?"; never a device only mentioned
    raised |= _direct_raised(advice)
    if raised & {"fit", "layouts", "ceiling", "growth"}:
        raised.discard("parallelism")   # the frame gives this setup's own figures; the generic TP/PP primer would bury it
    if "cost-compare" in raised:
        raised.discard("cost-per-token")   # each priced device's figure, with the formula, replaces the single-setup one
    s = advice.profile.summary
    if "options" in raised and not (s.model or s.params_b) and len(_devices(advice)) >= 2:
        raised.discard("model-fit")   # each device's line already names the model that fits it
    if _several_models(advice.question or "") and (weighed(advice.question or "", "model") or co_hosted(advice.question or "")):
        raised.add("models")   # "Llama 8B or Qwen 32B?", "both on one card": not a model named only for contrast
    if "platform-support" not in raised and compare_asked(advice.question or ""):   # "is MLX faster than llama.cpp?"
        raised.add("engine-compare")
    elif "platform-support" not in raised and verdict_asked(advice.question or ""):   # "is Ollama fine for us?"
        raised.add("engine-verdict")
    if "engine" in raised:   # a topic paragraph the engine answer already says
        from agent.direct_engine import COVERS_TOPIC, frames
        raised -= {t for f in frames(advice.question or "") for t in COVERS_TOPIC.get(f, ())}
    c = _ctx(advice)
    built: dict[str, list[str]] = {}

    def build(topic: str) -> list[str]:
        if topic not in built:
            built[topic] = [s for s in TOPICS[topic][1](c) if s]
        return built[topic]

    direct = [t for t in DIRECT if t in raised and build(t)][:2]
    asked = direct + [t for t in ORDER if t in raised and t not in DIRECT][:MAX_TOPICS - (1 if direct else 0)]
    if "options" in raised and "options" not in asked and len(asked) < MAX_TOPICS + 1:
        asked.append("options")   # each device the user named keeps its line, even after two other answers
    if "capability" in direct:   # the format question answered per device: the implied precision note would repeat it
        raised.add("precision")
    for implied in ("precision", "formats"):   # not asked as a topic, but what the stated format means here
        if implied not in raised and len(asked) < MAX_TOPICS and build(implied):
            asked.append(implied)
    out: list[str] = []
    for topic in asked:
        (title_en, title_zh), _, pattern = TOPICS[topic]
        sentences = build(topic)
        if not sentences:
            continue
        marks = _markers(advice, pattern)
        marks = f" {marks}" if marks else ""
        if topic == "layouts":   # one line per layout the user named
            out += [f"**{c.t(title_en, title_zh)}**{c.t(':', '：')}{marks}\n" + "\n".join(f"- {x}" for x in sentences), ""]
            continue
        if topic in DIRECT:   # a verdict of its own: each bold "**X: yes**" opens a paragraph
            paras: list[str] = []
            for sentence in sentences:
                if sentence.startswith("**") or not paras:
                    paras.append(sentence)
                else:
                    paras[-1] += (" " if c.lang == "en" else "") + sentence
            for para in paras:
                out += [para, ""]
            out[-2] += marks
            continue
        if topic == "options":   # one line per option
            out += [f"**{c.t(title_en, title_zh)}**{c.t(':', '：')}{marks}\n" + "\n".join(f"- {x}" for x in sentences), ""]
            continue
        body = (" " if c.lang == "en" else "").join(sentences)
        out += [f"**{c.t(title_en, title_zh)}**{c.t(': ', '：')}{body}{marks}", ""]
    return out
