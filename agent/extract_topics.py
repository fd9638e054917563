"""What the message asks about beyond its situation: topics the answer should address.

    topics(norm) -> ["parallelism", "speculative-decoding", ...]   sorted topic ids

A topic is raised when its subject is named ("does SGLang support speculative decoding?", "要用
TP 還是 PP？", "30 家客戶各訓練了一個 LoRA", "what's the $/1M tokens?"). A named engine's support for
a platform needs both in one sentence: a platform word (ROCm, Apple Silicon, Pascal, ...) and a
support cue ("support", "run on ... ?", "支援", "跑在").
"""
from __future__ import annotations

import re

from agent import lexicon
from rules.errors import InputError

_F = re.I | re.ASCII
_MODEL_FIT = re.compile(
    r"\bwhich\s+(?:model\s+)?sizes?\b[^.?!]{0,40}\bfits?\b|\bwhat\s+(?:size\s+(?:of\s+)?)?(?:models?|llms?)\s+(?:size\s+)?"
    r"(?:can|could|will|would|should)\s+(?:i|we)\s+(?:run|fit|use|load)|\b(?:biggest|largest)\s+(?:model|llm)"
    r"|\bhow\s+(?:big|large)\s+(?:(?:a|of\s+a)\s+)?(?:model|llm)|\bwhat\s+(?:can|could)\s+(?:i|we)\s+run\b"
    r"|\bwhich\s+models?\s+(?:fits?|can\s+(?:i|we)\s+run)|\bwhat\s+models?\s+fits?\b"
    r"|\b(?:which|what)\s+model\s+sizes?\b|\bwhat\s+size\s+(?:of\s+)?models?\b"
    r"|\b(?:which|what)\s+(?:\w+\s+)?models?\b[^.?!]{0,30}\b(?:make\s+sense|run\s+well|is\s+best|are\s+best)\b"
    r"|\bbest\s+model\b[^.?!]{0,40}\b(?:on|for)\s+(?:each|this|my|our|it)\b"
    r"|多大的模型|最大的模型|(?:能|可以)跑(?:什麼|哪些|多大)|跑得動(?:什麼|哪些|多大)|幾\s*B\s*的模型|多少\s*B\s*的模型"
    r"|(?:什麼|哪個|哪些)(?:大小的)?模型(?:比較)?(?:適合|合適)", re.I)
""""Which model size fits my 16 GB": the answer names the largest catalog sizes that fit (topic model-fit)."""
TOPIC_IDS: tuple[str, ...] = (*lexicon.TOPICS, "model-fit")
_RES = {t: re.compile("|".join(p), _F) for t, p in lexicon.TOPICS.items() if p}
_PLATFORM = re.compile(lexicon.PLATFORMS, _F)
_SUPPORT = re.compile(lexicon.SUPPORT_CUES, _F)
_RUN_ON = re.compile(lexicon.RUN_ON, _F)
_ENGINE = re.compile(r"\b(?:vllm|sglang|tensorrt(?:-llm)?|trt-?llm|ollama|llama\.?cpp|llama-server|mlx(?:-lm)?|exllama\w*|openvino|dynamo|tgi|lmdeploy)\b", _F)
_CLAUSES = re.compile(r"(?:[^.?!。？！\n;,，；]|\.(?!\s|$))+(?:[.?!。？！;,，；]|$)", _F)
_QUESTION = re.compile(r"[?？]|嗎|吗|是否|能不能|可不可以|有沒有|^\s*(?:does|do|can|could|will|is|are|has|have)\b", _F)


_ZH_DEPLOY = re.compile(r"(?:可以|能|能不能|可不可以)[^。？?]{0,16}(?:部署|執行|运行|運行|跑)")
_ABOUT_IT = re.compile(r"\bsupport(?:s|ed)?\s+(?:it|this|that|them|these|those|(?:this|that|my|our|the)\s+(?:card|gpu|device|chip)s?)\b"
                       r"|\b(?:it|this|that|they|these)\s+(?:is|are)\s+(?:\w+\s+)?supported\b"
                       r"|\b(?:run|runs|work|works)\s+(?:on|with)\s+(?:it|this|that|them|these|those)\b"
                       r"|支援(?:它|這張|這片|這顆)?嗎|支不支援|(?:可以|能)用嗎", _F)
"""A support question about a device named elsewhere in the message: "Is a used P40 worth it? Does vLLM support it?"."""
_FEASIBLE = re.compile(r"(?:這條路|這樣|這個方案|這套)?(?:可行嗎|行不行|行得通嗎|有沒有(?:辦法|可能)|有辦法嗎)|\bany\s+(?:update|news|progress)\s+on\b"
                       r"|\bis\s+there\s+(?:any\s+)?(?:support|a\s+way)\b", _F)
# an accelerator outside the CUDA mainstream (an OS such as Windows is a setup, not a platform to support)
_ACCEL_PLATFORM = re.compile(r"\b(?:Jetson|Orin|Apple|Mac|Metal|ROCm|AMD|Radeon|Arc|Intel|Ascend|NPUs?|XPU|Gaudi|Strix)\b|昇騰|華為", _F)
_UNUSED_ACCEL = re.compile(r"\b(?:doesn't|does\s+not|won't|will\s+not|isn't|is\s+not|never)\s+(?:even\s+)?(?:touch(?:es|ing)?|us(?:e|es|ing)|utili[sz](?:e|es|ing)|detect(?:s|ing)?|sees?|finds?|load\s+(?:on)?to)\s+(?:the\s+|my\s+|its\s+)?(?:i?GPU|NPU)s?\b"
                           r"|\b(?:i?GPU|NPU)\s+(?:is\s+|was\s+)?(?:not|never)\s+(?:being\s+)?(?:used|detected|utili[sz]ed)\b"
                           r"|(?:沒有?|不會?)(?:用到|使用|吃到|偵測到|抓到|跑在)\s*(?:GPU|顯卡|NPU)|只(?:跑|用)(?:在)?\s*CPU(?:\s*上)?(?:跑)?", _F)
_DEVICE_SUPPORTED = re.compile(r"\b(?:is|are)\s+(?:it|this|that|these|those|my|the)\s+(?:\w+\s+){0,2}?supported\b"
                               r"|\bsupport(?:s|ed)?\s+(?:this|that|my|the)\s+(?:board|GPU|card|chip|device|NPU|iGPU)\b", _F)
"""The device named in the message asked about as such: "Is that board supported?", "Is that GPU supported yet?"."""


def _asks(text: str, pos: int) -> bool:
    """The sentence around `pos` is a question, or names support outright in English ("vLLM supports ROCm")
    rather than reporting that something ran ("4090 可以用 vLLM 啟動 ...。")."""
    sentence = next((s for s in _SENTENCE.finditer(text) if s.start() <= pos < s.end()), None)
    words = sentence.group(0) if sentence else text
    return bool(_QUESTION.search(words)) or not re.search(r"[\u4e00-\u9fff]", words)


def _platform_support(text: str) -> bool:
    """A platform (outside any device name: "Arc B580" is a device) and a support cue in one clause;
    or a named engine asked about on a named device ("does vLLM work on an RTX 5090?")."""
    from agent.extract_aliases import hardware_index
    names = [(h.start, h.end) for h in hardware_index().find(text)]
    if names and _engine_on_device(text, names):
        return True
    if names and any(_ENGINE.search(m.group(0)) and _ABOUT_IT.search(m.group(0)) for m in _CLAUSES.finditer(text)):
        return True
    if names and _DEVICE_SUPPORTED.search(text):   # "... Jetson AGX Orin Developer Kit. Is that board supported?"
        return True
    if not (_PLATFORM.search(text) or _ACCEL_PLATFORM.search(text)):
        return False
    # the whole plan on a platform asked about ("用昇騰 910B 做本地推理，…這條路可行嗎？", "Any update on running Ollama
    # on Intel iGPUs?"), or the accelerator left unused there ("Ollama on my Jetson doesn't touch the GPU")
    if any(_PLATFORM.search(m.group(0)) and _FEASIBLE.search(m.group(0)) or _ACCEL_PLATFORM.search(m.group(0)) and _UNUSED_ACCEL.search(m.group(0))
           for m in _SENTENCE.finditer(text)):
        return True
    if not _PLATFORM.search(text):
        return False
    for part in re.split(r"\s-\s", text):
        offset = text.find(part)
        for m in _CLAUSES.finditer(part):
            s = m.group(0)
            a = offset + m.start()
            # a platform word inside a device name ("Arc B580") counts only when a named engine is asked
            # about in the same clause ("can SGLang run on an AMD MI250?")
            # ... or when the clause asks whether something runs or deploys there ("能部署在昇騰 910B 上嗎？",
            # "Can DeepSeek V3 run on 8 x Ascend 910B4?")
            engine = bool(_ENGINE.search(s))
            asked = bool(_QUESTION.search(s)) and bool(_SUPPORT.search(s) or _RUN_ON.search(s) or _ZH_DEPLOY.search(s))
            platform = any(engine or asked or not any(ns <= a + p.start() < ne for ns, ne in names) for p in _PLATFORM.finditer(s))
            if platform and ((_SUPPORT.search(s) and _asks(text, m.start() + offset)) or (_RUN_ON.search(s) and _QUESTION.search(s)) or asked):
                return True
    return False


def _engine_on_device(text: str, names: list[tuple[int, int]]) -> bool:
    """An engine and a device named in one clause with a run/support question about them."""
    for m in _CLAUSES.finditer(text):
        s, a = m.group(0), m.start()
        device = any(a <= ns < a + len(s) for ns, _ in names)
        if device and _ENGINE.search(s) and (((_SUPPORT.search(s) or _ZH_DEPLOY.search(s)) and _asks(text, a))
                                             or (_RUN_ON.search(s) and _QUESTION.search(s))):
            return True
    return False


# "with TP 2", "tensor-parallel-size 8", "tp=2", "tp16": a parallel size stated as a setting is a layout that
# splits the model (the forum sets' convention: tp/pp/multi-card splitting that is part of the stated setup is
# the topic); a size of 1 ("TP=1", "tensor-parallel 1 each") splits nothing and raises it only when asked about.
_SETTING = re.compile(r"[\s_-]*(?:size)?\s*[=:]?\s*(?P<n>\d+)", _F)
_SENTENCE = re.compile(r"(?:[^.?!。？！\n]|\.(?!\s|$))+(?:[.?!。？！]|$)", _F)


# Two kinds of parallelism combined ("tp 8 加 pp 2", "TP2xEP2", "dp 4、tp 8、開 expert parallel") is a layout
# the answer should discuss, even when each is only stated as a setting.
_KINDS = [re.compile(p, _F) for p in (
    r"(?:(?<![A-Za-z])|(?<=\dx))TP(?![A-Za-z])|tensor[\s_-]*(?:parallel|並行)|張量並行",
    r"(?:(?<![A-Za-z])|(?<=\dx))PP(?![A-Za-z])|pipeline[\s_-]*(?:parallel|並行)|流水線並行|管線並行",
    r"(?:(?<![A-Za-z])|(?<=\dx))EP(?![A-Za-z])|expert[\s_-]*(?:parallel|並行)|專家並行",
    r"(?:(?<![A-Za-z])|(?<=\dx))DP(?![A-Za-z])|data[\s_-]*(?:parallel|並行)|資料並行|數據並行")]


_RATHER_THAN = re.compile(r"(?:\bthan|\binstead\s+of|\bwithout|\bnot|不用|不要|而不是)\s*$", _F)


def _raised(topic: str, rx: re.Pattern, text: str) -> bool:
    if topic != "parallelism":
        return bool(rx.search(text))
    if sum(bool(k.search(text)) for k in _KINDS) >= 2:
        return True
    for m in rx.finditer(text):
        if _RATHER_THAN.search(text, max(0, m.start() - 16), m.start()):   # "rather than splitting one model across both"
            continue
        sentence = next((s for s in _SENTENCE.finditer(text) if s.start() <= m.start() < s.end()), None)
        asked = sentence is not None and _QUESTION.search(sentence.group(0)) and not sentence.group(0).rstrip().endswith(".")
        setting = _SETTING.match(text, m.end())
        sized = any(k.fullmatch(m.group(0)) for k in _KINDS)   # "tp 2", not "用雙卡 910B"
        if not setting or asked or (sized and int(setting.group("n")) > 1):
            return True
    return False


# System memory stated as such ("記憶體 502G", "1.5T 記憶體", "512G of RAM", "256 GB DDR5"), not VRAM
_HOST_RAM = re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>T|G|TB|GB)\s*(?:的\s*|of\s+(?:system\s+|host\s+)?)?(?:(?:系統|主機)?記憶體|內存|内存|RAM\b|DDR\d?\b)"
                       r"|(?:(?:系統|主機)?記憶體|內存|内存|\bRAM\b|\bsystem\s+memory\b)\s*[:：]?\s*(?:有|是|共)?\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>T|G|TB|GB)(?![A-Za-z])", re.I)


_UNREAD_QUANT = re.compile(r"(?<![A-Za-z0-9])I?Q[1-8](?:_?[A-Z0-9]+)*(?![A-Za-z0-9])|\bbpw\b|\b[1-3][\s-]?bits?\b", re.I)
_HYBRID_ENGINE = re.compile(r"\bktransformers\b", re.I)


# llama.cpp's GPU layer count ("-ngl 8", "--n-gpu-layers 20", "n_gpu_layers=30"): fewer than the model has leaves
# the rest of the layers in system memory
_NGL = re.compile(r"(?:(?<![\w-])-ngl|--n-gpu-layers|\bn_gpu_layers|\bnum_gpu)\s*[= ]\s*(?P<n>\d{1,3})\b", re.I)


def offload_by_layers(text: str, values: dict) -> bool:
    """A GPU layer count below the named model's layer count: part of the model runs from system RAM."""
    m = _NGL.search(text)
    if not m or not values.get("model"):
        return False
    from rules import catalog
    layers = getattr(catalog.model(values["model"]), "layers", None)
    return bool(layers) and int(m.group("n")) < layers


def offload_by_fit(text: str, values: dict) -> bool:
    """KTransformers run on a GPU the user names; or a model far bigger than the stated GPUs, with a large system memory stated beside them ("一張 4090、
    記憶體 502G 跑 DeepSeek-R1 Q4_K_M"): the weights can only run split between GPU and system RAM."""
    from rules import catalog, quant as quants
    hw, model = values.get("hardware"), values.get("model")
    if not hw:
        return False
    device = catalog.all_hardware().get(hw)
    if device is None or device.hw_class in ("cpu", "apple") or not device.memory_gb:
        return False
    if _HYBRID_ENGINE.search(text):   # an engine built to split a big MoE between a GPU and the CPU's memory
        return True
    host = [float(m.group("a") or m.group("b")) * (1024 if (m.group("ua") or m.group("ub")).upper().startswith("T") else 1)
            for m in _HOST_RAM.finditer(text)]
    params = catalog.model(model).params_b if model else values.get("params_b")
    if not params or not host or max(host) < 64:
        return False
    if not values.get("quantization") and _UNREAD_QUANT.search(text):
        return False   # "UD-Q2_K_XL", "IQ2XXS": a low-bit format the size cannot be computed for
    try:
        bits = quants.bits_per_weight(values["quantization"]) if values.get("quantization") else 16.0
    except InputError:   # a format the quant table does not know: assume 16-bit weights
        bits = 16.0
    weights_gb = params * bits / 8
    return weights_gb > 1.2 * device.memory_gb * int(values.get("count") or 1)


def topics(text: str) -> list[str]:
    """The topic ids `text` raises (normalised text), sorted."""
    found = {t for t, rx in _RES.items() if _raised(t, rx, text)}
    if _platform_support(text):
        found.add("platform-support")
    if _MODEL_FIT.search(text):
        found.add("model-fit")
    return sorted(found)
