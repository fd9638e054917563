"""Words that look like a device, a model or a quantity but were not placed in the profile.

    unplaced(norm, placed) -> [(kind, start, end)]   kind: "device" | "model" | "number"

They are quoted back to the user ("I did not recognise 'P40' as a device") instead of being dropped
silently. A device is a product code the hardware catalog does not know ("P40", "A800", "MI50",
"RTX 5080", "910B"); a model is a model family name the model catalog does not resolve ("QwQ-32B",
"Gemma 4 26B", "GLM-5.1"); a number is a quantity whose unit says it is a load, a length, a price or
a count ("2.8 €/h", "5000 requests per second") that no field took.
"""
from __future__ import annotations

import functools
import re

from agent import lexicon
from agent.extract_base import overlaps
from agent.extract_quantity import product_number, quantities

_F = re.I | re.ASCII
# Product codes: one or two letters then 2-4 digits ("P40", "A800", "MI250X", "H20", "910B" below),
# or a brand word then a number ("RTX 5080", "Quadro P6000", "RX 7900 XT", "EPYC 9654").
_DEVICE = re.compile(
    r"(?:(?<![\w.-])|(?<=\d[xX×*]))(?:(?:RTX|GTX|Titan|Quadro|Tesla|Radeon|RX|Arc|Instinct|EPYC|Xeon|Ryzen|Ascend|Atlas)\s*-?\s*)?"
    r"(?:[A-Z]{1,3}\d{2,4}[A-Z]{0,2}(?:\s*(?:Ti|SUPER|XTX?|Ada|GRE))?|\d{3,4}[A-Z]{0,2}(?=\s*(?:Ti|SUPER|XTX?|GRE)\b))"
    r"(?:s(?=\b))?(?![\w-]|\.\w)"
    r"|(?<![\w.-])(?:RTX(?:\s+PRO)?|GTX|Titan|Quadro|Tesla|Radeon\s+RX|RX|Arc|Instinct|EPYC|Ryzen|Ascend|Atlas)\s*-?\s*[A-Z]?\d{2,4}"
    r"[A-Z]{0,2}(?:\s*(?:Ti|SUPER|XTX?|Ada|GRE))?(?![\w-]|\.\w)"
    r"|(?<![\w.-])\d{3}[A-Z](?=\s*(?:推理|NPU|卡|cards?\b|accelerators?\b))"
    r"|(?:(?<=[張片塊])|(?<=[張片塊]\s))\d{3,4}(?:\s*(?:Ti|SUPER))?(?![\w.])", re.ASCII)   # "一張 1080": a card by its number
# Things shaped like product codes that are not devices: quantization formats, sizes, quarters,
# versions, ports, SKUs of models ("A3B": 3B active).
_NOT_DEVICE = re.compile(
    r"^(?:Q\d+(?:_\w+)?|FP\d+|BF16|INT\d+|W\d+A\d+|EXL\d|MXFP4|NVFP4|A\d+B|V\d+|R\d{1,2}|M\d|TP\d+|PP\d+|EP\d+|DP\d+|H\d|L\d"
    r"|SM\d+|GB\d+|TB\d+|MB\d+|GPU\d*|CPU\d*|PCIe\d*|DDR\d+|HBM\d*e?|NV\w+|FA\d|ISL\d*|OSL\d*|P(?:50|90|95|99|999)|T\d{4}|E\d{3,4}|S\d{1,2})$", re.I)
# Server models: the machine, not an accelerator ("Atlas 800 伺服器", "PowerEdge XE9680", "ProLiant DL380")
_SERVER = re.compile(r"Atlas\s*-?\s*[89]\d\d[A-Z]?", re.I)
_SERVER_LINE = re.compile(r"\b(?:PowerEdge|ProLiant|ThinkSystem|SuperServer|UCS)\s*-?\s*$", re.I)
_DEVICE_CUE = re.compile(r"\s*(?:推理|NPU|卡|cards?\b|accelerators?\b)", re.I)
_MODEL = re.compile(lexicon.MODEL_NAME, re.I)
_SIZE = re.compile(r"\d+(?:\.\d+)?\s?[BbMm]\b")
# Quantities whose unit says they describe the situation (a load, a length, a price, a count).
_LOAD_UNITS = ("people", "org", "conc", "req", "tokens", "context", "lora", "usd", "money", "dev", "node")
_REQUEST_RATE = re.compile(r"req(?:uest)?s?\s*(?:/|per|a)\s*(?:s|sec|second|min|minute)|QPS|RPS", _F)


def _devices(text: str, placed: list[tuple[int, int]], names: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    out = []
    for m in _DEVICE.finditer(text):
        word = m.group(0).strip()
        size = _SIZE.fullmatch(word) and not _DEVICE_CUE.match(text, m.end())
        if _NOT_DEVICE.match(re.sub(r"\s+|s$", "", word)) or size or overlaps(m.span(), names) \
                or _SERVER.fullmatch(word) or _SERVER_LINE.search(text, max(0, m.start() - 14), m.start()):
            continue   # a server model ("Atlas 800", "PowerEdge XE9680") is the machine the devices sit in
        out.append(("device", m.start(), m.end()))
    return out


@functools.cache
def _catalog_names() -> tuple[str, ...]:
    """Every catalog model's id, name and aliases, lowercased, letters and digits only."""
    from rules import catalog
    return tuple({re.sub(r"[^a-z0-9]", "", n.lower()) for ident, m in catalog.all_models().items()
                  for n in (ident, m.name, *m.aliases)})


def _known_family(words: str) -> bool:
    """"Qwen 32B": a family the catalog knows, named with a size only (read as that size, not unknown)."""
    size = _SIZE.search(words)
    family = re.sub(r"[^a-z0-9]", "", words[:size.start()].lower()) if size else ""
    return bool(family) and any(n.startswith(family) for n in _catalog_names())


def _models(text: str, placed: list[tuple[int, int]], names: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    return [("model", m.start(), m.end()) for m in _MODEL.finditer(text) if not overlaps(m.span(), names)
            and not (overlaps(m.span(), placed) and _known_family(m.group(0)))]


def _numbers(text: str, placed: list[tuple[int, int]], names: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    from agent.extract_amounts import api_prices
    from agent.extract_volume import volume_spans
    out, prices = [], [(a, b) for _, a, b in api_prices(text)]   # a quoted $/1M tokens is read by the cost answer
    prices += volume_spans(text)   # so is a token volume ("300M tokens/month") or a utilisation
    qs = quantities(text)
    # A count restated as the one placed ("2x L40S … the two GPUs", "兩張 4090 … 這兩張") was understood.
    said = {(q.unit, q.value) for q in qs if overlaps((q.start, q.end), placed)}   # also "1000 users … 1000 employees"
    said |= {("dev", 1.0), ("node", 1.0)}   # "一張夠嗎", "is one node enough": one is what the plan assumes unless told
    for q in qs:
        if q.kind != "quantity" or overlaps((q.start, q.end), placed + names + prices) or (q.unit, q.value) in said:
            continue
        if _LINKS_AFTER.match(text, q.end) or _ORDINAL.search(text, max(0, q.start - 2), q.start) or _host_model(text, q) \
                or _SETTING_BEFORE.search(text, max(0, q.start - 24), q.start) \
                or (q.unit == "dev" and _MACHINE_AFTER.match(text, q.unit_end)) \
                or (q.unit == "dev" and _NOT_DEVICES_AFTER.match(text, q.unit_end)) \
                or (q.unit == "dev" and _names_device(text, q.unit_end, names)) \
                or (q.unit == "tokens" and q.value == 1e6 and _PRICE_NEAR.search(text[max(0, q.start - 20):q.unit_end + 20])):
            continue   # "4x 400G InfiniBand" counts links, "第一個字" is a rank, "1.5x faster" a ratio, "16x 64GB DDR5" DIMMs
        rate = q.unit == "rate" and _REQUEST_RATE.match(text, q.end + (len(text[q.end:]) - len(text[q.end:].lstrip())))
        if q.unit in _LOAD_UNITS or rate:
            out.append(("number", q.start, q.unit_end))
    return out


def _names_device(text: str, end: int, names: list[tuple[int, int]]) -> bool:
    """"4 張 A100", "8x H20": a count of a device the catalog knows, named right after it. It was understood (a
    setup the user compares with, or ran before), not a number without a place."""
    gap = len(text[end:end + 4]) - len(text[end:end + 4].lstrip(" x×*"))
    return any(start == end + gap for start, _ in names)


# "Ryzen 9 7950X", "Core i9 14900K", "Xeon 6": the host's CPU model next to the GPU, not an unplaced device count
_CPU_BEFORE = re.compile(r"\b(?:Ryzen|Core|Threadripper|Xeon|EPYC|Intel|AMD|i[3579])\b[\w\s-]{0,12}$", re.I)


def _host_model(text: str, q) -> bool:
    glued = text[q.end:q.end + 1].isalpha()   # "7950X", "14900K" (a count is "8x H100", a space before the device)
    return product_number(text, q.start) or bool(glued and _CPU_BEFORE.search(text, max(0, q.start - 24), q.start))


# An engine limit the user set ("max 256 sequences", "max_num_seqs 256"): a setting, not their load
_SETTING_BEFORE = re.compile(r"(?:\bmax(?:imum)?|max[-_\s]?num[-_\s]?seqs|--[\w-]+|上限|最多)\s*[=:：]?\s*$", re.I)
# "an 8-card server", "8 卡的機器": the size of the machine the devices sit in, not how many the plan uses
_MACHINE_AFTER = re.compile(r"\s*(?:的\s*)?(?:servers?|nodes?|box(?:es)?|machines?|hosts?|chassis)\b|\s*(?:的\s*)?(?:伺服器|機器|主機|節點)", re.I)


# A multiplier on a network link ("8x 400G InfiniBand", "4 × 200Gb/s IB NICs") belongs to the link
_LINKS_AFTER = re.compile(r"\s*(?:[x×*]\s*)?(?:\d+\s*(?:G|Gb|Gbps|Gb/s|GbE)\b\s*)?(?:InfiniBand|IB\b|RoCE|NICs?\b|HCAs?\b"
                          r"|Ethernet|乙太|網卡)", re.I)
_ORDINAL = re.compile(r"第\s*$")
# "cost per 1M tokens", "what does 1M tokens cost": one million tokens is the unit a price is quoted in
_PRICE_NEAR = re.compile(r"\bcosts?\b|\bprice\w*|\$|\bper\b|\bUSD\b|每|成本|價|費用|多少錢", re.I)
# "Nx" before a comparison or a memory module: a ratio or DIMMs, not devices
_NOT_DEVICES_AFTER = re.compile(r"\s*(?:faster|slower|better|worse|cheaper|more|less|higher|lower|quicker|speed-?up|倍|快|慢)"
                                r"|\s*\d+\s*GB\s*(?:DDR\d?|LPDDR\d?|RDIMM|DIMM|RAM|memory|記憶體)", re.I)
# Which profile fields a quantity of each unit can restate ("2x" after "two RTX 5090s", "100 requests"
# after "up to 100 concurrent")
_UNIT_FIELDS = {"dev": ("count", "device_count"), "node": ("nodes",), "people": ("users", "concurrency"),
                "org": ("users", "concurrency"), "conc": ("concurrency", "users"), "req": ("concurrency", "users"),
                "tokens": ("input_tokens", "output_tokens", "context_length"),
                "context": ("context_length", "input_tokens"), "lora": ("lora_adapters",)}


def restated(item: str, profile: dict) -> bool:
    """Whether an unplaced number's words state a value the final profile holds (so the plan used it):
    the same unit's field, equal, or within 3% for lengths ("16K" beside 16,384)."""
    held = dict(profile or {})
    if held.get("count") is not None:
        held["device_count"] = (held.get("count") or 1) * (held.get("nodes") or 1)
    for q in quantities(item):
        for field in _UNIT_FIELDS.get(q.unit or "", ()):
            v = held.get(field)
            if isinstance(v, (int, float)) and v and abs(v - q.value) <= (0.03 * v if q.unit in ("tokens", "context") else 0):
                return True
            if field == "lora_adapters" and isinstance(v, int) and q.value < v:
                return True   # today's adapters, when the plan is for the count they grow to
    return False


@functools.lru_cache(maxsize=16)
def _names(text: str) -> tuple[tuple[int, int], ...]:
    from agent.extract_aliases import hardware_index
    from agent.extract_model import model_names
    return tuple((h.start, h.end) for h in (*hardware_index().find(text), *model_names(text)))


def unplaced(text: str, placed: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """Device-, model- and quantity-like words of normalised `text` outside `placed` spans, left to right."""
    names = list(_names(text))
    found = _devices(text, placed, names) + _models(text, placed, names) + _numbers(text, placed, names)
    found.sort(key=lambda f: (f[1], -f[2]))
    out: list[tuple[str, int, int]] = []
    for f in found:   # the longest of overlapping candidates ("RTX 5080" over "5080")
        if not any(f[1] < e and s < f[2] for _, s, e in out):
            out.append(f)
    return out
