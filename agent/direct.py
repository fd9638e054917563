"""Direct answers to the parts of a question that the recommendation does not answer by itself.

    capability(c)   "Does the A100 even run FP8?"         yes / not natively / no, the reason, a source, what instead
    devices(text)   "2x 3090 or one 5090?", "two Macs"    every device the message names, with its count
    need_count(c)   "is one node enough?", "需要兩台嗎？"  yes / no from the fit on one unit, with the plan
    batch_time(c)   "how long will 20M items take?"       items x tokens / the estimated request rate
    slow_setup(c)   "only 25 tok/s, is my setup wrong?"   the estimate for their setup beside their figure, causes

Each is a pure function of the topic context (agent.topic_lead.Ctx): the facts come from the hardware
and engine catalogs (each with its source) and the estimator; nothing is written per question.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.names import display, model_name

if TYPE_CHECKING:
    from agent.topic_lead import Ctx

_F = re.I

# --- shared: the estimate of another option --------------------------------------------------------------

def run_option(c: "Ctx", hw_id: str, count: int, nodes: int = 1, model: str | None = None, engine: str | None = None,
               plan: bool = True, with_decision: bool = False, **override):
    """(primary engine, Estimate) for `model` (default: the user's) on `count` x `hw_id` over `nodes`, with the
    user's stated load and format and the documented defaults for the rest (None when it cannot run).
    `plan`: the planner's chosen layout (as the answer shows it); otherwise the plain estimate."""
    from rules.decide import decide
    from rules.errors import AdvisorError
    from rules.plan import plan_for_profile
    from rules.roofline.estimate import estimate_for_profile
    try:
        p = option_profile(c, hw_id, count, nodes, model, **override)
        dec = decide(p)
        eng = engine or dec.primary
        if plan and engine is None:
            found = plan_for_profile(p, dec.model_dump(mode="json"))
            est = found[1] if found else None
        else:
            est = estimate_for_profile(p, engine=eng)
    except (AdvisorError, ValueError):
        return None
    if est is None:
        return None
    return (eng, est, dec) if with_decision else (eng, est)


def option_profile(c: "Ctx", hw_id: str, count: int, nodes: int = 1, model: str | None = None, **override):
    """The Profile (documented defaults applied) of `model` (default: the user's) on `count` x `hw_id` over
    `nodes`, with what the user said about load, lengths and format (AdvisorError/ValueError when invalid)."""
    from rules.defaults import apply_defaults
    from rules.profile import build_profile
    s = c.advice.profile.summary
    def said(f):
        v = c.advice.profile.field(f)
        return v.value if v is not None and v.origin == "said" else None
    same_model = model is None or model == s.model
    data = {"hardware": hw_id, "count": count, "nodes": nodes, "model": model or s.model,
            "params_b": None if (model or s.model) else s.params_b,
            "quantization": said("quantization") if same_model else None, "concurrency": said("concurrency"),
            "users": said("users"), "context_length": said("context_length"), "input_tokens": said("input_tokens"),
            "output_tokens": said("output_tokens"), "workload": said("workload"), "priority": said("priority"),
            "serving_mode": said("serving_mode"), "interconnect": s.interconnect if nodes > 1 or count > 1 else None,
            "shared_prefix": said("shared_prefix"), "prefix_tokens": said("prefix_tokens")}
    if hw_id == s.hardware:   # the user's own box: offloaded weights stream from the RAM they described
        data.update({f: said(f) for f in ("host_memory_gb", "host_mem_type", "host_mem_mts", "host_mem_channels")})
    data.update(override)
    return apply_defaults(build_profile({k: v for k, v in data.items() if v is not None}))


def _fmt(x: float | None) -> str:
    from agent.compose import fmt
    return fmt(x) if x is not None else "?"


def setup_text(c: "Ctx", hw_id: str, count: int, nodes: int = 1) -> str:
    """"2× NVIDIA L40S" / "1 台 NVIDIA DGX Spark" for any device, as the answer's own setup line writes it."""
    from rules import catalog, display as rdisplay
    hw = catalog.hardware(hw_id)
    unified = hw.hw_class in ("apple", "edge") or "unified" in (hw.memory_type or "").lower()
    en, zh = rdisplay.setup(hw.name, count, nodes, hw.hw_class, unified, hw.name_zh)
    return c.t(en, zh)


_setup = setup_text


def _first_url(text: str | None) -> str | None:
    m = re.search(r"https?://[^\s'\"|;)]+", text or "")
    return m.group(0).rstrip(".,") if m else None


# --- the devices a message names ------------------------------------------------------------------------

def devices(text: str) -> list[tuple[str, int]]:
    """Every distinct device the message names, in order, with the count written beside it (1 if none)."""
    from agent.extract_aliases import hardware_index
    from agent.extract_hardware import _option
    out: dict[str, int] = {}
    for hit in hardware_index().find(text):
        count = _option(text, hit)[0].get("count") or 1
        if hit.id not in out or (out[hit.id] == 1 and count > 1):
            out[hit.id] = count
    return list(out.items())


_MEM_AFTER = re.compile(r"\s*[(,（]?\s*(\d{1,4})\s*GB\b", _F)


def device_memory(text: str) -> dict[str, float]:
    """The memory written right after a device name ("M4 Max 64GB"): configurable devices (Macs, Spark-class
    boxes) come in several sizes, and the catalog holds one."""
    from agent.extract_aliases import hardware_index
    from rules import catalog
    out: dict[str, float] = {}
    for hit in hardware_index().find(text):
        m = _MEM_AFTER.match(text, hit.end)
        if m and hit.id not in out:
            out[hit.id] = float(m.group(1))
    ram = _RAM.search(text)
    for hw_id, count in devices(text):   # a CPU server's RAM is said anywhere ("a dual-socket EPYC with 384GB DDR5")
        if ram and hw_id not in out and catalog.hardware(hw_id).platform in ("x86-cpu", "arm-cpu"):
            out[hw_id] = float(ram.group(1) or ram.group(2)) / max(1, count)
    return out


_RAM = re.compile(r"(\d{2,5})\s*GB\s*(?:of\s+)?(?:DDR\d\w*|RAM|system\s+memory|memory)\b|(\d{2,5})\s*GB\s*(?:的)?(?:記憶體|內存|DDR)", _F)


# --- 1. capability: does device D run format F natively -----------------------------------------------

_FORMATS = (("nvfp4", r"\bNVFP4\b"), ("mxfp4", r"\bMXFP4\b"), ("nvfp4", r"\bFP4\b"), ("fp8", r"\bFP8\b"))
_NATIVE_KEY = {"fp8": "fp8", "nvfp4": "fp4", "mxfp4": "fp4"}
_FORMAT_NAMES = {"fp8": "FP8", "nvfp4": "NVFP4", "mxfp4": "MXFP4"}
_CAP_CUE = re.compile(r"[?？]|嗎|能不能|可不可以|\b(?:support\w*|option|run|runs|native\w*|need\w*|requir\w*|work\w*"
                      r"|compute\s+capability|capable)\b|支援|原生|需要|能跑|可以跑", _F)
_CLAUSE = re.compile(r"(?:[^.?!。？！\n;；]|\.(?!\s|$))+(?:[.?!。？！;；]|$)")
"""A sentence or clause; a dot inside a name or number ("Llama 3.3", "9.0+") does not end it."""
_CC_CLAIM = re.compile(r"(?:compute\s+capability|\bCC|\bsm_?)\s*(\d{1,2}(?:\.\d)?)\+?", _F)


_KV_BEFORE = re.compile(r"\bKV\b|cache|快取", _F)


def _near_cue(clause: str, m: re.Match) -> bool:
    """The format is what the clause asks about: a question word within a few words of it ("Is FP8 an option",
    "run FP8?", "MXFP4 needs compute capability 9.0"), not a format stated in passing before another question, nor
    the KV cache's format ("KV cache 量化成 FP8 可以嗎？" is the kv-quantization topic)."""
    if _KV_BEFORE.search(clause[max(0, m.start() - 25):m.start()]):
        return False
    for cue in _CAP_CUE.finditer(clause):
        after = cue.start() >= m.end()
        gap = cue.start() - m.end() if after else m.start() - cue.end()
        if gap <= (12 if after or cue.group(0) in "?？" else 30):   # "run FP8?", "FP8 an option", "MXFP4 needs"
            return True
    return False


def capability_pairs(c: "Ctx") -> list[tuple[str, str]]:
    """(format, hardware id) pairs the message asks about: a format word and a question cue in one clause,
    on the devices that clause names (else every device the message names, else the profile's)."""
    from agent.extract_aliases import hardware_index
    text = c.advice.question or ""
    named = [h for h, _ in devices(text)] or ([c.advice.profile.summary.hardware] if c.advice.profile.summary.hardware else [])
    out: list[tuple[str, str]] = []
    for m in _CLAUSE.finditer(text):
        clause = m.group(0)
        hit = next(((f, fm) for f, rx in _FORMATS for fm in [re.search(rx, clause, _F)] if fm), None)
        if hit is None or not _near_cue(clause, hit[1]):
            continue
        fmt = hit[0]
        here = list(dict.fromkeys(h.id for h in hardware_index().find(clause))) or named
        out += [(fmt, h) for h in here if (fmt, h) not in out]
    return out[:3]


def _engines_for(c: "Ctx", hw_id: str) -> list[str]:
    """The engines to report on: those the user names, else the recommendation's, that run on the device."""
    from rules import engines
    from agent.topic_lead import named_engines
    d = c.advice.decision
    asked = [e for e in named_engines(c.advice.question or "", limit=None) if e != "dynamo"]
    pool = asked or [e for e in (d.primary, *d.alternatives, "vllm", "sglang", "tensorrt-llm", "llama.cpp") if e and e != "dynamo"]
    return [e for e in dict.fromkeys(pool) if engines.supports(e, hw_id)[0]][:3]


def _path(e: str, fmt: str, hw) -> tuple[str, float | None, str | None]:
    """(kind, compute capability floor, source) of one engine's path for the format on the device; kind is
    none | weight-only | native | native-slow | dequant."""
    from rules import engines
    entry = engines.quant_support(e, fmt)
    kernel = engines.quant_kernel(e, fmt, hw.platform, hw.cuda_cc)
    if kernel is not None and engines.device_kernel(e, fmt, hw) is None:
        kernel = None   # an AMD kernel that needs FP8/FP4 units this device lacks (vLLM's FP8 on a CDNA2 MI210)
    cc = float(hw.cuda_cc) if hw.cuda_cc else None
    floor = entry.min_cuda_cc if entry is not None else None
    src = entry.source if entry is not None else None
    if kernel is None:
        return "none", floor if floor is not None and cc is not None and cc < floor else None, src
    if floor is not None and cc is not None and cc < floor:
        return "weight-only", floor, src
    if bool(getattr(hw.tflops, _NATIVE_KEY[fmt], None)):
        return ("native" if kernel == "optimized" else "native-slow"), None, src
    return "dequant", floor, src


def _paths(c: "Ctx", fmt: str, hw, engines_: list[str]) -> tuple[list[str], bool, list[str]]:
    """Sentences grouping the engines by their path for the format on the device, whether any runs it, and
    the source links (engine catalog) to show at the end."""
    groups: dict[tuple[str, float | None], list[str]] = {}
    links = []
    for e in engines_:
        kind, floor, src = _path(e, fmt, hw)
        groups.setdefault((kind, floor), []).append(display(e))
        if src:
            links.append(f"[{display(e)}]({src})")
    q = _FORMAT_NAMES[fmt]
    out = []
    for (kind, floor), members in groups.items():
        names = _join(c, members)
        if kind == "none":
            need = c.t(f" (it needs compute capability {floor:.1f})", f"（需要 compute capability {floor:.1f}）") if floor else ""
            out.append(c.t(f"{names}: no {q} path here{need}", f"{names}：這裡沒有 {q} 的執行路徑{need}"))
        elif kind == "weight-only":
            out.append(c.t(f"{names}: weight-only (W8A16-style: {q} weights dequantized for 16-bit math), so half the "
                           f"weight memory but no {q} compute speed-up",
                           f"{names}：weight-only（W8A16 方式：{q} 權重轉回 16-bit 運算），權重記憶體減半，但沒有 {q} 的算力加速"))
        elif kind in ("native", "native-slow"):
            how = c.t("native kernels", "原生 kernel") if kind == "native" else c.t("loads it, no optimized kernel", "能載入，沒有最佳化 kernel")
            out.append(c.t(f"{names}: {how}", f"{names}：{how}"))
        else:
            since = c.t(f" from compute capability {floor:.1f}", f"（compute capability {floor:.1f} 起）") if floor else ""
            out.append(c.t(f"{names}: a kernel{since} that dequantizes the {q} weights in the matmul, so it runs "
                           f"(memory saved, no {q} compute)",
                           f"{names}：有 kernel{since} 在矩陣乘法裡反量化 {q} 權重，所以能跑（省記憶體，但不是 {q} 運算）"))
    return out, any(k != "none" for k, _ in groups), links


def _join(c: "Ctx", names: list[str]) -> str:
    if c.lang == "zh":
        return "、".join(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _floor_owners(fmt: str, claimed: float) -> list[str]:
    """Engines whose catalog floor for the format is the compute capability the user read."""
    from rules import engines
    out = []
    for e in engines.all_engines():
        entry = engines.quant_support(e, fmt)
        if entry is not None and entry.min_cuda_cc is not None and abs(entry.min_cuda_cc - claimed) < 0.05:
            out.append(display(e))
    return out


def capability(c: "Ctx") -> list[str]:
    """"Does the A100 run FP8?": per (format, device), yes natively / not natively but it loads / no, with
    the hardware catalog's reason, each engine's path (engine catalog) and what to do instead; sources last."""
    from rules import catalog
    pairs = capability_pairs(c)
    if not pairs:
        return []
    text = c.advice.question or ""
    claim = _CC_CLAIM.search(text)
    named = [h for h, _ in devices(text)]
    out = []
    for fmt, hw_id in pairs:
        hw, q = catalog.hardware(hw_id), _FORMAT_NAMES[fmt]
        unit = "FP8" if fmt == "fp8" else "FP4"
        tf = getattr(hw.tflops, _NATIVE_KEY[fmt], None)
        native = bool(tf)
        cc = f"compute capability {hw.cuda_cc}" if hw.cuda_cc else (hw.arch or hw.platform)
        paths, runs, links = _paths(c, fmt, hw, _engines_for(c, hw_id))
        src = _first_url(hw.source)
        links = ([c.t(f"[hardware]({src})", f"[硬體]({src})")] if src else []) + links
        if native:
            head = c.t(f"**{q} on {hw.name}: yes, natively** — {cc} has {unit} tensor cores ({_fmt(tf)} dense TFLOPS)",
                       f"**{hw.name} 跑 {q}：可以，原生支援**——{cc} 有 {unit} tensor core（稠密 {_fmt(tf)} TFLOPS）")
        elif runs:
            head = c.t(f"**{q} on {hw.name}: not natively, but it runs** — {cc} has no {unit} tensor cores",
                       f"**{hw.name} 跑 {q}：沒有原生支援，但能跑**——{cc} 沒有 {unit} tensor core")
        else:
            head = c.t(f"**{q} on {hw.name}: no** — {cc} has no {unit} tensor cores",
                       f"**{hw.name} 跑 {q}：不行**——{cc} 沒有 {unit} tensor core")
        line = head + c.t(". ", "。") + (c.t("; ", "；").join(paths) + c.t(".", "。") if paths else "")
        if claim and not native and runs:
            owners = _floor_owners(fmt, float(claim.group(1)))
            whose = c.t(f" ({_join(c, owners)}'s)", f"（{_join(c, owners)} 的門檻）") if owners else ""
            line += " " + c.t(f"The compute capability {claim.group(1)} floor you read is not every engine's{whose}.",
                              f"您看到的 compute capability {claim.group(1)} 門檻不是每個引擎都有{whose}。")
        if not native:
            better = [catalog.hardware(h).name for h in named
                      if h != hw_id and getattr(catalog.hardware(h).tflops, _NATIVE_KEY[fmt], None)]
            if fmt == "fp8":
                line += " " + c.t((f"{_join(c, better)} runs FP8 natively; " if better else "Native FP8 needs Ada, Hopper or Blackwell; ")
                                  + "on this card INT8 (W8A8) or 4-bit (AWQ, GPTQ, GGUF) is the faster format.",
                                  (f"{_join(c, better)} 原生支援 FP8；" if better else "原生 FP8 需要 Ada、Hopper 或 Blackwell；")
                                  + "這張卡上 INT8（W8A8）或 4-bit（AWQ、GPTQ、GGUF）才是較快的格式。")
            else:
                line += " " + c.t((f"{_join(c, better)} has FP4 tensor cores; " if better else "Native FP4 compute needs Blackwell; ")
                                  + "here the 4-bit weights still save memory.",
                                  (f"{_join(c, better)} 有 FP4 tensor core；" if better else "原生 FP4 運算需要 Blackwell；")
                                  + "這裡 4-bit 權重仍能省記憶體。")
        elif fmt == "fp8":
            line += " " + c.t("FP8 halves the weight memory against BF16; an FP8 KV cache (vLLM --kv-cache-dtype fp8) "
                              "doubles the room for concurrent sequences.",
                              "FP8 權重比 BF16 省一半記憶體；FP8 的 KV cache（vLLM 的 --kv-cache-dtype fp8）讓併發序列的空間加倍。")
        if links:
            line += " " + c.t(f"(Sources: {', '.join(links)}.)", f"（來源：{'、'.join(links)}）")
        out.append(line)
    return out


# --- 3a. how many: is one unit enough ---------------------------------------------------------------------

_NEED = re.compile(
    r"\bis\s+(?:one|a\s+single|1|a)\s+(?:\S+\s+){0,4}?(?:enough|sufficient)\b|\b(?:do|would|will)\s+(?:i|we|it|you)\s+need\s+"
    r"(?:two|2|more|a\s+second|multiple|both|another)\b|\bneeds?\s+(?:two|2|multiple|more\s+than\s+one)\b"
    r"|\b(?:one|a\s+single)\s+(?:\S+\s+){0,3}?(?:enough|suffice)\b"
    r"|需要兩\s*(?:台|張|個|片|顆|節點)|要兩\s*(?:台|張)|(?:一|1)\s*(?:台|張|個節點|個\s*node)\s*(?:就)?(?:夠|足夠)|夠不夠", _F)


def need_asked(text: str) -> re.Match | None:
    return _NEED.search(text)


def need_count(c: "Ctx") -> list[str]:
    """"Is one node enough?" / "does gpt-oss-120b need two?": the fit and speed on one unit of the user's
    devices (one node of a multi-node setup, else one device), then the verdict."""
    from agent.extract_model import model_names
    text = c.advice.question or ""
    m = need_asked(text)
    s = c.advice.profile.summary
    if m is None or not s.hardware:
        return []
    clause = next((k.group(0) for k in _CLAUSE.finditer(text) if k.start() <= m.start() < k.end()), text)
    in_clause = [n.id for n in model_names(clause)]
    mid = in_clause[0] if in_clause else s.model
    if not mid:
        return []
    nodes, count = s.nodes or 1, s.count or 1
    unit = (count, 1) if nodes > 1 else (1, 1)
    got = run_option(c, s.hardware, unit[0], unit[1], model=mid)
    if got is None:
        return []
    eng, est = got
    where = _setup(c, s.hardware, *unit)
    if nodes > 1 and count > 1:
        where = c.t(f"one node of {count}× {display_hw(s.hardware)}", f"一個節點（{count} 張 {display_hw(s.hardware, zh=True)}）")
    mname = model_name(mid)
    room = (max(0.0, est.memory.usable_gb - est.memory.reserve_gb) * est.count) if est.memory else None
    roomtxt = c.t(f" of about {_fmt(room)} GB usable", f"（可用約 {_fmt(room)} GB）") if room else ""
    load = s.concurrency or 1
    if not est.fits:
        more = (c.t(f"it takes all {nodes} nodes (the plan below)", f"要用上全部 {nodes} 個節點（見下方規劃）") if nodes > 1 else
                c.t("it takes more than one (the plan below)", "需要不只一個（見下方規劃）"))
        return [c.t(f"**Is {where} enough for {mname}? No** — at {est.quantization} its weights need {_fmt(est.weights_gb)} GB"
                    f"{roomtxt}, so it does not fit; {more}, or a smaller format on one.",
                    f"**{where}夠跑 {mname} 嗎？不夠**——以 {est.quantization} 計權重需要 {_fmt(est.weights_gb)} GB{roomtxt}，放不下；"
                    f"{more}，或改用較小的格式。")]
    speed = c.t(f", about {_fmt(est.decode_tokens_per_s)} tok/s per stream with {display(eng)}",
                f"，用 {display(eng)} 每條串流約 {_fmt(est.decode_tokens_per_s)} tok/s") if est.decode_tokens_per_s else ""
    if est.max_concurrency and load > est.max_concurrency:
        return [c.t(f"**Is {where} enough for {mname}? It loads, but not for your load** — {est.quantization} weights "
                    f"{_fmt(est.weights_gb)} GB{roomtxt} leave KV room for about {est.max_concurrency} sequences at once, "
                    f"below your {load}; use two (or a smaller format){speed}.",
                    f"**{where}夠跑 {mname} 嗎？載得進去，但撐不住您的負載**——{est.quantization} 權重 {_fmt(est.weights_gb)} GB"
                    f"{roomtxt}，KV 空間只夠同時約 {est.max_concurrency} 條序列，少於您的 {load} 條；請用兩個（或較小的格式）{speed}。")]
    kv = (c.t(f", and the KV cache holds about {est.max_concurrency} sequences of {est.context_length:,} tokens "
              f"(planned: {est.concurrency} at once)", f"，KV cache 約可容納 {est.max_concurrency} 條 {est.context_length:,} tokens "
              f"的序列（規劃同時 {est.concurrency} 條）") if est.max_concurrency else "")
    tight = bool(est.max_concurrency) and est.max_concurrency < 4 * max(1, est.concurrency)
    verdict = (c.t(f"No, but it is tight** — {where} holds it", f"不需要，但很緊**——{where}放得下") if tight else
               c.t(f"No** — {where} is enough", f"不需要**——{where}就夠"))
    more = (c.t(" With more users at once or longer context, a second device (TP=2) gives the KV cache room.",
                "若同時使用的人更多或 context 更長，加第二個（TP=2）讓 KV cache 有空間。") if tight else "")
    return [c.t(f"**Does {mname} need more than {where}? {verdict}: {est.quantization} weights {_fmt(est.weights_gb)} GB"
                f"{roomtxt} fit{kv}{speed}.{more}",
                f"**{mname} 需要超過{where}嗎？{verdict}：{est.quantization} 權重 {_fmt(est.weights_gb)} GB{roomtxt}，"
                f"放得下{kv}{speed}。{more}")]


def display_hw(hw_id: str, zh: bool = False) -> str:
    from rules import catalog
    from rules.display import short_name
    hw = catalog.hardware(hw_id)
    return (hw.name_zh or short_name(hw.name)) if zh else hw.name


# --- 3b. how long will a batch job take ----------------------------------------------------------------

_HOW_LONG = re.compile(r"\bhow\s+long\s+(?:will|would|does|should|might|is)\b|\bhow\s+many\s+(?:hours|days)\b|\bETA\b"
                       r"|\bhow\s+much\s+time\b|要多久|多久(?:可以|能|才)?(?:跑完|完成|做完|處理完)|需要多少時間|花多少時間|要花多久", _F)
_UNITS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "mm": 1e6, "b": 1e9, "billion": 1e9,
          "千": 1e3, "萬": 1e4, "万": 1e4, "億": 1e8, "亿": 1e8}
_ITEMS = re.compile(r"(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<u>k|m|mm|b|thousand|million|billion)?\s+(?:[A-Za-z-]+\s+){0,2}?"
                    r"(?:descriptions|documents|docs|items|records|rows|prompts|requests|texts|reviews|samples|questions"
                    r"|files|pages|tickets|emails|articles|products|messages|chunks|passages|transcripts|entries|listings"
                    r"|conversations|queries|images|abstracts|papers|comments|posts)\b"
                    r"|(?P<zn>\d[\d,]*(?:\.\d+)?)\s*(?P<zu>千|萬|万|億|亿)?\s*(?:筆|篇|份|條|則|段|封)", _F)
_EACH = re.compile(r"(?P<n>\d[\d,]*)\s*(?:tokens?|toks?)\s*(?:each|apiece|per\s+(?:item|doc\w*|record|row|request|prompt|description|ticket)|on\s+average)"
                   r"|每\s*(?:筆|篇|份|條|則|段|封)[^0-9\n]{0,6}(?P<zn>\d[\d,]*)\s*(?:個\s*)?tokens?", _F)
_OUT = re.compile(r"(?P<n>\d[\d,]*)[\s-]*(?:tokens?|toks?)[\s-]+(?:summar\w*|answers?|outputs?|responses?|replies|completions?)"
                  r"|(?:answer|output|response|summary|reply)\w*\s+(?:of\s+)?(?:about\s+|~)?(?P<n2>\d[\d,]*)\s*tokens?"
                  r"|(?:輸出|回答|摘要)[^0-9\n]{0,6}(?P<zn>\d[\d,]*)\s*(?:個\s*)?tokens?", _F)
_LABEL = re.compile(r"\blabels?\b|\bclassif\w*|\bcategor\w*|\byes/no\b|\bone\s+of\s+\d+|分類|標籤|類別", _F)
LABEL_TOKENS = 5
"""Output tokens of a classification answer (a label and an end token), said as an assumption."""


def _num(n: str, unit: str | None) -> float:
    return float(n.replace(",", "")) * _UNITS.get((unit or "").lower(), 1.0)


def batch_job(text: str) -> tuple[float, int | None, int | None, bool] | None:
    """(items, input tokens each, output tokens each, output is a label) of a batch job the user asks to
    time; None when the message does not ask how long, or names no count of items."""
    if not _HOW_LONG.search(text):
        return None
    m = _ITEMS.search(text)
    if m is None:
        return None
    items = _num(m.group("n") or m.group("zn"), m.group("u") or m.group("zu"))
    e, o = _EACH.search(text), _OUT.search(text)
    each = int((e.group("n") or e.group("zn")).replace(",", "")) if e else None
    out = int((o.group("n") or o.group("n2") or o.group("zn")).replace(",", "")) if o else None
    label = out is None and bool(_LABEL.search(text))
    return items, each, (LABEL_TOKENS if label else out), label


def _duration(c: "Ctx", seconds: float) -> str:
    if seconds >= 2 * 86400:
        return c.t(f"about {_fmt(seconds / 86400)} days", f"約 {_fmt(seconds / 86400)} 天")
    if seconds >= 2 * 3600:
        return c.t(f"about {_fmt(seconds / 3600)} hours", f"約 {_fmt(seconds / 3600)} 小時")
    return c.t(f"about {_fmt(seconds / 60)} minutes", f"約 {_fmt(seconds / 60)} 分鐘")


BATCH_IN_FLIGHT = 256
"""Requests kept in flight per device for an offline job (the engine batches as many as the KV cache holds)."""


def batch_time(c: "Ctx") -> list[str]:
    """The job's duration: items / the estimated requests per second of the whole deployment at a full batch."""
    job = batch_job(c.advice.question or "")
    s = c.advice.profile.summary
    if job is None or not s.hardware or not (s.model or s.params_b):
        return []
    items, each, out, label = job
    n_in = each or s.input_tokens or 512
    n_out = out or s.output_tokens or 256
    count, nodes = s.count or 1, s.nodes or 1
    fmt = {"quantization": c.advice.estimate.quantization} if c.advice.estimate is not None else {}
    got = run_option(c, s.hardware, count, nodes, input_tokens=n_in, output_tokens=n_out, workload="batch", **fmt,
                     concurrency=BATCH_IN_FLIGHT * count * nodes, context_length=max(2048, n_in + n_out))
    if got is None or not got[1].requests_per_s:
        return []
    eng, est = got
    secs = items / est.requests_per_s
    total = items * (n_in + n_out)
    # a length is the user's when the job's sentence or the profile (an answer, another line) states it
    each = each or (s.input_tokens if s.input_tokens and "input_tokens" not in s.assumed else None)
    out = out or (s.output_tokens if s.output_tokens and "output_tokens" not in s.assumed else None)
    said_each = c.t("" if each else f" (assumed: {n_in:,} tokens in each; give yours)", "" if each else f"（假設每筆輸入 {n_in:,} tokens；請提供實際值）")
    said_out = (c.t(f", {n_out} output tokens for the label (assumed)", f"，標籤輸出約 {n_out} 個 token（假設）") if label else
                c.t(f", {n_out:,} output tokens each" + ("" if out else " (assumed)"), f"，每筆輸出 {n_out:,} tokens" + ("" if out else "（假設）")))
    return [c.t(f"**How long: {_duration(c, secs)}** — {items:,.0f} items × ({n_in:,} in{said_each}{said_out}) is about "
                f"{_fmt(total / 1e9)}B tokens; at an estimated {_fmt(est.requests_per_s)} requests/s on {_setup(c, s.hardware, count, nodes)} "
                f"with {display(eng)} ({est.quantization}, about {est.concurrency} requests in flight, prefill "
                f"{_fmt(est.prefill_tokens_per_s)} tok/s) that is {_duration(c, secs)} of wall time. It is a roofline estimate: "
                "run the first 0.1% and extrapolate before you book the GPUs.",
                f"**要多久：{_duration(c, secs)}**——{items:,.0f} 筆 ×（輸入 {n_in:,} tokens{said_each}{said_out}）約 {_fmt(total / 1e9)}B tokens；"
                f"在 {_setup(c, s.hardware, count, nodes)} 上用 {display(eng)}（{est.quantization}，同時約 {est.concurrency} 個請求、prefill "
                f"{_fmt(est.prefill_tokens_per_s)} tok/s），估計每秒約 {_fmt(est.requests_per_s)} 個請求，總共{_duration(c, secs)}。"
                "這是 roofline 估算：先跑前 0.1% 再外推，確認後再訂 GPU 時數。"),
            c.t("Run it as an offline batch (vLLM's LLM.generate over the whole list, or one server per GPU fed at full "
                "concurrency), one independent replica per GPU when the model fits one; put the shared instructions first "
                "so prefix caching reuses them, and cap the output (max_tokens"
                + (", a guided choice of the labels" if label else "") + ").",
                "以離線批次執行（vLLM 的 LLM.generate 一次送整批，或每張 GPU 一個 server 並用高併發餵滿），模型放得下一張卡時每張卡各一個獨立副本；"
                "共用的指示放在提示最前面讓前綴快取重用，並限制輸出長度（max_tokens"
                + ("、用 guided choice 限定標籤" if label else "") + "）。")]


# --- 4. is my setup wrong ---------------------------------------------------------------------------------

_SPEED = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tokens?\s+per\s+sec\w*|tps)\b", _F)
_WRONG = re.compile(r"misconfigur\w*|\bset\s*up\s+wrong|\bsomething\s+wrong|\bdoing\s+(?:\w+\s+)?wrong|\bwhy\s+(?:is|does|do)\b[^?]{0,60}slow"
                    r"|\bslower\s+than\b|\btoo\s+slow\b|\bexpected\b[^?]{0,30}\?|\bnormal\b[^?]{0,20}\?|\bonly\s+(?:get|getting|\d)"
                    r"|設定錯|哪裡錯|設錯|是不是.{0,8}錯|為什麼.{0,20}慢|正常嗎|只有\s*\d|太慢|比.{0,20}慢", _F)
_FASTER = re.compile(r"\bfaster\s+(?:engine|option|runtime|alternative|way)|\b(?:another|other|different)\s+engine|\bwould\s+\S+\s+be\s+faster"
                     r"|更快的(?:引擎|方法|選擇)|換.{0,6}引擎|其他引擎", _F)


def slow_asked(text: str) -> bool:
    from agent.diagnosis import kv_error
    from agent.measured import diagnosis_asked
    return bool(_WRONG.search(text)) or diagnosis_asked(text) or kv_error(text) is not None   # a start-up refusal too


def slow_setup(c: "Ctx") -> list[str]:
    """"Is my setup wrong?": the verdict on the user's figure beside the estimate for their own setup and engine,
    and the causes specific to that setup (agent.diagnosis); two engines compared without a figure get both
    estimates; the other engines' estimates follow when a faster one is asked for."""
    from agent import diagnosis
    from agent.measured import read
    from agent.topic_lead import _engine_estimates, named_engines
    text = c.advice.question or ""
    s = c.advice.profile.summary
    if not slow_asked(text) or not s.hardware or not (s.model or s.params_b):
        return []
    ests = _engine_estimates(c)
    named = [e for e in named_engines(text, limit=None) if e != "dynamo"]
    measured = read(text)
    theirs = (diagnosis.figure_engine(text, measured[0]) if measured else None) or (named[0] if named else c.advice.decision.primary)
    if not c.model and s.params_b:
        c = c.__class__(**{**c.__dict__, "model": f"{s.params_b:g}B"})
    where = c.setup or _setup(c, s.hardware, s.count or 1)
    out: list[str] = []
    load = diagnosis.stated_load(c, None)
    if not measured and len(named) >= 2 and load > 1:   # "vLLM is clearly behind SGLang at 32 concurrent"
        out += _pair_at_load(c, named[0], named[1], load, where)
        out += diagnosis.lead(c, theirs, [])[1:]
    elif not measured and len(named) >= 2 and all(e in ests for e in named[:2]):
        a, b = named[:2]
        ea, eb = ests[a], ests[b]
        one_a, one_b = (x.single_stream_tokens_per_s or x.decode_tokens_per_s for x in (ea, eb))
        out.append(c.t(f"**Is something misconfigured? Not necessarily** — at one stream the estimate itself puts {display(a)} at "
                       f"{_fmt(one_a)} and {display(b)} at {_fmt(one_b)} tok/s on {where}: a "
                       "single stream is bound by memory bandwidth, where a batching server gains nothing and its overheads show.",
                       f"**是設定錯了嗎？不一定**——單一串流時，估計本身就是 {display(a)} 約 {_fmt(one_a)}、"
                       f"{display(b)} 約 {_fmt(one_b)} tok/s（{where}）：單一串流受記憶體頻寬限制，批次伺服器的優勢用不上，"
                       "反而看得到它的額外開銷。"))
        many = run_option(c, s.hardware, s.count or 1, s.nodes or 1, engine="vllm" if "vllm" in named else a, plan=False,
                          concurrency=32)
        if many is not None and many[1].aggregate_tokens_per_s:
            out.append(c.t(f"{display(many[0])} pays when many requests run at once: at 32 concurrent the estimate is about "
                           f"{_fmt(many[1].aggregate_tokens_per_s)} tok/s in total ({_fmt(many[1].decode_tokens_per_s)} per stream).",
                           f"{display(many[0])} 的價值在多個請求同時進來時：32 個併發時估計總計約 {_fmt(many[1].aggregate_tokens_per_s)} tok/s"
                           f"（每條 {_fmt(many[1].decode_tokens_per_s)}）。"))
        out += diagnosis.lead(c, theirs, [])[1:]   # the causes, without a second "expected" line
    else:
        out += diagnosis.lead(c, theirs, measured)
    if not out:
        return []
    if _FASTER.search(text):
        out += _faster(c, ests, theirs, measured[0].kind if measured else "decode")
    return out


def _pair_at_load(c: "Ctx", a: str, b: str, load: int, where: str) -> list[str]:
    """Two engines a user benchmarked at a stated load: their estimates at that load, and why a gap between two
    batching servers on the same hardware usually comes from versions and settings."""
    s = c.advice.profile.summary
    got = {e: run_option(c, s.hardware, s.count or 1, s.nodes or 1, engine=e, plan=False, concurrency=load) for e in (a, b)}
    if any(g is None or not g[1].aggregate_tokens_per_s for g in got.values()):
        return []
    ea, eb = got[a][1], got[b][1]
    gap = abs(ea.aggregate_tokens_per_s / eb.aggregate_tokens_per_s - 1) * 100
    from rules import catalog
    from rules.display import graph_capture
    platform = catalog.hardware(s.hardware).platform
    graphs, graphs_zh = graph_capture(platform, "en"), graph_capture(platform, "zh")
    return [c.t(f"**Is something misconfigured? Not necessarily** — at {load} concurrent on {where} the estimate puts "
                f"{display(a)} at about {_fmt(ea.aggregate_tokens_per_s)} and {display(b)} at about "
                f"{_fmt(eb.aggregate_tokens_per_s)} tok/s in total ({_fmt(gap)}% apart): both batch continuously on the same "
                f"hardware, so a large gap usually comes from versions and defaults (memory fraction, {graphs}, chunked "
                "prefill, scheduling); compare them with equal settings before choosing.",
                f"**是設定錯了嗎？不一定**——在 {where} 上 {load} 個併發時，估計 {display(a)} 總計約 {_fmt(ea.aggregate_tokens_per_s)}、"
                f"{display(b)} 約 {_fmt(eb.aggregate_tokens_per_s)} tok/s（差 {_fmt(gap)}%）：兩者在同樣的硬體上都做 continuous "
                f"batching，差距大多來自版本與預設值（記憶體比例、{graphs_zh}、chunked prefill、排程）；請用相同設定比較後再選。")]


def _faster(c: "Ctx", ests: dict, theirs: str | None, kind: str) -> list[str]:
    """"Would another engine be faster?": the other engines' estimates on the same setup, for what was measured."""
    if kind == "ttft":
        others = sorted(((e, x) for e, x in ests.items() if e != theirs and x.ttft_s), key=lambda kv: kv[1].ttft_s)[:2]
        if not others:
            return []
        listed = c.t(", ", "、").join(f"{display(e)} {_fmt(x.ttft_s)} s" for e, x in others)
        return [c.t(f"**A different engine?** Others here (estimate, first token for this prompt): {listed}; they prefill at "
                    "about the same rate on the same GPU, so fix the cause of the wait first. vLLM and SGLang pay when many "
                    "users ask at once and prompts share a prefix (prefix caching).",
                    f"**要換引擎嗎？**這裡的其他引擎（估計，這個 prompt 的首字時間）：{listed}；同一張卡上 prefill 速度差不多，"
                    "先解決造成等待的原因。vLLM 與 SGLang 的優勢在多人同時使用、prompt 有共同前綴（前綴快取）時。")]
    others = sorted(((e, x) for e, x in ests.items() if e != theirs and x.decode_tokens_per_s), key=lambda kv: -kv[1].decode_tokens_per_s)[:2]
    if not others:
        return []
    listed = c.t(", ", "、").join(f"{display(e)} {_fmt(x.decode_tokens_per_s)} tok/s" for e, x in others)
    return [c.t(f"**A faster engine?** Other engines here (estimate, per stream): {listed}; at one stream they read the same weights "
                "through the same bandwidth, so the big single-user gain is speculative decoding (a small draft model), "
                "not a different engine.",
                f"**有更快的引擎嗎？**這裡的其他引擎（估計，每條串流）：{listed}；單一串流時它們以同樣的頻寬讀同樣的權重，單人速度的大幅提升要靠"
                "推測解碼（小的 draft 模型），而不是換引擎。")]


# --- does engine E run on an OS ---------------------------------------------------------------------------

_OS = re.compile(r"\bwindows\b|\bwin1[01]\b|\bmac\s*os\b|\bmacbook\b|\bmac\b|\blinux\b|\bWSL2?\b", _F)
_ASK = re.compile(r"[?？]|嗎|能不能|可不可以|\b(?:does|do|can|could|will|is|are)\b", _F)


def os_support_asked(text: str) -> bool:
    """A named engine and an operating system in one question clause ("vLLM 能在 Windows 上用這張卡嗎？")."""
    from agent.topic_lead import named_engines
    return any(named_engines(m.group(0)) and _OS.search(m.group(0)) and _ASK.search(m.group(0))
               and _RUN_CUE.search(m.group(0)) for m in _CLAUSE.finditer(text))


_RUN_CUE = re.compile(r"\b(?:run|runs|running|support\w*|work|works|install\w*|use|native\w*|available)\b"
                      r"|支援|能在|可以在|能用|可以用|用這|跑", _F)
"""A question about running there at all ("does vLLM run natively on Windows?"), not "is MLX faster on my Mac?"."""


# --- which llama.cpp backend on an AMD GPU ----------------------------------------------------------------

_LLAMA_BENCH = "https://github.com/ggml-org/llama.cpp/blob/master/tools/llama-bench/README.md"
"""Its defaults are the two tests named here: pp512 (prompt processing) and tg128 (generation)."""
_VULKAN = re.compile(r"\bvulkan\b", _F)
_ROCM = re.compile(r"\brocm\b|\bhip\b", _F)


def backend_asked(text: str) -> bool:
    return bool(_VULKAN.search(text) and _ROCM.search(text))


def backend(c: "Ctx") -> list[str]:
    """"Vulkan or ROCm?": llama.cpp's two AMD backends (engine catalog), what differs, and how to choose by measuring."""
    from rules.engines import engine
    text = c.advice.question or ""
    if not backend_asked(text):
        return []
    entry = engine("llama.cpp").platforms.get("amd-rocm")
    if entry is None:
        return []
    link = f"[{c.t('source', '來源')}]({entry.source})"
    bench = f"[llama-bench]({_LLAMA_BENCH})"
    where = c.setup or c.t("an AMD GPU", "AMD 顯卡")
    return [c.t(f"**Vulkan or ROCm: both run llama.cpp on {where}** — llama.cpp has a HIP (ROCm) backend for AMD GPUs and a "
                f"Vulkan backend ({link}); both read the same GGUF weights through the same memory bandwidth, so decode speed "
                "is usually close, and which one wins on prompt processing depends on the build and the card. Vulkan needs "
                f"only the graphics driver, ROCm/HIP its own runtime. Try both with {bench} (pp512 for the prompt, tg128 for "
                "generation) and keep the faster; Ollama and LM Studio wrap the same engine.",
                f"**Vulkan 還是 ROCm：兩者都能在 {where} 上跑 llama.cpp**——llama.cpp 對 AMD 顯卡有 HIP（ROCm）後端，也有 Vulkan 後端"
                f"（{link}）；兩者以同樣的記憶體頻寬讀同樣的 GGUF 權重，所以 decode 速度通常相近，prompt 處理哪個快則看版本與顯卡。"
                f"Vulkan 只需要顯示卡驅動，ROCm／HIP 需要另外安裝執行環境。用 {bench} 兩個都量（pp512 量提示處理、tg128 量生成），"
                "留下較快的；Ollama 與 LM Studio 包的也是同一個引擎。")]


def asked_engines(text: str) -> list[str]:
    """The engines a support question is about: those named in a clause that asks about an OS or a device
    ("vLLM 能在 Windows 上用這張卡嗎？"), else the first two the message names."""
    from agent.topic_lead import named_engines
    for m in _CLAUSE.finditer(text):
        clause = m.group(0)
        if _OS.search(clause) and _ASK.search(clause) and named_engines(clause):
            return named_engines(clause)
    return named_engines(text)


# --- "what settings?" when the answer has no launch command (a sizing answer) ------------------------------

_SETTINGS = re.compile(r"\bwhat\s+(?:settings|flags|config\w*|parameters)\b|\bwhich\s+(?:settings|flags|parameters)\b"
                       r"|\blaunch\s+(?:command|flags|settings)\b|\bhow\s+(?:do|should)\s+(?:i|we)\s+(?:launch|configure|start)\b"
                       r"|怎麼設定|哪些參數|什麼參數|啟動指令|啟動參數|設定參數|要怎麼設", _F)


def settings_asked(text: str) -> bool:
    return bool(_SETTINGS.search(text))


def settings(c: "Ctx") -> list[str]:
    """The launch command of the plan for the first option a sizing answer ranks (the recommendation's own
    answer prints its command below, so this part speaks only when there is none)."""
    from rules.decide import decide
    from rules.defaults import apply_defaults
    from rules.errors import AdvisorError
    from rules.plan import plan_for_profile
    from rules.profile import build_profile
    adv = c.advice
    if not settings_asked(adv.question or "") or (adv.plan is not None and adv.plan.launch):
        return []
    sizing = adv.sizing if isinstance(adv.sizing, dict) else None
    first = next(iter((sizing or {}).get("options") or []), None)
    if first is None or not (first.get("plan") or {}).get("quantization"):
        return []
    s = adv.profile.summary
    data = {"hardware": first["hardware"], "count": first.get("count") or 1, "nodes": first.get("nodes") or 1,
            "model": s.model, "params_b": None if s.model else s.params_b, "quantization": first["plan"]["quantization"],
            "concurrency": (sizing.get("request") or {}).get("concurrency"), "workload": (sizing.get("request") or {}).get("workload")}
    try:
        p = apply_defaults(build_profile({k: v for k, v in data.items() if v is not None}))
        found = plan_for_profile(p, decide(p).model_dump(mode="json"))
    except (AdvisorError, ValueError):
        return []
    if not found or found[0] is None or not found[0].flags:
        return []
    engine, cmd = next(iter(found[0].flags.items()))
    where = setup_text(c, first["hardware"], data["count"], data["nodes"])
    return [c.t(f"**Settings for {where}** ({display(engine)}, {data['quantization']}): `{cmd}`",
                f"**{where} 的設定**（{display(engine)}，{data['quantization']}）：`{cmd}`")]
