"""Words of a hardware mention: normalised tokens with their spans in the user's text.

    tokenize(text) -> list[Token]     letter runs, digit runs, CJK characters, punctuation
    memory_at(tokens, i) -> (GB, next index) | None     "80GB", "24G", "1 TB", "16G顯存"
    FORM_WORDS, CORE_WORDS, ...        the small vocabularies the index reads qualifiers with

Tokens keep offsets into the original text (full-width forms, "(R)"/"™" and Simplified characters
are normalised without moving them), so a match can hand its exact span to the extractor.
"""
from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

# Simplified -> Traditional for the characters hardware talk uses, so zh-Hans text matches too.
_S2T = str.maketrans("强腾树显张两记忆体内笔电脑双务卡设备台机专业级", "強騰樹顯張兩記憶體內筆電腦雙務卡設備台機專業級")
_TOKEN = re.compile(
    r"[a-z]+"
    r"|\d+\.\d+(?=\s?(?:gb|gib|g|tb|t)(?![a-z])|(?![a-z\d]))"   # 2.5GB, 11.34 (not 1.2xlarge)
    r"|\d+"
    r"|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
    r"|[^\sa-z\d]")
_TRADEMARK = re.compile(r"\((?:r|tm|c)\)", re.I)


class Token(NamedTuple):
    text: str
    kind: str      # "a" letters, "d" digits, "c" CJK character, "p" punctuation
    start: int     # offsets in the original text
    end: int
    glued: bool    # no space before it (a hyphen between two alphanumerics counts as glue)
    hyphen: bool = False   # glued through a hyphen or underscore ("v5e-8", "vllm-ascend")

    @property
    def alnum(self) -> bool:
        return self.kind in "ad"


def _normalised(text: str) -> tuple[str, list[int]]:
    """Lowercase NFKC text with Traditional characters, and the original index of each character."""
    blanked = _TRADEMARK.sub(lambda m: " " * len(m.group(0)), text)
    if blanked.isascii():       # the common case: one character per character
        return blanked.lower(), list(range(len(blanked)))
    out, where = [], []
    for i, ch in enumerate(blanked):
        n = " " if ch in "®™©" else unicodedata.normalize("NFKC", ch).lower().translate(_S2T)
        for c in n:
            out.append(c)
            where.append(i)
    return "".join(out), where


MAX_DIGITS = 24
"""A longer run of digits is read as its first MAX_DIGITS (still no device, and a finite float)."""


def tokenize(text: str) -> list[Token]:
    """Tokens of `text`; a hyphen or underscore between two alphanumerics glues them ("A100-SXM4")."""
    norm, where = _normalised(str(text))
    raw = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(norm)]
    out: list[Token] = []
    prev_end, hyphen = -1, False
    raw = _split_multiplier(raw)
    for k, (t, s, e) in enumerate(raw):
        kind = "a" if t[0].isalpha() and t.isascii() else "d" if t[0].isdigit() else "c" if t.isalpha() else "p"
        if kind == "p" and t in "-_" and out and out[-1].alnum and k + 1 < len(raw) and raw[k + 1][1] == e \
                and raw[k + 1][0][0].isalnum() and raw[k + 1][0].isascii():
            prev_end, hyphen = e, True   # the hyphen itself is dropped; the next token counts as glued
            continue
        glued = s == prev_end
        if kind == "d" and len(t) > MAX_DIGITS:   # no device is numbered so; keeps float() finite
            t = t[:MAX_DIGITS]
        out.append(Token(t, kind, where[s], where[e - 1] + 1, glued, hyphen and glued))
        prev_end, hyphen = e, False
    return out


def _split_multiplier(raw: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """"8xH100", "2xMI60": the multiplier x is its own token, not the start of a word ("xh")."""
    out: list[tuple[str, int, int]] = []
    for t, s, e in raw:
        if t.startswith("x") and len(t) > 1 and t.isascii() and t.isalpha() and out and out[-1][0].isdigit() \
                and out[-1][2] == s:
            out += [("x", s, s + 1), (t[1:], s + 1, e)]
        else:
            out.append((t, s, e))
    return out


# --- qualifier vocabularies ------------------------------------------------------------------
MEMORY_UNITS = {"gb": 1, "g": 1, "gib": 1, "gig": 1, "gigs": 1, "gigabytes": 1, "tb": 1024, "tib": 1024, "t": 1024}
NOT_DEVICE_MEMORY = {"ssd", "nvme", "disk", "hdd", "storage", "drive", "硬", "碟", "swap", "file"}
TOTAL_WORDS = {"total", "combined", "pooled", "together", "altogether", "總", "共", "合"}
FORM_WORDS = {"pcie": "pcie", "pci": "pcie", "sxm": "sxm", "sxm2": "sxm", "sxm4": "sxm", "sxm5": "sxm", "nvl": "nvl",
              "oam": "oam", "laptop": "laptop", "mobile": "laptop", "notebook": "laptop", "筆": "laptop"}
CORE_WORDS = {"core", "cores", "c", "gpu", "核", "cu"}
SKU_TIER_WORDS = {"gold", "platinum", "silver", "bronze", "max", "processor", "cpu", "w"}
# Words that may sit between a device name and its memory ("RTX 3060 with 8GB", "M4 Pro 的 48GB").
QUALIFIER_FILLER = {"with", "w", "of", "的", "配", "有", "/", ",", "(", ")", ":", "-", "、", "，", "（", "）", "：", "vram",
                    "版", "本", "on", "my", "a", "an", "the", "in", "our", "[", "]"}
PER_DEVICE_WORDS = {"per", "each", "every", "每", "/gpu", "ea"}
CLAUSE_BREAK = {".", ";", "?", "!", "。", "；", "？", "！", "\n", "|"}


def memory_at(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """(GB, index after the unit) when tokens[i] starts a memory size that is not storage or a total."""
    if i >= len(tokens) or tokens[i].kind != "d":
        return None
    if tokens[i].glued and not tokens[i].hyphen and i and tokens[i - 1].kind == "a" and len(tokens[i - 1].text) <= 2 \
            and tokens[i - 1].text != "x":
        return None                   # "c7g", "r8g" are model names, not 7 GB
    j = i + 1
    if j < len(tokens) and tokens[j].kind == "a" and tokens[j].text in MEMORY_UNITS:
        unit = tokens[j].text
        if unit in ("t", "g") and not tokens[j].glued:
            return None               # "24 g" is too loose; "24G" is a size
        nxt = [t.text for t in tokens[j + 1:j + 3]]
        if nxt[:1] == ["/"] and nxt[1:2] and nxt[1] in ("s", "sec"):
            return None               # "3.35 TB/s" is a bandwidth
        # "80GB total", "96 GB in total" are a sum; "40GB PCIe 共 4 張" is one card's memory, then a card count
        if set(nxt) & NOT_DEVICE_MEMORY or set(nxt[:1] if nxt[:1] and nxt[0] in FORM_WORDS else nxt) & TOTAL_WORDS:
            return None
        return float(tokens[i].text) * MEMORY_UNITS[unit], j + 1
    return None


def is_break(tok: Token) -> bool:
    """True at a clause boundary (qualifiers and alias words never reach across one)."""
    return tok.kind == "p" and tok.text in CLAUSE_BREAK
