"""The diagnosis answer: "is this normal? / why is it slow?" answered with a verdict first.

    lead(c, engine, measured) -> ["**Is that normal? No, far too slow** — ... Most likely: ...",
                                  "**Likely causes** ...\n- ...", ...]

The user's figure (agent.measured) is set beside the estimate for their own setup and engine (one request
unless they measured a total), the ratio gives the verdict (rules.diagnosis.verdict), and the causes that fit
the setup (rules/catalog/diagnosis.yaml, each with a check, a fix and a source) follow, most specific first.
A cause that makes the figure the expected one ("FP16 kernels on a Pascal card") turns the verdict to
"expected for this setup". Everything the user reads is in their language.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.measured import Measured
from agent.names import display
from rules import diagnosis

if TYPE_CHECKING:
    from agent.topic_lead import Ctx

MAX_CAUSES = 3
FALLBACK_CONTEXT = 8192
"""The context a speed is estimated at when the stated one does not fit (the figure measured did run)."""
GENERIC_BELOW = 50
"""Causes weighted under this are generic checks (a current build, -ngl): shown only when nothing specific fits."""
_F = re.I

_TP = re.compile(r"--tensor-parallel-size[\s=]+(\d+)|\btensor[\s-]parallel(?:ism)?(?:\s+size)?\s*(?:=\s*|of\s+)?(\d+)\b"
                 r"|\bTP\s*=?\s*(\d+)\b|張量平行\s*(\d+)", _F)
_PP = re.compile(r"--pipeline[-_]parallel[-_]size[\s=]+(\d+)|\bpipeline[\s-]parallel(?:ism)?(?:\s+size)?\s*(?:=\s*|of\s+)?(\d+)\b"
                 r"|\bPP\s*=?\s*(\d+)\b|管線平行\s*(\d+)", _F)
_WORDS = {
    "bnb": re.compile(r"\bbnb\b|bitsandbytes", _F),
    "eager": re.compile(r"enforce[-_\s]?eager", _F),
    "wsl": re.compile(r"\bWSL2?\b", _F),
    "docker": re.compile(r"\bdocker\b|container|容器", _F),
    "lora": re.compile(r"\bLoRA\b|\badapters?\b", _F),
    "agent": re.compile(r"\bagents?\b|claude\s+code|open\s*code|\bcline\b|\baider\b|multi-turn|every\s+turn|each\s+turn"
                        r"|conversation|chat\s+history|每一?輪|多輪|對話歷史", _F),
    "reload": re.compile(r"loading\s+model|\breload|\bunload|keep_alive|after\s+(?:a\s+)?(?:pause|idle|while)"
                         r"|隔一陣子|停一段時間|一段時間(?:後|之後)|重新載入|loading model", _F),
    "first": re.compile(r"\bfirst\s+(?:request|call|query|prompt)\b|\bafter\s+(?:a\s+|each\s+|every\s+)?(?:re)?start|"
                        r"\bcold\s+start|第一個請求|第一次(?:請求|呼叫|提問)|剛啟動|重啟後", _F),
    "npu": re.compile(r"\bNPU\b", _F),
    # a Ryzen with integrated graphics beside the card: ROCm sees it as a second GPU
    # (every Ryzen 7000/8000/9000 desktop part but the F models has one; G/U/H/HS/HX parts are APUs)
    "igpu": re.compile(r"\biGPU\b|integrated\s+(?:GPU|graphics)|\bAPU\b|內顯|核顯|集顯|内显|核显"
                       r"|\bRyzen\s*(?:AI\s*)?[3579]\s*(?:PRO\s*)?(?:[5-9]\d{3}(?:GE|G|U|HS|HX|H)\b|[789]\d{3}(?:X3D|X)?(?![\w]))", _F),
    "replicas_compared": re.compile(r"(?:\binstances?\b|\breplicas?\b|\bDP\s*=?\s*\d|實例|副本)[^。？?]{0,80}\bTP\s*=?\s*\d"
                                   r"|\bTP\s*=?\s*\d[^。？?]{0,80}(?:\binstances?\b|\breplicas?\b|\bDP\s*=?\s*\d|實例|副本)", _F),
    "nvlink_said": re.compile(r"\bNVLink\b(?![^.,;，；。]{0,12}(?:no|without|沒有|無))", _F),
}
_LOW_BIT = re.compile(r"\b(?:int4|awq|gptq|bnb|bitsandbytes|q4\w*|q3\w*|nf4|exl[23]-[2-4](?:\.\d)?|w4a16|4[\s-]?bit)\b", _F)
_NO_NVLINK = re.compile(r"(?:no|without|沒有|無)\s*NVLink", _F)


def _first_int(rx: re.Pattern, text: str) -> int | None:
    m = rx.search(text)
    return int(next(g for g in m.groups() if g)) if m else None


def facts(c: "Ctx", engine: str | None, kind: str | None, level: str | None, est, hw_id: str, count: int) -> dict:
    """What the causes' conditions read: the stated setup, the engine measured, the user's words, the estimate."""
    from rules import catalog
    text = c.advice.question or ""
    s = c.advice.profile.summary
    hw = catalog.hardware(hw_id)
    cc = float(hw.cuda_cc) if hw.cuda_cc else None
    named = [e for e in _named(text) if e != engine]
    out = {
        "engine": engine, "other_engine": named[0] if named else None, "platform": hw.platform,
        "arch": (hw.arch or "").lower() or None, "hw_class": hw.hw_class, "cuda_cc": cc,
        "fp16_slow": hw.platform == "nvidia-cuda" and cc is not None and cc < 7.0 and cc != 6.0,
        "jetson": "jetson" in hw.id, "count": count, "nodes": (s.nodes or 1) if hw_id == s.hardware else 1,
        "nvlink": (False if _NO_NVLINK.search(text) else True if _WORDS["nvlink_said"].search(text)
                   else s.interconnect == "nvlink" or hw.interconnect == "nvlink"),
        "tp": _first_int(_TP, text), "pp": _first_int(_PP, text), "concurrency": s.concurrency,
        "shared_prefix": s.shared_prefix, "kind": kind, "level": level,
        "prompt_tokens": s.input_tokens or s.context_length,
        "low_bit": _LOW_BIT.search(f"{s.quantization or ''} {text}") is not None,
        "offload": bool(est is not None and engine in ("llama.cpp", "ollama")
                        and (getattr(est, "offload", None) is not None or not est.fits)),
    }
    out["kv_overflow"] = _kv_overflow(c, engine, hw_id, count)
    gfx = re.search(r"gfx\w+", hw.arch or "") if hw.platform == "amd-rocm" else None
    out["rocm_gfx"] = gfx.group(0).lower() if gfx else None
    out["wired_share"] = _wired_share(hw, est, c.advice.profile.summary.hardware == hw_id and getattr(s, "memory_gb", None))
    for key in ("bnb", "eager", "wsl", "docker", "lora", "agent", "reload", "first", "npu", "replicas_compared", "igpu"):
        out[key] = bool(_WORDS[key].search(text))
    out["lora"] = out["lora"] or bool(s.lora_adapters)
    out["kv_error"] = kv_error(text) is not None
    out["ratio"] = None
    return out


_KV_ERROR = re.compile(
    r"max(?:imum)?[\s_]*(?:seq(?:uence)?[\s_]*len(?:gth)?|model[\s_]*len)\D{0,12}\(?(?P<len>\d{3,7})\)?[^.\n]{0,80}?"
    r"(?:larger|greater|more)\s+than[^.\n]{0,60}?KV\s*cache\D{0,12}\(?(?P<kv>\d{3,8})?"
    r"|最大序列長度\D{0,6}(?P<len2>\d{3,7})\D{0,6}大於\s*KV\s*cache[^\d。]{0,20}(?P<kv2>\d{3,8})?"
    r"|(?P<len3>\d{3,7})\s*\)?\s*大於\s*KV\s*cache[^\d。]{0,20}(?P<kv3>\d{3,8})?", _F)


def kv_error(text: str) -> tuple[int, int | None] | None:
    """vLLM's start-up refusal "max seq len (4096) is larger than ... KV cache (3664)": (max_model_len, KV tokens)."""
    m = _KV_ERROR.search(text or "")
    if not m:
        return None
    n = m.group("len") or m.group("len2") or m.group("len3")
    kv = m.group("kv") or m.group("kv2") or m.group("kv3")
    return int(n), (int(kv) if kv else None)


def _kv_line(c: "Ctx", est, where: str, cause) -> str:
    """The start-up KV error explained with its numbers: the room left after the weights, the tokens it holds, and
    the flags that change it (each lever with what it gives on this card)."""
    from rules import catalog
    got = kv_error(c.advice.question or "")
    max_len, kv = got if got else (None, None)
    per_tok = est.kv_bytes_per_token / 1e6 if est.kv_bytes_per_token else None
    mem = catalog.hardware(est.hardware).memory_gb * est.count
    model = c.model or c.t("this model", "這個模型")
    numbers = ""
    if per_tok and kv:
        room = kv * per_tok / 1000
        numbers = c.t(f" Here: {model} ({est.quantization}) weights take about {_fmt(est.weights_gb)} GB of {where} "
                      f"({mem:g} GB); at about {per_tok:.2f} MB of KV per token the {kv:,} tokens reported are about "
                      f"{_fmt(room)} GB of room, less than one {max_len:,}-token sequence needs.",
                      f"以這裡來說：{model}（{est.quantization}）的權重約 {_fmt(est.weights_gb)} GB，{where} 共 {mem:g} GB；"
                      f"每個 token 的 KV 約 {per_tok:.2f} MB，log 回報的 {kv:,} 個 token 約等於 {_fmt(room)} GB，"
                      f"放不下一條 {max_len:,} tokens 的序列。")
    fits = (kv // 1024 * 1024 if kv >= 1024 else kv) if kv else None
    extra = (round(0.05 * mem * 1e3 / per_tok) if per_tok else None)
    lever = c.t(f" Quickest: --max-model-len {fits}" if fits else " Quickest: a lower --max-model-len",
                f"最快的做法：--max-model-len {fits}" if fits else "最快的做法：調低 --max-model-len")
    lever += (c.t(f"; --gpu-memory-utilization 0.95 adds about {extra:,} tokens", f"；--gpu-memory-utilization 0.95 約再多 {extra:,} 個 token")
              if extra else "")
    lever += c.t(".", "。")
    head = c.t("**Is this a bug? No** — it is not a bug: ", "**這是 bug 嗎？不是 bug**——")
    return (head + c.t(f"{cause.cause.en}.{numbers}{lever} Fix: {cause.fix.en}. ([source]({cause.source}))",
                       f"{cause.cause.zh}。{numbers}{lever}改法：{cause.fix.zh}。（[來源]({cause.source})）"))


def _wired_share(hw, est, memory_gb) -> float | None:
    """On a Mac: the weights' share of the memory the GPU may keep wired by default (None elsewhere)."""
    if hw.platform != "apple-silicon" or est is None or not getattr(est, "weights_gb", None):
        return None
    wired = (memory_gb or hw.memory_gb) * hw.usable_memory_fraction
    return round(est.weights_gb / wired, 2) if wired else None


def _kv_overflow(c: "Ctx", engine: str | None, hw_id: str, count: int) -> bool:
    """More requests in flight than the KV cache holds at the stated lengths (the estimate's max concurrency)."""
    from agent.direct import run_option
    s = c.advice.profile.summary
    said = c.advice.profile.field("concurrency")
    if said is None or said.origin == "assumed" or not s.concurrency or s.concurrency <= 1 or hw_id != s.hardware:
        return False
    got = run_option(c, hw_id, count, s.nodes or 1, engine=engine, plan=False)
    return got is not None and 0 < got[1].max_concurrency < s.concurrency


def _named(text: str) -> list[str]:
    from agent.topic_lead import named_engines
    return [e for e in named_engines(text, limit=None) if e != "dynamo"]


def figure_model(c: "Ctx", m: Measured | None) -> str | None:
    """The catalog model a figure was measured with when its own sentence names another than the profile's
    ("我們在測 Qwen2.5-0.5B ... 只剩每秒 20～30 個 token" beside a 7B/14B deployment plan): the last one named before it."""
    from agent.extract_aliases import model_index
    if m is None:
        return None
    text = c.advice.question or ""
    ends = [b.end() for b in _SENTENCE_END.finditer(text, 0, m.at)]
    hits = [h for h in model_index().find(text[(ends[-1] if ends else 0):m.at]) if not h.family]
    mid = hits[-1].id if hits else None
    return mid if mid and mid != c.advice.profile.summary.model else None


def _estimate(c: "Ctx", engine: str | None, m: Measured | None, hw_id: str, count: int):
    """(engine, Estimate, prefill scale) for the user's setup: one request unless they measured a total (None if it
    cannot run). A wait is estimated for the prompt the user states; a prompt longer than the catalog lets the
    estimator take is estimated at a shorter one and scaled (prefill time grows about linearly with the prompt)."""
    from agent.direct import run_option
    s = c.advice.profile.summary
    extra = ({"concurrency": s.concurrency or THROUGHPUT_CONCURRENCY} if m is not None and m.kind == "throughput"
             else {"concurrency": stated_load(c, m)})
    extra.update(_lengths(c.advice.question or "") if m is not None and m.kind == "latency" else {})
    extra.update(_format_measured(c, engine, m))
    said = prompt_tokens(c.advice.question or "") if m is not None and m.kind == "ttft" else None
    prompts = [said, *(p for p in PROMPT_FALLBACKS if said and p < said)] if said else [None]
    nodes = (s.nodes or 1) if hw_id == s.hardware else 1
    for eng in dict.fromkeys([engine, c.advice.decision.primary]):
        for prompt in prompts:
            sized = {"input_tokens": prompt, "context_length": prompt + 1024} if prompt else {}
            for ctx in ({}, {"context_length": FALLBACK_CONTEXT}):   # a stated long context may not fit; the speed still does
                if prompt and ctx:
                    continue
                got = run_option(c, hw_id, count, nodes, model=figure_model(c, m), engine=eng, plan=False,
                                 **{**extra, **sized, **ctx})
                if got is not None and got[1].decode_tokens_per_s:
                    return got[0], got[1], (said / prompt if said and prompt else 1.0)
    return None


PROMPT_FALLBACKS = (32768, 16384, 8192)
THROUGHPUT_CONCURRENCY = 64
"""A total throughput measured at an unstated load is compared with the estimate at this many requests in flight."""
_LOADS_CHECKPOINT = ("vllm", "sglang", "tensorrt-llm")
_SENTENCE_END = re.compile(r"[.?!](?=\s)|[。？！\n]")
_NAMED_FORMATS = tuple((re.compile(rx, re.I), fmt) for rx, fmt in (
    (r"\bFP8\b", "fp8"), (r"\bINT8\b|GPTQ-?Int8|W8A8|W8A16|\b8-?bit", "int8"), (r"\bGPTQ\b", "gptq-4bit"),
    (r"\bAWQ\b", "awq"), (r"\bbnb\b|bitsandbytes|\bnf4\b", "int4"), (r"\bQ4_K_M\b", "q4_k_m"), (r"\bQ8_0\b", "q8_0"),
    (r"\bINT4\b|W4A16|4-?bit", "int4")))
"""Formats a message names for the checkpoint it measured, first match wins (the estimator's ids)."""
OLLAMA_DEFAULT = "q4_k_m"
"""The format an Ollama library tag pulls when none is named (the default tags are 4-bit K-quants)."""


def _format_measured(c: "Ctx", engine: str | None, m: Measured | None = None) -> dict:
    """The format the user's figure was measured with: one written beside the figure ("換 vLLM 跑 GPTQ-Int8 只有
    50 tok/s"), else the stated one, else one named anywhere in the message, else what the engine loads when none
    is named (a checkpoint server: the model's native dtype; Ollama: its default 4-bit tag); {} keeps the profile's."""
    from rules import catalog
    text = c.advice.question or ""
    ends = [b.end() for b in _SENTENCE_END.finditer(text, 0, m.at)] if m is not None else []
    own = text[(ends[-1] if ends else 0):m.at] if m is not None else ""
    named = next((fmt for rx, fmt in _NAMED_FORMATS if rx.search(own)), None)
    if named:
        return {"quantization": named}
    f = c.advice.profile.field("quantization")
    if f is None or f.origin != "assumed":   # stated, implied by the checkpoint's name, or given in a follow-up
        return {}
    named = next((fmt for rx, fmt in _NAMED_FORMATS if rx.search(text)), None)
    if named:
        return {"quantization": named}
    s = c.advice.profile.summary
    if engine == "ollama":
        return {"quantization": OLLAMA_DEFAULT}
    if engine in _LOADS_CHECKPOINT and s.model:
        try:
            return {"quantization": catalog.model(s.model).native_dtype}
        except Exception:   # a model outside the catalog: keep the profile's format
            return {}
    return {}


_IN_OUT = re.compile(r"(?P<i>\d+(?:\.\d+)?)\s*(?P<ik>[Kk])?[\s-]*tokens?[\s-]*(?:prompt|in(?:put)?)\b[^.?!]{0,30}?"
                     r"(?P<o>\d+(?:\.\d+)?)\s*(?P<ok>[Kk])?\s*(?:output|out)\b"
                     r"|(?P<i2>\d+(?:\.\d+)?)\s*(?P<ik2>[Kk])?[\s-]*tokens?\s+prompt\s+with\s+(?P<o2>\d+)\s+output", _F)


def _lengths(text: str) -> dict:
    """The prompt and output lengths a whole-request time was measured at ("a 2K-token prompt with 500 output tokens")."""
    m = _IN_OUT.search(text)
    if not m:
        return {}
    i, ik, o, ok = (m.group("i"), m.group("ik"), m.group("o"), m.group("ok")) if m.group("i") else \
        (m.group("i2"), m.group("ik2"), m.group("o2"), None)
    n_in, n_out = int(float(i) * (1000 if ik else 1)), int(float(o) * (1000 if ok else 1))
    return {"input_tokens": n_in, "output_tokens": n_out, "context_length": max(2048, n_in + n_out + 256)}


_ONE_REQUEST = re.compile(r"\b(?:one|single|1|a)\s+(?:request|stream|prompt|user)\b|\bbatch(?:\s+size)?\s*(?:of\s*)?1\b|one\s+at\s+a\s+time"
                          r"|\bjust\s+me\b|單一請求|單個請求|一個請求|只有我|單流|單人", re.I)


def stated_load(c: "Ctx", m: Measured | None) -> int:
    """The requests in flight a per-stream figure was measured at: the stated concurrency when the user ran a
    load ("50 requests, all sent at once ... ~7 output tok/s"), else one."""
    said = c.advice.profile.field("concurrency")
    n = c.advice.profile.summary.concurrency
    whole = c.advice.question or ""
    at = m.at if m is not None else 0
    text = whole[whole.rfind("\n", 0, at) + 1:(whole.find("\n", at) + 1 or len(whole) + 1) - 1]   # the figure's message
    in_message = said is not None and bool(said.evidence) and said.evidence in text   # not a load planned later
    if not in_message or said.origin == "assumed" or not n or n <= 1 or _ONE_REQUEST.search(text):
        return 1
    return n


_APP_RUNTIME = re.compile(r"\bLM\s*Studio\b|\bVulkan\b", _F)
"""An app or backend that runs llama.cpp underneath (LM Studio's GGUF runtime; Vulkan is a llama.cpp backend)."""


def figure_engine(text: str, m: Measured | None) -> str | None:
    """The engine a figure was measured with when the reader found none: one named in the figure's own sentence
    ("在 LM Studio 跑 ... Vulkan 約 132 tok/s" -> llama.cpp, MLX in LM Studio -> mlx-lm), not one asked about later."""
    if m is None or m.engine:
        return m.engine if m is not None else None
    ends = [b.end() for b in _SENTENCE_END.finditer(text, 0, m.at)]
    start = max((text.rfind(p, 0, m.at) for p in ("。", "？", "?", "\n")), default=-1) + 1
    own = text[max(start, ends[-1] if ends else 0):m.at + 1]
    named = _named(own)
    if named:
        return named[0]
    if _APP_RUNTIME.search(own):
        return "mlx-lm" if re.search(r"\bMLX\b", own) else "llama.cpp"
    return None


_ONE_CARD = re.compile(r"單卡|單張|一張卡|\b(?:a\s+)?single\s+(?:GPU|card|NPU)\b|\bone\s+(?:GPU|card|NPU)\b", _F)


def _device(c: "Ctx", m: Measured | None) -> tuple[str, int]:
    """The device the figure was measured on: one named in its own sentence ("my Tesla P40 ... 1.2 tok/s" beside a
    3090), else the profile's."""
    from agent.direct import devices
    s = c.advice.profile.summary
    if m is not None:
        text = c.advice.question or ""
        ends = [b.end() for b in _SENTENCE_END.finditer(text, 0, m.at)]
        own = text[(ends[-1] if ends else 0):m.at + 1]
        named = devices(own)
        if named and named[-1][0] != s.hardware:
            return named[-1][0], named[-1][1] or 1
        if named and _ONE_CARD.search(own):   # "910B 單卡 ... 每秒 20 個 token" beside an 8-card server
            return s.hardware, 1
    return s.hardware, s.count or 1


def _question(text: str) -> str:
    """Which verdict question the user asked: normal / wrong (misconfigured, set up wrong) / bug."""
    if re.search(r"\bbug\b", text, _F):
        return "bug"
    if re.search(r"misconfigur|set\s*up\s+wrong|doing\s+(?:\w+\s+)?wrong|something\s+(?:wrong|off|limiting)|設定錯|設錯|"
                 r"設定有問題|哪裡(?:錯|設錯)|用錯|是不是.{0,8}錯", text, _F):
        return "wrong"
    return "normal"


_HEADS = {   # (question, verdict) -> (en, zh)
    ("normal", "expected"): ("Is that normal? Yes, for this setup", "這正常嗎？以這個配置來說是正常的"),
    ("normal", "normal"): ("Is that normal? Yes", "這正常嗎？正常"),
    ("normal", "slow"): ("Is that normal? No, it is slow", "這正常嗎？不正常，偏慢"),
    ("normal", "far"): ("Is that normal? No, far too slow", "這正常嗎？不正常，遠低於預期"),
    ("normal", "above"): ("Is that normal? It is faster than expected — nothing is wrong",
                          "這正常嗎？比預期還快，沒有問題"),
    ("wrong", "expected"): ("Is something misconfigured? Not the settings — it is how this setup behaves",
                            "是設定錯了嗎？不是設定的問題，這個配置本來就是這樣"),
    ("wrong", "normal"): ("Is something misconfigured? Probably not", "是設定錯了嗎？大概沒有"),
    ("wrong", "slow"): ("Is something misconfigured? Likely something is", "是設定錯了嗎？很可能有地方不對"),
    ("wrong", "far"): ("Is something misconfigured? Yes, something is off", "是設定錯了嗎？是，有地方不對"),
    ("wrong", "above"): ("Is something misconfigured? No — it runs faster than expected", "是設定錯了嗎？沒有，比預期還快"),
    ("bug", "expected"): ("Bug or misuse? Neither — it is how this setup behaves", "是 bug 還是用錯？都不是，這個配置本來就是這樣"),
    ("bug", "normal"): ("Bug or misuse? Neither — the figure is in the expected range", "是 bug 還是用錯？都不是，數字在預期範圍內"),
    ("bug", "slow"): ("Bug or misuse? Most likely the setup", "是 bug 還是用錯？多半是設定的問題"),
    ("bug", "far"): ("Bug or misuse? The setup — the figure is far too low", "是 bug 還是用錯？是設定的問題，數字遠低於預期"),
    ("bug", "above"): ("Bug or misuse? Neither — the figure is above the estimate", "是 bug 還是用錯？都不是，數字高於估計"),
}


def _fmt(x: float) -> str:
    from agent.compose import fmt
    return fmt(x)


def _seen(c: "Ctx", m: Measured) -> str:
    """The user's figure as they wrote it (12, not 12.0)."""
    if m.kind == "ttft":
        return c.t(f"{m.value:g} s wait before the first token", f"{m.value:g} 秒的首字等待")
    if m.kind == "latency":
        return c.t(f"{m.value:g} s per request", f"每個請求 {m.value:g} 秒")
    return f"{m.value:g} tok/s" + (c.t(" in total", "（總計）") if m.kind == "throughput" else "")


def _expected(c: "Ctx", m: Measured | None, est, scale: float = 1.0) -> tuple[float | None, str]:
    """The estimate in the measured figure's unit, and how the answer writes it."""
    kind = m.kind if m is not None else "decode"
    if kind == "ttft":
        if not est.ttft_s:
            return None, ""
        ttft, prompt = est.ttft_s * scale, round(est.input_tokens * scale)
        return ttft, c.t(f"about {_fmt(ttft)} s to the first token for a {prompt:,}-token prompt",
                         f"在 {prompt:,} tokens 的 prompt 下首字約 {_fmt(ttft)} 秒")
    if kind == "latency":
        if not est.tpot_ms:
            return None, ""
        total = (est.ttft_s or 0.0) * scale + est.output_tokens * est.tpot_ms / 1000
        return total, c.t(f"about {_fmt(total)} s for a {est.input_tokens:,}-token prompt and {est.output_tokens:,} output tokens",
                          f"在 {est.input_tokens:,} tokens 輸入、{est.output_tokens:,} tokens 輸出下每個請求約 {_fmt(total)} 秒")
    if kind == "throughput" and est.aggregate_tokens_per_s:
        return est.aggregate_tokens_per_s, c.t(f"about {_fmt(est.aggregate_tokens_per_s)} tok/s in total at {est.concurrency} concurrent",
                                               f"在 {est.concurrency} 個併發時總計約 {_fmt(est.aggregate_tokens_per_s)} tok/s")
    if est.concurrency > 1:
        return est.decode_tokens_per_s, c.t(f"about {_fmt(est.decode_tokens_per_s)} tok/s per stream at {est.concurrency} concurrent",
                                            f"在 {est.concurrency} 個併發時每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s")
    return est.decode_tokens_per_s, c.t(f"about {_fmt(est.decode_tokens_per_s)} tok/s for one request",
                                        f"單一請求約 {_fmt(est.decode_tokens_per_s)} tok/s")


def _verdict_line(c: "Ctx", engine: str, est, m: Measured | None, found: list[diagnosis.Cause], where: str,
                  scale: float = 1.0, stages: int = 1, own: Measured | None = None) -> tuple[str, str | None]:
    """The opening sentence, and the verdict level it states (None without a figure). With the user's own faster
    run (`own`), the drop from it is judged too: a figure normal for the hardware can still be a real drop."""
    text = c.advice.question or ""
    model = c.model or c.t("this model", "這個模型")
    exp, exp_text = _expected(c, m, est, scale)
    setup = c.t(f"{model} ({est.quantization}) on {where} with {display(engine)}",
                f"{model}（{est.quantization}）在 {where} 上用 {display(engine)}")
    shorts = c.t("; ".join(x.short.en for x in found), "；".join(x.short.zh for x in found))
    if m is not None and not (m.value and m.value > 0):   # a figure read as 0 compares to nothing ("inf x off")
        m = None
    if m is None or exp is None:
        most = c.t(f" Most likely: {shorts}.", f"最可能的原因：{shorts}。") if found else ""
        return c.t(f"**Expected here:** {setup}: {exp_text}.{most}", f"**這個配置的預期：**{setup}：{exp_text}。{most}"), None
    v = diagnosis.verdict(m.kind, m.value, exp)
    drop = diagnosis.verdict(m.kind, m.value, own.value) if own is not None else None
    against = ""
    if drop is not None:
        r = f"{drop.ratio:.1f}"
        unit = c.t(" s", " 秒") if m.kind in diagnosis.WAITS else " tok/s"
        against = c.t(f" Against your own run at {own.value:g}{unit} it is {r}× slower: what differs between the two runs "
                      "is the first suspect.",
                      f"和您自己 {own.value:g}{unit}的那次相比慢了 {r} 倍：兩次之間不同的設定就是首要嫌疑。")
        if v.level == "normal" and drop.level != "normal":
            v = drop
    level = v.level
    explained = level not in ("normal", "above") and bool(found) and diagnosis.explains(found[0], v.ratio, stages) and drop is None
    key = (_question(text), "expected" if explained else level)
    head = _HEADS[key][1] if c.lang == "zh" else _HEADS[key][0]
    seen = _seen(c, m)
    times = f"{v.ratio:.0f}" if v.ratio >= 10 else f"{v.ratio:.1f}"
    if explained:
        x = found[0]
        body = c.t(f"{seen} is expected for {setup}: {x.cause.en}. Without that limit the estimate is {exp_text}. "
                   f"Check: {x.check.en}. Fix: {x.fix.en}.",
                   f"{setup}，{seen} 是預期中的結果：{x.cause.zh}。沒有這個限制時，估計{exp_text}。"
                   f"檢查：{x.check.zh}。改法：{x.fix.zh}。")
    elif level == "above":   # the estimate is conservative for this case: the measurement outranks it
        body = c.t(f"for {setup} the estimate is {exp_text}; your {seen} is {times}× above it, so the estimate is "
                   "conservative for this case (a faster kernel path or a lighter model than it assumes) and your own "
                   "measurement is the figure to plan with.",
                   f"{setup}，估計{exp_text}；您量到的 {seen} 高於估計約 {times} 倍，代表這個估計對您的情況偏保守"
                   "（實際的 kernel 路徑更快，或模型比估計假設的更輕），規劃時請以您自己量到的數字為準。")
    elif level == "normal":
        worth = c.t(f" Worth checking anyway: {shorts}.", f"仍值得確認：{shorts}。") if found else ""
        body = c.t(f"for {setup} the estimate is {exp_text}, and your {seen} is in that range.{worth}",
                   f"{setup}，估計{exp_text}，您量到的 {seen} 在這個範圍內。{worth}")
    else:
        most = c.t(f" Most likely: {shorts}.", f"最可能的原因：{shorts}。") if found else ""
        if m.kind in diagnosis.WAITS:
            body = c.t(f"for {setup} the estimate is {exp_text}; your {seen} is {times}× that"
                       + (", so something in the setup is wrong." if level == "far" else ".") + most,
                       f"{setup}，估計{exp_text}；您量到的 {seen}是它的 {times} 倍"
                       + ("，配置裡一定有地方不對。" if level == "far" else "。") + most)
        elif level == "slow":
            body = c.t(f"for {setup} the estimate is {exp_text}; your {seen} is well below it ({times}× off).{most}",
                       f"{setup}，估計{exp_text}；您量到的 {seen} 明顯低於它（約 {times} 倍差距）。{most}")
        else:
            body = c.t(f"for {setup} the estimate is {exp_text}; your {seen} is far below it ({times}× off), so something "
                       f"in the setup is wrong.{most}",
                       f"{setup}，估計{exp_text}；您量到的 {seen} 遠低於它（約 {times} 倍差距），配置裡一定有地方不對。{most}")
    if drop is not None and v is drop:   # normal for the hardware, but a real drop from the user's own run
        most = c.t(f" Most likely: {shorts}.", f"最可能的原因：{shorts}。") if found else ""
        unit = c.t(" s", " 秒") if m.kind in diagnosis.WAITS else " tok/s"
        body = c.t(f"for {setup} the estimate is {exp_text}, and your {seen} would be in that range, but your own run "
                   f"took {own.value:g}{unit}, so the {drop.ratio:.1f}× difference is real: what differs between the two runs "
                   f"is the first suspect.{most}",
                   f"{setup}，估計{exp_text}，您的 {seen} 單看在範圍內，但您自己的另一次是 {own.value:g}{unit}，"
                   f"這 {drop.ratio:.1f} 倍的落差是真的：兩次之間不同的設定就是首要嫌疑。{most}")
    elif drop is not None and level != "normal" and not explained:
        body += against
    sep = c.t(" — ", "——")
    return f"**{head}**{sep}{body}", ("expected" if explained else level)


def _cause_lines(c: "Ctx", found: list[diagnosis.Cause], level: str | None) -> list[str]:
    """One line per cause: what happens, how to check it, what to change, and the source."""
    if not found:
        return []
    head = (c.t("**Also worth checking**", "**其他值得確認的地方**") if level == "normal" else
            c.t("**Other causes that fit this setup**", "**這個配置的其他可能原因**") if level == "expected" else
            c.t("**Likely causes, most specific first**", "**可能原因（最相關的在前）**"))
    items = [c.t(f"- {x.cause.en}. Check: {x.check.en}. Fix: {x.fix.en}. ([source]({x.source}))",
                 f"- {x.cause.zh}。檢查：{x.check.zh}。改法：{x.fix.zh}。（[來源]({x.source})）") for x in found]
    return [head + "\n" + "\n".join(items)]


def _complaint(measured: list[Measured], engine: str | None) -> Measured | None:
    """The figure the user complains about: of their engine's figures of the first kind, the worst
    ("17.6 tok/s without the adapter, 6.5 with it" -> 6.5; a wait: the longest)."""
    mine = [x for x in measured if x.engine in (None, engine)] or measured
    if not mine:
        return None
    same = [x for x in mine if x.kind == mine[0].kind]
    return max(same, key=lambda x: x.value) if mine[0].kind in diagnosis.WAITS else min(same, key=lambda x: x.value)


_PROMPT = re.compile(r"(\d+(?:\.\d+)?)\s*([KkMm])\b[\s-]*(?:-?token|tokens|個?\s*token)|(\d{1,3}(?:,\d{3})+|\d{4,})\s*(?:-?token|tokens)", _F)


def prompt_tokens(text: str) -> int | None:
    """The longest prompt the message states ("~30K tokens", "a 90K-token prompt", "6K-8K tokens")."""
    sizes = []
    for m in _PROMPT.finditer(text):
        if m.group(1):
            sizes.append(float(m.group(1)) * (1_000_000 if m.group(2).lower() == "m" else 1000))
        else:
            sizes.append(float(m.group(3).replace(",", "")))
    return int(max(sizes)) if sizes else None


def lead(c: "Ctx", engine: str | None, measured: list[Measured]) -> list[str]:
    """Verdict beside the estimate, then the causes specific to this setup (empty when nothing can be estimated)."""
    from agent.direct import setup_text
    s = c.advice.profile.summary
    m = _complaint(measured, engine)
    hw_id, count = _device(c, m)
    own_model = figure_model(c, m)
    if own_model:   # the figure's own model names the setup line, not the profile's
        from agent.names import model_name
        c = c.__class__(**{**c.__dict__, "model": model_name(own_model)})
    got = _estimate(c, engine, m, hw_id, count)
    if got is None:
        return []
    eng, est, scale = got
    exp, _ = _expected(c, m, est, scale)
    v = diagnosis.verdict(m.kind, m.value, exp) if m is not None and exp else None
    f = facts(c, engine or eng, m.kind if m else None, v.level if v else None, est, hw_id, count)
    f["ratio"] = v.ratio if v is not None and v.level != "above" else None
    stages = f["pp"] or count * f["nodes"]   # pipeline parallel: one stage of N works at a time
    found = diagnosis.causes(f)
    found = [x for x in found if x.weight >= GENERIC_BELOW] or found
    if v is not None and v.level == "above":   # nothing to diagnose: the setup beats its estimate
        found = []
    if v is None and m is None:   # no figure: a generic check is no "most likely" cause
        found = [x for x in found if x.weight >= GENERIC_BELOW]
    if v is not None and v.level not in ("normal", "above"):   # a cause that accounts for the figure leads
        found.sort(key=lambda x: not diagnosis.explains(x, v.ratio, stages))
    found = found[:MAX_CAUSES]
    where = (c.setup if hw_id == s.hardware and count == (s.count or 1) and c.setup
             else setup_text(c, hw_id, count, f["nodes"]))
    kv_cause = next((x for x in found if x.id == "kv-startup"), None)
    if kv_cause is not None:   # a start-up refusal, not a speed: its arithmetic, then the other causes
        rest = [x for x in found if x is not kv_cause and x.weight >= GENERIC_BELOW]
        return [_kv_line(c, est, where, kv_cause), *_cause_lines(c, rest, None)]
    other = _contrast(measured, m, engine)
    if other is not None and _device(c, other) != (hw_id, count):   # a run on other hardware is no "own run" to compare
        other = None
    line, stated = _verdict_line(c, engine or eng, est, m, found, where, scale, stages, other)
    if m is None and (f["agent"] or f["shared_prefix"]):   # a per-turn wait: what a re-prefill costs here
        line += _reprefill(c, engine or eng, hw_id, count)
    rest = found[1:] if stated == "expected" else found
    return [line, *_cause_lines(c, rest, stated)]


CONTRAST = 1.3
"""Two runs of the user's own engine this far apart are a with/without comparison worth naming."""


def _contrast(measured: list[Measured], m: Measured | None, engine: str | None) -> Measured | None:
    """The user's other run of the same engine when the two are far apart ("69 tok/s without the adapter, 35 with
    it"): the drop between them is the question, and what differs between the runs its first suspect."""
    if m is None:
        return None
    same = [x for x in measured if x.kind == m.kind and x.engine in (None, engine) and x is not m]
    if not same:
        return None
    if m.kind in diagnosis.WAITS:   # the best run is the shortest
        other = min(same, key=lambda x: x.value)
        return other if other.value > 0 and m.value / other.value >= CONTRAST else None
    other = max(same, key=lambda x: x.value)
    return other if m.value > 0 and other.value / m.value >= CONTRAST else None


def _reprefill(c: "Ctx", engine: str, hw_id: str, count: int) -> str:
    """The wait before the first token when a stated prompt is prefilled from scratch (no prefix-cache hit)."""
    said = prompt_tokens(c.advice.question or "") or c.advice.profile.summary.input_tokens
    if not said:
        return ""
    got = _estimate(c, engine, Measured("ttft", 0.0), hw_id, count)
    if got is None or not got[1].ttft_s:
        return ""
    ttft = got[1].ttft_s * got[2]
    return c.t(f" Prefilled from scratch, a {said:,}-token prompt waits about {_fmt(ttft)} s before the first token on "
               "every turn; with a prefix-cache hit only the new part of the turn is prefilled.",
               f"每輪都從頭 prefill 的話，{said:,} tokens 的 prompt 每輪首字前要等約 {_fmt(ttft)} 秒；命中前綴快取時只需 prefill 這一輪新增的部分。")


def measured_pair(c: "Ctx", a: str, b: str) -> tuple[list[str], str | None]:
    """Two engines the user ran and measured themselves ("OpenVINO 10-11 tok/s, llama.cpp Vulkan 17-19 tok/s"): the
    sentence that puts their own figures first, and the engine their measurement favours (None without both)."""
    from agent.measured import read
    figures = {m.engine: m for m in read(c.advice.question or "") if m.kind == "decode" and m.engine in (a, b)}
    if len(figures) < 2 or min(m.value for m in figures.values()) <= 0:
        return [], None
    ma, mb = figures[a], figures[b]
    fast, slow = (ma, mb) if ma.value >= mb.value else (mb, ma)
    r = f"{fast.value / slow.value:.1f}"
    return [c.t(f"**Your own measurement:** {display(fast.engine)} {fast.value:g} tok/s against {display(slow.engine)} "
                f"{slow.value:g} tok/s on this machine ({r}×): a measurement on your own hardware and model outranks the "
                "estimate below; keep the faster engine for this model.",
                f"**您自己的量測：**在這台機器上 {display(fast.engine)} {fast.value:g} tok/s、{display(slow.engine)} "
                f"{slow.value:g} tok/s（{r} 倍）：在自己的硬體與模型上量到的數字比下面的估計更可信；這個模型就用較快的引擎。")], fast.engine
