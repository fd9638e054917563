"""The model (a catalog id, or a size: "a 32B model", "70B 模型", "100B MoE with 10B active"),
its quantization ("4-bit AWQ", "Q4_K_M", "EXL2 4.0bpw", "NVFP4") and KV-cache dtype ("FP8 KV cache").
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from agent import lexicon
from agent.extract_base import FORMER, Finding, clause_after, clause_before, negated, negated_adjacent, overlaps
from agent.extract_numbers import parse_number
from rules import model_resolve

_F = re.I | re.ASCII
_SIZE = re.compile(
    # a size glued to its family's name counts too ("qwen7b", "chatglm6b", "internlm20b")
    r"(?:(?<![A-Za-z0-9.$])|(?<=qwen)|(?<=llama)|(?<=glm)|(?<=internlm)|(?<=baichuan)|(?<=mistral)|(?<=gemma)|(?<=deepseek)"
    r"|(?<=falcon)|(?<=vicuna)|(?<=yi))(?P<p>\d+(?:\.\d+)?)\s?(?:B(?![A-Za-z0-9/])|billion\b)(?!\s*(?:tokens?|params?\s+active|active))"
    r"(?:[\s-]*A(?P<a>\d+(?:\.\d+)?)B(?![A-Za-z0-9]))?", _F)
_ACTIVE = re.compile(
    r"(?P<a>\d+(?:\.\d+)?)\s?B\s+(?:params?\s+)?active\b|\bactive(?:\s+param(?:eter)?s?)?\s*(?:of\s+)?~?(?P<b>\d+(?:\.\d+)?)\s?B\b"
    r"|(?:激活|啟用|活躍)(?:參數)?\s*(?P<c>\d+(?:\.\d+)?)\s?B", _F)
_ARCH = [(v, re.compile("|".join(p), _F)) for v, p in lexicon.ARCHITECTURE.items()]
_QUANT = [(v, re.compile(p, _F)) for v, p in lexicon.QUANT]
_EXL = re.compile(lexicon.EXL, _F)
_EXL_NAME = re.compile(lexicon._format(lexicon.EXL_NAME), _F)
_EXL_BARE = re.compile(lexicon.EXL_BARE_BPW, _F)
_GENERIC_FULL = re.compile(lexicon.GENERIC_FULL, _F)
# "FP8 is not an option", "AWQ 不考慮": a format ruled out after it is named ("FP8 not BF16" rules out BF16)
_REJECTED = re.compile(r"\s*(?:(?:is|are|was)(?:\s+not|n't)\s+(?:an?\s+)?(?:option|possible|allowed|available|supported|acceptable|wanted)"
                       r"|(?:is|are)\s+(?:out|off\s+the\s+table|ruled\s+out)\b|(?:不考慮|不行|不能用|不用|不要|不可以|沒辦法))", _F)
_NATIVE = re.compile(lexicon.NATIVE_WEIGHTS, _F)
_SIXTEEN = re.compile(lexicon.SIXTEEN_BIT, _F)
_ALTERNATIVES = re.compile(lexicon.FORMAT_ALTERNATIVES, _F)
_BARE_GGUF = re.compile(r"^Q[1-4]$", _F)   # "Q4" may be a quarter of the year; "Q8" never is
_QUARTER = re.compile(r"(?:\b(?:in|by|this|next|last|during|of|until|before|after)\s+$)|(?:今年|明年|去年)\s*$", _F)
_RUN_WEIGHTS = re.compile(r"\b(?:run|runs|running|serve[sd]?|serving|load(?:ed|ing)?|deploy(?:ed|ing)?|host(?:ed|ing)?|it|them|model|weights|quantized|quantised)$", _F)
_WHEN = re.compile(r"\b(?:launch\w*|releas\w*|ship\w*|go(?:es|ing)?\s+live|roll\w*\s+out|rollout|deadline|budget\w*|approv\w*|plan\w*"
                   r"|start\w*|begin\w*|expect\w*|target\w*|schedul\w*|due|purchas\w*|buy\w*|bought|order\w*|arriv\w*|deliver\w*"
                   r"|hire\w*|migrat\w*|year|quarter|fiscal|FY)\b|上線|推出|預計|計畫|計劃|採購|年|季", _F)
# "Q4 budget", "the Q4 rollout", "Q4 上線": a quarter names when something happens.
_QUARTER_EVENT = re.compile(r"\s*(?:(?:budget|target|goal|rollout|roll-out|launch|release|deadline|plan|planning|review|OKRs?|milestone|go[\s-]live)s?\b"
                            r"|next\s+year|this\s+year|(?:預計|計畫|計劃)?\s*(?:上線|推出|發布|發佈|預算|目標|前|底|結束))", _F)
_QUARTER_AFTER = re.compile(r"^\s*(?:'?\d{2}\b|20\d\d|FY|of\s+20\d\d)", _F)
_KV_AFTER = re.compile(r"^(?:[_-]?E[45]M[23])?[\s-]*(?:的\s*|for\s+(?:the\s+)?|on\s+the\s+)?(?:KV\b|kv[\s-]?cache|KV\s*快取)", _F)
_KV_PAREN = re.compile(r"(?:\bKV|kv[\s-]?cache)[\s\w]{0,16}\(\s*$", _F)   # "KV cache quantization (FP8)"
_KV_BEFORE = re.compile(r"(?:\bKV|kv[\s_-]?cache|KV\s*快取)[\s_-]*(?:(?:should|can|could|will|would|to)\s+)?(?:be\s+|run\s+|quantization\s*\(?\s*|快取\s*)?"
                        r"(?:in|at|as|to|dtype|(?:quant(?:ization|ized|ize)?|stored?|kept|keep|cast|set|saved?)(?:\s+(?:to|in|with|at|as))?"
                        r"|(?:想|要|會|可以|打算|能|能不能|可不可以)?(?:用|量化(?:成|到|為)?|設成|改成|存成|存為|轉成|跑)|[:=])?\s*[:=]?\s*$", _F)
# "the KV cache dropped from q8_0 to q4_0": a change said of the cache names its dtypes, old and new
_KV_CHANGE = re.compile(r"(?:\bKV\b|kv[\s_-]?cache|KV\s*快取)\s*(?:[A-Za-z]+\s+){0,2}?(?:dropped|drops|went|goes|moved|switched|changed|reduced|lowered|cut|quantized|set)"
                        r"\s+(?:down\s+)?(?:from\s+)?(?:[\w.-]+\s+to\s+)?$", _F)


_NOT_A_MODEL = re.compile(r"llama[\s._-]?(?:cpp|server|bench|swap)\b|mistral[\s._-]?rs\b", _F)   # the engine, not the model family
_NAME_END = re.compile(r"\.\s|\s-\s|[,;，；。、]|\s+(?=\d+(?:\.\d+)?\s*(?:[kKmM]\b|users|people|requests|concurrent|人|個))", _F)
_CJK_LEAD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\s：:，,]+")
_SENTENCE_END = re.compile(r"\.\s|[;；。]|\s[-–—]\s")   # a name never runs past a sentence or a spaced dash
_WORD_BEFORE = re.compile(r"([A-Za-z][\w.]*)[\s-]+$")
_TOKEN_AFTER = re.compile(r"-[\w.]*\w")
_FAMILY = re.compile(lexicon.MODEL_NAME, re.I)


@dataclass(frozen=True)
class _Name:
    id: str | None
    start: int
    end: int


def _resolves(text: str, start: int, end: int) -> str | None:
    return _resolve_words(text[start:end])


@functools.lru_cache(maxsize=512)
def _resolve_words(words: str) -> str | None:
    """catalog.resolve_model, cached: the same words are tried for several candidate spans."""
    from rules import catalog
    return catalog.resolve_model(words)


@functools.cache
def _catalog_words() -> frozenset[str]:
    """Every word of every catalog model's id, name, aliases and HF id, lowercased."""
    from rules import catalog
    words: set[str] = set()
    for ident, m in catalog.all_models().items():
        for name in (ident, m.name, *m.aliases, m.hf_id or ""):
            words.update(w for w in re.split(r"[^a-z0-9.]+", name.lower()) if w)
    return frozenset(words)


def _names_word(ident: str, word: str) -> bool:
    """True when the catalog's names for `ident` contain `word` ("Code" is in "Code Llama 34B"; "deploy"
    is in no model's name), so widening never takes a verb for part of a name."""
    from rules import catalog
    m = catalog.model(ident)
    known = re.sub(r"[\s_-]+", "", " ".join([ident, m.name, *m.aliases, m.hf_id or ""])).lower()
    return re.sub(r"[\s_-]+", "", word).lower() in known


def _settle(text: str, start: int, end: int, ident: str | None, trusted: bool) -> _Name | None:
    """A found name read again by the catalog: cut where the name ends (not past ". 1000 users"),
    then widened by a word on the left or a token on the right when the wider words name another
    model ("Code Llama 34B", "Qwen2.5-7B-Instruct-1M"). None when nothing there names a model.
    `trusted`: the id came from the catalog's own resolver for exactly this span."""
    lead = _CJK_LEAD.match(text, start, end)
    if lead and lead.end() < end and _resolves(text, lead.end(), end):   # "模型是phi3", "跑Code-Llama-13B": the words before are not the name
        start, trusted = lead.end(), False
    whole = ident if trusted else (_resolves(text, start, end) or ident)
    cut = _NAME_END.search(text, start + 1, end)
    if cut and (shorter := _resolves(text, start, cut.start())) and (shorter == whole or _SENTENCE_END.match(cut.group(0))):
        end, whole = cut.start(), shorter   # the same model named by fewer words; a name never runs past a sentence
    ident = whole
    words = _catalog_words()
    before = _WORD_BEFORE.search(text, max(0, start - 16), start)
    after = _TOKEN_AFTER.match(text, end)
    for span, word in (((before.start(1), end), before.group(1)) if before else (None, ""),
                       ((start, after.end()), after.group(0)) if after else (None, "")):
        if not span or not all(w in words for w in re.split(r"[^a-z0-9.]+", word.lower()) if w):
            continue
        wider = _resolves(text, *span)
        if wider and wider != ident and _names_word(wider, word):
            (start, end), ident = span, wider
    tail = _GLUED_TAIL.match(text, end)
    spaced = _SPACED_SIZE.match(text, end)
    if ident and spaced and _size_disagrees(ident, spaced):
        # "Qwen 3.6 27B": the family is known but not at the size written after it, so the size stays a size
        return _Name(None, start, end)
    if ident and _CLASS.match(text, tail.end() if tail and _TAIL_SIZE.search(tail.group(0)) else end):
        # "a Llama-70B-class model": a size class, not that model
        return _Name(None, start, end)
    tier = _TIER_AFTER.match(text, end)
    if ident and tier and model_resolve.tier_mismatch(ident, tier.group(1)):
        # "Mistral Large", "Qwen2.5 Max": a tier the entry is not; the name stays unplaced, never the family's 7B
        return _Name(None, start, tier.end())
    if ident and _size_disagrees(ident, tail):
        # "deepseekr1-qwen2.5-32b": the name goes on with a size the model does not have, so the whole
        # glued name is another model (kept as a span without an id, so no model inside it is read)
        return _Name(None, start, tail.end())
    return _Name(ident, start, end) if ident else None


_TIER_AFTER = re.compile(r"[\s\-_]*([A-Za-z]+)\b")
_SPACED_SIZE = re.compile(r"\s+\d+(?:\.\d+)?\s?[bB](?![A-Za-z0-9])")
_CLASS = re.compile(r"[\s-]*(?:class|sized?|級|等級)\b", re.I)
_GLUED_TAIL = re.compile(r"(?:[-_](?:[A-Za-z0-9]+\.)*[A-Za-z0-9]+)+")
_TAIL_SIZE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)b(?![A-Za-z0-9])", re.I)


def _size_disagrees(ident: str, tail: re.Match | None) -> bool:
    """A size glued to the end of a name ("-32b") that is not the model's total size."""
    size = _TAIL_SIZE.search(tail.group(0)) if tail else None
    if not size:
        return False
    from rules import catalog
    m = catalog.model(ident)
    n = float(size.group(1))
    return bool(m.params_b) and abs(m.params_b - n) > 0.15 * max(m.params_b, n)   # an active size is written "A3B"


def model_names(text: str) -> list[_Name]:
    """Every catalog model named in `text` (cached: the readers all look at the same message)."""
    return list(_model_names(text))


@functools.lru_cache(maxsize=64)
def _model_names(text: str) -> tuple[_Name, ...]:
    """Every catalog model named in `text`, left to right: the catalog's resolver, plus the names its
    tokenizer misses that the alias index finds (a name glued to Chinese, "要上Qwen3-32B"); where two
    overlap, the longer name wins. Each name is settled against the catalog (see `_settle`)."""
    from agent.extract_aliases import model_index
    spans = [(h.start, h.end, h.id, True) for h in model_resolve.find(text) if h.id]
    for extra in ([(h.start, h.end, h.id, False) for h in model_index().find(text)],
                  [(m.start(), m.end(), None, False) for m in _FAMILY.finditer(text)]):   # names the resolver missed
        spans += [x for x in extra if not any(x[0] < b and a < x[1] for a, b, *_ in spans)]
    found = [n for a, b, ident, trusted in spans if not _NOT_A_MODEL.match(text, a)
             for n in [_settle(text, a, b, ident, trusted)] if n]
    found.sort(key=lambda h: (-(h.end - h.start), h.start))
    out: list[_Name] = []
    for h in found:
        if not any(h.start < o.end and o.start < h.end for o in out):
            out.append(h)
    return tuple(sorted((h for h in out if h.id), key=lambda h: h.start))


def _models(text: str) -> tuple[list[Finding], list[tuple[int, int]]]:
    """The first catalog model named (not negated) and the spans of every model name."""
    hits = model_names(text)
    spans = [(h.start, h.end) for h in hits]
    live = [h for h in hits if not negated_adjacent(text, h.start)]
    live = [h for h in live if not FORMER.search(text, max(0, h.start - 40), h.start)] or live   # "moving from Llama 2 70B to Qwen3 32B"
    return ([Finding("model", live[0].id, live[0].start, live[0].end)] if live else []), spans


def _size(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """params_b / active_params_b / architecture of a model given by its size."""
    out: list[Finding] = []
    for m in _SIZE.finditer(text):
        if overlaps(m.span(), taken):
            continue
        out.append(Finding("params_b", float(m.group("p")), m.start("p"), m.end() if not m.group("a") else m.start("a") - 1))
        if m.group("a"):
            out.append(Finding("active_params_b", float(m.group("a")), m.start("a") - 1, m.end()))
            out.append(Finding("architecture", "moe", m.start("a") - 1, m.end()))
        break
    if out and not any(f.field == "active_params_b" for f in out):
        act = _ACTIVE.search(text)
        if act and not overlaps(act.span(), taken):
            g = next(k for k in ("a", "b", "c") if act.group(k))
            out.append(Finding("active_params_b", float(act.group(g)), act.start(), act.end()))
    if not any(f.field == "architecture" for f in out):
        for value, rx in _ARCH:
            m = rx.search(text)
            if m and not negated(text, m.start()):
                out.append(Finding("architecture", value, m.start(), m.end()))
                break
    return out


def _quarter(text: str, m: re.Match, names: list[tuple[int, int]]) -> bool:
    """A bare "Q4" that names a quarter of the year ("in Q4", "Q4 2025"), not a GGUF quant.

    "in Q4" right after a model name or a verb of running weights ("serving Qwen3 8B in Q4", "run it
    in Q4") is the format; a year after it is always the quarter."""
    if _QUARTER_AFTER.match(text[m.end():]) or _QUARTER_EVENT.match(text, m.end()):   # (a "^" pattern never matches at a later pos)
        return True
    before = _QUARTER.search(text[max(0, m.start() - 12):m.start()])
    if not before:
        return False
    lead = m.start() - 12 + before.start() if m.start() >= 12 else before.start()
    head = text[:lead].rstrip()
    if any(e == len(head) for _, e in names) or _RUN_WEIGHTS.search(head):
        return False
    # "by/until/next Q4" are time words themselves; "in/of Q4" is a quarter only beside an event or a plan
    if not re.match(r"\s*(?:in|of)\b", before.group(0), re.I):
        return True
    return bool(_WHEN.search(clause_before(text, m.start(), 48)) or _WHEN.match(clause_after(text, m.end(), 24)))


# A format named as what hardware can do ("H100 supports FP8", "INT8 tensor cores", "BF16 TFLOPS") or as
# what was used before ("we tried 4-bit before", "our old setup used FP16") is not the format chosen now.
_CAPABILITY_AFTER = re.compile(r"\s*(?:tensor\s+cores?|cores?\b|kernels?\b|(?:code\s+)?path\b|T?FLOPS|throughput\s+is|support(?:ed)?\b|capab|instructions?|units?\b"
                               r"|(?:is|are)\s+(?:supported|available|native)|needs?\s+(?:Ada|Hopper|Blackwell|a\s+newer)|算力|支援"
                               # a rating ("INT8 有 47 TOPS") or a sizing sum ("FP16 光權重就要 144GB", "at FP16 the weights
                               # alone need 140 GB"): what the format would take, not the one served
                               r"|(?:有|達|高達|約)?\s*\d+(?:\.\d+)?\s*T(?:OPS|FLOPS)\b"
                               r"|(?:的)?\s*(?:光|單是|单是|the\s+)?\s*(?:權重|weights?)\s*(?:alone\s+)?(?:就|也|would|will)?\s*(?:要|需要|需|佔|占|takes?|needs?|be|is|are)\s*"
                               r"(?:約|大約|about|around|~|roughly)?\s*\d)", _F)
_CAPABILITY_BEFORE = re.compile(r"(?:\b(?:supports?|has|have|lacks?|can(?:not|'t)?\s+(?:do|run)|adds?|does)\s+(?:native\s+)?|(?:支援|不支援)\s*)$", _F)
_EARLIER = re.compile(r"\b(?:before|previously|used\s+to|last\s+(?:year|time|month)|old\s+(?:setup|cluster|server|box)|earlier|tried)\b"
                      r"|以前|之前|舊的?|原本|去年|試過", _F)


# ... or put off to later ("we could try AWQ later", "之後可能改 FP8").
# ... or the foil of a comparison or a switch ("FP8 keeps accuracy better than int8", "用 FP8 而不是 BF16",
# "we skip FP8", "以 BF16 取代 FP8"; the setup left behind, "moving from FP8 to BF16", is agent.extract_base.FORMER).
_FOIL = re.compile(r"(?:\b(?:than|over|instead\s+of|versus|vs\.?|beats?|outperforms?|skip(?:s|ping)?|avoid(?:s|ing)?|drop(?:s|ping)?|ditch(?:es|ing)?"
                   r"|anything\s+but|except(?:\s+for)?|other\s+than|(?:mov|switch|get|go)\w*\s+(?:off|away\s+from))\s+(?:the\s+|an?\s+|plain\s+)?"
                   r"|(?:而不是|而非|不是|取代|捨棄|放棄|淘汰|比起|(?<!對)比|與其(?:用|跑)?)\s*)$", _F)
_LATER = re.compile(r"\b(?:later(?!\s+(?:than|version|release))|eventually|down\s+the\s+road|next\s+(?:quarter|year))\b"
                    r"|(?:之後|以後|未來|將來)\s*(?:可能|也許|再|或許)", _F)
# A format that is the subject of an evaluative question is what the user asks about, not what they run:
# "is FP8 worth it?", "does INT4 hurt quality?", "what about 4-bit?", "FP8 值得嗎？", "INT4 準確度夠嗎？".
# A format given as the condition of a question stays ("will it fit at 4-bit?", "can we run it with FP8?").
_ASKED_SUBJECT = re.compile(r"(?:^\s*|\b(?:is|are|does|do|would|will|could|can|how\s+(?:good|accurate|fast|bad)\s+is)\s+(?:an?\s+|the\s+)?)"
                            r"(?:(?:quanti[sz]\w*|going|switching|moving|dropping)\s+(?:down\s+)?to\s+|(?:量化(?:到|成)?|改用|換成|用)\s*)?\s*$", _F)
# "which 4-bit format is best?", "哪種 4-bit 格式", "do we need 16-bit?": a kind of format asked for
_ASKED_WHICH = re.compile(r"(?:\b(?:which|what)\s+(?:kind\s+of\s+|type\s+of\s+)?|哪(?:種|個|一種|一個)\s*"
                          r"|\b(?:do|does|would|will)\s+(?:we|I|you)\s+(?:really\s+)?(?:need|want|have\s+to\s+use)\s+)$", _F)
_ASKED_ABOUT = re.compile(r"\b(?:what|how)\s+about\s+(?:an?\s+|the\s+)?$", _F)
# "Is that running in FP16?", "改跑 int8 會不會快一點？": what it runs as, or the effect of a switch, asked about
_ASKED_RUNNING = re.compile(r"\b(?:is|are)\s+(?:it|that|this|they|these)\s+(?:(?:really|actually)\s+)?(?:running|using|loaded|served|stored)\s+(?:in|as|with|at)\s+$", _F)
_ASKED_SWITCH = re.compile(r"(?:改跑|改用|換成|改成|換用|轉成)\s*$")
_ASKED_EFFECT = re.compile(r"[^，。,；;？?]{0,12}?(?:會不會|能不能|是不是|有沒有)")
_ASKED_VERDICT = re.compile(
    r"^[\s-]*(?:(?:quanti[sz]\w*|weights?|checkpoints?|version|models?|precision|quants?|量化|權重|版本?|精度)\s*)?"
    r"(?:really\s+|actually\s+|still\s+|even\s+)?(?:(?:be|make\s+(?:it|things)|get\s+us)\s+(?:any\s+|much\s+|a\s+lot\s+)?)?"
    r"(?:worth|help|hurt|harm|accurate|good\s+enough|enough|stable|faster|slower|better|worse|los[et]|degrade|ok(?:ay)?\b|fine|safe|reliable|fit\b"
    r"|acceptable|quality|noticeabl|relevant|needed|required|necessary|ready|mature|viable|recommended|save|cut|reduce|beat|outperform|a\s+good\s+idea"
    r"|會|值得|值不值得|準確|精度|品質|效果|夠|可以嗎|可行嗎|行嗎|好嗎|好不好|有用|划算|划不划算|有差|掉|能?省|省|適合|有必要|有需要|需要嗎)", _F)
# A decision still open about the format: "should we quantize to FP8?", "is it worth going to AWQ?", "do you
# recommend AWQ?", "要不要量化成 FP8", "是否要改用 AWQ", "有建議用 AWQ 嗎". A few plain words may sit between
# the cue and the format; a model or device name (digits, hyphens) may not.
_DELIBERATE = re.compile(
    r"(?:\b(?:sh(?:ou|uo|o)u?ld|shoud|shall|ought\s+to|would\s+you|do\s+you|worth|recommend\w*|suggest\w*|advis\w*|any\s+point\s+in|consider(?:ing)?"
    r"|whether\s+(?:to|we\s+should)|lose|lost|sacrific\w*)\b(?:\s+[A-Za-z']+){0,4}?\s+(?:[\w.]+\s+or\s+(?:\w+\s+)?)?"
    r"|(?:要不要|該不該|需不需要|是否(?:要|該|需要|應該)?|值不值得|值得|建議|推薦|適合|有必要)\s*[\u4e00-\u9fff]{0,4}\s*)$", _F)
# Cues that ask by their word order, with or without a question mark ("shoud we quantize to FP8", "is it worth
# going to AWQ"): "we should quantize" states a decision, "should we quantize" asks for one.
_OPEN_CHOICE = re.compile(r"要不要|該不該|需不需要|值不值得|是否|\b(?:sh(?:ou|uo|o)u?ld|shoud)\s+(?:we|i)\b|\bis\s+it\s+worth\b"
                          r"|\bworth\s+(?:it|going|switching|moving)|\bwould\s+you\b|\bdo\s+you\s+recommend\b|\bany\s+point\s+in\b", _F)
_ENGINE_TAKES = re.compile(r"(?:\b(?:support|load|handle|accept|read|work\s+with)\s+(?:the\s+|an?\s+)?(?:GGUF\s+)?"
                           r"|(?:能|可以|能不能|可不可以)\s*(?:跑|載入|讀|吃)\s*)$", _F)   # "does vLLM support ...?"
_QUESTION_END = re.compile(r"[^.!?。！？]*(?:[?？]|嗎)")   # used with .match(text, pos)


def _asked_about(text: str, m: re.Match) -> bool:
    """The format is the subject of a question about its merits, or the object of a decision still open."""
    head = clause_before(text, m.start(), 40)
    question = _QUESTION_END.match(text, m.end())
    if (question or _OPEN_CHOICE.search(head)) and _DELIBERATE.search(head):
        return True
    if not question:
        return False
    if _ASKED_ABOUT.search(head) and re.match(r"\s*[?？]", text[m.end():]) or _ENGINE_TAKES.search(head) \
            or _ASKED_WHICH.search(head) or _ASKED_RUNNING.search(head) \
            or (_ASKED_SWITCH.search(head) and _ASKED_EFFECT.match(text, m.end())):
        return True
    return bool(_ASKED_SUBJECT.search(head) and _ASKED_VERDICT.match(clause_after(text, m.end(), 40)))


def _not_the_weights(text: str, m: re.Match) -> bool:
    """The format is a hardware capability, an earlier setup's, one put off to later or one asked about,
    not the one to serve with."""
    if _CAPABILITY_AFTER.match(text, m.end()) or _CAPABILITY_BEFORE.search(text, max(0, m.start() - 24), m.start()):
        return True
    if _asked_about(text, m):
        return True
    before, after = clause_before(text, m.start(), 40), clause_after(text, m.end(), 30)
    if _FOIL.search(text, max(0, m.start() - 16), m.start()) or FORMER.search(text, max(0, m.start() - 40), m.start()):
        return True
    return bool(_EARLIER.search(before) or _EARLIER.search(after) or _LATER.search(before) or _LATER.search(after))


def _exl(m: re.Match) -> str:
    return _exl_id(m.group("fmt") or m.group("fmt2"), m.group("bpw") or m.group("bpw2"))


def _exl_id(name: str, bpw_text: str) -> str:
    """"EXL2"/"exllamav2" and "4.65" -> "exl2-4.65"; whole numbers keep one decimal ("exl2-4.0")."""
    bpw = parse_number(bpw_text)
    return f"exl{name[-1]}-{bpw:g}" if bpw % 1 else f"exl{name[-1]}-{bpw:.1f}"


def _is_kv(text: str, m: re.Match) -> bool:
    """A dtype said of the KV cache ("FP8 KV cache", "KV cache in q8_0")."""
    head = clause_before(text, m.start(), 40)
    if text[max(0, m.start() - 1):m.start()] == "-" and re.match(r"-KV\b", text[m.end():m.end() + 4], re.I):
        return False   # "Llama-3.3-70B-Instruct-FP8-KV": a checkpoint with FP8 weights (and an FP8 KV cache)
    return bool(_KV_AFTER.match(clause_after(text, m.end(), 14)) or _KV_BEFORE.search(head) or _KV_CHANGE.search(head)
                or _KV_PAREN.search(text, max(0, m.start() - 32), m.start()))


_GGUF = re.compile(r"(?<![A-Za-z0-9])GGUF(?![A-Za-z0-9])", _F)
_GGUF_OF_WIDTH = {"int4": "q4_k_m", "int8": "q8_0"}


def _gguf_width(text: str, f: Finding) -> Finding:
    """A bit width said of a GGUF file ("8-bit GGUF", "GGUF 4-bit") is llama.cpp's quant of that width."""
    if f.value in _GGUF_OF_WIDTH and (_GGUF.search(clause_before(text, f.start, 16)) or _GGUF.search(clause_after(text, f.end, 16))):
        return Finding(f.field, _GGUF_OF_WIDTH[f.value], f.start, f.end)
    return f


def _token(text: str, m: re.Match | Finding) -> tuple[int, int]:
    """The underscore-joined token a format match sits in ("fp8_e4m3", "awq_int4")."""
    a, b = (m.start(), m.end()) if isinstance(m, re.Match) else (m.start, m.end)
    while a > 0 and (text[a - 1].isascii() and (text[a - 1].isalnum() or text[a - 1] == "_")):
        a -= 1
    while b < len(text) and (text[b].isascii() and (text[b].isalnum() or text[b] == "_")):
        b += 1
    return a, b


def _native(model: str | None, sixteen: bool) -> str:
    """The format `model` ships in (its 16-bit dtype for "16-bit"); BF16 for a model the catalog lacks."""
    from rules import catalog
    native = catalog.all_models()[model].native_dtype if model in catalog.all_models() else "bf16"
    return native if not sixteen or native in ("bf16", "f16") else "bf16"


def _as_released(text: str, model: str | None) -> list[tuple[int, Finding]]:
    """The weights named as released ("native precision", "16-bit", "原生精度"), ranked after every explicit format."""
    out = []
    for rx, sixteen in ((_NATIVE, False), (_SIXTEEN, True)):
        for m in rx.finditer(text):
            if not (sixteen and negated(text, m.start())) and not _not_the_weights(text, m) and not _is_kv(text, m):
                out.append((len(_QUANT) + 2, Finding("quantization", _native(model, sixteen), m.start(), m.end())))
    return out


def _quant(text: str, taken: list[tuple[int, int]], model: str | None = None) -> list[Finding]:
    """quantization (most specific format mentioned) and kv_cache_dtype."""
    weights: list[tuple[int, Finding]] = []
    kv: list[Finding] = []
    # A format inside a model name is still the format ("...-Instruct-FP8"); formats offered as
    # alternatives ("AWQ vs GPTQ?") are not chosen.
    alternatives = [m.span() for m in _ALTERNATIVES.finditer(text)]
    for m in _EXL.finditer(text):
        if overlaps(m.span(), alternatives):
            continue
        weights.append((0, Finding("quantization", _exl(m), m.start(), m.end())))
    named = _EXL_NAME.search(text)
    if named and not weights:
        for m in _EXL_BARE.finditer(text):
            if not overlaps(m.span(), alternatives) and not _not_the_weights(text, m):
                weights.append((0, Finding("quantization", _exl_id(named.group("fmt"), m.group("bpw")), m.start(), m.end())))
    for rank, (value, rx) in enumerate(_QUANT, start=1):
        for m in rx.finditer(text):
            if overlaps(m.span(), alternatives) or (_BARE_GGUF.match(m.group(0)) and _quarter(text, m, taken)):
                continue
            if value != "bf16" and (negated(text, m.start()) or _REJECTED.match(text, m.end())) or _not_the_weights(text, m):
                continue
            finding = Finding("quantization", value, m.start(), m.end())
            if _is_kv(text, m) or overlaps(_token(text, m), [_token(text, k) for k in kv]):   # "fp8_e4m3": one token
                kv.append(Finding("kv_cache_dtype", value, m.start(), m.end()))
            else:   # "FP16 全精度": the explicit format, not the general words beside it
                weights.append((len(_QUANT) + 1 if _GENERIC_FULL.fullmatch(m.group(0)) else rank, finding))
    weights += _as_released(text, model)
    out = [_gguf_width(text, min(weights, key=lambda w: (w[0], w[1].start))[1])] if weights else []
    return out + kv[:1]


def find(text: str, devices: list[tuple[int, int]] = ()) -> list[Finding]:
    """All model findings in `text` (already normalised to half-width); a size inside one of the
    `devices` name spans ("昇騰 910B") is not a model's size."""
    named, spans = _models(text)
    out = list(named)
    if not named:
        out += _size(text, spans + list(devices))
    out += _quant(text, spans, named[0].value if named else None)
    return out
