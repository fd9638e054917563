"""Workload numbers bound to their fields: lengths, users, concurrency, LoRA adapters, device price.

Every number comes from the one reader (agent.extract_quantity). A quantity is bound by its unit
first ("80K-context", "12 people at once", "50 個併發", "30 LoRAs", "2.5 美金" with an hour), else by
the nearest field keyword in its clause ("context 常常 100K 以上", "team of 20", "併發 150",
"4k prompts"), else it stays unplaced. A count that applies per item ("30 家客戶各訓練了一個 LoRA",
"each of our 12 customers has its own adapter") counts the adapters, not the users.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from agent import lexicon
from agent.extract_base import Finding, negated, negated_adjacent, overlaps
from agent.extract_numbers import COUNT
from agent.extract_quantity import Quantity, k_length, quantities

_F = re.I | re.ASCII
# Engine settings that set the window: max-model-len (vLLM), model-max-len, max_seq_len (TensorRT-LLM,
# GPUStack), session-len (LMDeploy), max-context-length, n_ctx / ctx-size (llama.cpp).
# TGI's max-total-tokens (not its per-batch budget, max-batch-total-tokens) and llama.cpp's short -c flag too.
CTX = (r"(?:(?<!batch[-_\s])max[-_\s]?total[-_\s]?tokens|(?<![\w-])-c(?=\s+(?:\d|$))|max[-_\s]?(?:model|seq|sequence|context)[-_\s]?len(?:gth)?|model[-_\s]?max[-_\s]?len(?:gth)?|session[-_\s]?len(?:gth)?"
       r"|n_ctx|ctx[-_]size|context(?:[\s-]+(?:window|length|size|len))?|ctx"
       r"|上下文(?:長度|窗口|窗格)?|context\s*長度)")
# What a prompt carries is its input: retrieved documents, code context, tool output, chat history
# ("30K tokens of retrieved documents", "帶 6K 左右的檢索內容", "16-32K tokens of code context"). The
# content words come first so "code context" and "tool output" are not read as context or output.
_CARRIED = (r"(?:code|retrieved|RAG|document|repo(?:sitory)?)\s+context|tool\s+(?:outputs?|results?|responses?)"
            r"|(?:程式碼|代碼|檢索|文件)\s*上下文|chunks|passages|snippets|(?:chat|conversation)\s+history"
            r"|檢索(?:內容|結果|資料|片段|文本)?|文檔|參考資料|歷史(?:紀錄|記錄|訊息|對話)?|對話紀錄|程式碼(?:內容)?|代碼")
IN = (rf"(?:{_CARRIED}|prompts?|inputs?|input\s+(?:length|size)|prompt\s+(?:length|size)|documents?|docs|輸入(?:長度)?"
      r"|prompt\s*長度|提示詞?|文件|ISL\b)")
OUT = (r"(?:outputs?|answers?|responses?|replies|completions?|generations?|summaries|輸出(?:長度)?|回答|回覆|生成|OSL\b"
       r"|max[-_\s]?tokens|摘要|回應)")
_KEYWORDS = {
    "context_length": CTX, "input_tokens": IN, "output_tokens": OUT,
    "concurrency": (r"(?:peak\s+)?concurrency|peak(?:\s+load)?(?!\s*(?:throughput|bandwidth|memory|power|T?FLOPS|performance|speed|tok))|尖峰|高峰(?:期|時段)?|concurrent\s+(?:users|requests|sessions|streams|connections)|parallel\s+requests"
                    r"|users\s*\(\s*concurrent\s*\)|(?:max(?:imum)?\s+)?batch\s+size|max(?:imum)?\s+batch|batch\s+of|max[-_\s]?num[-_\s]?seqs|CCU"
                    r"|(?:併發|並發)(?:數|用戶數?|使用者|人數|請求數?|連線數?|量)?|在線(?:人數|用戶數?|使用者)|online\s+users"
                    r"|同時(?:在線|上線|使用|連線|處理|請求)?(?:人數|用戶數?|使用者)?"),
    "users": (r"users?|user\s+(?:count|base)|使用者(?:人數)?|用戶數?|(?:team|class|group|staff|company)\s+of|headcount"
              r"|全公司|全部門|公司(?:大約|約)?|員工數?|人數"),
    "lora_adapters": r"LoRAs?\s*(?:adapters?)?\s*(?:數量|count)?|adapters?",
}
_KW = re.compile("|".join(f"(?P<{f}>{src})" for f, src in _KEYWORDS.items()), _F)
# A bare number directly before one of these names it ("4k prompts", "1K input", "32k ctx").
# "3K in / 400 out", "1.5K tokens in, 300 out": in/out count as lengths only where a clause ends after
# them ("8 GPUs in a node" has a unit; "20 in parallel" does not end there).
_IO_IN = r"in(?=\s*(?:[/,，、;|)]|and\b|$))"
_IO_OUT = r"out(?![A-Za-z])(?!\s+of\b)"
# A bare number before what names it ("4k prompts", "6K 左右的檢索內容"); the input's carried content
# comes first so "code context" stays an input.
_BARE_AFTER = {"input_tokens": rf"{_CARRIED}|input|prompt|輸入|{_IO_IN}", "context_length": r"context|ctx|上下文",
               "output_tokens": rf"output|輸出|{_IO_OUT}"}
_NEXT_NUMBER = re.compile(r"\s*(?:tokens?)?\s*(?:[:：=]|is|約|大約|大概|about|~)?\s*\d", _F)
# Tokens per month or per day are a volume, never the length of one request ("500M tokens in, 50M out per month").
_PER_PERIOD = re.compile(r"(?:\bper|\ba|\bevery|/|each)\s*(?:month|day|week|year|hour|minute|mo)\b|\b(?:daily|monthly|weekly|yearly|annually)\b"
                         r"|每\s*(?:天|日|月|週|周|年|小時)|一\s*(?:天|個月|年)", _F)
_AFTER_QUAL = r"(?:\s*(?:左右|上下|以上|多|or\s+so|ish))?"
_AFTER_RES = {f: re.compile(rf"(?:-|\s*){_AFTER_QUAL}(?:\s*tokens?\s*)?(?:of\s+)?(?:的\s*)?(?:{src})s?(?![A-Za-z])", _F)
              for f, src in _BARE_AFTER.items()}
# After "N tokens": up to two modifiers may stand before what the tokens are ("of retrieved documents").
_MODS = r"(?:(?!(?:and|or|per|for|to|with|from|on|in)\b)[A-Za-z][\w-]*\s+){0,2}?"
_LENGTH_AFTER = re.compile(rf"\s*(?:(?:of\s+{_MODS}|(?:max(?:imum)?|total|full)\s+)?(?:的\s*)?(?:(?P<input_tokens>{IN})|(?P<context_length>{CTX}|ceiling|window|limit)|(?P<output_tokens>{OUT}))"
                           rf"|(?P<io_in>{_IO_IN})|(?P<io_out>{_IO_OUT}))", _F)
_CONC_BEFORE = re.compile(r"(?:同時(?:在線|上線|使用)?|同一(?:時間|時刻)|一次(?:送|發|來|處理)?|並行|併行|併發|並發|concurrent(?:ly)?|simultaneous(?:ly)?"
                          r"|parallel|in\s+parallel|尖峰|峰值|高峰(?:期|時段)?|peak(?:\s+load)?(?:\s+of)?|batch\s+(?:of|size(?:\s+of)?))"
                          r"[^,;，；。]{0,8}$", _F)
_CONC_AFTER = re.compile(r"[^,;，；。/(（\d]{0,24}?(?:at\s+once|at\s+(?:the\s+same|a)\s+time|concurrent(?:ly)?|simultaneous(?:ly)?|in\s+parallel|batched\s+together"
                         r"|in[\s-]flight|at\s+any\s+(?:one\s+|given\s+)?(?:moment|time)|at\s+(?:the\s+)?peak|in\s+(?:a|one|each)\s+batch|per\s+batch"
                         r"|同時|在線|在用|online)", _F)
_CONC_NEXT = re.compile(r"\s*(?:of\s+(?:them|those|these|us)\s+|(?:prompts|queries|questions|jobs|requests)\s+)?(?:at\s+once|at\s+the\s+same\s+time|at\s+a\s+time|concurrently|simultaneously"
                        r"|in\s+parallel|at\s+(?:the\s+)?peak)", _F)
# "how many LoRA adapters one TGI instance can hold": a number before the noun it counts is that noun's count,
# not a value for the keyword before it
_OWN_NOUN = re.compile(r"\s+(?:(?-i:[A-Z])[\w.-]*\s+)?(?:instances?|servers?|nodes?|GPUs?|cards?|machines?|engines?|models?|replicas?|processes)\b"
                       # "10 個領域專家模型", "3 套系統": a number of things the phrase names, not people
                       r"|\s*(?:個|款|套|種|组|組)\s*[\u4e00-\u9fff]{0,6}?(?:模型|服務|實例|容器|專案|項目|應用|系統)", _F)
_RUNNING = re.compile(r"\s+(?:running|active|outstanding)\b(?!\s+(?:through|on|in|per|a\b))", _F)
_EXPLICIT = re.compile(r"併發|並發|並行|併行|concurren|simultaneous|parallel|at\s+once|same\s+time|in[\s-]flight|at\s+any\s+(?:one\s+|given\s+)?(?:moment|time)"
                       r"|同時(?!在線|上線)|同一(?:時間|時刻)|一次", _F)
_ONLINE = re.compile(r"在線|線上|online|logged\s+in", _F)
_HOURLY = re.compile(r"(?:/|\bper|\ban?|\bevery|每|一)\s*(?:GPU[-\s]?|device[-\s]?|card[-\s]?|張卡\s*|卡\s*|[A-Z]{1,4}\d{2,4}[A-Za-z]*[-\s])?"
                     r"(?:hour|hr|h)\b|hourly|小時|時租|/\s*h\b|per\s+GPU[-\s]hour|GPU[-\s]hours?", _F)
_CUT = re.compile(r"[;；。!?！？\n]|,(?!\d{3}(?!\d))|，|\.(?:\s|$)|\s-\s|\bbut\b|但是?|不過", _F)
# Per-item counts: a LoRA per customer, each customer its own adapter, 各…一個 LoRA.
_SENTENCE = re.compile(r"[。;；!?！？\n]|\.(?:\s|$)", _F)
_LORA_WORD = re.compile(r"LoRAs?|adapters?", _F)
_DISTRIBUTIVE = re.compile(r"各|每(?:個|家|位|一)?|\beach\b|\bevery\b|\bper\b|\bits\s+own\b|\btheir\s+own\b|自己的", _F)
_ITEM_WORD = re.compile(r"\s*(?:家|個|位)|\s+(?:customers|clients|tenants|companies|departments|teams)", _F)
LENGTHS = ("context_length", "input_tokens", "output_tokens")
_MIN = {"context_length": 256, "input_tokens": 256, "output_tokens": 16}


@dataclass(frozen=True)
class Bound:
    """A quantity bound to a field, with how it was bound."""

    field: str
    quantity: Quantity
    explicit: bool = True
    """For concurrency: said as concurrent, not as people online."""


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around [start, end): cut at sentence and clause marks (not inside a number)."""
    left = max((m.end() for m in _CUT.finditer(text, max(0, start - 60), start)), default=max(0, start - 60))
    right = next((m.start() for m in _CUT.finditer(text, end, min(len(text), end + 60))), min(len(text), end + 60))
    return left, right


def _keyword_before(text: str, q: Quantity, others: list[Quantity], fields: tuple[str, ...] | None = None,
                    sentence: bool = False) -> str | None:
    """The field whose keyword stands nearest before `q` in its clause (its sentence when `sentence`),
    with no other number in between."""
    if sentence:
        left = max((m.end() for m in _SENTENCE.finditer(text, max(0, q.start - 48), q.start)), default=max(0, q.start - 48))
    else:
        left = max(_clause(text, q.start, q.end)[0], q.start - 30)
    best = None
    for m in _KW.finditer(text, left, q.start):
        if fields is None or m.lastgroup in fields:
            best = m
    if best is None or any(best.end() <= o.start < q.start for o in others):
        return None
    return best.lastgroup


# "~1M prompts, ~1K input and ~300 output tokens each": a plural of items followed, in its sentence, by a
# per-item length ("each", "apiece", "per prompt", "每個", "每份") counts the items (a job size), not a length.
_ITEMS_WORD = re.compile(r"\s*(?:prompts|documents|docs|requests|queries|files|articles|samples|records)\b", _F)
_PER_ITEM = re.compile(r"\beach\b|\bapiece\b|\bper\s+(?:prompt|document|doc|request|query|file|item|sample|record)\b"
                       r"|每(?:個|份|篇|筆|條|則)|各", _F)


def _counts_items(text: str, q: Quantity, m: re.Match) -> bool:
    right = next((s.start() for s in _SENTENCE.finditer(text, m.end())), len(text))
    return bool(_ITEMS_WORD.search(m.group(0)) or re.search(r"(?:個|份|篇|筆)\s*(?:prompts?|文件|文檔|提示)", m.group(0))) \
        and bool(_PER_ITEM.search(text, m.end(), right)) and bool(_NEXT_NUMBER.search(text, m.end(), right))


# "平均每次對話約 4K tokens", "about 4K tokens per conversation": tokens of one request or conversation with no
# in/out label are the window that request fills.
_REQUEST_WORD = r"(?:對話|會話|請求|問答|request|conversation|chat|session|query|exchange)"
_PER_REQUEST_BEFORE = re.compile(rf"(?:每(?:次|個|一次|一個|則|輪)?\s*{_REQUEST_WORD}|\beach\s+{_REQUEST_WORD})[^,;，；。\d]{{0,16}}$", _F)
_PER_REQUEST_AFTER = re.compile(rf"\s*(?:(?:per|each|a|every)\s+{_REQUEST_WORD}|/\s*{_REQUEST_WORD})", _F)


def _per_request(text: str, q: Quantity) -> bool:
    return bool(_PER_REQUEST_BEFORE.search(text, max(0, q.start - 40), q.start) or _PER_REQUEST_AFTER.match(text, q.unit_end))


def _keyword_after(text: str, q: Quantity) -> str | None:
    """A length named right after a bare number ("4k prompts", "128 output"), unless that name labels the
    next number and this one has its own label before it ("輸入 2K 輸出 500"), or the number counts items
    whose own length follows ("1M prompts, ~1K input tokens each")."""
    for field, rx in _AFTER_RES.items():
        m = rx.match(text, q.end)
        if m:
            if field == "input_tokens" and _counts_items(text, q, m):
                return None
            if _NEXT_NUMBER.match(text, m.end()) and _keyword_before(text, q, [], LENGTHS):
                return None
            return field
    return None


def _length_after(text: str, q: Quantity) -> str | None:
    """The length a "N tokens" quantity names right after its unit ("300-token summaries")."""
    m = _LENGTH_AFTER.match(text, q.unit_end)
    if not m:
        return None
    return {"io_in": "input_tokens", "io_out": "output_tokens"}.get(m.lastgroup, m.lastgroup)


# "30 students, all at the same time", "100 人，全部同時上線": the clause after says all of them at once
_ALL_AT_ONCE = re.compile(r"\s*[,，]\s*(?:and\s+)?(?:all|every\s*one|everybody)(?:\s+of\s+them)?\s+(?:(?:online|active|working)\s+)?"
                          r"(?:at\s+once|at\s+the\s+same\s+time|simultaneously|concurrently)|\s*[,，]\s*(?:全部|都|大家(?:都)?)\s*同時", _F)


def _concurrent(text: str, q: Quantity) -> bool:
    left, right = _clause(text, q.start, q.end)
    return bool(_CONC_BEFORE.search(text, left, q.start) or _CONC_AFTER.match(text[:right], q.unit_end)
                or _ALL_AT_ONCE.match(text, right))


def _hourly(text: str, q: Quantity) -> bool:
    left, right = _clause(text, q.start, q.end)
    return bool(_HOURLY.search(text, max(left, q.start - 16), q.start) or _HOURLY.search(text[:min(right, q.unit_end + 24)], q.unit_end))


_BATCH_OF = re.compile(r"\bbatch\s+of\s*$", _F)


def _item(text: str, q: Quantity) -> bool:
    """A count of customers, tenants, companies or departments ("30 家客戶", "100 customers"), or of the
    requests of one batch ("a batch of 16 where every request brings its own adapter")."""
    return q.value > 1 and (q.unit == "org" or (q.unit is None and bool(_ITEM_WORD.match(text, q.end)
                                                                          or _BATCH_OF.search(text, max(0, q.start - 12), q.start))))


def per_item_lora(text: str, qs: list[Quantity]) -> dict[int, Quantity]:
    """Item counts that count LoRA adapters ("30 家客戶各訓練了一個 LoRA", "a LoRA per customer, 40
    customers"): the item count nearest a LoRA word in its sentence, when the LoRA's clause or the
    item's clause distributes it (各, each, per, its own). Keyed by the item count's start."""
    out: dict[int, Quantity] = {}
    for lm in _LORA_WORD.finditer(text):
        left = max((m.end() for m in _SENTENCE.finditer(text, 0, lm.start())), default=0)
        right = next((m.start() for m in _SENTENCE.finditer(text, lm.end())), len(text))
        items = [q for q in qs if left <= q.start < right and _item(text, q)]
        if not items:
            continue
        q = min(items, key=lambda q: abs(q.start - lm.start()))
        if any(_DISTRIBUTIVE.search(text, *_clause(text, a, b)) for a, b in ((lm.start(), lm.end()), (q.start, q.unit_end))):
            out[q.start] = q
    return out


_NOW_AND_THEN = re.compile(r"(?:\boccasionally|\bsometimes|\bat\s+times|\bnow\s+and\s+then|偶爾|有時(?:候)?)\s*"
                           r"(?:(?:up\s+to|get|have|send|run|see|with)\s+|(?:會\s*)?(?:有|來|送)\s*)?$", _F)


def _unit_field(text: str, q: Quantity, items: dict[int, Quantity]) -> tuple[str | None, bool]:
    """The field a quantity's own unit names (and, for concurrency, whether it was said outright)."""
    if q.start in items:
        return "lora_adapters", True
    unit = q.unit
    if unit == "context":
        return "context_length", True
    if unit == "tokens":
        return _length_after(text, q) or _keyword_before(text, q, [], LENGTHS, sentence=True) \
            or ("context_length" if _per_request(text, q) else None), True
    if unit == "org" and re.match(r"(?:'|’)s?(?![A-Za-z])", text[q.unit_end:]):
        return None, True   # "10 clients' chatbots": businesses owning what is served, not the people using it
    if unit in ("people", "org"):
        if _concurrent(text, q):
            left, _ = _clause(text, q.start, q.end)
            online = _ONLINE.search(text, left, q.unit_end + 8)
            return "concurrency", not online
        return "users", True
    if unit == "conc":
        return "concurrency", True
    if unit == "req":   # "~28 requests running", "40 requests in flight"
        left, _ = _clause(text, q.start, q.end)
        peak = _NOW_AND_THEN.search(text, left, q.start)   # "just me, occasionally 2 requests": the peak at once
        return ("concurrency", True) if _concurrent(text, q) or _RUNNING.match(text, q.unit_end) or peak else (None, True)
    if unit == "lora":
        distributive = _DISTRIBUTIVE.match(text, q.unit_end) or re.match(r"\s*(?:各|per|for\s+each)", text[q.unit_end:], _F)
        return (None, True) if (q.value <= 1 and (distributive or items)) else ("lora_adapters", True)
    if unit == "usd":
        return ("device_hour_usd" if _hourly(text, q) else None), True
    return None, True


def _volume(text: str, q: Quantity, qs: list[Quantity]) -> bool:
    """A token count said per period in its sentence, with no count of something else in between."""
    right = next((m.start() for m in _SENTENCE.finditer(text, q.unit_end)), len(text))
    left = max((m.end() for m in _SENTENCE.finditer(text, 0, q.start)), default=0)
    after = _PER_PERIOD.search(text, q.unit_end, right)
    # Only words of the same phrase between ("in, 50M out per month"), not a price's "每張卡每小時".
    if after and re.fullmatch(r"[\w\s,/.~-]{0,30}", text[q.unit_end:after.start()], _F) \
            and not any(q.end <= o.start < after.start() and o.unit not in (None, "tokens") for o in qs):
        return True
    before = [m for m in _PER_PERIOD.finditer(text, max(left, q.start - 10), q.start)
              if re.fullmatch(r"\s*(?:約|大約|大概|about|~|有)?\s*", text[m.end():q.start], _F)]
    # millions of tokens after a period named earlier in the sentence ("300M tokens/month (250M in, 50M
    # out)") split that volume: no one request is that long
    split = q.value >= 1e6 and _PER_PERIOD.search(text, left, q.start) is not None
    return bool(before) or split


def _fits(field: str, q: Quantity, by_unit: bool, text: str = "") -> bool:
    if field in LENGTHS:
        return q.value >= _MIN[field] or q.suffixed or (by_unit and q.unit in ("tokens", "context"))
    if field == "device_hour_usd":
        return 0 < q.value <= 10_000
    if field in ("concurrency", "users", "lora_adapters") and k_length(text, q):
        return False   # "2-4 concurrent requests 32K": the 32K is the context, not 32,000 requests
    return q.value >= 1 and float(q.value).is_integer()


_PAIR_SEP = re.compile(r"\s*/\s*")


def _in_out_pairs(text: str, qs: list[Quantity]) -> dict[int, str]:
    """"2K/400 tokens": a bare number, a slash, then a number of tokens that names nothing else is the
    input and output of one request. Keyed by each quantity's start."""
    out: dict[int, str] = {}
    for a, b in zip(qs, qs[1:]):
        sep = _PAIR_SEP.match(text, a.end)
        if a.kind == "quantity" and a.unit is None and b.unit == "tokens" and sep and sep.end() == b.start and sep.group(0).strip() \
                and _length_after(text, b) is None:
            out[a.start], out[b.start] = "input_tokens", "output_tokens"
    return out


# "一套系統", "兩台", "三款模型": a Chinese measure word after a number says what it counts (not people, not requests)
_MEASURE = re.compile(r"\s*(?:套|台|部|款|種|份|次|條|支|根|篇|筆|頁|本|層|輪|批|組|間|顆|張|片|塊|項|題|段|行|隻|句|版)")


# "8×A100", "8x H100": a number times a device is a device count (someone else's when it is not the user's)
_TIMES_DEVICE = re.compile(r"\s*[x×*]\s*[A-Za-z]*\d", _F)


_ORDINAL = re.compile(r"第\s*$")
_CHANGED_TO = re.compile(r"(?:改成|改為|改用|換成|調成|調到|調為|降到|降成|縮到|縮成|設成|設為|\b(?:changed|set|reduced|dropped|lowered|cut|switched)\s+(?:it\s+)?to"
                         r"|\b(?:down|back)\s+to)\s*(?:context\s+(?:of\s+)?|上下文\s*)?$", re.I)
_CONC_WORD_BEFORE = re.compile(r"(?:併發|並發|并发)\s*(?:數|数)?\s*[:：=]?\s*(?:約|大約|大概|最高|最多|到|達)?\s*$")


def bind(text: str, taken: list[tuple[int, int]]) -> list[Bound]:
    """Every quantity of `text` (outside `taken`) bound to a workload field, left to right."""
    free = [q for q in quantities(text) if q.kind in ("quantity", "denominator") and not overlaps((q.start, q.end), taken)]
    pairs = _in_out_pairs(text, free)   # "2K/400 tokens": the reader types "/400" as a denominator
    qs = [q for q in free if q.kind == "quantity" or q.start in pairs]
    items = per_item_lora(text, qs)
    out = []
    for q in qs:
        if _ORDINAL.search(text, max(0, q.start - 2), q.start):   # "第一個字出來" (the first token), "第 3 輪": a rank, not an amount
            continue
        if q.start in pairs:
            if _fits(pairs[q.start], q, True):
                out.append(Bound(pairs[q.start], q))
            continue
        field, explicit = _unit_field(text, q, items)
        if field == "lora_adapters" and _BATCH_OF.search(text, max(0, q.start - 12), q.start):
            out.append(Bound("concurrency", q))   # one adapter per request of a batch: the batch runs at once
        by_unit = field is not None
        measure = _MEASURE.match(text, q.end)
        if measure and measure.group(0).strip() == "條" and _CONC_WORD_BEFORE.search(text, max(0, q.start - 12), q.start):
            measure = None   # "併發 8 條": requests (條 counts streams of requests here)
        if field is None and q.unit is None and not measure and not _TIMES_DEVICE.match(text, q.end):
            field = ("concurrency" if _CONC_NEXT.match(text, q.end) else None) or _keyword_after(text, q) \
                or (None if _OWN_NOUN.match(text, q.end) else _keyword_before(text, q, qs))
            if field == "users" and _ALL_AT_ONCE.match(text, _clause(text, q.start, q.end)[1]):
                field = "concurrency"   # "team of 20, all at once"
            if field == "concurrency":
                left, _ = _clause(text, q.start, q.end)
                explicit = bool(_EXPLICIT.search(text, left, q.end)) or bool(_ALL_AT_ONCE.match(text, _clause(text, q.start, q.end)[1]))
        if field in ("input_tokens", "output_tokens") and _volume(text, q, free):
            continue
        if field and _fits(field, q, by_unit, text):
            out.append(Bound(field, q, explicit))
    return out


def amounts(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """One finding per workload field (the first bound), concurrency said outright beating people online."""
    bound = bind(text, taken)
    out: dict[str, Finding] = {}
    conc = [b for b in bound if b.field == "concurrency"]
    if conc:
        said = [b for b in conc if b.explicit]
        # a sweep of concurrency ("6, 24 and 48 concurrent", "concurrency 1 ... up to concurrency 4096") sizes for its
        # top; requests only said to be there ("20 併發、總共 50 個請求") are a total, not a level of concurrency
        levels = [b for b in said if b.quantity.unit != "req"]
        best = max(levels, key=lambda b: b.quantity.value) if levels else said[0] if said else conc[0]
        out["concurrency"] = _finding(best)
        # a non-explicit concurrency is people online only when said so ("500 在線"), not an engine limit ("max-num-seqs 64")
        online = next((b for b in conc if b is not best and not b.explicit and _ONLINE.search(text, *_clause(text, b.quantity.start, b.quantity.unit_end))), None)
        if online:
            out["users"] = Finding("users", int(online.quantity.value), online.quantity.start, online.quantity.unit_end)
    # the hourly price of a hosted endpoint or API set beside a device's ("a hosted endpoint costs $11.40/hr, versus
    # one A100 at $2.00/hr") is not the device's price
    prices = [b for b in bound if b.field == "device_hour_usd"]
    if len(prices) > 1:
        def hosted(b: Bound) -> bool:   # the words since the previous price (or the clause start) name a hosted service
            left = max([_clause(text, b.quantity.start, b.quantity.end)[0]] + [p.quantity.unit_end for p in prices if p.quantity.unit_end <= b.quantity.start])
            return bool(_HOSTED.search(text, left, b.quantity.start))
        bound = [b for b in bound if b.field != "device_hour_usd" or not hosted(b)] or bound
    for b in bound:
        if b.field not in out:
            out[b.field] = _finding(b)
    lengths = [b for b in bound if b.field == "context_length"]
    changed = [b for b in lengths[1:] if _CHANGED_TO.search(text, max(0, b.quantity.start - 16), b.quantity.start)]
    if changed:   # "預設的 32K 長度載入失敗；改成 8192 長度就正常": the window changed to is the one in use
        out["context_length"] = _finding(changed[-1])
    adapters = [b for b in bound if b.field == "lora_adapters"]
    if len(adapters) > 1:   # "one LoRA today, ~20 customer adapters next quarter": plan for the count it grows to
        out["lora_adapters"] = _finding(max(adapters, key=lambda b: b.quantity.value))
    if "lora_adapters" not in out:
        listed = _LORA_LIST.search(text) if _LORA_WORD.search(text) else None
        if listed:   # "math, code and chat LoRAs": one adapter per item named
            n = len(re.split(r"\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+", listed.group("items").strip()))
            out["lora_adapters"] = Finding("lora_adapters", n, listed.start(), listed.end())
    if "lora_adapters" not in out:
        counted = _lora_named(text)
        if counted:
            out["lora_adapters"] = counted
    listed = _CONC_LIST.search(text)
    # "concurrency 8, 16, 32 and 64", "low concurrency such as 1 or 4": a run reported is sized for the top of the
    # sweep; levels a benchmark plan is asked for start from the first (the plan covers the rest)
    if listed and not _BENCH_PLAN.search(text):
        top = max(int(n) for n in re.findall(r"\d+", listed.group("list")))
        if top >= 1 and ("concurrency" not in out or out["concurrency"].value < top):
            out["concurrency"] = Finding("concurrency", top, listed.start("list"), listed.end("list"))
    if "users" not in out and "concurrency" in out:
        people = _people_doing(text, conc)
        if people:   # "two users hit the URL at the same time": the people are the users as well as the concurrency
            out["users"] = Finding("users", int(round(people.value)), people.start, people.unit_end)
    if "users" in out and "concurrency" not in out:
        u = out["users"]
        _, right = _clause(text, u.start, u.end)
        if _TOGETHER.match(text[:right], u.end):   # "two users will be chatting with it at the same time"
            out["concurrency"] = Finding("concurrency", u.value, u.start, u.end)
    _group_with_me(text, out)
    if "users" not in out:
        me = _JUST_ME.search(text)
        if me and not negated_adjacent(text, me.start()):
            out["users"] = Finding("users", 1, me.start(), me.end())
    if "concurrency" not in out:
        senders = _SENDERS_AT_ONCE.search(text)
        if senders:   # "two Python scripts hitting the endpoint at once", "同時開三個瀏覽器分頁"
            from agent.extract_numbers import parse_int
            n = parse_int(senders.group("n") or senders.group("n2"))
            if n and 1 < n <= 100000:
                out["concurrency"] = Finding("concurrency", n, senders.start(), senders.end())
    if "concurrency" not in out:
        single = _single_request(text)
        if single:
            out["concurrency"] = Finding("concurrency", 1, *single)
    if "users" in out and "concurrency" not in out:
        share = _share_at_once(text, taken)
        if share is not None:
            n = max(1, round(out["users"].value * share.value / 100))
            out["concurrency"] = Finding("concurrency", n, share.start, share.unit_end)
    pair = typical_and_longest(text, taken, bound)
    if pair:   # the typical prompt sizes the load, the longest the window
        typical, longest = pair
        out["input_tokens"] = Finding("input_tokens", int(round(typical.value)), typical.start, typical.unit_end)
        ctx = out.get("context_length")
        if ctx is None or ctx.value < longest.value or ctx.start == typical.start:
            out["context_length"] = Finding("context_length", int(round(longest.value)), longest.start, longest.unit_end)
    return sorted(out.values(), key=lambda f: f.start)


# Two lengths of one workload said together: what is usual ("一般 8K", "usually 16K", "16K typical", "most prompts
# ~2K") and what the long ones reach ("少數長文件 32K 以上", "some documents up to 32K", "occasionally 100K", "最長 16K").
_TYPICAL = re.compile(r"一般(?:來說|而言)?|通常|大多(?:數)?|多數|大部分|大部份|平均|平時|平常|typical(?:ly)?|usual(?:ly)?|normally|mostly"
                      r"|\bmost\b|on\s+average|average|\bavg\b|median|常見", _F)
_LONGEST = re.compile(r"少數|少部分|少部份|偶爾|有時(?:候)?|最長|最多|最大|上限|極端|\bsome(?:times)?\b|up\s+to|occasional(?:ly)?|\bmax(?:imum)?\b"
                      r"|at\s+most|rarely|longest|worst[\s-]case|\bpeaks?\b|outliers?|reach(?:es|ing)?|as\s+(?:long|large|much)\s+as", _F)
_CUE_AFTER = re.compile(r"\s*(?:tokens?\s*)?(?:(?P<typical>typical(?:ly)?|usual(?:ly)?|on\s+average|average|avg|most\s+of\s+the\s+time)"
                        r"|(?P<longest>max(?:imum)?|at\s+most|peak|worst[\s-]case|at\s+the\s+(?:long|high)\s+end))\b", _F)


def _length_like(text: str, q: Quantity, field: str | None) -> bool:
    if field is not None:
        return field in ("input_tokens", "context_length")
    k = q.suffixed and q.unit is None and text[q.start:q.end].rstrip()[-1:] in ("k", "K")   # "100K" beside "2K"
    return q.kind == "quantity" and q.value >= 256 and (k or k_length(text, q) or q.unit in ("tokens", "context"))


def typical_and_longest(text: str, taken: list[tuple[int, int]], bound: list[Bound] | None = None
                        ) -> tuple[Quantity, Quantity] | None:
    """(typical, longest) lengths of one sentence, when one is said to be usual and a larger one what some reach."""
    bound = bind(text, taken) if bound is None else bound
    fields = {b.quantity.start: b.field for b in bound}
    qs = [q for q in quantities(text) if q.kind == "quantity" and not overlaps((q.start, q.end), taken)]
    lengths = [q for q in qs if _length_like(text, q, fields.get(q.start))]
    typical = longest = None
    prev_end = 0
    for q in lengths:
        sent = max((m.end() for m in _SENTENCE.finditer(text, 0, q.start)), default=0)
        before = text[max(sent, prev_end, q.start - 24):q.start]
        after = _CUE_AFTER.match(text, q.unit_end)
        prev_end = q.unit_end
        if _LONGEST.search(before) or (after and after.group("longest")):
            if typical is not None and longest is None and q.value > typical.value \
                    and not _SENTENCE.search(text, typical.unit_end, q.start):
                longest = q
        elif (_TYPICAL.search(before) or (after and after.group("typical"))) and typical is None:
            typical = q
    return (typical, longest) if typical is not None and longest is not None else None


def _people_doing(text: str, conc: list[Bound]) -> Quantity | None:
    """People who are the subject of something done at the same time ("two users asking at the same time",
    "兩個使用者會同時用"): users as well as concurrency. A bare count of people at once ("64 users at the same
    time", "64 人同時使用", "20 concurrent users") or people online stays the concurrency only."""
    q = next((b.quantity for b in conc if b.quantity.unit == "people"), None)
    if q is None:
        return None
    left, right = _clause(text, q.start, q.end)
    cue = _CONC_AFTER.match(text[:right], q.unit_end)
    if not cue or _CONC_BEFORE.search(text, left, q.start) or _ONLINE.search(text, left, right):
        return None
    gap = _CUE_GAP.match(text, q.unit_end, cue.end())
    return q if gap and re.search(r"[A-Za-z\u4e00-\u9fff]", gap.group("gap")) else None


# _CONC_AFTER with the words before its cue captured ("asking" in "two users asking at the same time")
_CUE_GAP = re.compile(r"(?P<gap>[^,;，；。/(（\d]{0,24}?)\s*" + _CONC_AFTER.pattern.split("}?", 1)[1], _F)


_TOGETHER = re.compile(r"[^,;，；。/(（\d]{0,48}?(?:\bat\s+once|\bat\s+the\s+same\s+time|\bsimultaneously|\bconcurrently|同時)", _F)
# "just me", "only me", "只有我自己", "我自己用", "就我一個人": the user alone is one user
_JUST_ME = re.compile(r"\b(?:just|only)\s+(?:me|myself)\b(?!\s*(?:,|and)\s+(?:my\s+|our\s+|a\s+|the\s+|\d+\s+|two\s+|three\s+)?(?:team|colleagues?|co-?workers?|friends?|wife|husband|partner|family|kids|students|users|people))|\bnobody\s+(?:else\s+)?but\s+me\b"
                      r"|只有我(?:自己|一個人?)?(?:在)?(?:用|使用)?|就我(?:自己|一個人)|我自己(?:一個人)?(?:在)?(?:用|使用)(?!\s*(?:的|來|過))", _F)


# A group the writer belongs to is counted with the writer: "me and two colleagues" (3), "my two teammates and I" (3),
# "four of us" (4), "我跟兩個同事" (3), "我們三個人" (3). Done together ("... at the same time") it is the concurrency too.
_MATES = r"(?:other\s+)?(?:colleagues?|co-?workers?|teammates?|team\s*mates?|friends?|people|guys|devs|developers|engineers|users)"
_GROUP = re.compile(
    rf"\b(?:me|myself)\s+(?:and|&|\+|plus)\s+(?:my\s+|our\s+)?(?P<n1>{COUNT})\s+(?:of\s+my\s+)?{_MATES}\b"
    rf"|\bmy\s+(?P<n2>{COUNT})\s+{_MATES}\s+and\s+(?:I|me|myself)\b|\b(?:the\s+)?(?P<n3>{COUNT})\s+of\s+us\b"
    rf"|我(?:跟|和|與|与|加上|還有)\s*(?:另外)?\s*(?P<n4>{COUNT})\s*(?:個|位|名)\s*(?:同事|同仁|朋友|人|工程師|夥伴|伙伴)"
    rf"|我們\s*(?:這|这)?\s*(?P<n5>{COUNT})\s*(?:個|位|名)?\s*(?:人|同事|工程師)(?!員)", re.I)
_WRITER_COUNTED = re.compile(r"^(?:me|myself|my|我(?!們))", re.I)


def _group_with_me(text: str, out: dict[str, Finding]) -> None:
    from agent.extract_numbers import parse_int
    m = _GROUP.search(text)
    if not m or negated_adjacent(text, m.start()):
        return
    n = parse_int(next(g for g in m.group("n1", "n2", "n3", "n4", "n5") if g))
    if not n or n > 1000:
        return
    n += 1 if _WRITER_COUNTED.match(m.group(0)) else 0
    if "users" in out and not overlaps((out["users"].start, out["users"].end), [m.span()]):
        return   # a user count stated elsewhere ("50 users ... four of us admins") is the one to plan for
    out["users"] = Finding("users", n, m.start(), m.end())
    conc = out.get("concurrency")
    _, right = _clause(text, m.start(), m.end())
    together = _TOGETHER.match(text[:right], m.end())
    if conc is not None and overlaps((conc.start, conc.end), [m.span()]):
        if together or re.search(r"同時|併發|並發", text[conc.start:conc.end]):
            out["concurrency"] = Finding("concurrency", n, m.start(), m.end())
        else:
            out.pop("concurrency")
    elif conc is None and together:
        out["concurrency"] = Finding("concurrency", n, m.start(), m.end())


# Adapters named one by one ("lora2 and lora3 alongside glm4-lora", "sql-lora, chat-lora"): one adapter per distinct
# name; copies of one adapter loaded to test ("4097 copies of a rank-32 adapter") count as adapters too.
_LORA_NAME = re.compile(r"(?<![\w./-])(?:(?P<a>[a-z][a-z0-9]*)[-_])?lora(?:[-_]?(?P<b>[a-z0-9]+))?(?![\w./-])", re.I)
_NOT_A_NAME = {"max", "enable", "multi", "s", "q", "punica", "fully", "sharded", "long", "dynamic", "hot", "per", "peft", "vllm",
               "the", "a", "an", "modules", "module", "rank", "dtype", "extra", "path", "paths", "name", "int", "id", "request",
               "requests", "config", "target", "adapter", "adapters", "weight", "weights", "alpha", "dropout", "scaling", "vocab",
               "layer", "layers", "support", "serving", "enable", "enabled", "model", "models", "dir", "file", "files", "x", "s",
               "cache", "slots", "repo", "kernel", "kernels", "style", "based", "finetune", "fine", "tuned", "trained", "merge", "merged"}
_COPIES = re.compile(r"(?P<n>\d{1,6}(?:,\d{3})*)\s+(?:copies|clones|instances|replicas)\s+of\s+(?:an?|one|the\s+same|the|a\s+single)?\s*"
                     r"(?:[\w-]+\s+){0,2}?(?:LoRA|adapter)s?\b", re.I)


def _lora_named(text: str) -> Finding | None:
    m = _COPIES.search(text)
    if m:
        return Finding("lora_adapters", int(m.group("n").replace(",", "")), m.start(), m.end())
    names = [h for h in _LORA_NAME.finditer(text) if (h.group("a") or h.group("b"))
             and not ({(h.group("a") or "").lower(), (h.group("b") or "").lower()} & _NOT_A_NAME)]
    distinct = {h.group(0).lower() for h in names}
    if len(distinct) >= 2:
        return Finding("lora_adapters", len(distinct), names[0].start(), names[-1].end())
    return None


# Programs or windows that send requests at the same time are concurrent requests: "two Python scripts hitting the
# same endpoint at once", "four terminals running prompts simultaneously", "同時開三個瀏覽器分頁問".
_SENDERS_AT_ONCE = re.compile(
    rf"(?P<n>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?(?:scripts?|processes|clients|tabs|windows|terminals|apps|programs|jobs|notebooks)\b"
    r"[^.;!?]{0,48}?(?:\bat\s+once|\bat\s+the\s+same\s+time|\bsimultaneously|\bconcurrently|\bin\s+parallel)"
    rf"|同時\s*(?:開|跑|用|執行|送)?\s*(?P<n2>{COUNT})\s*(?:個|支)\s*[\w\u4e00-\u9fff]{{0,8}}?(?:視窗|分頁|腳本|程式|進程|客戶端|終端|行程)", re.I)


_LORA_LIST = re.compile(r"(?<![\w-])(?P<items>(?:[A-Za-z][\w-]*\s*,\s*)+[A-Za-z][\w-]*,?\s+(?:and|&)\s+[A-Za-z][\w-]*)\s+(?:LoRAs|LoRA\s+adapters|adapters)\b", _F)
_SHARE_CUE = re.compile(r"concurren|simultaneous|at\s+once|at\s+the\s+same\s+time|at\s+any\s+(?:one\s+)?time|at\s+peak|active|online"
                        r"|同時|併發|並發|在線", _F)


_HOSTED = re.compile(r"\b(?:hosted|managed|serverless)\b|\bendpoints?\b|\bAPIs?\b|託管|代管|雲端服務|API", _F)
_CONC_LIST = re.compile(r"(?:\bconcurrency|\bconcurrent\s+requests|併發數?|並發數?)(?:\s+(?:levels?|of|at|such\s+as|like|from|sweep|values?|values\s+of))*"
                        r"\s*[:=]?\s*(?P<list>{n}(?:\s*(?:,\s*(?:and\s+|or\s+)?|、|/|\s(?:or|and|to|up\s+to)\s)\s*{n})+)".format(
                            n=r"\d{1,5}(?!\d|\.\d|[kK]\b|\s*(?:in|out|tokens?|ms|s|GB|%)(?![A-Za-z]))"), _F)
# a plan asked for needs a question word ("how should we load-test ..."); "壓測" / "load test" alone reports a run
_BENCH_PLAN = re.compile("|".join(c for c in lexicon.BENCHMARK_CUES if c not in (r"壓測", r"\bload[\s-]?test(?:ing)?\b")), _F)


# "with a single request", "只打一個請求", "單個請求 8 token/s", "at batch 1": the load the figure was measured at is
# one request. Set against batching or concurrency anywhere in the message ("40 tok/s for a single request and 1000 when batching",
# "單條請求 1.5 秒，一做併發就暴增") it is a yardstick, not the user's load.
_SINGLE = re.compile(r"\b(?:a|one|just\s+one)\s+single\s+(?:request|query|prompt|stream|sequence)\b|\bsingle[\s-](?:request|stream|sequence)\b(?!\s+(?:speed|latency|performance))"
                     r"|\b(?:send|sent|sending|fire|fired|firing|run|ran|running|issue[sd]?)\s+(?:the\s+|my\s+|our\s+)?(?:requests|prompts|queries)\s+(?:sequentially|serially|one\s+by\s+one|one\s+after\s+(?:another|the\s+other))\b"
                     r"|\bat\s+batch\s+(?:size\s+)?1\b(?!\d|\.\d|-)|\b(?:one|1)\s+(?:request|prompt|query)\s+at\s+a\s+time\b"
                     r"|(?:只|僅)\s*(?:打|發|送|跑|丟|有)?\s*(?:一|1)\s*(?:個|條|筆)\s*(?:請求|request)|(?:打|發|送)\s*(?:一|1)\s*(?:個|條|筆)\s*請求"
                     r"|單(?:個|條|筆)\s*(?:請求|request)", _F)
_SERVED = re.compile(r"\s+(?:gets?|is|are|being)\s+(?:\w+\s+)?(?:served|processed|handled|answered)\b|\s*(?:才|會)?(?:被)?(?:處理|服務)", _F)
_BATCH_ONE = re.compile(r"\bbatch(?:\s+size)?\s*(?:of\s+)?1\b(?!\d|\.\d|-)", _F)
_AGAINST_BATCH = re.compile(r"batch|aggregate|saturat|concurren|併發|並發|整批|批次", _F)


def _single_request(text: str) -> tuple[int, int] | None:
    for m in _SINGLE.finditer(text):
        if _SERVED.match(text, m.end()):   # "only one request at a time gets served; others wait": a symptom, not the load
            continue
        if negated(text, m.start()) or re.search(r"\bnot\s+(?:a\s+)?$", text[max(0, m.start() - 6):m.start()], _F):
            continue
        rest = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
        if _AGAINST_BATCH.search(_BATCH_ONE.sub(" ", rest)):   # "at batch 1" elsewhere is the same load, not a contrast
            continue
        return m.start(), m.end()
    return None


def _share_at_once(text: str, taken: list[tuple[int, int]]) -> Quantity | None:
    """A percentage of the users said to be there at once ("200 users with 10% concurrency", "同時在線約 10%")."""
    for q in quantities(text):
        if q.kind == "quantity" and q.unit == "pct" and 0 < q.value <= 100 and not overlaps((q.start, q.end), taken):
            left, right = _clause(text, q.start, q.end)
            if _SHARE_CUE.search(text, left, right):
                return q
    return None


def _finding(b: Bound) -> Finding:
    q = b.quantity
    value = q.value if b.field == "device_hour_usd" else int(round(q.value))
    return Finding(b.field, value, q.start, q.unit_end)


def used_spans(text: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans of every quantity bound to a field (for what was not understood)."""
    return [b.quantity.span for b in bind(text, taken)]


_API_PRICE = (
    re.compile(r"(?:\$|usd\s*)\s*(\d+(?:\.\d+)?)\s*(?:usd|dollars?)?\s*(?:/|per|for\s+(?:each|every|a|one))\s*"
               r"(?:1\s*m\b|1\s*million|one\s+million|a\s+million|million|m\b|mtok)\s*(?:input\s+|output\s+|generated\s+)?"
               r"(?:tokens?|toks?)?", re.I),
    re.compile(r"(\d+(?:\.\d+)?)\s*(?:usd|dollars?|美元|美金)\s*(?:/|per|每)\s*(?:1\s*m\b|1\s*million|million|百萬|一百萬|1M)", re.I),
    re.compile(r"每\s*(?:一)?百萬\s*(?:個\s*)?(?:輸入|輸出)?\s*(?:token|tokens|詞元)\s*(?:要|約|大約|是|為|收|賣)?\s*(?:\$|usd\s*)?"
               r"\s*(\d+(?:\.\d+)?)\s*(?:美元|美金|usd)?", re.I),
)


def api_prices(text: str) -> list[tuple[float, int, int]]:
    """Prices per 1M tokens the user quotes ("$0.60 per 1M output tokens", "每百萬 token 0.8 美元"):
    (usd, start, end) of each, left to right. A per-token price is what an API charges (or a target),
    never a device's hourly price."""
    found = {}
    for rx in _API_PRICE:
        for m in rx.finditer(text):
            try:
                value = float(m.group(1))
            except ValueError:
                continue
            if 0 < value <= 1000 and not any(a <= m.start(1) < b for a, b in found):
                found[(m.start(), m.end())] = value
    return [(v, a, b) for (a, b), v in sorted(found.items())]
