"""The one number reader: every quantity in the text with its range, qualifier and unit.

    quantities(norm) -> [Quantity]   left to right, over normalised text (agent.extract_text)

A quantity is a number as people write it ("80K", "32,768", "1e3", "2.5", "兩", "十萬", "a dozen"),
possibly a range ("32K 到 64K", "2-4K": the upper end is the value), possibly qualified ("約",
"about", "~", "以上", "at least", "+"), followed by a unit that says what it counts ("-context",
"tokens", "人", "concurrent", "張", "nodes", "LoRAs", "USD", "GB", "%", "ms", "tok/s"). Numbers that
are not quantities are typed too: versions ("CUDA 12.4", "v0.2"), years ("2024 年"), product
numbers ("RTX 5080", "P40", "Xeon 6") and denominators ("per 1M tokens"). Field readers bind a
quantity by its unit first and by a keyword next to it second; nothing else reads digits.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from agent.extract_numbers import NUM, parse_number

_F = re.I | re.ASCII

# Unit classes, tried in order right after the number (a hyphen, "個/位/名/多/+" may come between).
UNITS: tuple[tuple[str, str], ...] = (
    ("rate", r"tok(?:en)?s?\s*/\s*s(?:ec)?\b|t/s\b|tps\b|tokens?\s+(?:per|a|/)\s*(?:second|sec|minute|min)\b"
             r"|req(?:uest)?s?\s*/\s*s\b|requests?\s+(?:per|a)\s+(?:second|minute)\b|QPS\b|RPS\b|TPM\b|it/s\b|token/s"),
    ("context", r"(?:的\s*)?(?:context(?![\s-]*(?:switch|of\s+the))|ctx\b|上下文|max(?:imum)?[\s_-]?model[\s_-]?len(?:gth)?\b"
                r"|(?:的\s*)?(?:上下文|序列)?長度(?!\s*(?:的)?\s*(?:輸入|輸出|prompt|回答|回覆|文本|文件|問題)))"),
    ("tokens", r"(?:個\s*)?(?:tokens?\b|toks?\b|字(?!節))"),
    # "30 LoRAs", "20 customer adapters", "20 組客製 LoRA", "50 個不同的 LoRA": up to two modifiers
    ("lora", r"(?:個|組|套|份)?\s*(?:(?!多\s*(?:LoRA|adapter))(?:(?!(?:users?|people|persons?|employees|staff|and|or|with|for|of|per(?!-)|each|a|an|the|one|two|three|single|GPUs?|cards?)\b)"
             r"[A-Za-z][\w-]*|[\u4e00-\u9fff]{1,4})\s*){0,2}?(?:LoRAs?|adapters?)(?![A-Za-z])"),
    ("conc", r"(?:個|路|條|多)?\s*(?:併發|並發|並行|併行|(?:max(?:imum)?\s+)?concurrent(?:ly)?\b|simultaneous(?:ly)?\b|in\s+parallel\b|parallel\b|同時"
             r"|(?:-?way\s+|max(?:imum)?\s+|peak\s+|target\s+)?concurrency\b|virtual\s+users?\b|VUs?\b|-?users?\s+concurrency\b|CCU\b|in[\s-]flight\b|(?:live|open)\s+(?:requests?|sessions?|streams?|connections?|chats?)\b)"),
    ("org", r"(?:家|間)(?:\s*(?:客戶|公司|企業|廠商))?(?![人裡])|(?:different\s+)?(?:customers|clients|tenants|companies|departments|teams)\b"
            r"|(?:個|位)?\s*(?:客戶|部門|租戶)"),
    # "a 40-engineer fintech", "12-person team": a hyphenated head count
    ("people", r"-(?:engineer|developer|employee|person|seat|member|user)(?=\s+[a-z])|(?:(?:internal|active|daily|monthly|total|registered|end|business|sales|different)[\s-]+)*"
               r"(?:(?:member|person|people|man|strong)\s+(?:team|group|company|org(?:anization)?|department|firm|startup|lab)\b"
               r"|users?|people|persons?|employees|staff|engineers|developers|analysts|seats|members|researchers"
               r"|students|reps|representatives|salespeople|colleagues|coworkers|testers|lawyers|doctors|agents|customer|client)\b"
               r"|(?:個|位|名|多)?\s*(?:業務|研發|客服|行銷|門市|內部)?\s*(?:同仁|同事|人員|員工|人(?!民[幣币])|用戶|使用者|工程師|業務|學生|會員|老師)"),
    ("req", r"(?:個\s*)?(?:requests?\b|reqs?\b|sequences\b|seqs\b|sessions?\b|streams?\b|connections?\b|calls\b|請求|連線|對話|session)"),

    ("items", r"(?:pages?\b|頁|files?\b|documents?\b|docs\b|rows\b|records\b|筆|份|篇|images?\b|photos?\b|videos?\b|articles?\b"
              r"|questions?\b|emails?\b|tickets?\b|steps?\b|turns?\b|rounds?\b|epochs?\b|layers?\b|experts?\b|heads?\b|threads?\b|cores?\b)"),
    ("usd", r"(?:USD\b|US\$|dollars?\b|bucks\b|美元|美金|刀)"),
    ("money", r"(?:€|EUR\b|euros?\b|元|人民[幣币]|新?台幣|港幣|歐元|欧元|日圓|日元|NT\$|RMB\b|CNY\b|£|GBP\b)"),
    ("memory", r"(?:GB|TB|GiB|TiB|MB|G|T)(?![A-Za-z])"),
    ("params", r"(?:B|billion)(?![A-Za-z0-9])"),
    ("bits", r"(?:bits?\b|bpw\b|位元)"),
    ("pct", r"(?:%|percent\b|個百分點)"),
    ("time", r"(?:ms\b|milliseconds?\b|secs?\b|seconds?\b|s\b|minutes?\b|mins?\b|hours?\b|hrs?\b|h\b|days?\b|weeks?\b|months?\b"
             r"|毫秒|秒|分鐘|小時|天|週|周|個月|月)"),
    ("year", r"年(?!代)"),
    ("dev", r"(?:[x×*](?![A-Za-z0-9])|GPUs?\b|cards?\b|devices?\b|accelerators?\b|sockets?\b|張|片|塊|块|卡|顆|颗|枚)"),
    ("node", r"(?:nodes?\b|servers?\b|machines?\b|boxes\b|hosts?\b|racks?\b|台|節點|伺服器|機器|主機|機櫃)"),
)
_UNIT_RES = tuple((name, re.compile(rf"(?:-|\s*)(?:{src})", _F)) for name, src in UNITS)
# "多" after a number is "more than" only glued to it ("20多個", "16萬多"); set apart before LoRA it is "multi-"
# ("16 萬 多 LoRA": a budget of 160,000, then multi-LoRA)
_BEFORE_UNIT = re.compile(r"\+|\s*(?:以上|左右|上下|或以上|or\s+more|plus)(?![A-Za-z])|(?<=[\d萬万千])多|\s多(?!\s*(?:LoRA|adapter))", _F)

# What comes before a number and changes what it is.
_DOLLAR = re.compile(r"(?:\$|US\$|USD\s*)\s*$", _F)
_DENOMINATOR = re.compile(r"(?:\bper\s+|\bevery\s+|/|每\s*)$", _F)
_VERSION_WORD = re.compile(
    r"(?:\bv|\bversion|\bCUDA|\bPython|\bUbuntu|\bROCm|\bdriver|\bDebian|\bmacOS|\bglibc|\bPyTorch|\btorch|\bvLLM|\bSGLang"
    r"|llama\.cpp|\bOllama|\bkernel|\bLinux|\bsm_|\bgfx|\bcompute\s+capability|\bcc|\bbuild|\brelease|版本?|驅動)\s*[:=]?\s*$", _F)
_PRODUCT_WORD = re.compile(
    r"(?:\b(?:RTX|GTX|GeForce|Tesla|Quadro|Radeon|RX|Arc|Instinct|MI|Xeon|EPYC|Ryzen|Core|Gaudi|Ascend|Atlas|Jetson|Titan|PowerEdge|ProLiant|ThinkSystem"
    r"|Threadripper|Snapdragon|Mac\s*Studio|iPhone|Pixel|Strix|AI\s+Max\+?|Grace|Blackwell|Hopper|Ampere|Qwen|Llama|Gemma"
    r"|Mistral|Phi|GLM|DeepSeek(?:[\s-]V)?|gpt-oss|QwQ|Yi|InternLM|Baichuan|Falcon|Nemotron)[\s-]?$)", _F)
# A setting's value is never a year, bracketed or not: "(max_model_len 2048)", "(batch size 2048)".
_SETTING_NAME = re.compile(r"(?:len(?:gth)?|ctx|context|seqs?|size|tokens?|batch)\s*[=:]?\s*$", _F)
_YEARISH = re.compile(r"(?:\b(?:in|since|from|until|till|by|bought|purchased|released|launched|year|early|late|mid)\s+|\(\s*)$", _F)
_PRODUCT_AFTER = re.compile(r"\s*-?\s*(?:Ti|SUPER|XTX?|GRE|Ada|Pro|Max|Ultra|Blackwell|Coder|Instruct|VL|Turbo)\b", _F)
_QUAL_BEFORE = re.compile(
    r"(?:\babout|\baround|\broughly|\bapprox(?:imately|\.)?|~|≈|約莫?|大約|大概|差不多|\bup\s+to|\bat\s+least|\bat\s+most"
    r"|\bover|\bmore\s+than|\bless\s+than|\bunder|\bbelow|最多|至少|超過|上限|高達|以內)\s*$", _F)
_QUAL_AFTER = re.compile(r"\s*(?:\+|以上|或以上|左右|上下|多|以內|or\s+more|plus\b)", _F)
_RANGE_SEP = r"\s*(?:-|~|(?:up\s+)?to|到|至|—|and)\s*"
_SCI = r"\d+(?:\.\d+)?[eE][+]?\d{1,2}(?![\w])"
_ONE = rf"(?:{_SCI}|{NUM})"
_QTY = re.compile(rf"(?<![\w.])(?<![A-Za-z]-)(?P<a>{_ONE})(?:{_RANGE_SEP}(?P<b>{_ONE}))?", _F)
_SUFFIX = re.compile(r"[kKmM萬万千]|thousand|million", re.I)
_DOTS = re.compile(r"\d+\.\d+\.\d+")
# A lone 一 or 萬 inside a word is no number ("一直", "一起", "一般", "統一", "萬一"): it counts only
# before a measure word or unit ("一張", "一小時", "一個", "一台").
_WORD_ONE = re.compile(r"(?<![零〇一二兩两三四五六七八九十百千萬万\d])[一萬万](?=[\u4e00-\u9fff])"
                       r"(?![張片塊块卡台顆颗枚個个位名人家間組套份次小時天週周月年百千萬万億億路節條支根部款種筆頁篇行字秒分批輪組倍成])")


# "one after another", "one by one", "one at a time": an order of turns, not a count of one
_IDIOM_ONE = re.compile(r"one\s+(?:after\s+(?:another|the\s+other)|by\s+one|at\s+a\s+time)\b", re.I)
# "一個一個慢慢加", "一張一張試": a doubled "one + measure word" says one at a time, a manner, not an amount
_DOUBLED_ONE = re.compile(r"一\s*(?P<m>[個个張台步條筆次批])\s*一\s*(?P=m)")


def _doubled_one(text: str, start: int) -> bool:
    """Whether the "一" at `start` is either half of "一個一個"."""
    return bool(_DOUBLED_ONE.match(text, start) or _DOUBLED_ONE.match(text, max(0, start - 2)) and text[start - 2:start - 1] == "一"
                or _DOUBLED_ONE.match(text, max(0, start - 3)) and text[start - 3:start - 2] == "一")


@dataclass(frozen=True)
class Quantity:
    """One number as written, with what surrounds it."""

    value: float
    """The number (the upper end of a range), magnitude applied ("80K" → 80000)."""
    start: int
    end: int
    """Span of the number words (range and magnitude included, unit excluded)."""
    low: float | None
    """The lower end of a range, else None."""
    unit: str | None
    """Unit class right after (see UNITS), "usd" for a leading "$", else None."""
    unit_end: int
    """End of the unit words (== end without a unit)."""
    kind: str
    """quantity | version | year | product | denominator."""
    qualifier: str | None
    """"approx", "min" or "max" when the number is hedged or bounded."""
    suffixed: bool
    """Written with a magnitude suffix or as a K/M/萬 length ("80K", "1.5M", "10萬")."""

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.unit_end


def _value(raw: str) -> float | None:
    if re.fullmatch(_SCI, raw.strip()):
        return float(raw.strip())
    return parse_number(raw)


def _unit(text: str, pos: int) -> tuple[str | None, int]:
    for name, rx in _UNIT_RES:
        m = rx.match(text, pos)
        if m and m.end() > pos:
            return name, m.end()
    return None, pos


def product_number(text: str, start: int) -> bool:
    """The number at `start` names a product after its product word ("Atlas 800", "Xeon 6"), never an amount."""
    return bool(_PRODUCT_WORD.search(text[max(0, start - 24):start]))


_K_LENGTHS = {2 ** i * base for i in range(1, 11) for base in (1000, 1024)}


def k_length(text: str, q: "Quantity") -> bool:
    """"32K", "128k": a K-suffixed power of two with no unit of its own is how long a context is, never a
    number of people or requests at once ("10K users" keeps its unit and stays people)."""
    return q.suffixed and q.unit in (None, "tokens", "context") and text[q.start:q.end].rstrip()[-1:] in ("k", "K") \
        and int(q.value) in _K_LENGTHS


def _kind(text: str, start: int, end: int, raw: str, unit: str | None) -> str:
    head = text[max(0, start - 24):start]
    if _DOTS.fullmatch(raw.strip()) or _VERSION_WORD.search(head):
        return "version"
    if unit == "year" or (unit is None and re.fullmatch(r"(?:19|20)\d\d", raw.strip()) and (_YEARISH.search(head) or text[end:end + 1] == ")")
                          and not _SETTING_NAME.search(head)):
        return "year"
    if _PRODUCT_WORD.search(head) or (unit is None and _PRODUCT_AFTER.match(text, end)):
        return "product"
    if _DENOMINATOR.search(head):
        return "denominator"
    return "quantity"


def _qualifier(text: str, start: int, end: int) -> str | None:
    before = _QUAL_BEFORE.search(text[max(0, start - 14):start])
    after = _QUAL_AFTER.match(text, end)
    word = (before.group(0) if before else "") + (after.group(0) if after else "")
    if not word:
        return None
    if re.search(r"以上|at\s+least|\+|over|more\s+than|超過|至少|or\s+more|plus", word, re.I):
        return "min"
    if re.search(r"up\s+to|at\s+most|最多|上限|以內|under|below|less\s+than|高達", word, re.I):
        return "max"
    return "approx"


def _range(text: str, m: re.Match, low: float, high: float) -> bool:
    """"32K 到 64K", "6-12": a range rises by less than 20×; "4 - 32768" is two numbers and a dash. A dash
    with spaces around it joins only numbers written alike that do not follow a multiplier ("×8 - 128")."""
    a, b = m.group("a"), m.group("b")
    if re.fullmatch(r"\s*and\s*", text[m.end("a"):m.start("b")], re.I) and not re.search(r"\bbetween\s+$", text[:m.start()], re.I):
        return False   # "and" joins a range only after "between" ("between 20 and 30")
    if re.search(r"\s-\s", text[m.end("a"):m.start("b")]):
        if bool(_SUFFIX.search(a)) != bool(_SUFFIX.search(b)) or re.search(r"[x×*]\s*$", text[max(0, m.start() - 2):m.start()]) \
                or "." in a or "." in b:
            return False
    low = _scaled_low(a, b, low)
    # "from 1 to 150", "從 1 到 150": a range said outright, however wide
    said = re.search(r"(?:\bfrom|從|从)\s*$", text[max(0, m.start() - 8):m.start()], re.I) \
        and re.fullmatch(r"\s*(?:(?:up\s+)?to|到|至)\s*", text[m.end("a"):m.start("b")], re.I)
    return 0 < low < high and (high / low <= 20 or bool(said))


def _scaled_low(a: str, b: str, low: float) -> float:
    """"2-4K": the magnitude written once applies to both ends."""
    sb = _SUFFIX.search(b)
    if sb and not _SUFFIX.search(a):
        scaled = parse_number(a.strip() + sb.group(0))
        high = parse_number(b)
        if scaled is not None and high is not None and scaled <= high:
            return scaled
    return low


# "上百人", "上千個請求": a round magnitude reached, a lower bound ("100+"); "幾百", "數十" stay vague.
_UPPER = re.compile(r"上(?P<n>[百千萬万]{1,2})(?!分)")


def _upper(text: str, m: re.Match) -> Quantity:
    from agent.extract_numbers import _chinese
    skip = _BEFORE_UNIT.match(text, m.end())
    unit, unit_end = _unit(text, skip.end() if skip else m.end())
    return Quantity(value=float(_chinese(m.group("n")) or 0), start=m.start(), end=m.end(), low=None, unit=unit,
                    unit_end=unit_end if unit else m.end(), kind="quantity", qualifier="min", suffixed=True)


def quantities(text: str) -> list[Quantity]:
    """Every number in normalised `text`, left to right, typed and with its unit."""
    return list(_quantities(text))


@functools.lru_cache(maxsize=64)
def _quantities(text: str) -> tuple[Quantity, ...]:
    """Cached: the extractor's readers all read the same message."""
    out = [_upper(text, m) for m in _UPPER.finditer(text)]
    pos = 0
    while True:
        m = _QTY.search(text, pos)
        if m is None:
            return tuple(sorted(out, key=lambda q: q.start))
        a, b = m.group("a"), m.group("b")
        va = _value(a)
        vb = _value(b) if b else None
        if b and (vb is None or va is None or not _range(text, m, va, vb)):
            b, vb = None, None             # "128K - 8": two numbers and a dash; read the second on its own
        end = m.end() if b else m.end("a")
        pos = end
        if va is None or (not b and (_WORD_ONE.match(text, m.start()) or _IDIOM_ONE.match(text, m.start()) or _doubled_one(text, m.start()))):
            continue
        value = vb if vb is not None else va
        low = _scaled_low(a, b, va) if b else None
        skip = _BEFORE_UNIT.match(text, end)
        unit, unit_end = _unit(text, skip.end() if skip else end)
        if unit is None:
            unit_end = end
        if _DOLLAR.search(text[max(0, m.start() - 5):m.start()]):
            unit = "usd"
        raw = text[m.start():end]
        suffixed = bool(_SUFFIX.search(b or a)) or bool(re.search(r"[萬万千]", raw))
        out.append(Quantity(value=value, start=m.start(), end=end, low=low, unit=unit, unit_end=unit_end,
                            kind=_kind(text, m.start(), end, raw, unit), qualifier=_qualifier(text, m.start(), end),
                            suffixed=suffixed))
