"""Direct answers to questions about how an engine behaves, before the recommendation.

    frames(text) -> ["ollama-parallel", ...]     the questions a message asks (cheap regexes, en and zh-Hant)
    answer(c)    -> ["**Will Ollama use all 8 GPUs at once? Only for memory** — ...", ...]

    ollama-parallel   "will Ollama use all eight GPUs / serve requests concurrently?"  layer split, parallel slots
    prefix-effect     "prefix caching made it slower / should I enable it?"           it skips prefill only
    lora-capacity     "is there a maximum number of LoRA adapters, where do they live?" memory tiers and flags
    trt-batching      "TensorRT-LLM collapses under concurrency: unsuited or config?"  build-time batch limits
    specdec-figure    "240 tok/s with speculative decoding, vendors quote 1,000+?"    one stream vs the total
    cpu-amx-numa      "is the missing AMX why it is slow / does NUMA matter?"         decode follows RAM bandwidth

Each answer opens with a verdict in bold, names the mechanism, puts the user's own setup and the estimator's
figures beside it, and takes every engine fact from the engine catalog's `behaviours` (our words, each with the
URL it was read from, linked). Nothing is written per question; everything the user reads is in their language.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Callable

from agent.names import display

if TYPE_CHECKING:
    from agent.topic_lead import Ctx

_F = re.I
_ASKS = re.compile(r"[?？]|嗎|呢|\b(?:will|would|does|do|can|could|is|are|should|why|how|what|when|where)\b", _F)

# --- detectors ----------------------------------------------------------------------------------------------

_OLLAMA = re.compile(r"\bollama\b", _F)
_MANY_GPUS = re.compile(r"\ball\s+(?:\w+\s+){0,2}(?:gpus|cards)\b|\bboth\s+(?:of\s+)?(?:\w+\s+){0,2}(?:gpus|cards)\b"
                        r"|\bmulti(?:ple)?[-\s]?gpus?\b|\b(?:several|multiple)\s+(?:gpus|cards)\b|多張(?:卡|GPU|顯卡)|多卡"
                        r"|[兩二三四五六七八\d]\s*張(?:卡|GPU|顯卡)?.{0,10}(?:一起|同時|並行|各放)|[兩二三四五六七八\d]\s*張卡", _F)
_PARALLEL = re.compile(r"\bconcurren\w*|\bin\s+parallel\b|\bparallel\s+(?:requests?|users?)\b|\bsimultaneous\w*"
                       r"|\bat\s+the\s+same\s+time\b|\bseveral\s+(?:copies|instances)\b|\bmultiple\s+(?:copies|instances)\b"
                       r"|OLLAMA_NUM_PARALLEL|同時|併發|並發|並行", _F)
_PREFIX = re.compile(r"prefix[\s_-]*cach\w*|\bAPC\b|automatic\s+prefix|前綴快取|前綴緩存", _F)
_EFFECT = re.compile(r"\bslow\w*|\bno\s+(?:speed[\s-]?up|benefit|gain|improvement|difference)|\bnot\s+(?:any\s+)?faster"
                     r"|\b(?:does|did)(?:n't|\s+not)\s+(?:help|speed|make)|\bworse\b|\bsupposed\s+to\b|\bwhen\s+does\s+it"
                     r"|\bshould\s+(?:i|we)\s+(?:enable|turn|use|keep)|\bworth\b"
                     r"|變慢|更慢|沒(?:有)?變快|沒有(?:效果|幫助|差)|有用嗎|要不要開|該不該開|值得開", _F)
_MECHANISMS = re.compile(r"\bradix\w*|\bvs\.?\s|\bversus\b|\bdiffer\w*|差在哪|差別|差異|不同", _F)
_LORA = re.compile(r"\bLoRAs?\b|\badapters?\b", _F)
_LORA_LIMIT = re.compile(r"\bmax(?:imum)?\s+(?:number\s+of\s+)?(?:LoRAs?|adapters?)\b|\blimit\w*|\bhow\s+many\s+(?:LoRAs?|adapters?)"
                         r"|\bupper\s+bound\b|\bwhere\s+do\s+(?:the\s+)?(?:LoRAs?|adapters?|they)\s+live\b|\bresident\b"
                         r"|\bswap\w*|\bevict\w*|\bnot\s+(?:currently\s+)?(?:loaded|in\s+(?:the\s+)?GPU)|\bstay\s+(?:in|on)\b"
                         r"|\bVRAM\s+or\s+(?:system\s+)?RAM|上限|最多(?:可以|能)?(?:掛|放|載入)|幾個\s*(?:LoRA|adapter)|放在哪|常駐|換入|不在\s*GPU", _F)
_TRT = re.compile(r"\btensorrt(?:[\s-]*llm)?\b|\btrt[\s-]?llm\b", _F)
_LOAD = re.compile(r"\bconcurren\w*|\bbatch\w*|\bunder\s+load\b|\bmany\s+requests\b|併發|並發|批次|高負載", _F)
_WORSE = re.compile(r"\bslow\w*|\bworse\b|\bcollaps\w*|\bfalls?\s+apart\b|\bdrops?\b|\bdegrad\w*|\bbad\b|\bunsuit\w*"
                    r"|\bnot\s+suit\w*|慢|差|不適合|下降|掉", _F)
_SPEC = re.compile(r"\bspeculat\w*|\bdraft\s+model\b|\bEAGLE\d?\b|\bMTP\b|推測解碼|投機解碼", _F)
_FIGURE = re.compile(r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*\+?\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|tokens?\s+(?:per|a)\s+sec\w*"
                     r"|t/s|tps)\b", _F)
_DROP = re.compile(r"(?:throughput|tok(?:en)?s?/s|speed|吞吐|速度)[^.?!。？！]{0,30}(?:drops?|decreas\w*|lower|worse|下降|變慢|更慢)"
                   r"|\bslower\b|\bhurts?\b|變慢|更慢|反而(?:下降|變慢|更慢|降低)", _F)
_JUDGE = re.compile(r"\bbad\b|\bgood\b|\bnormal\b|\bexpected\b|\bslow\w*|\bquot\w*|\bclaim\w*|\bpeople\b|\bvendors?\b"
                    r"|正常|差|慢|別人|廠商|宣稱|號稱", _F)
_CPU_ASK = re.compile(r"\bAMX\b|\bNUMA\b", _F)
_BF16 = re.compile(r"\bbf16\b|\bbfloat16\b", _F)
_ERROR = re.compile(r"\bsupport\w*|\berror\w*|\bdoes(?:n't|\s+not)\b|\bnot\s+(?:work|run)|\bfail\w*|不支援|錯誤|報錯|失敗", _F)
_OOM = re.compile(r"\bout\s+of\s+memory\b|\bOOM\b|記憶體不足|顯存不足|爆顯存", _F)
_QWEIGHT = re.compile(r"\bqweight\b", _F)

def _sentences(text: str) -> list[str]:
    """The message cut at sentence ends: a cue counts only beside the engine it is about."""
    return [x for x in re.split(r"(?<=[?!。？！])\s*|(?<=\.)\s+|\n+", text) if x.strip()]   # not "Qwen2.5"


_DETECT: dict[str, Callable[[str], bool]] = {
    "ollama-parallel": lambda t: any(_OLLAMA.search(x) and (_MANY_GPUS.search(x) or _PARALLEL.search(x)) for x in _sentences(t))
                                 and bool(_ASKS.search(t)),
    # "RadixAttention vs vLLM's prefix caching: what differs, when does it matter?" compares two mechanisms: the
    # prefix-caching topic answers that; this frame is for the effect on the user's own runs
    "prefix-effect": lambda t: bool(_PREFIX.search(t) and _EFFECT.search(t) and not _MECHANISMS.search(t)),
    "lora-capacity": lambda t: any(_LORA.search(x) and _LORA_LIMIT.search(x) for x in _sentences(t)) and bool(_ASKS.search(t)),
    "trt-batching": lambda t: bool(_TRT.search(t) and _LOAD.search(t) and _WORSE.search(t)),
    "specdec-figure": lambda t: bool(_SPEC.search(t) and ((_FIGURE.search(t) and _JUDGE.search(t)) or _DROP.search(t))
                                     and _ASKS.search(t)),
    "cpu-amx-numa": lambda t: bool(_CPU_ASK.search(t) and _ASKS.search(t)),
    "dtype-support": lambda t: bool((_BF16.search(t) and _ERROR.search(t)) or _QWEIGHT.search(t)),
}
EXPLAINS_SLOWNESS = ("ollama-parallel", "prefix-effect", "trt-batching", "specdec-figure")
"""Frames whose verdict is the answer to the "why slower?" in the message (the generic diagnosis would repeat it)."""
COVERS_TOPIC = {"prefix-effect": ("prefix-caching", "engine-verdict"), "lora-capacity": ("multi-lora", "engine-verdict"),
                "ollama-parallel": ("engine-verdict",), "trt-batching": ("engine-compare", "engine-verdict"),
                "specdec-figure": ("engine-verdict",), "dtype-support": ("precision", "offload", "engine-verdict")}
"""Topic paragraphs a frame replaces (the same facts said once; "is vLLM fine?" is answered by how it behaves)."""


def frames(text: str) -> list[str]:
    """The engine-behaviour questions the message asks, in the order of _DETECT."""
    return [name for name, hit in _DETECT.items() if hit(text or "")]


# --- shared ----------------------------------------------------------------------------------------------

def _fact(engine_id: str, key: str):
    from rules.engines import engine
    return engine(engine_id).behaviours[key]


def _src(c: "Ctx", url: str) -> str:
    return c.t(f"([source]({url}))", f"（[來源]({url})）")


def _fmt(x: float | None) -> str:
    from agent.compose import fmt
    return fmt(x) if x is not None else "?"


def _join(c: "Ctx", *parts: str) -> str:
    return ("" if c.lang == "zh" else " ").join(p for p in parts if p)


def _where(c: "Ctx") -> str:
    return c.setup or c.t("this setup", "這個配置")


def _serving_engine(c: "Ctx") -> str | None:
    """The engine the answer recommends for many requests at once: the primary if it batches, else the first
    recommended engine whose docs place it at production scale."""
    from rules.engines import engine
    d = c.advice.decision
    for e in (d.primary, *d.alternatives):
        if e and e != "dynamo" and engine(e).production.stance == "production":
            return e
    return None


def _plan_line(c: "Ctx") -> str:
    """"TP=4, PP=2, int8: about 21 tok/s per stream, about 312 tok/s in total at 15 requests at once"."""
    est, plan = c.advice.estimate, c.advice.plan
    layout = plan.layout if plan is not None else None
    lay = layout.degrees() if layout is not None else ""
    if layout is not None and layout.dp > 1 and layout.tp == layout.pp == 1:   # replicas: say what DP means here
        lay = c.t(f"{layout.dp} replicas, one per device", f"{layout.dp} 個副本，每張卡各跑一個")
    if est is None or not est.fits or not c.advice.decision.primary:
        return lay   # the layout alone when there are no figures for it
    lay = f"{lay}, " if lay else ""
    total = (c.t(f", about {_fmt(est.aggregate_tokens_per_s)} tok/s in total at {est.concurrency} requests at once",
                 f"，{est.concurrency} 個同時請求時總計約 {_fmt(est.aggregate_tokens_per_s)} tok/s")
             if est.aggregate_tokens_per_s and est.concurrency > 1 else "")
    return c.t(f"{lay}{est.quantization}: about {_fmt(est.decode_tokens_per_s)} tok/s per stream{total}",
               f"{lay.replace(', ', '，')}{est.quantization}：每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s{total}")


def _devices(c: "Ctx") -> int:
    s = c.advice.profile.summary
    return (s.count or 1) * (s.nodes or 1) if s.hardware else 0


# --- the frames ----------------------------------------------------------------------------------------------

def _ollama(c: "Ctx") -> list[str]:
    text = c.advice.question or ""
    multi, conc = _fact("ollama", "multi_gpu"), _fact("ollama", "concurrency")
    split = _fact("llama.cpp", "layer_split")
    n, out = _devices(c), []
    if _MANY_GPUS.search(text):   # only when asked: 'it is slow for 20 of us' is not 'will it use both GPUs?'
        cards = c.t(f"all {n} GPUs", f" {n} 張卡") if n > 1 else c.t("all the GPUs", "所有的卡")
        est = c.advice.estimate
        fit = ""
        if est is not None and c.model and est.memory is not None and n > 1:
            per = max(1e-6, est.memory.usable_gb - est.memory.reserve_gb)
            need = max(1, math.ceil(est.weights_gb / per))
            fit = c.t(f" Here {c.model} at {est.quantization} is about {_fmt(est.weights_gb)} GB of weights, which needs "
                      f"{need} of the {n} cards' memory before any KV cache",
                      f"這裡 {c.model}（{est.quantization}）權重約 {_fmt(est.weights_gb)} GB，還沒算 KV cache 就要佔 {n} 張卡中"
                      f"{need} 張的記憶體")
            from agent.direct import run_option
            q4 = run_option(c, c.advice.profile.summary.hardware, n, plan=False, quantization="awq") \
                if est.quantization not in ("awq", "int4", "gptq-4bit", "q4_k_m") else None
            if q4 is not None:
                fit += c.t(f"; at 4-bit (AWQ) it is about {_fmt(q4[1].weights_gb)} GB, "
                           f"{max(1, math.ceil(q4[1].weights_gb / per))} cards' worth",
                           f"；4-bit（AWQ）約 {_fmt(q4[1].weights_gb)} GB，{max(1, math.ceil(q4[1].weights_gb / per))} 張卡就放得下")
            fit += c.t(".", "。")
        out.append(c.t(f"**Will Ollama use {cards} at once? Only as memory, not as speed** — a model too big for one GPU is "
                       f"spread over the cards layer by layer {_src(c, multi.source)}, and for each token the cards then "
                       f"work one after another, as llama.cpp's layer split does {_src(c, split.source)}: more cards let a "
                       "larger model load (capacity), but one request gets no faster, and a model that fits one card "
                       "stays on one card." + fit,
                       f"**Ollama 會同時用上{cards}嗎？只當作記憶體用，不會變快**——一張卡放不下的模型會按層分散到各張卡"
                       f"{_src(c, multi.source)}，每個 token 由各張卡依序、一層接一層地算（與 llama.cpp 的 layer split 相同）"
                       f"{_src(c, split.source)}：卡越多，能載入的模型越大（容量），單一請求卻不會變快；放得進一張卡的模型"
                       "只會用一張卡。" + fit))
    copies = re.search(r"\bcopies\b|\binstances\b|\bnginx\b|\bload[\s-]?balanc\w*|副本|多個實例|負載平衡", text, _F)
    out.append(c.t("**Can it serve requests concurrently? Yes, in a few slots** — one loaded model answers up to "
                   "OLLAMA_NUM_PARALLEL requests at the same time, sharing its one copy of the weights (each slot adds "
                   "its own context memory); the rest wait in a queue of OLLAMA_MAX_QUEUE (512) and are then refused "
                   f"with 503 {_src(c, conc.source)}. Its docs describe these slots, not continuous batching or a paged "
                   "KV cache, so total throughput flattens as users grow."
                   + (" Several copies behind nginx do work, but each copy holds its own weights and its own few slots."
                      if copies else ""),
                   "**能同時處理多個請求嗎？可以，但只有少數幾個位子**——一個載入的模型最多同時處理 OLLAMA_NUM_PARALLEL 個請求，"
                   "共用同一份權重（每個位子各自佔一份 context 記憶體）；其餘在 OLLAMA_MAX_QUEUE（512）的佇列裡等，滿了就回 503"
                   f"{_src(c, conc.source)}。它的文件描述的是這些位子，不是 continuous batching 或分頁 KV cache，所以使用者"
                   "變多時總吞吐會停在一個水準。"
                   + ("在 nginx 後面跑好幾份也行得通，但每一份都各自載入權重、各自只有幾個位子。" if copies else "")))
    serving = _serving_engine(c)
    if serving and c.concurrency > 4:
        plan = _plan_line(c) if serving == c.advice.decision.primary else ""
        out.append(c.t(f"For {c.concurrency} requests at once on {_where(c)} use an engine built to batch them: "
                       f"{display(serving)}" + (f" ({plan})" if plan else "") + ", the recommendation below.",
                       f"在 {_where(c)} 上同時 {c.concurrency} 個請求，請用專為批次處理設計的引擎：{display(serving)}"
                       + (f"（{plan}）" if plan else "") + "，見下方建議。"))
    return out


_OWN_USE = re.compile(r"\bour\b|\bmy\s+(?:bot|app|service|chatbot|workload)|\bfor\s+(?:our|my|the)\s+\w+|\bshould\s+(?:i|we)\b"
                      r"|\bbot\b|\bchatbot\b|\bRAG\b|我們|我的|要不要|該不該|服務", _F)
_SHARED = re.compile(r"system\s+prompt|shared|same\s+prefix|common\s+prefix|系統提示|共用|同一段|相同的?前綴", _F)


def _prompt_len(c: "Ctx") -> int | None:
    from agent.diagnosis import prompt_tokens
    said = c.advice.profile.field("input_tokens")
    if said is not None and said.origin == "said" and c.advice.profile.summary.input_tokens:
        return int(c.advice.profile.summary.input_tokens)
    return prompt_tokens(c.advice.question or "")


_SLOWER = re.compile(r"\bslow\w*|\bno\s+(?:speed[\s-]?up|benefit|gain|improvement|difference)|\bnot\s+(?:any\s+)?faster"
                     r"|\b(?:does|did)(?:n't|\s+not)\s+(?:help|speed|make)|\bworse\b|變慢|更慢|沒(?:有)?變快|沒有(?:效果|幫助|差)", _F)


def _prefix(c: "Ctx") -> list[str]:
    b = _fact("vllm", "prefix_cache")
    text = c.advice.question or ""
    what = c.t("a request reuses the KV cache that an earlier request computed for the same leading tokens, so only its new "
               "tokens are prefilled; generating tokens (decode) costs exactly the same " + _src(c, b.source) + ".",
               "請求會重用先前請求對相同開頭 token 算好的 KV cache，只需 prefill 新的部分；生成 token（decode）的成本完全不變"
               + _src(c, b.source) + "。")
    if _SLOWER.search(text):
        out = [c.t("**Why it was not faster: prefix caching only skips the prefill of a shared prefix** — " + what + " A short "
                   "shared prefix, long answers, or a timing that includes the first request (which has to fill the cache) "
                   "gain nothing, and the bookkeeping can make such a run look slightly slower; measure time to first token "
                   "on requests that repeat a long prefix instead.",
                   "**為什麼沒有變快：前綴快取（prefix caching）只省掉共用前綴的 prefill**——" + what + "共用前綴很短、回答很長，"
                   "或計時包含了第一個請求（它得先把快取填好），都不會有好處，簿記開銷還可能讓結果看起來略慢；要看效果，請量重複長前綴"
                   "請求的首字延遲（TTFT）。")]
    else:
        out = [c.t("**What prefix caching speeds up: only the prefill of a shared prefix** — " + what,
                   "**前綴快取（prefix caching）加速的是什麼：只有共用前綴的 prefill**——" + what)]
    if not _OWN_USE.search(text):
        return out
    plen, est = _prompt_len(c), c.advice.estimate
    shared = bool(_SHARED.search(text) or c.advice.profile.summary.shared_prefix)
    who = c.t("your chatbot" if re.search(r"chat\s*bot", text, _F) else "your bot" if re.search(r"\bbot\b", text, _F)
              else "your workload", "您的服務")
    if shared:
        saved = ""
        if plen:
            secs = (c.t(f", about {_fmt(plen / est.prefill_tokens_per_s)} s of GPU time at the estimated "
                        f"{_fmt(est.prefill_tokens_per_s)} tok/s prefill on {_where(c)}",
                        f"，以 {_where(c)} 估計的 prefill {_fmt(est.prefill_tokens_per_s)} tok/s 計算約 "
                        f"{_fmt(plen / est.prefill_tokens_per_s)} 秒 GPU 時間")
                    if est is not None and est.prefill_tokens_per_s else "")
            saved = c.t(f" With a {plen:,}-token shared prompt each request skips about {plen:,} tokens of prefill{secs}, "
                        "which shortens TTFT and leaves more of the GPU for other chats.",
                        f"共用提示約 {plen:,} tokens 時，每個請求省下約 {plen:,} tokens 的 prefill{secs}，首字延遲變短，"
                        "GPU 也能多服務其他對話。")
        speed = (c.t(f" It does nothing for the {_fmt(est.decode_tokens_per_s)} tok/s per stream.",
                     f"每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s 的生成速度則不受影響。")
                 if est is not None and est.decode_tokens_per_s else "")
        out.append(c.t(f"**For {who}: yes** — its requests share a long prefix (the system prompt, and earlier turns in "
                       "multi-turn chats)." + saved + speed + " In vLLM's V1 engine it is on by default "
                       "(--enable-prefix-caching); keep the shared part byte-identical at the very start of the prompt.",
                       f"**{who}：要開**——請求共用一段長前綴（系統提示，以及多輪對話的前幾輪）。" + saved + speed
                       + "vLLM 的 V1 引擎預設已開啟（--enable-prefix-caching）；讓共用部分逐字相同、放在提示最前面。"))
    else:
        out.append(c.t(f"**For {who}: it helps only if requests repeat a prefix** — with prompts that differ from the first "
                       "token, or short prompts and long answers, decode dominates and the cache has nothing to reuse; it "
                       "costs little to leave on (vLLM V1 enables it by default).",
                       f"**{who}：只有請求重複同一段前綴時才有用**——提示從第一個 token 就不同，或提示短、回答長時，時間花在 decode，"
                       "快取沒有東西可重用；開著的成本很小（vLLM V1 預設開啟）。"))
    return out


_RANK = re.compile(r"\brank[\s-]*(?:of\s+)?(\d{1,3})\b|\br\s*=\s*(\d{1,3})\b|(\d{1,3})\s*(?:的)?\s*rank|rank\s*(?:為|是)?\s*(\d{1,3})", _F)
_ADAPTERS = re.compile(r"(\d{1,5})\s*(?:個\s*)?(?:\w+\s+){0,2}(?:LoRA\s+)?adapters?|(\d{1,5})\s*個\s*(?:LoRA|adapter)", _F)
_ACTIVE = re.compile(r"(\d{1,4})\s*(?:[-–~到至]\s*(\d{1,4}))?\s*(?:\w+\s+)?(?:active|at\s+(?:any|a)\s+(?:moment|time)|同時)", _F)


def _first_int(rx: re.Pattern, text: str) -> int | None:
    m = rx.search(text)
    return int(next(g for g in m.groups() if g)) if m else None


def _adapter_mb(model_id: str, rank: int) -> float | None:
    """BF16 size of a LoRA adapter on every linear layer (q, k, v, o and the MLP): rank × (input + output width)
    per projection, over all layers (dense models only; a MoE's experts make it model specific)."""
    from rules import catalog
    m = catalog.model(model_id)
    if m.architecture != "dense" or not m.intermediate:
        return None
    q, kv, h, i = m.q_heads * m.head_dim, (m.kv_heads or m.q_heads) * m.head_dim, m.hidden, m.intermediate
    per_layer = (h + q) + 2 * (h + kv) + (q + h) + 3 * (h + i)
    return rank * per_layer * m.layers * 2 / 1e6


def _lora(c: "Ctx") -> list[str]:
    slots, dyn = _fact("vllm", "lora_slots"), _fact("vllm", "lora_dynamic")
    text = c.advice.question or ""
    out = [c.t("**Is there a maximum number of adapters? No fixed one: memory sets it** — vLLM keeps adapters in three "
               "tiers: on disk (a local path or the Hugging Face Hub), cached in CPU memory (--max-cpu-loras), and in GPU "
               "slots, one per adapter a batch may use (--max-loras, each slot sized by --max-lora-rank; the defaults are "
               f"1 and 16); the server needs --enable-lora {_src(c, slots.source)}.",
               "**一個實例最多能掛幾個 adapter？沒有固定上限，由記憶體決定**——vLLM 把 adapter 分三層放：磁碟（本機路徑或 "
               "Hugging Face Hub）、CPU 記憶體快取（--max-cpu-loras），以及 GPU 上的位子，一個批次能用幾個 adapter 就有幾個位子"
               "（--max-loras，每個位子的大小依 --max-lora-rank；預設 1 與 16）；server 要加 --enable-lora"
               f"{_src(c, slots.source)}。"),
           c.t("A request for an adapter that is not in a GPU slot waits while it is copied in (from CPU memory, or first "
               "read from disk), taking the slot of one not in use, so a cold adapter adds latency to that request; with "
               "VLLM_ALLOW_RUNTIME_LORA_UPDATING=True adapters can also be loaded and unloaded at runtime through "
               f"/v1/load_lora_adapter {_src(c, dyn.source)}.",
               "請求要用的 adapter 不在 GPU 位子上時，要先把它搬進來（從 CPU 記憶體，或先從磁碟讀），佔掉一個沒在用的位子，"
               "所以冷的 adapter 會讓那個請求多等一段；設定 VLLM_ALLOW_RUNTIME_LORA_UPDATING=True 後，也能透過 "
               f"/v1/load_lora_adapter 在執行中載入、卸載 adapter{_src(c, dyn.source)}。")]
    rank = _first_int(_RANK, text)
    count = _first_int(_ADAPTERS, text) or c.lora
    m = _ACTIVE.search(text)
    active = int(m.group(2) or m.group(1)) if m else None
    mid = c.advice.profile.summary.model
    size = _adapter_mb(mid, rank or 16) if mid else None
    if size:
        r = rank or 16
        assumed = "" if rank else c.t(" (vLLM's default --max-lora-rank)", "（vLLM 預設的 --max-lora-rank）")
        many = (c.t(f", so {count} adapters take about {_fmt(size * count / 1000)} GB of CPU memory",
                    f"，{count} 個 adapter 約佔 {_fmt(size * count / 1000)} GB 的 CPU 記憶體") if count else "")
        flags = c.t(f" Set --max-loras to the adapters used at the same time ({active}), --max-cpu-loras to {count}, "
                    f"--max-lora-rank {r}.", f"--max-loras 設成同時會用到的 adapter 數（{active}），--max-cpu-loras 設 {count}，"
                    f"--max-lora-rank 設 {r}。") if active and count else ""
        out.append(c.t(f"A rank-{r} adapter on every linear layer of {c.model} is about {_fmt(size)} MB in BF16{assumed}"
                       f"{many}; on {_where(c)} the base weights and the KV cache, not the adapters, use up the GPU memory."
                       + flags,
                       f"{c.model} 每個線性層都掛 rank {r} 的 adapter，BF16 約 {_fmt(size)} MB{assumed}{many}；在 {_where(c)} 上，"
                       "吃掉 GPU 記憶體的是基礎權重與 KV cache，不是 adapter。" + flags))
    sg = _fact("sglang", "lora_slots")
    out.append(c.t(f"SGLang's equivalent cap is --max-loras-per-batch {_src(c, sg.source)}.",
                   f"SGLang 對應的上限是 --max-loras-per-batch{_src(c, sg.source)}。"))
    return out


def _trt(c: "Ctx") -> list[str]:
    from rules.engines import engine
    b, t = _fact("tensorrt-llm", "batch_limits"), _fact("tensorrt-llm", "triton")
    ifb = engine("tensorrt-llm").feature("continuous_batching")
    out = [c.t("**Is TensorRT-LLM unsuited to concurrency? No — it batches requests in flight, like vLLM "
               f"{_src(c, ifb.source)}; a collapse under load almost always comes from how the engine was built or "
               "served** — max_batch_size (requests scheduled together) and max_num_tokens (tokens per iteration) are set "
               "when the engine is built, and everything above them waits in the queue " + _src(c, b.source) + ".",
               "**TensorRT-LLM 本身不適合高併發嗎？不是——它和 vLLM 一樣做 in-flight batching"
               f"{_src(c, ifb.source)}；一併發就崩，幾乎都是引擎的建置或部署設定造成的**——max_batch_size（同時排程的請求數）"
               "與 max_num_tokens（每次迭代的 token 數）在建置（編譯）引擎時就定了，超過的請求都在佇列裡等" + _src(c, b.source) + "。"),
           c.t("Behind Triton also check batching_strategy inflight_fused_batching (V1 turns in-flight batching off), "
               "kv_cache_free_gpu_mem_fraction (the KV cache budget, default 0.9) and batch_scheduler_policy "
               f"{_src(c, t.source)}.",
               "用 Triton 部署時再檢查 batching_strategy 是否為 inflight_fused_batching（V1 會關掉 in-flight batching）、"
               f"kv_cache_free_gpu_mem_fraction（KV cache 的額度，預設 0.9）與 batch_scheduler_policy{_src(c, t.source)}。")]
    conc = c.concurrency
    if conc > 1:
        s = c.advice.profile.summary
        prompt = s.input_tokens or 1024
        out.append(c.t(f"For your {conc} requests at once on {_where(c)}: build with max_batch_size at least {conc} and "
                       f"max_num_tokens at least one prompt plus one token per running request (about {prompt:,} + {conc}), "
                       "then benchmark both engines at that load with the same prompts and output lengths.",
                       f"以您同時 {conc} 個請求、{_where(c)} 來說：建置時 max_batch_size 至少 {conc}，max_num_tokens 至少容得下"
                       f"一段提示加上每個執行中請求各一個 token（約 {prompt:,} + {conc}），再用相同的提示與輸出長度，在這個負載下把兩個"
                       "引擎都測一次。"))
    prim = c.advice.decision.primary
    if prim and prim != "tensorrt-llm":
        plan = _plan_line(c)
        out.append(c.t(f"For production the recommendation below leads with {display(prim)}" + (f" ({plan})" if plan else "")
                       + ": it batches this load without an engine build per model and shape; TensorRT-LLM stays a "
                       "candidate once rebuilt with those limits.",
                       f"正式上線，下方建議以 {display(prim)} 為先" + (f"（{plan}）" if plan else "")
                       + "：不必為每個模型與輸入形狀建置引擎就能批次處理這個負載；TensorRT-LLM 用上述上限重新建置後仍可列入比較。"))
    return out


def _figures(text: str) -> list[float]:
    return [float(m.group(1).replace(",", "")) for m in _FIGURE.finditer(text)]


def _specdec(c: "Ctx") -> list[str]:
    from agent.direct import run_option
    b = _fact("vllm", "spec_decode")
    text, s = c.advice.question or "", c.advice.profile.summary
    figs = _figures(text)
    theirs = figs[0] if figs else None
    quoted = max(figs[1:], default=None) if len(figs) > 1 else None
    one = run_option(c, s.hardware, s.count or 1, s.nodes or 1, plan=False, concurrency=1) if s.hardware and (s.model or s.params_b) else None
    many = run_option(c, s.hardware, s.count or 1, s.nodes or 1, plan=False, concurrency=64) if one else None
    e1 = one[1] if one else None
    out: list[str] = []
    if theirs is not None and e1 is not None and e1.decode_tokens_per_s:
        bound = e1.decode_tokens_per_s_bound or e1.decode_tokens_per_s
        good = theirs >= 0.8 * e1.decode_tokens_per_s
        total = (c.t(f" The {_fmt(quoted)}+ tok/s figures people quote are totals across many requests at once: here about "
                     f"{_fmt(many[1].aggregate_tokens_per_s)} tok/s in total at 64 concurrent, without speculation.",
                     f"別人說的 {_fmt(quoted)}+ tok/s 是許多請求同時跑的總吞吐：這裡不開推測解碼、64 個併發時總計約 "
                     f"{_fmt(many[1].aggregate_tokens_per_s)} tok/s。")
                 if many and many[1].aggregate_tokens_per_s else "")
        if good:
            out.append(c.t(f"**Is {_fmt(theirs)} tok/s bad? No — for one stream it is good**: without speculation one stream of "
                           f"{c.model or 'this model'} on {_where(c)} tops out near {_fmt(bound)} tok/s (every token reads the "
                           f"weights once; about {_fmt(e1.decode_tokens_per_s)} expected), so {_fmt(theirs)} means the draft "
                           "is already paying." + total,
                           f"**{_fmt(theirs)} tok/s 算差嗎？不差——以單一串流來說是好成績**：不開推測解碼時，{c.model or '這個模型'}"
                           f"在 {_where(c)} 上單一串流的上限約 {_fmt(bound)} tok/s（每個 token 都要讀一次權重；預期約 "
                           f"{_fmt(e1.decode_tokens_per_s)}），{_fmt(theirs)} 表示 draft 已經有效。" + total))
        else:
            out.append(c.t(f"**Is {_fmt(theirs)} tok/s bad? It is below plain decoding here** — one stream of "
                           f"{c.model or 'this model'} on {_where(c)} should reach about {_fmt(e1.decode_tokens_per_s)} tok/s "
                           "without speculation, so the draft is costing more than it saves (low acceptance, or a draft too "
                           "large or too long)." + total,
                           f"**{_fmt(theirs)} tok/s 算差嗎？比不開還慢**——{c.model or '這個模型'}在 {_where(c)} 上，不開推測解碼"
                           f"單一串流應有約 {_fmt(e1.decode_tokens_per_s)} tok/s，表示 draft 的成本大於省下的（接受率低，或 draft "
                           "太大、猜太多個）。" + total))
    else:
        out.append(c.t(f"**Lower throughput with speculation under load is expected** — at {c.concurrency} requests at once the "
                       "batch already keeps the GPU busy, so drafting, and verifying tokens that get rejected, take compute "
                       "from other requests.",
                       f"**負載高時開推測解碼吞吐反而下降，是預期中的**——同時 {c.concurrency} 個請求時，批次已經讓 GPU 很忙，"
                       "draft 的計算與驗證被拒絕的 token 都會佔用其他請求的算力。"))
    fp8 = _fp8_line(c, e1) if e1 is not None else ""
    if fp8:
        out[-1] += (" " if c.lang == "en" else "") + fp8
    out.append(c.t("Speculation trades spare compute for fewer weight reads: at one to a few streams decode is bound by "
                   "memory bandwidth and the drafted tokens are verified almost for free, while a large batch has no spare "
                   f"compute; vLLM's docs aim it at medium-to-low QPS, memory-bound workloads {_src(c, b.source)}.",
                   "推測解碼是用閒置的算力換取較少的權重讀取：一到幾條串流時 decode 受記憶體頻寬限制，驗證猜測的 token 幾乎不花成本；"
                   "大批次時就沒有閒置算力了。vLLM 文件也說它適用於中低 QPS、受記憶體頻寬限制的負載" + _src(c, b.source) + "。"))
    k = _first_int(re.compile(r"(\d{1,2})\s*(?:speculative|draft(?:ed)?|spec)\s+tokens|num_speculative_tokens\D{0,4}(\d{1,2})"
                              r"|(\d{1,2})\s*個\s*(?:推測|猜測)?\s*token", _F), text)
    if k and k > 5:
        out.append(c.t(f"{k} drafted tokens is more than the docs' examples (3 to 5): each rejected token is wasted work, and a "
                       "small draft's acceptance falls off after the first few; try 3 to 5, or EAGLE heads trained for the "
                       "model.",
                       f"猜 {k} 個 token 比文件範例（3 到 5 個）多：被拒絕的 token 都是白做，小 draft 的接受率過了前幾個就會下降；"
                       "試 3 到 5 個，或用為這個模型訓練的 EAGLE 預測頭。"))
    return out


def _fp8_line(c: "Ctx", e1) -> str:
    """FP8 weights on a GPU with FP8 compute: half the bytes per token, for one stream and in total (the estimate)."""
    from agent.direct import run_option
    from rules import catalog
    s = c.advice.profile.summary
    hw = catalog.hardware(s.hardware)
    if not hw.tflops.fp8 or e1.quantization not in ("bf16", "f16"):
        return ""
    got = run_option(c, s.hardware, s.count or 1, s.nodes or 1, plan=False, concurrency=1, quantization="fp8")
    if got is None or not got[1].decode_tokens_per_s:
        return ""
    return c.t(f"The simpler lever here is FP8 weights ({hw.name} has FP8 compute): half the bytes per token, about "
               f"{_fmt(got[1].decode_tokens_per_s)} tok/s for one stream before any speculation, and more in total too.",
               f"這裡更簡單的作法是 FP8 權重（{hw.name} 有 FP8 運算）：每個 token 讀的位元組減半，不開推測解碼單一串流約 "
               f"{_fmt(got[1].decode_tokens_per_s)} tok/s，總吞吐也更高。")


def _cpu(c: "Ctx") -> list[str]:
    from rules import catalog
    numa, amx = _fact("llama.cpp", "numa"), _fact("llama.cpp", "amx")
    text, s, est = c.advice.question or "", c.advice.profile.summary, c.advice.estimate
    from agent.direct import devices
    cpus = [h for h, _ in devices(text) if catalog.hardware(h).platform in ("x86-cpu", "arm-cpu")]
    host = cpus[0] if cpus else s.hardware if s.hardware and catalog.hardware(s.hardware).platform in ("x86-cpu", "arm-cpu") else None
    here = ""
    if host:   # the CPU the user named (never the estimator's default host for an offload)
        hw = catalog.hardware(host)
        plain = re.sub(r"\s*\(per socket\)", "", hw.name)   # the figure below already says per socket
        name = c.setup if host == s.hardware and c.setup else (hw.name_zh or plain) if c.lang == "zh" else plain
        per_token = est.offload.ram_gb_per_token if est is not None and est.offload is not None else None
        cap = (c.t(f"; the weights read from RAM are about {_fmt(per_token)} GB per token, so RAM alone caps decode near "
                   f"{_fmt(hw.mem_bw_gbs / per_token)} tok/s at full bandwidth",
                   f"；每個 token 要從 RAM 讀約 {_fmt(per_token)} GB 權重，光是 RAM 就把 decode 限制在滿頻寬約 "
                   f"{_fmt(hw.mem_bw_gbs / per_token)} tok/s") if per_token else "")
        here = c.t(f" {name}: about {_fmt(hw.mem_bw_gbs)} GB/s per socket in the hardware catalog{cap}.",
                   f"{name}：硬體型錄中每個插槽約 {_fmt(hw.mem_bw_gbs)} GB/s{cap}。")
    out = []
    if re.search(r"\bAMX\b", text):
        out.append(c.t("**Is AMX what sets the generation speed? No — token generation on a CPU is bound by memory "
                       "bandwidth**: every token reads the active weights from RAM, so decode follows how fast RAM delivers "
                       f"them, not the matrix units.{here} AMX speeds the matrix multiplications of prompt processing "
                       f"(prefill), which is where llama.cpp's AMX path shows its gains {_src(c, amx.source)}.",
                       "**生成速度取決於 AMX 嗎？不是——CPU 上生成 token 受記憶體頻寬限制**：每個 token 都要從 RAM 讀一次啟用的權重，"
                       f"所以 decode 速度跟著 RAM 的頻寬走，而不是矩陣運算單元。{here}AMX 加速的是處理提示（prefill）的矩陣乘法，"
                       f"llama.cpp 的 AMX 路徑帶來的提升主要也在這裡{_src(c, amx.source)}。"))
    if re.search(r"\bNUMA\b|dual[\s-]socket|two\s+sockets|雙路|多路|兩顆\s*CPU", text, _F):
        out.append(c.t("**Does NUMA matter on two sockets? Yes** — a thread that reads weights held in the other socket's "
                       "memory goes over the link between the sockets, slower than its own memory; llama.cpp's --numa "
                       "distribute spreads threads over the NUMA nodes, --numa isolate keeps them on one node, and after a "
                       f"run without the flag the page cache should be dropped first {_src(c, numa.source)}.",
                       "**雙路時 NUMA 有影響嗎？有**——執行緒讀取放在另一顆 CPU 記憶體裡的權重，要經過兩個插槽之間的連線，比讀本地記憶體慢；"
                       "llama.cpp 的 --numa distribute 會把執行緒分散到各個 NUMA 節點，--numa isolate 則固定在一個節點；之前沒加這個參數"
                       f"跑過的話，要先清掉 page cache{_src(c, numa.source)}。"))
    if out:
        out.append(c.t("To go faster: more memory bandwidth (more channels, DDR5), a smaller quantization (fewer bytes per token), "
                       "or more of the model on the GPU.",
                       "想更快：更高的記憶體頻寬（更多通道、DDR5）、更小的量化（每個 token 讀更少位元組），或把更多模型放上 GPU。"))
    return out


def _dtype(c: "Ctx") -> list[str]:
    """"vLLM says the T4 does not support bfloat16 / FP16 runs out of memory / AWQ gives a qweight error"."""
    from agent.direct import run_option
    from rules import catalog
    text, s = c.advice.question or "", c.advice.profile.summary
    hw = catalog.hardware(s.hardware) if s.hardware else None
    if hw is None or hw.platform != "nvidia-cuda":
        return []
    half, awq = _fact("vllm", "dtype_half"), _fact("vllm", "awq")
    name, out = c.setup or hw.name, []
    if _BF16.search(text) and not hw.tflops.bf16:
        out.append(c.t(f"**BF16 on {name}: no** — compute capability {hw.cuda_cc} has FP16 but no BF16, and vLLM refuses BF16 "
                       f"below 8.0; start it with --dtype half, which runs the same weights in FP16 {_src(c, half.source)}.",
                       f"**{name} 能跑 BF16 嗎？不行**——compute capability {hw.cuda_cc} 有 FP16、沒有 BF16，vLLM 在 8.0 以下會拒絕 BF16；"
                       f"啟動時加 --dtype half，同樣的權重改以 FP16 執行{_src(c, half.source)}。"))
    if _OOM.search(text) and (s.model or s.params_b):
        f16 = run_option(c, s.hardware, s.count or 1, plan=False, quantization="f16")
        q4 = run_option(c, s.hardware, s.count or 1, plan=False, quantization="awq")
        mem = f16[1].memory if f16 is not None else None
        if mem is not None and q4 is not None and (not f16[1].fits or mem.usable_gb - mem.reserve_gb - mem.weights_gb < 0.25 * mem.capacity_gb):
            left = max(0.0, mem.usable_gb - mem.reserve_gb - mem.weights_gb)
            out.append(c.t(f"**Why FP16 runs out of memory**: {c.model or 'the model'} in FP16 is about {_fmt(f16[1].weights_gb)} GB "
                           f"of weights on {name} ({_fmt(hw.memory_gb)} GB), leaving about {_fmt(left)} GB for the KV cache after "
                           f"the runtime's reserve; a 4-bit AWQ checkpoint is about {_fmt(q4[1].weights_gb)} GB and leaves room for it.",
                           f"**為什麼 FP16 會記憶體不足**：{c.model or '這個模型'} 的 FP16 權重約 {_fmt(f16[1].weights_gb)} GB，"
                           f"{name} 只有 {_fmt(hw.memory_gb)} GB，扣掉執行環境的保留後只剩約 {_fmt(left)} GB 給 KV cache；"
                           f"4-bit AWQ checkpoint 約 {_fmt(q4[1].weights_gb)} GB，留得下 KV cache。"))
    if _QWEIGHT.search(text) or re.search(r"\bAWQ\b", text):
        out.append(c.t("A 'qweight' key error means an AWQ checkpoint was loaded as a plain model: run it with --quantization awq "
                       f"(and --dtype half on this card) {_src(c, awq.source)}.",
                       "出現「qweight」key error，代表 AWQ checkpoint 被當成一般模型載入：加 --quantization awq 執行（這張卡再加 "
                       f"--dtype half）{_src(c, awq.source)}。"))
    return out


_BUILD: dict[str, Callable[["Ctx"], list[str]]] = {
    "ollama-parallel": _ollama, "prefix-effect": _prefix, "lora-capacity": _lora, "trt-batching": _trt,
    "specdec-figure": _specdec, "cpu-amx-numa": _cpu, "dtype-support": _dtype,
}


def answer(c: "Ctx") -> list[str]:
    """The direct answers to every engine-behaviour question the message asks (empty when none)."""
    out: list[str] = []
    for name in frames(c.advice.question or ""):
        out += _BUILD[name](c)
    return out
