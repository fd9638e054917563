"""The host's system RAM: size, type (DDR4/DDR5), transfer rate and channels per CPU.

"256GB DDR5-5200 (4 channels)", "512GB DDR4-3200（每路 8 通道插滿）", "128GB of DDR5 6000 in dual channel",
"八通道 DDR4-2933". Weights offloaded to the CPU stream from this RAM (rules.roofline.offload.stated_host), so
its bandwidth, not the card's, sets the speed of what runs there. A size is read only when a RAM word
(DDR, RAM, 系統記憶體, 內存) stands next to it: a card's "24GB" or "48GB VRAM" is not the host's.
"""
from __future__ import annotations

import re

from agent.extract_base import Finding

_F = re.I
_DDR = re.compile(r"(?<![A-Za-z])(?:LP)?DDR(?P<gen>[45])X?(?:\s*(?:[-@/]\s*)?(?P<mts>\d{4,5})(?:\s*(?:MT/s|MHz|MT))?)?(?!\d)", _F)
_RATE = re.compile(r"(?<!\d)(?P<mts>\d{4,5})\s*MT/s", _F)
_SIZE = r"(?P<num>\d{1,5}(?:\.\d+)?)\s*(?P<unit>TB|GB|T|G)\b(?!\s*/\s*s)"
# a size right before a RAM word ("256GB DDR5", "512GB of DDR4", "128 GB RAM", "256GB 記憶體"), or right after one
# ("RAM: 256GB", "系統記憶體 512GB", "DDR5 128GB")
_RAM_WORD = r"(?:(?:LP)?DDR[45]X?|(?<![Vv])RAM\b|system\s+memory|host\s+memory|系統記憶體|主機記憶體|內存|内存|(?<![顯显])記憶體(?!頻寬))"
_SIZE_BEFORE = re.compile(_SIZE + r"\s*(?:of\s+)?(?:system\s+)?" + _RAM_WORD, _F)
_SIZE_AFTER = re.compile(_RAM_WORD + r"(?:[-\s]?\d{4,5}(?:\s*(?:MT/s|MHz))?)?\s*(?:[:：=]|is|約|大約|有|共)?\s*" + _SIZE.replace("num", "num2").replace("unit", "unit2"), _F)
_NUM_WORDS = {"single": 1, "dual": 2, "two": 2, "quad": 4, "four": 4, "six": 6, "hexa": 6, "eight": 8, "octa": 8,
              "octo": 8, "twelve": 12, "單": 1, "雙": 2, "两": 2, "兩": 2, "二": 2, "四": 4, "六": 6, "八": 8, "十二": 12}
_CHANNELS = re.compile(r"(?P<n>\d{1,2}|single|dual|two|quad|four|six|hexa|eight|octa|octo|twelve|十二|單|雙|兩|两|二|四|六|八)"
                       r"\s*[-\s]?\s*(?:個\s*)?(?:memory\s+)?(?:channels?|ch\b|通道)", _F)


def _gb(num: str, unit: str) -> float:
    return float(num) * (1024 if unit.upper().startswith("T") else 1)


def find(text: str) -> list[Finding]:
    """host_memory_gb, host_mem_type, host_mem_mts and host_mem_channels, each where the text states it."""
    out: list[Finding] = []
    ddr = next((m for m in _DDR.finditer(text)), None)
    if ddr:
        out.append(Finding("host_mem_type", f"ddr{ddr.group('gen')}", ddr.start(), ddr.end("gen") if ddr.group("gen") else ddr.end()))
    rate = ddr if ddr and ddr.group("mts") else _RATE.search(text)
    if rate and 800 <= int(rate.group("mts")) <= 20000:
        out.append(Finding("host_mem_mts", int(rate.group("mts")), rate.start("mts"), rate.end("mts")))
    ch = _CHANNELS.search(text)
    if ch and (ddr or rate or re.search(_RAM_WORD, text, _F) or re.search(r"memory|記憶體|內存", text, _F)):
        n = ch.group("n")
        value = int(n) if n.isdigit() else _NUM_WORDS[n.lower()]
        if 1 <= value <= 24:
            out.append(Finding("host_mem_channels", value, ch.start(), ch.end()))
    size = _SIZE_BEFORE.search(text)
    if size:
        out.append(Finding("host_memory_gb", _gb(size.group("num"), size.group("unit")), size.start(), size.end("unit")))
    else:
        after = _SIZE_AFTER.search(text)
        if after:
            out.append(Finding("host_memory_gb", _gb(after.group("num2"), after.group("unit2")), after.start("num2"), after.end("unit2")))
    return out
