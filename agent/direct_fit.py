"""Questions answered from the numbers the tools already compute: a verdict first, then the arithmetic.

    asked(text)   -> {"ceiling", "fit", "growth", "layouts"}     which frames the message asks (regexes, en and zh)
    ceiling(c)    "Is 16 the ceiling?", "how many users can it serve?"  KV room at the context, and the load
                                                                        the planner's layout serves within the TTFT target
    fit(c)        "Will it fit / why OOM / are 3 nodes enough?"         weights at the format that loads against the
                                                                        memory, then what fits (and the smallest setup)
    growth(c)     "Why does 35 GB become 148 GB with num_ctx 65536?"    KV = context x parallel slots x the model's
                                                                        own bytes per token
    layouts(c)    "TP=4 or two TP=2 replicas?"                          each named layout scored by the planner's
                                                                        estimator at the user's load

Each is a pure function of the topic context (agent.topic_lead.Ctx); the figures come from the roofline
estimator and the planner (rules.roofline, rules.plan) on the catalogs; nothing is written per question.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from agent.names import display, model_name

if TYPE_CHECKING:
    from agent.topic_lead import Ctx

_F = re.I


def _fmt(x: float | None) -> str:
    from agent.compose import fmt
    return fmt(x) if x is not None else "?"


def _tokens(n: int) -> str:
    from agent.topic_lead import _tokens as t
    return t(n)


# --- detectors ---------------------------------------------------------------------------------------------

_CEILING = re.compile(
    r"\bceiling\b|\bupper\s+limit\b|\bmax(?:imum)?\s+(?:number\s+of\s+)?(?:concurren\w+|simultaneous|parallel\s+requests)"
    r"|\bhow\s+many\s+(?:concurrent\s+|simultaneous\s+|parallel\s+)?(?:users|requests|sequences|sessions|people|clients)\b"
    r"[^.?!]{0,60}\b(?:can|could|will|would|does|do|at\s+once|at\s+the\s+same\s+time)\b"
    r"|\bhow\s+many\s+(?:concurrent|simultaneous|parallel)\b|\bis\s+(?:that|this|\d+)\s+(?:really\s+)?(?:the\s+)?(?:max|limit)\b"
    r"|最多(?:能|可以)?(?:支援|支持|撐|服務|跑|同時)?(?:多少|幾)\s*(?:個|位)?\s*(?:併發|並發|人|使用者|用戶|請求)"
    r"|(?:併發|並發)(?:數)?(?:的)?上限|上限嗎|是不是上限|能撐(?:多少|幾)|同時(?:能|可以)?(?:服務|支援|撐|處理)(?:多少|幾)", _F)
_FIT_WORD = re.compile(r"\bfits?\b|\bfitting\b|放得下|放不下|裝得下|裝不下|塞得下|塞不下|跑得動|跑不動|跑不起來|載得進|載不進", _F)
_OOM = re.compile(r"\bOOM\b|out\s+of\s+memory|\bnot\s+enough\s+(?:memory|VRAM)\b|顯存不(?:夠|足)|显存不(?:够|足)|記憶體不(?:夠|足)|爆顯存", _F)
_ENOUGH = re.compile(r"\b(?:is|are|would|will)\b[^.?!]{0,50}\b(?:nodes?|GPUs?|cards?|boxes|servers?|machines?)\b[^.?!]{0,30}\b"
                     r"(?:enough|sufficient)\b|\b(?:nodes?|GPUs?|cards?)\s+(?:are\s+)?not\s+enough\b"
                     r"|(?:台|張|個節點|節點)\s*(?:就)?(?:夠|足夠)(?:嗎|跑|不夠)|夠(?:不夠)?跑", _F)
_SMALLEST = re.compile(r"\bsmallest\b|\bminimum\s+(?:setup|number|hardware|config\w*)|\bfewest\b|\bhow\s+many\s+(?:nodes|GPUs|cards)\s+(?:do|would|will)\b"
                       r"|最少|最小|至少要幾|最低配置|要幾(?:台|張|個節點)", _F)
_ASK = re.compile(r"[?？]|嗎|\bwhy\b|為什麼|为什么|\bhow\b|怎麼|有什麼辦法", _F)
_WHY = re.compile(r"\bwhy\b|為什麼|为什么|怎麼會|how\s+come", _F)
_GROWTH = re.compile(r"\b(?:grows?|grew|growing|increases?|jumps?|balloons?|becomes?|goes\s+(?:up\s+)?to|takes?|uses?|using)\b"
                     r"|so\s+(?:much|big|large)|bigger|變成|變大|暴增|增加|漲到|吃掉|佔用|用到", _F)
_CTX_WORD = re.compile(r"num_ctx|\bcontext\b|\bctx\b|NUM_PARALLEL|\bparallel\b|上下文|context", _F)
_TWO_GB = re.compile(r"(\d+(?:\.\d+)?)\s*(?:GB|G)\b.{0,160}?(\d+(?:\.\d+)?)\s*(?:GB|G)\b", _F | re.S)
_CLAUSE = re.compile(r"(?:[^.?!。？！\n;；]|\.(?!\s|$))+(?:[.?!。？！;；]|$)")


def ceiling_asked(text: str) -> bool:
    return bool(_CEILING.search(text))


def fit_asked(text: str) -> bool:
    """A fit question in one clause ("will it fit?", "放得下嗎"), an OOM the user asks about, or "are N nodes enough?"."""
    if _OOM.search(text) and _ASK.search(text):
        return True
    if _ENOUGH.search(text):
        return True
    return any(_fit_question(m.group(0)) for m in _CLAUSE.finditer(text))


_FIT_EN_Q = re.compile(r"\b(?:will|would|does|do|can|could|is|are)\b(?:[^.?!]|\.(?=\w)){0,80}\bfit\b(?:[^.?!]|\.(?=\w))*\?|\bhow\s+(?:do|can)\s+(?:i|we)\s+(?:make\s+it\s+)?fit\b", _F)


def _fit_question(clause: str) -> bool:
    """The clause asks whether it fits ("will it fit?", "do both fit?", "放得下嗎？"), not a fit stated in passing
    ("M3 Ultra 塞得下 70B，為什麼…", "it doesn't fit in VRAM — what's the right way to split it?")."""
    if _FIT_EN_Q.search(clause):
        return True
    return any(re.match(r"(?:[^。，,.!！；;]|\.(?=\w)){0,30}?(?:嗎|[?？]|呢)", clause[m.end():]) for m in _FIT_WORD.finditer(clause))


def growth_asked(text: str) -> bool:
    """"Why does 35 GB become 148 GB when I add context?": a why, two memory figures or a growth word, and context."""
    if not (_WHY.search(text) and _CTX_WORD.search(text)):
        return False
    return bool(_TWO_GB.search(text) and _GROWTH.search(text))


# Layouts the user names: "TP=4", "tp=2 pp=2", "tensor parallel 4", "two replicas of TP=2", "兩組 TP=2", "a tensor + pipeline mix"
_NUMS = {"one": 1, "two": 2, "three": 3, "four": 4, "eight": 8, "兩": 2, "两": 2, "二": 2, "三": 3, "四": 4}
_N = r"(\d+|one|two|three|four|eight|兩|两|二|三|四)"
_TPS = r"(?:\btp|\btensor[\s-]+parallel(?:ism)?(?:[\s-]+(?:size|of|degree))?|TP)\s*[=:]?\s*(\d+)"
_PPS = r"(?:\bpp|\bpipeline[\s-]+parallel(?:ism)?(?:[\s-]+(?:size|of|degree))?)\s*[=:]?\s*(\d+)"
_TP_PP = re.compile(_TPS + r"\s*(?:,|x|×|\*|\+|and|with)?\s*" + _PPS, _F)
_REPLICAS = re.compile(_N + r"\s*(?:(?:x|×|\*)\s*|(?:replicas?|copies|instances)\s+of\s+|組\s*|個\s*)" + _TPS, _F)
_REPLICAS_OF = re.compile(r"\b(?:replicas?|copies|instances)\s+of\s+" + _TPS, _F)
_MIX = re.compile(r"\btensor\s*\+\s*pipeline\b|\btp\s*\+\s*pp\b|\bTP/PP\s+mix|\bmix\s+of\s+(?:tensor|TP)|張量.{0,6}管線.{0,4}混", _F)


def _num(word: str) -> int:
    return int(word) if word.isdigit() else _NUMS.get(word.lower(), 0)


def named_layouts(text: str, devices: int | None = None):
    """The layouts (rules.plan.schema.Layout) the message names, in order of mention, without repeats."""
    from rules.plan.schema import Layout
    found: list[tuple[int, object]] = []
    spans: list[tuple[int, int]] = []

    def taken(m) -> bool:
        return any(a <= m.start() < b for a, b in spans)

    def add(lay, m):
        spans.append(m.span())
        found.append((m.start(), lay))
    for m in _TP_PP.finditer(text):
        add(Layout(tp=int(m.group(1)), pp=int(m.group(2))), m)
    for m in _REPLICAS.finditer(text):
        k, tp = _num(m.group(1)), int(m.group(2))
        if not taken(m) and k >= 2:
            add(Layout(tp=tp, dp=k), m)
    for m in _REPLICAS_OF.finditer(text):   # "replicas of TP=2": as many as the devices take
        tp = int(m.group(1))
        if not taken(m) and devices and devices // tp >= 2:
            add(Layout(tp=tp, dp=devices // tp), m)
    for rx, make in ((_TPS, lambda n: Layout(tp=n)), (_PPS, lambda n: Layout(pp=n))):
        for m in re.finditer(rx, text, _F):
            if not taken(m) and int(m.group(1)) >= 2:
                add(make(int(m.group(1))), m)
    mix = _MIX.search(text)
    if mix and devices and devices >= 4 and devices % 2 == 0 and not taken(mix):
        add(Layout(tp=devices // 2, pp=2), mix)
    out: list = []
    for _, lay in sorted(found, key=lambda x: x[0]):
        if lay not in out:
            out.append(lay)
    return out


def layouts_asked(text: str, devices: int | None = None) -> bool:
    from agent.topic_lead import _CHOICE, _EACH
    return len(named_layouts(text, devices)) >= 2 and bool(_CHOICE.search(text) or _EACH.search(text))


def asked(text: str, devices: int | None = None) -> set[str]:
    """The frames this message asks (cheap: regexes on the user's words)."""
    out = set()
    if ceiling_asked(text):
        out.add("ceiling")
    if growth_asked(text):
        out.add("growth")
    elif fit_asked(text):
        out.add("fit")
    if layouts_asked(text, devices):
        out.add("layouts")
    if cost_asked(text):
        out.add("cost-compare")
    return out


# --- shared -------------------------------------------------------------------------------------------------

def _units(c: "Ctx") -> tuple[str, int, int] | None:
    s = c.advice.profile.summary
    if not s.hardware or not s.model:
        return None
    return s.hardware, s.count or 1, s.nodes or 1


def _setup(c: "Ctx", hw: str, count: int, nodes: int) -> str:
    from agent.direct import setup_text
    return setup_text(c, hw, count, nodes)


def _estimate(c: "Ctx", hw: str, count: int, nodes: int, quant: str | None = None, **override):
    """(engine, Estimate) of the user's model on this setup at `quant`, the planner's layout (None when it cannot run)."""
    from agent.direct import run_option
    extra = {"quantization": quant} if quant else {}
    return run_option(c, hw, count, nodes, **extra, **override)


def _load(c: "Ctx") -> int:
    s = c.advice.profile.summary
    return max(1, s.concurrency or 1)


# --- 1. is N the ceiling / how many at once ------------------------------------------------------------------

_STATED_N = re.compile(r"\bis\s+(\d+)\s+(?:really\s+)?(?:the\s+)?(?:ceiling|max|limit)"
                       r"|(\d+)\s*(?:concurrent|simultaneous|parallel)\s*(?:requests|users|sequences|sessions|streams)?"
                       r"|(\d+)\s*個?\s*(?:併發|並發|同時)", _F)
_TTFT_SAID = re.compile(r"(?:TTFT|time[\s-]+to[\s-]+first[\s-]+token|first[\s-]+token|首字(?:延遲)?|首個\s*token)"
                        r"[^.?!。？！\d]{0,40}?(\d+(?:\.\d+)?)(?:\s*(?:-|–|to|~|至|到)\s*(\d+(?:\.\d+)?))?\s*(ms|毫秒|s\b|secs?\b|seconds?|秒)"
                        r"|(\d+(?:\.\d+)?)\s*(ms|毫秒|s\b|secs?\b|seconds?|秒)\s*(?:of\s+)?(?:TTFT|time[\s-]+to[\s-]+first[\s-]+token)", _F)


def stated_ceiling(text: str) -> int | None:
    m = _STATED_N.search(text)
    return int(next(g for g in m.groups() if g)) if m else None


def ttft_target_ms(c: "Ctx") -> tuple[float | None, bool]:
    """(TTFT target in ms, whether the user stated it): the stated target (the upper end of a range), else None."""
    slo = c.advice.slo or {}
    text = c.advice.question or ""
    m = _TTFT_SAID.search(text)
    if m:
        if m.group(1):
            value, unit = float(m.group(2) or m.group(1)), m.group(3).lower()
        else:
            value, unit = float(m.group(4)), m.group(5).lower()
        return (value if unit in ("ms", "毫秒") else value * 1000), True
    if slo.get("ttft_ms"):
        return float(slo["ttft_ms"]), True
    return None, False


_CAP_FLAG = {"vllm": "vLLM --max-num-seqs", "sglang": "SGLang --max-running-requests", "llama.cpp": "llama-server --parallel",
             "ollama": "OLLAMA_NUM_PARALLEL", "tensorrt-llm": "TensorRT-LLM --max_batch_size", "tgi": "TGI --max-concurrent-requests"}


def _probe_ceiling(c: "Ctx", ttft_ms: float):
    """(sequences the KV cache holds, requests in flight the planner's layout serves within the TTFT target,
    the estimate at that load, engine, setup) for the user's setup; None when it cannot be computed."""
    from rules.decide import decide
    from rules.errors import AdvisorError
    from rules.plan import capacity
    from rules.plan.request import request_from_profile
    from rules.plan.scoring import run_estimate
    from rules.plan.search import _topology
    from agent.direct import option_profile
    u = _units(c)
    plan = c.advice.plan
    if u is None or plan is None or plan.search is None or plan.estimate is None:
        return None
    chosen = plan.search.chosen
    try:
        p = option_profile(c, *u)
        dec = decide(p)
        req = request_from_profile(p, dec.model_dump(mode="json"))
        if req is None:
            return None
        topo = _topology(req)
    except (AdvisorError, ValueError):
        return None
    lay = chosen.layout
    held = max(chosen.figures.max_concurrency, chosen.figures.in_service, 1)

    def probe(n: int):
        return run_estimate(req, topo, lay, chosen.quantization, chosen.kv_cache_dtype, concurrency=n)
    serves = capacity.per_replica(probe, ttft_ms, math.inf, min(2048, 8 * held))   # memory is checked per probe (in_service)
    try:
        at = probe(max(1, serves)) if serves else None
    except AdvisorError:
        at = None
    return chosen.figures.max_concurrency, serves, at, plan.engine or dec.primary, chosen


def ceiling(c: "Ctx") -> list[str]:
    text = c.advice.question or ""
    if not ceiling_asked(text) or _units(c) is None or c.advice.estimate is None:
        return []
    target, said = ttft_target_ms(c)
    if target is None:
        from rules.benchspec.slos import slos_for
        wl, pr = c.advice.profile.field("workload"), c.advice.profile.field("priority")
        target = slos_for(str(wl.value) if wl else "chat", _load(c), str(pr.value) if pr else None, [])[0].ttft_p99_ms
    got = _probe_ceiling(c, target)
    if got is None:
        return []
    kv_held, serves, at, eng, chosen = got
    est = c.advice.estimate
    n = stated_ceiling(text)
    where = c.setup or _setup(c, *_units(c))
    tgt = f"{target / 1000:g} s"
    basis = c.t("your target" if said else "the chat default; give yours", "您的目標" if said else "聊天服務的預設值，請給您的目標")
    kv = c.t(f"the KV cache holds about {kv_held:,} sequences of {_tokens(est.context_length)} tokens "
             f"({_kb(est.kv_bytes_per_token)} per token) next to the {_fmt(est.weights_gb)} GB of {est.quantization} weights",
             f"KV cache 在 {_fmt(est.weights_gb)} GB 的 {est.quantization} 權重之外，約可容納 {kv_held:,} 條 "
             f"{_tokens(est.context_length)} tokens 的序列（每個 token {_kb(est.kv_bytes_per_token)}）")
    speed = (c.t(f" (TTFT about {_fmt(at.ttft_s)} s, {_fmt(at.decode_tokens_per_s)} tok/s per stream there)",
                 f"（此時 TTFT 約 {_fmt(at.ttft_s)} s、每條串流 {_fmt(at.decode_tokens_per_s)} tok/s）")
             if at is not None and at.ttft_s is not None and at.decode_tokens_per_s else "")
    memory_bound = at is not None and at.ttft_s is not None and at.ttft_s * 1000 < 0.8 * target
    if memory_bound:   # the KV cache stops the load before the TTFT target does
        serves_txt = c.t(f"at your lengths it keeps about {serves:,} requests in flight, where the estimated TTFT is still "
                         f"about {_fmt(at.ttft_s)} s, under TTFT ≤ {tgt} ({basis}), at {_fmt(at.decode_tokens_per_s)} tok/s per stream",
                         f"以您的長度約可同時處理 {serves:,} 個請求，此時估計 TTFT 仍只有約 {_fmt(at.ttft_s)} s，低於 TTFT ≤ {tgt}"
                         f"（{basis}），每條串流 {_fmt(at.decode_tokens_per_s)} tok/s")
    else:
        serves_txt = c.t(f"the estimate keeps TTFT ≤ {tgt} ({basis}) up to about {serves:,} requests in flight{speed}",
                         f"估計在 TTFT ≤ {tgt}（{basis}）之下，約可同時處理 {serves:,} 個請求{speed}")
    ctx = c.t(f"on {where} with {display(eng)} ({chosen.layout.describe('en')})", f"在 {where} 上用 {display(eng)}（{chosen.layout.describe('zh')}），")
    flag = _CAP_FLAG.get(eng)
    if not serves:
        return [c.t(f"**{'Is ' + str(n) + ' the ceiling? ' if n else 'How many at once? '}Even one request misses TTFT ≤ {tgt}** — "
                    f"{ctx}, {kv}, but the prompt alone takes longer than {tgt} to prefill here; shorter prompts, prefix "
                    "caching or a faster device come before concurrency.",
                    f"**{str(n) + ' 個是上限嗎？' if n else '同時能服務多少？'}連一個請求都達不到 TTFT ≤ {tgt}**——{ctx}{kv}，"
                    f"但這裡光是 prefill 提示就超過 {tgt}；要先縮短提示、開前綴快取或換更快的裝置，再談併發。")]
    if n is None:
        k = serves
        return [c.t(f"**How many at once: about {k:,}** — {ctx}, {kv}, and {serves_txt}. Past that, requests queue "
                    "and TTFT grows; it is a roofline estimate, so step the load up in a benchmark and watch TTFT p99.",
                    f"**同時能服務多少：約 {k:,} 個**——{ctx}{kv}；{serves_txt}。超過之後請求會排隊、TTFT 變長；"
                    "這是 roofline 估算，請用基準測試逐步加壓並看 TTFT p99。")]
    top = serves   # requests in flight use less than the full window, so this can exceed the full-window count
    if top > 1.25 * n:
        cap = (c.t(f"; raise the engine's cap on running sequences ({flag}) toward {top:,} and step the load up while "
                   "watching TTFT p99", f"；把引擎的同時序列上限（{flag}）往 {top:,} 調高，逐步加壓並看 TTFT p99") if flag else "")
        return [c.t(f"**Is {n} the ceiling? No** — {ctx}, {kv}, and {serves_txt}. So {n} is set by the settings "
                    f"(the batch cap, prefill scheduling, warm-up), not by the memory or the compute{cap}.",
                    f"**{n} 個是上限嗎？不是**——{ctx}{kv}；{serves_txt}。所以 {n} 是設定造成的（批次上限、prefill 排程、"
                    f"暖機），不是記憶體或算力的極限{cap}。")]
    if top >= 0.8 * n:
        return [c.t(f"**Is {n} the ceiling? About, yes** — {ctx}, {kv}, and {serves_txt}: {n} is close to what this "
                    "setup gives. More needs a smaller format (more KV room, faster prefill), prefix caching of shared "
                    "prompt parts, or another device.",
                    f"**{n} 個是上限嗎？差不多是**——{ctx}{kv}；{serves_txt}：{n} 已接近這個配置的能力。要更多就得用較小的格式"
                    "（KV 空間更大、prefill 更快）、對共用的提示開前綴快取，或加裝置。")]
    return [c.t(f"**Is {n} the ceiling? Yes, or already past it** — {ctx}, {kv}, and {serves_txt}. More at once "
                "needs a smaller format, shorter prompts, prefix caching or another device.",
                f"**{n} 個是上限嗎？是，甚至已超過**——{ctx}{kv}；{serves_txt}。要同時更多，需要較小的格式、較短的提示、"
                "前綴快取或更多裝置。")]


# --- 2. will it fit / why OOM / are N nodes enough -----------------------------------------------------------

def _format_checked(c: "Ctx") -> str:
    """The format the fit question is about: the one the user said, else what an engine loads by default: the
    model's native 16-bit, or its published low-bit format where the device runs it. A published FP8 model on a
    device without FP8 compute is checked at BF16, the arithmetic people do first (the guides convert it)."""
    from rules import catalog
    from rules.defaults import quant_ladder
    s = c.advice.profile.summary
    said = c.advice.profile.field("quantization")
    if said is not None and said.origin == "said" and s.quantization:
        return s.quantization
    spec, hw = catalog.model(s.model), catalog.hardware(s.hardware)
    native = spec.native_dtype or "bf16"
    if native == "fp8" and not hw.tflops.fp8:
        return "bf16"
    ladder = quant_ladder(hw, native)
    return native if native in ladder else ("bf16" if native in ("f16", "fp16", "bf16") else ladder[0])


_FORMATS = ("bf16", "fp8", "int8", "int4")


def _said_load(c: "Ctx") -> int | None:
    f = c.advice.profile.field("concurrency")
    return int(f.value) if f is not None and f.origin == "said" and isinstance(f.value, (int, float)) else None


def _room(est) -> float:
    m = est.memory
    return max(0.0, m.usable_gb - m.reserve_gb) * m.devices


def _total(est) -> float:
    return est.memory.capacity_gb * est.memory.devices


def _how(c: "Ctx", q: str, hw_id: str) -> str:
    """FP8 on this device: native, or weight-only (no FP8 compute)."""
    from rules import catalog
    if not q.startswith("fp8"):
        return ""
    if catalog.hardware(hw_id).tflops.fp8:
        return c.t(", native on this device", "，這張卡原生支援")
    return c.t(", weight-only on this device (no FP8 compute)", "，這張卡沒有 FP8 運算，以 weight-only 執行")


def _fits_line(c: "Ctx", q: str, est, hw_id: str) -> str:
    return c.t(f"{q} ({_fmt(est.weights_gb)} GB of weights{_how(c, q, hw_id)}) fits with KV room for about {est.max_concurrency:,} "
               f"sequences of {_tokens(est.context_length)} tokens",
               f"{q}（權重 {_fmt(est.weights_gb)} GB{_how(c, q, hw_id)}）放得下，KV 空間約可容納 "
               f"{est.max_concurrency:,} 條 {_tokens(est.context_length)} tokens 的序列")


def _smallest(c: "Ctx", hw: str, count: int, nodes: int) -> list[str]:
    """Per format, the fewest units (nodes of `count`, or devices) whose estimate fits and holds the stated load
    (else a few sequences)."""
    need = _said_load(c) or 4
    by_nodes = nodes > 1 or bool(re.search(r"\bnodes?\b|節點|台", c.advice.question or "", _F))
    limit = max(nodes + 1, 4) if by_nodes else max(count, 8)
    units = list(range(1, limit + 1)) if by_nodes else [n for n in (1, 2, 4, 8, 16) if n <= limit]
    found = []
    for q in _FORMATS:
        for u in units:
            got = _estimate(c, hw, count if by_nodes else u, u if by_nodes else 1, q)
            if got is None:
                continue
            est = got[1]
            if est.fits and est.max_concurrency >= need:
                if not any(abs(e.weights_gb - est.weights_gb) < 0.02 * est.weights_gb for _, _, e in found):
                    found.append((q, u, est))
                break
    if not found:
        return []
    unit = (lambda u: c.t(f"{u} node{'s' if u > 1 else ''}", f"{u} 個節點")) if by_nodes else \
           (lambda u: c.t(f"{u}×", f"{u} 張"))
    sep = c.t("; ", "；")
    parts = sep.join(c.t(f"{q}: {unit(u)} ({_fmt(e.weights_gb)} GB of weights{_how(c, q, hw)}, KV for about "
                         f"{e.max_concurrency:,} sequences)",
                         f"{q}：{unit(u)}（權重 {_fmt(e.weights_gb)} GB{_how(c, q, hw)}，KV 約 {e.max_concurrency:,} 條序列）")
                     for q, u, e in found)
    ctx = _tokens(found[0][2].context_length)
    held = c.t(f"{need} sequences" if need > 1 else "one sequence", f"{need} 條序列")
    return [c.t(f"**Smallest setup per format** (the weights plus KV for {held} of {ctx} tokens): {parts}.",
                f"**各格式的最小配置**（權重加上 {held}、每條 {ctx} tokens 的 KV）：{parts}。")]


def fit(c: "Ctx") -> list[str]:
    text = c.advice.question or ""
    u = _units(c)
    if not fit_asked(text) or u is None:
        return []
    hw, count, nodes = u
    q = _format_checked(c)
    got = _estimate(c, hw, count, nodes, q)
    if got is None:
        return []
    eng, est = got
    from rules import catalog
    mname = c.model or model_name(c.advice.profile.summary.model)
    where = _setup(c, hw, count, nodes)
    nominal, devs = catalog.hardware(hw).memory_gb, est.memory.devices
    mem = f"{devs} × {nominal:g} GB" if devs > 1 else f"{nominal:g} GB"
    loads = est.weights_gb <= _room(est)
    need = _said_load(c) or 1
    seqs = c.t(f"{max(0, est.max_concurrency):,} sequences of {_tokens(est.context_length)} tokens",
               f"{max(0, est.max_concurrency):,} 條 {_tokens(est.context_length)} tokens 的序列")
    arith = c.t(f"at {q} its weights are {_fmt(est.weights_gb)} GB{_how(c, q, hw)}, against {mem} on {where} "
                f"({_fmt(_total(est))} GB in decimal units, about {_fmt(_room(est))} GB usable after the engine's reserve)",
                f"以 {q} 計，權重 {_fmt(est.weights_gb)} GB{_how(c, q, hw)}；{where} {'共有' if loads else '只有'} {mem}"
                f"（十進位約 {_fmt(_total(est))} GB，扣掉引擎保留後約可用 {_fmt(_room(est))} GB）")
    head_q = c.t(f"**Does {mname} fit {where}? ", f"**{where} 放得下 {mname} 嗎？")
    oom = bool(_OOM.search(text))
    if not loads:
        verdict = c.t(f"No, not at {q}** — {arith}: the weights alone do not load"
                      + (", so the out-of-memory error is the arithmetic and no memory setting changes it." if oom else "."),
                      f"{q} 放不下**——{arith}：光是權重就載不進去" + ("，所以 OOM 是算術決定的，調任何記憶體參數都沒用。" if oom else "。"))
    elif not est.fits or est.max_concurrency < need:
        short = (c.t(f", fewer than your {need} at once", f"，少於您的 {need} 個同時請求") if need > 1 else
                 c.t(", so a long prompt or a few users at once run out of memory", "，長提示或幾個人同時用就會記憶體不足"))
        verdict = c.t(f"Only just** — {arith}: the weights load, but the KV cache has room for only {seqs}{short}.",
                      f"勉強放得下**——{arith}：權重載得進去，但 KV cache 只夠 {seqs}{short}。")
    else:
        verdict = c.t(f"Yes** — {arith}; with {display(eng)} that leaves KV room for about {seqs}.",
                      f"放得下**——{arith}；用 {display(eng)} 還有約 {seqs}的 KV 空間。")
    out = [head_q + verdict]
    smallest = bool(_SMALLEST.search(text))
    comfortable = loads and est.fits and est.max_concurrency >= need
    if not comfortable and not smallest:
        # what fits instead: the plan's own format when it differs and fits, else the next format down that fits
        plan_est = c.advice.estimate
        alt = None
        if plan_est is not None and plan_est.fits and plan_est.quantization != est.quantization and plan_est.count == est.count:
            alt = (plan_est.quantization, plan_est, True)
        else:
            for q2 in _FORMATS[_FORMATS.index(q) + 1 if q in _FORMATS else 0:]:
                g = _estimate(c, hw, count, nodes, q2)
                if g is not None and g[1].fits and g[1].max_concurrency >= 1:
                    alt = (g[1].quantization, g[1], False)
                    break
        if alt is not None:
            out[-1] += c.t(" ", "") + c.t(f"On the same hardware, {_fits_line(c, alt[0], alt[1], hw)}"
                                          + ("; the plan below uses it." if alt[2] else "."),
                                          f"同樣的硬體上，{_fits_line(c, alt[0], alt[1], hw)}" + ("；下方的規劃就用這個。" if alt[2] else "。"))
    if smallest:
        out += _smallest(c, hw, count, nodes)
    return out


# --- 3. why does memory grow with the context ----------------------------------------------------------------

_PARALLEL = re.compile(r"OLLAMA_NUM_PARALLEL\s*[=:]?\s*(\d+)|--parallel\s+(\d+)|-np\s+(\d+)|(\d+)\s+parallel\s+(?:slots|requests)", _F)
_OLLAMA_PARALLEL_DEFAULT = 4
"""Ollama's FAQ: OLLAMA_NUM_PARALLEL defaults to 4 or 1 depending on the memory available; each slot gets num_ctx
tokens of KV cache (https://docs.ollama.com/faq)."""
_OLLAMA_FAQ = "https://docs.ollama.com/faq"


def _two_figures(text: str) -> tuple[float, float] | None:
    """The smaller and the larger of the memory figures the user quotes ("35 GB ... 148 GB"), from the first
    line that has two (facts added on lines of their own, "4x RTX 3090 24GB", are not the growth)."""
    line = next((ln for ln in text.split("\n") if _TWO_GB.search(ln)), "")
    nums = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)\s*(?:GB|G|GiB)\b", line, _F)]
    nums = [n for n in nums if n >= 1]
    if len(nums) < 2:
        return None
    return min(nums), max(nums)


def _slots(text: str) -> list[int]:
    return [int(next(g for g in m.groups() if g)) for m in _PARALLEL.finditer(text)]


def growth(c: "Ctx") -> list[str]:
    from rules import catalog
    from rules.roofline.memory import kv_bytes_per_token
    text = c.advice.question or ""
    s = c.advice.profile.summary
    if not growth_asked(text) or not s.model:
        return []
    figs = _two_figures(text)
    spec = catalog.model(s.model)
    per_tok = kv_bytes_per_token(spec, None).value   # 16-bit KV, the default of every engine
    said_ctx = re.search(r"num_ctx\D{0,12}(\d{4,7})|--ctx-size\s+(\d{4,7})|-c\s+(\d{4,7})", text, _F)
    ctx = (int(next(g for g in said_ctx.groups() if g)) if said_ctx else None) or s.context_length or \
        (c.advice.estimate.context_length if c.advice.estimate else None)
    if not ctx or not per_tok:
        return []
    slots = _slots(text)
    ollama = bool(re.search(r"\bollama\b", text, _F))
    n = max(slots) if slots else (_OLLAMA_PARALLEL_DEFAULT if ollama else 1)
    one = per_tok * ctx / 1e9
    kv = one * n
    small, big = figs if figs else (None, None)
    title = (c.t(f"**Why {small:g} GB becomes {big:g} GB: the KV cache**", f"**為什麼 {small:g} GB 變成 {big:g} GB：KV cache**")
             if figs else c.t("**Why memory grows with the context: the KV cache**", "**為什麼 context 一加大記憶體就暴增：KV cache**"))
    att = spec.attention
    if att.kind == "mla":
        shape = c.t(f"{mname_or(c, spec)} stores a compressed (MLA) KV of {_kb(per_tok)} per token at 16 bits",
                    f"{mname_or(c, spec)} 的 KV 經 MLA 壓縮，每個 token {_kb(per_tok)}（16 位元）")
    else:
        full = spec.layers - att.sliding_layers - att.linear_layers
        skip = (c.t(f" (its {att.sliding_layers} sliding-window layers stop at {att.sliding_window:,} tokens)",
                    f"（另外 {att.sliding_layers} 層滑動視窗層只存到 {att.sliding_window:,} tokens）") if att.sliding_layers else "")
        shape = c.t(f"{mname_or(c, spec)} stores {full} layers × {spec.kv_heads} KV heads × {spec.head_dim} dims × 2 (K and V) "
                    f"× 2 bytes = {_kb(per_tok)} per token at 16 bits{skip}",
                    f"{mname_or(c, spec)} 每個 token 存 {full} 層 × {spec.kv_heads} 個 KV head × {spec.head_dim} 維 × 2（K 與 V）"
                    f"× 2 bytes = {_kb(per_tok)}（16 位元）{skip}")
    if slots:
        who = c.t(f"the {n} parallel slots you set", f"您設定的 {n} 個平行 slot")
    elif ollama:
        who = c.t(f"Ollama's parallel slots (OLLAMA_NUM_PARALLEL: {n} when memory allows, per its [FAQ]({_OLLAMA_FAQ}))",
                  f"Ollama 的平行 slot（OLLAMA_NUM_PARALLEL：記憶體夠時預設 {n}，見其 [FAQ]({_OLLAMA_FAQ})）")
    else:
        who = c.t("one sequence", "一條序列")
    line = c.t(f"{title} — the engine reserves the KV cache for the whole window up front: {shape}, so one {ctx:,}-token "
               f"window is {_fmt(one)} GB, and {who} {'each get one' if n > 1 else 'gets it'}: {_fmt(kv)} GB of KV cache",
               f"{title}——引擎會先為整個視窗保留 KV cache：{shape}，所以一個 {ctx:,} tokens 的視窗是 {_fmt(one)} GB，"
               f"{who}{'各有一份' if n > 1 else ''}：共 {_fmt(kv)} GB 的 KV cache")
    est = c.advice.estimate
    if est is None and _units(c) is not None:   # no plan (the window does not fit): the plain estimate's memory figures
        from agent.direct import run_option
        got = run_option(c, *_units(c), plan=False, context_length=min(4096, spec.max_context))   # weights and room only
        est = got[1] if got else None
    weights = est.weights_gb if est is not None and est.model == s.model else None
    if figs and weights and abs(small - weights) > 0.25 * weights:   # the smaller figure is not the weights alone
        line += c.t(f" on top of about {_fmt(weights)} GB of weights; each slot adds {_fmt(one)} GB, so the slot count, not the "
                    "model, makes the difference between your two figures. The weights did not grow.",
                    f"，加在約 {_fmt(weights)} GB 的權重上；每多一個 slot 就多 {_fmt(one)} GB，所以兩個數字的差別來自 slot 數量，"
                    "不是模型。權重本身沒有變大。")
    elif figs:
        rest = big - small - kv
        line += c.t(f" on top of the {small:g} GB of weights" + (f"; the remaining ~{_fmt(rest)} GB are the compute buffers "
                    "each GPU allocates for a window this size" if rest > 0.1 * big else "") + ". The weights did not grow.",
                    f"，加在 {small:g} GB 的權重上" + (f"；剩下約 {_fmt(rest)} GB 是每張 GPU 為這麼大的視窗配置的計算緩衝區" if rest > 0.1 * big else "")
                    + "。權重本身沒有變大。")
    else:
        line += c.t(".", "。")
    users = _said_load(c) or 1
    fix_n = max(1, min(n, users)) if n > 1 else 1
    q8 = one * fix_n / 2
    room = (max(0.0, est.memory.usable_gb - est.memory.reserve_gb) * est.memory.devices) if est is not None else None
    after = (c.t(f" (with the {_fmt(weights)} GB of weights: {_fmt(weights + q8)} GB, within the ~{_fmt(room)} GB the GPUs have)",
                 f"（加上 {_fmt(weights)} GB 權重共 {_fmt(weights + q8)} GB，在 GPU 約 {_fmt(room)} GB 之內）")
             if weights and room and weights + q8 <= room else "")
    slots_en = (f"set the parallel slots to what you really need ({'OLLAMA_NUM_PARALLEL=' + str(fix_n) if ollama else 'one per concurrent user'}: "
                f"{_fmt(one * fix_n)} GB)" if fix_n < n else f"keep only the slots you need (each one dropped frees {_fmt(one)} GB)")
    slots_zh = (f"把平行 slot 設成真正需要的數量（{'OLLAMA_NUM_PARALLEL=' + str(fix_n) if ollama else '每個同時使用者一個'}："
                f"{_fmt(one * fix_n)} GB）" if fix_n < n else f"只留需要的 slot（每少一個省 {_fmt(one)} GB）")
    fixes = c.t(f"To keep {ctx:,} tokens on the GPUs: {slots_en}, "
                f"store the KV cache in 8 bits ({'OLLAMA_FLASH_ATTENTION=1 with OLLAMA_KV_CACHE_TYPE=q8_0' if ollama else 'an FP8 / q8_0 KV cache'}: "
                f"about {_fmt(q8)} GB{after}, a small quality cost), or shorten the window; a server engine (vLLM, SGLang) allocates KV "
                "pages as tokens arrive instead of a full window per slot.",
                f"要讓 {ctx:,} tokens 留在 GPU 上：{slots_zh}、"
                f"KV cache 改存 8 位元（{'OLLAMA_FLASH_ATTENTION=1 加 OLLAMA_KV_CACHE_TYPE=q8_0' if ollama else 'FP8／q8_0 KV cache'}：約 {_fmt(q8)} GB{after}，"
                "品質略有損失），或縮短視窗；伺服器引擎（vLLM、SGLang）則隨 token 進來才配置 KV 分頁，而不是每個 slot 先佔滿整個視窗。")
    return [line, fixes]


def mname_or(c: "Ctx", spec) -> str:
    return c.model or spec.name


def _kb(b: float) -> str:
    return f"{b / 1024:,.0f} KB" if b < 1024 * 1024 else f"{b / 1024 / 1024:,.2f} MB"


# --- 4. the layouts the user named -----------------------------------------------------------------------------

def layouts(c: "Ctx") -> list[str]:
    """Each named layout scored by the planner's estimator at the user's load and context: per-stream speed,
    TTFT, total throughput and the sequences its KV cache holds; the planner's pick named."""
    from rules.decide import decide
    from rules.errors import AdvisorError
    from rules.plan.request import request_from_profile
    from rules.plan.scoring import run_estimate
    from rules.plan.search import _topology
    from agent.direct import option_profile
    u = _units(c)
    if u is None:
        return []
    hw, count, nodes = u
    text = c.advice.question or ""
    devices = count * nodes
    lays = [lay for lay in named_layouts(text, devices) if lay.devices <= devices]
    if len(lays) < 2 or not layouts_asked(text, devices):
        return []
    plan = c.advice.plan
    chosen = plan.search.chosen if plan is not None and plan.search is not None else None
    try:
        p = option_profile(c, hw, count, nodes)
        req = request_from_profile(p, decide(p).model_dump(mode="json"))
        if req is None:
            return []
        topo = _topology(req)
    except (AdvisorError, ValueError):
        return []
    quant = chosen.quantization if chosen else (req.quant or req.spec().native_dtype)
    kv = chosen.kv_cache_dtype if chosen else None
    lines = []
    for lay in lays:
        # a TP group wider than the fast-link domain (TP=4 over two bridged pairs) all-reduces over PCIe: charge it there
        wide = topo.fast and topo.domain > 1 and lay.tp * lay.ep > topo.domain
        try:
            est = _estimate_over(req, topo, lay, quant, kv, "pcie" if wide else None)
        except AdvisorError:
            lines.append(f"{lay.describe(c.lang)}{c.t(': the estimator cannot run it here.', '：這裡無法估算。')}")
            continue
        name = lay.describe(c.lang)
        if not est.fits:
            lines.append(c.t(f"{name}: does not fit ({_fmt(est.memory.weights_gb)} GB of weights per device against "
                             f"{_fmt(est.memory.usable_gb)} GB usable)",
                             f"{name}：放不下（每張 {_fmt(est.memory.weights_gb)} GB 權重，可用 {_fmt(est.memory.usable_gb)} GB）"))
            continue
        pick = chosen is not None and lay.tp == chosen.layout.tp and lay.pp == chosen.layout.pp and lay.dp == chosen.layout.dp \
            and lay.ep == chosen.layout.ep
        if wide:
            name += c.t(f" (its all-reduce crosses PCIe beyond each {topo.domain}-card link)", f"（all-reduce 要跨出每 {topo.domain} 張卡的高速互連、走 PCIe）")
        lines.append(c.t(f"{name}: about {_fmt(est.decode_tokens_per_s)} tok/s per stream, TTFT {_fmt(est.ttft_s)} s, "
                         f"{_fmt(est.aggregate_tokens_per_s)} tok/s in total at {est.concurrency} in flight; KV room for "
                         f"{est.max_concurrency:,} sequences of {_tokens(est.context_length)} tokens"
                         + (" (fewer than in flight: the rest queue)" if est.max_concurrency < est.concurrency else "")
                         + (" — the plan's pick" if pick else ""),
                         f"{name}：每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s、TTFT {_fmt(est.ttft_s)} s，"
                         f"{est.concurrency} 個同時請求時總計 {_fmt(est.aggregate_tokens_per_s)} tok/s；KV 空間可容納 "
                         f"{est.max_concurrency:,} 條 {_tokens(est.context_length)} tokens 的序列"
                         + ("（少於同時請求數：其餘要排隊）" if est.max_concurrency < est.concurrency else "")
                         + ("——規劃選的" if pick else "")))
    return lines


# --- 5. $/1M tokens on each device the user priced ------------------------------------------------------------

_PRICE = re.compile(r"(?:US)?\$\s*(\d+(?:\.\d+)?)\s*(?:/\s*(?:GPU[-\s]?)?h(?:ou)?r?\b|(?:an|per|a)\s+(?:GPU[-\s]?)?hour\b|/\s*GPU[-\s]?h)"
                    r"|(\d+(?:\.\d+)?)\s*(?:美元|美金|USD)\s*(?:/|每)\s*(?:小時|時|hr\b|h\b)|每小時\s*(?:US)?\$?\s*(\d+(?:\.\d+)?)\s*(?:美元|美金)?", _F)
_PER_TOKEN_MS = re.compile(r"(\d+(?:\.\d+)?)\s*ms\s+(?:per|a|/)\s*(?:output\s+)?token|每個?\s*(?:輸出\s*)?token\s*(\d+(?:\.\d+)?)\s*(?:ms|毫秒)", _F)


def priced_devices(text: str) -> list[tuple[str, float]]:
    """[(hardware id, $ per device-hour)] for each price written beside a device ("$1.35/h for an A100 80GB"):
    each price goes to the nearest device named in the same clause."""
    from agent.extract_aliases import hardware_index
    hits = list(hardware_index().find(text))
    out: dict[str, float] = {}
    for m in _PRICE.finditer(text):
        price = float(next(g for g in m.groups() if g))
        clause = next((k for k in _CLAUSE.finditer(text) if k.start() <= m.start() < k.end()), None)
        lo, hi = (clause.start(), clause.end()) if clause else (0, len(text))
        near = [h for h in hits if lo <= h.start < hi and h.id not in out]
        if not near:
            continue
        after = [h for h in near if h.start >= m.end()]
        before = [h for h in near if h.end <= m.start()]
        if after and re.match(r"\s*(?:each\s+)?(?:for|on|per|with)\b|\s*(?:買|租|的)", text[m.end():m.end() + 12], _F):
            best = after[0]   # "$1.35/h for an A100"
        elif before:
            best = before[-1]   # "an H100 costs us $2.99/hr", "H100 每小時 2.25 美元"
        else:
            best = after[0]
        out[best.id] = price
    return list(out.items())


def cost_asked(text: str) -> bool:
    return len(priced_devices(text)) >= 2 and bool(re.search(r"cost|\$\s*/\s*M|per\s+million|per\s+1M|cheap|成本|划算|便宜|每百萬", text, _F))


def _serves(c: "Ctx", hw: str, count: int, nodes: int, ttft_ms: float, tpot_ms: float, **override):
    """(engine, chosen candidate, requests in flight one setup serves within the targets, the estimate there) for
    the user's model on `count` x `hw`, the planner choosing the layout; None when it cannot be computed."""
    from rules.decide import decide
    from rules.errors import AdvisorError
    from rules.plan import capacity, plan_for_profile
    from rules.plan.request import request_from_profile
    from rules.plan.scoring import run_estimate
    from rules.plan.search import _topology
    from agent.direct import option_profile
    try:
        p = option_profile(c, hw, count, nodes, **override)
        dec = decide(p).model_dump(mode="json")
        found = plan_for_profile(p, dec)
        req = request_from_profile(p, dec)
        if not found or req is None or found[1] is None or not found[0].chosen.figures.fits:
            return None
        topo = _topology(req)
    except (AdvisorError, ValueError):
        return None
    chosen = found[0].chosen

    def probe(n: int):
        return run_estimate(req, topo, chosen.layout, chosen.quantization, chosen.kv_cache_dtype, concurrency=n)
    held = max(chosen.figures.max_concurrency, chosen.figures.in_service, 1)
    serves = capacity.per_replica(probe, ttft_ms, tpot_ms, min(2048, 8 * held))   # memory is checked per probe (in_service)
    if not serves:
        return None
    try:
        return found[0].engine, chosen, serves, probe(serves)
    except AdvisorError:
        return None


def cost_compare(c: "Ctx") -> list[str]:
    """$/1M output tokens on each device the user priced: the fewest devices that hold the model, loaded as far as
    the latency targets allow (the user's, else the use case's defaults), price x devices / output tokens per hour."""
    from rules.benchspec.slos import slos_for
    text = c.advice.question or ""
    s = c.advice.profile.summary
    prices = priced_devices(text)
    if len(prices) < 2 or not cost_asked(text) or not s.model:
        return []
    ttft, said_ttft = ttft_target_ms(c)
    m = _PER_TOKEN_MS.search(text)
    tpot = float(next(g for g in m.groups() if g)) if m else (c.advice.slo or {}).get("tpot_ms")
    wl = c.advice.profile.field("workload")
    slo = slos_for(str(wl.value) if wl else "chat", _load(c), None, [])[0]
    said_tpot = tpot is not None
    ttft, tpot = ttft or slo.ttft_p99_ms, tpot or slo.tpot_p99_ms
    rows = []
    for hw, price in prices:
        for n in (1, 2, 4, 8):
            got = _serves(c, hw, n, 1, ttft, tpot, device_hour_usd=price)
            if got is not None:
                eng, chosen, serves, est = got
                if est.aggregate_tokens_per_s:
                    cost = price * n / (est.aggregate_tokens_per_s * 3600 / 1e6)
                    rows.append((cost, hw, n, price, eng, chosen, serves, est))
                break
    if len(rows) < 2:
        return []
    rows.sort(key=lambda r: r[0])
    best = rows[0]
    targets = c.t(f"TTFT ≤ {ttft / 1000:g} s and TPOT ≤ {tpot:g} ms" + ("" if said_tpot or said_ttft else " (chat defaults; give yours)"),
                  f"TTFT ≤ {ttft / 1000:g} s、TPOT ≤ {tpot:g} ms" + ("" if said_tpot or said_ttft else "（聊天服務預設值，請給您的目標）"))
    lines = []
    for cost, hw, n, price, eng, chosen, serves, est in rows:
        lines.append(c.t(f"{_setup(c, hw, n, 1)} at ${price:g}/h each: ${_fmt(cost)} per 1M output tokens — {display(eng)}, "
                         f"{chosen.quantization}{_how(c, chosen.quantization, hw)}, {serves:,} requests in flight, {_fmt(est.aggregate_tokens_per_s)} output tok/s "
                         f"({_fmt(est.decode_tokens_per_s)} per stream)",
                         f"{_setup(c, hw, n, 1)}（每張每小時 ${price:g}）：每百萬輸出 token ${_fmt(cost)}——{display(eng)}、"
                         f"{chosen.quantization}{_how(c, chosen.quantization, hw)}，同時 {serves:,} 個請求，總計 {_fmt(est.aggregate_tokens_per_s)} 輸出 tok/s"
                         f"（每條串流 {_fmt(est.decode_tokens_per_s)}）"))
    mname = c.model or model_name(s.model)
    head = c.t(f"**Lowest $/1M tokens for {mname}: {_setup(c, best[1], best[2], 1)}, about ${_fmt(best[0])}** — each device "
               f"filled as far as {targets} allow; $/1M = price per hour × devices ÷ (output tok/s × 3600 / 1M). These hold "
               "only while the devices stay that busy: at half the load each costs twice as much per token, so divide by "
               "your average utilization, and measure output tok/s at your targets before buying.",
               f"**{mname} 每百萬 token 最便宜：{_setup(c, best[1], best[2], 1)}，約 ${_fmt(best[0])}**——每種裝置都在 {targets} "
               "之內盡量加滿負載；每百萬 token 成本 = 每小時價格 × 裝置數 ÷（輸出 tok/s × 3600 / 1M）。前提是裝置一直這麼忙："
               "負載只有一半時每個 token 的成本就加倍，所以要再除以平均使用率，買之前在您的目標下實測輸出 tok/s。")
    return [head + "\n" + "\n".join(f"- {line}" for line in lines)]


def _estimate_over(req, topo, lay, quant: str, kv: str | None, link: str | None):
    """The planner's estimate of a layout (rules.plan.scoring.run_estimate), with its collectives charged to `link`
    when given."""
    from rules.plan.scoring import run_estimate
    from rules.quant import concrete
    from rules.roofline import estimate
    if link is None:
        return run_estimate(req, topo, lay, quant, kv)
    hw = req.hw()
    inp = req.input_tokens
    if inp and req.cached_prefix:   # as run_estimate: the shared prefix comes from the prefix cache
        inp = max(1, inp - req.cached_prefix)
    return estimate(req.spec(), req.hardware, count=req.per_node, nodes=req.nodes,
                    quant=concrete(quant, req.engine, hw.platform, hw.cuda_cc), engine=req.engine,
                    parallelism=lay.parallelism(), input_tokens=inp, output_tokens=req.output_tokens,
                    context_length=req.context_length, concurrency=req.load, kv_cache_dtype=kv, price_per_hour=req.price,
                    memory_gb=req.memory_gb, interconnect=link, attention_dp=lay.attention_dp, host_ram=req.host_ram,
                    shared_prefix_tokens=req.cached_prefix)
