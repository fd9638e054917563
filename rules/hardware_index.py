"""Which catalog device a text names, and where: a token index over every hardware alias.

    find_devices(text) -> list[DeviceMatch]     every device named, left to right, with its span
    resolve(text) -> DeviceMatch | None          the device the text is about (accelerators before CPUs)
    unrecognised(text) -> list[UnknownDevice]    words that look like a device but match no entry
    closest(words, k) -> list[hw_id]             catalog entries nearest to words we did not know

An alias becomes an anchor (its model number with the letters glued to it: "h"+"100", "m"+"4",
"mi"+"300"+"x"; or its first word when it has no number) plus the other words of the alias. A hit
is an anchor in the text with all its other words nearby, in any order, inside one clause. Vendor
and series words are optional ("NVIDIA GeForce RTX 4090" = "4090"). Entries sharing an alias (A100
PCIe/SXM, 40/80 GB) are told apart by qualifiers beside the name: memory ("40GB", "80G"), package
(PCIe, SXM, NVL, laptop), GPU core count ("40-core"); else the entry marked default wins. CPU
product numbers ("Xeon Gold 6430", "EPYC 9654") are matched against each family's sku_patterns.
A machine described only by its class ("an i7 laptop", "a dual-socket server", "CPU only")
becomes a class-level entry flagged approximate. The index is built once, on first use.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rules import catalog
from rules.errors import DataError
from rules.hardware_text import (
    CORE_WORDS, FORM_WORDS, PER_DEVICE_WORDS, QUALIFIER_FILLER, SKU_TIER_WORDS, Token, is_break, memory_at, tokenize,
)

# Vendor and series words: optional in front of a model name.
SKIP = {"nvidia", "geforce", "rtx", "gtx", "tesla", "amd", "radeon", "rx", "instinct", "intel", "arc", "apple", "habana",
        "google", "cloud", "aws", "amazon", "huawei", "qualcomm"}
# Machine names whose tier word is not the chip's ("MacBook Pro M4 Max" is an M4 Max, not an M4 Pro).
MACHINES = [("macbook", "pro"), ("macbook", "air"), ("mac", "studio"), ("mac", "mini"), ("mac", "pro")]
GPU_CONTEXT = {"gpu", "gpus", "card", "cards", "vram", "顯", "卡", "張", "片", "塊", "x", "×", "*"}
COUNT_WORDS = {"dual", "two", "three", "four", "eight", "single", "one", "兩", "二", "三", "四", "八", "雙", "單", "一"}
NOT_DEVICE_AFTER = {"tokens", "token", "tok", "toks", "users", "user", "people", "ms", "words", "mhz", "steps", "requests",
                    "qps", "ctx", "context", "人", "個", "字", "元", "ssd", "nvme", "slot", "key", "mm", "w", "watts", "k"}
GLUE_OK_AFTER = {"s", "x", "×"} | SKIP
MEMORY_TOLERANCE = 0.08   # "H100 NVL 96GB" is the 94 GB part; "B200 192GB" the 180 GB one
SERIES = {"rtx", "gtx", "gt", "mx", "quadro", "tesla", "titan", "radeon", "rx", "arc", "instinct", "mi", "jetson", "xeon",
          "epyc", "ryzen", "geforce", "gaudi", "ascend", "tpu", "snapdragon", "graviton", "apple"}

# A machine named only by its class: cue words -> (class, vendor), resolved to a class-level entry.
_CLASS_CUES = {
    "server": ["server", "servers", "伺服器", "服務器", "rack server", "dual socket", "two socket", "2 socket", "2p", "雙路"],
    "laptop": ["laptop", "notebook", "thinkpad", "ideapad", "zenbook", "xps", "筆電", "筆記型", "筆記本"],
    "desktop": ["desktop", "pc", "tower", "桌機", "桌上型", "台式"],
    "cpu": ["cpu only", "cpu-only", "no gpu", "without gpu", "without a gpu", "沒有 gpu", "沒 gpu", "無 gpu", "純 cpu", "only cpu"],
}
_VENDOR_CUES = {"intel": ["intel", "i3", "i5", "i7", "i9", "core i", "celeron", "pentium", "xeon"],
                "amd": ["amd", "ryzen", "threadripper", "epyc"]}
_SOCKET_CUES = {"dual socket": 2, "two socket": 2, "2 socket": 2, "2p": 2, "雙路": 2, "quad socket": 4}
CLASS_IDS = {
    ("server", "intel"): "cpu_server_intel", ("server", "amd"): "cpu_server_amd", ("server", None): "cpu_server_generic",
    ("laptop", "intel"): "cpu_laptop_intel", ("laptop", "amd"): "cpu_laptop_amd", ("laptop", None): "cpu_generic",
    ("desktop", "intel"): "cpu_desktop_intel", ("desktop", "amd"): "cpu_desktop_amd", ("desktop", None): "cpu_generic",
    ("cpu", "intel"): "cpu_desktop_intel", ("cpu", "amd"): "cpu_desktop_amd", ("cpu", None): "cpu_generic",
}
_INTEL_MOBILE_SKU = re.compile(r"^\d{4,5}(?:u|h|hx|hk|hs|p|g\d?|v|y)$")
_SYSTEM_MEMORY_WORDS = {"ram", "memory", "mem", "ddr", "ddr4", "ddr5", "記", "憶", "內", "存", "system"}

__all__ = ["DeviceMatch", "UnknownDevice", "find_devices", "resolve", "unrecognised", "closest"]


@dataclass(frozen=True)
class DeviceMatch:
    """One device named in a text."""

    id: str
    start: int
    end: int
    """Span of the device's name (and CPU product number) in the original text."""
    text: str
    memory_gb: float | None = None
    """Per-device memory the text states next to the name."""
    memory_matches: bool = False
    """The stated memory is this entry's own size (or one of its configurations), not an override."""
    count: int | None = None
    """Sockets stated with a class-level CPU ("a dual-socket server" -> 2)."""
    approximate: bool = False
    alternatives: tuple[str, ...] = ()
    """Other entries the same name could mean (variants the text did not rule out)."""


@dataclass(frozen=True)
class UnknownDevice:
    """Words that look like a device but match no catalog entry."""

    text: str
    start: int
    end: int
    suggestions: tuple[str, ...]
    memory_gb: float | None = None
    """Memory written right after the words ("Quadro M6000 24G"): the fit arithmetic can still use it."""
    memory_text: str | None = None


@dataclass(frozen=True)
class _Key:
    anchor: tuple[str, ...]
    words: frozenset
    order: tuple[str, ...]


@dataclass
class _Hit:
    key: _Key
    first: int          # token index range covered by the name (anchor and words)
    last: int
    score: float


# --- building the index ------------------------------------------------------------------------
def _strong(core: list[Token]) -> bool:
    """A core that can stand without its vendor word: two tokens, or one distinct model number
    ("Intel server" keeps "intel"; "RTX 6000" keeps "rtx"; "RTX 4090" is just "4090")."""
    if len(core) >= 2:
        return True
    t = core[0]
    return t.kind == "d" and float(t.text) >= 1000 and float(t.text) % 100 != 0


def _core(alias: str) -> list[Token]:
    """Alias tokens without memory sizes, package words and (where optional) vendor/series words."""
    toks = tokenize(alias)
    out, i = [], 0
    while i < len(toks):
        mem = memory_at(toks, i)
        if mem:
            i = mem[1]
            continue
        t = toks[i]
        if t.kind == "a" and t.text in FORM_WORDS:
            i += 1
            while i < len(toks) and toks[i].glued and toks[i].kind == "d":   # SXM4, NVL72
                i += 1
            continue
        if t.kind != "p":
            out.append(t)
        i += 1
    if not out:            # the name is only a package word ("NVL72")
        out = [t for t in toks if t.kind != "p"]
    while len(out) > 1 and out[0].text in SKIP and _strong(out[1:]):
        out = out[1:]
    return out


def _key(core: list[Token]) -> _Key:
    """Anchor: the model number with the letters glued to it; the other tokens are words."""
    digits = sorted((k for k, t in enumerate(core) if t.kind == "d"), key=lambda k: -len(core[k].text))
    if not digits:
        start, end = 0, 1
    else:
        start = end = digits[0]   # the longest number: "Ryzen AI 9 HX 370" is anchored on 370
        end += 1
        while start > 0 and core[start].glued and core[start - 1].kind == "a" and len(core[start - 1].text) <= 3 \
                and core[start - 1].text not in SKIP:
            start -= 1
        while end < len(core) and core[end].glued:
            end += 1
    anchor = tuple(t.text for t in core[start:end])
    rest = [t.text for t in core[:start] + core[end:]]
    return _Key(anchor, frozenset(rest), tuple(rest))


@dataclass
class _Index:
    by_first: dict[str, list[_Key]]
    groups: dict[_Key, list[str]]
    default: dict[_Key, str]
    order: dict[str, int]
    sku_family: dict[str, list[str]]
    """Family word -> entries with product-number patterns ("xeon" -> every Xeon generation)."""
    vocab: dict[tuple[str, int], list[str]]
    """Alias words of 4+ letters by (first letter, length), for one-typo corrections ("Orion" -> "orin")."""


def _default_for(key: _Key, ids: list[str], claims: dict[_Key, list[str]], table) -> str:
    claimed = claims.get(key, [])
    if len(claimed) == 1:
        return claimed[0]
    marked = [i for i in ids if table[i].default_variant]
    if len(ids) == 1:
        return ids[0]
    if len(claimed) > 1 or len(marked) != 1:
        who = claimed if len(claimed) > 1 else marked or ids
        name = " ".join(key.anchor + key.order)
        raise DataError(catalog.hardware_file(ids[0]), ",".join(sorted(who)), "default_variant",
                        f"the name '{name}' is shared by {sorted(ids)}: exactly one of them must be the default "
                        f"(default_variant, or default_for)")
    return marked[0]


@functools.cache
def _index() -> _Index:
    from rules.catalog_cache import cached
    return cached("hardware-index", catalog.hardware_files(), _build_index)


def _build_index() -> _Index:
    table = catalog.all_hardware()
    groups: dict[_Key, list[str]] = {}
    claims: dict[_Key, list[str]] = {}
    for hw_id, hw in table.items():
        names = () if hw.approximate else (hw.name.split(" (")[0],)
        for alias in (hw_id, *names, *hw.aliases):
            core = _core(alias)
            if not core:
                continue
            key = _key(core)
            if hw_id not in groups.setdefault(key, []):
                groups[key].append(hw_id)
            if alias in hw.default_for and hw_id not in claims.setdefault(key, []):
                claims[key].append(hw_id)
    by_first: dict[str, list[_Key]] = {}
    for key in groups:
        by_first.setdefault(key.anchor[0], []).append(key)
    default = {k: _default_for(k, ids, claims, table) for k, ids in groups.items()}
    sku = {k.anchor[0]: ids for k, ids in groups.items()
           if len(k.anchor) == 1 and not k.words and any(table[i].sku_patterns for i in ids)}
    missing = {v for v in CLASS_IDS.values() if v not in table}
    if missing:
        raise DataError("rules/catalog/hardware", ",".join(sorted(missing)), "id", "class-level entries the resolver needs are missing")
    words = {w for k in groups for w in (*k.anchor, *k.order) if w.isascii() and w.isalpha() and len(w) >= 4}
    vocab: dict[tuple[str, int], list[str]] = {}
    for w in sorted(words):
        vocab.setdefault((w[0], len(w)), []).append(w)
    return _Index(by_first, groups, default, {k: n for n, k in enumerate(table)}, sku, vocab)


def _one_edit(a: str, b: str) -> bool:
    """True when b is a with one insertion, deletion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0   # one deletion from the longer word: at its first difference (any later one would do the same)
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


_KNOWN: tuple[_Index, frozenset[str]] | None = None


def _known_words(idx: _Index) -> frozenset[str]:
    """Every alias word of the index, built once per index (not per text read)."""
    global _KNOWN
    if _KNOWN is None or _KNOWN[0] is not idx:
        _KNOWN = (idx, frozenset(w for ws in idx.vocab.values() for w in ws))
    return _KNOWN[1]


def _corrected(toks: list[Token], idx: _Index) -> list[Token]:
    """Tokens with one-typo misspellings of alias words fixed ("Jetston", "Ascned", "snapdargon")."""
    known = _known_words(idx)
    out = []
    for t in toks:
        if t.kind == "a" and len(t.text) >= 5 and t.text not in known and t.text not in SKIP:
            near = [w for n in (len(t.text) - 1, len(t.text), len(t.text) + 1)
                    for w in idx.vocab.get((t.text[0], n), ()) if _one_edit(t.text, w)]
            if len(near) == 1:
                t = t._replace(text=near[0])
        out.append(t)
    return out


# --- matching ----------------------------------------------------------------------------------
def _machine_words(toks: list[Token]) -> set[int]:
    """Token indexes of machine names ("MacBook Pro") so their tier word is not read as the chip's."""
    taken: set[int] = set()
    for i, tok in enumerate(toks):
        for words in _MACHINES_BY_FIRST.get(tok.text, ()):   # only a machine's first word can start one
            if all(i + k < len(toks) and toks[i + k].text == w for k, w in enumerate(words)):
                taken.update(range(i, i + len(words)))
    return taken


_MACHINES_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _words in MACHINES:
    _MACHINES_BY_FIRST.setdefault(_words[0], []).append(_words)


def _anchor_at(toks: list[Token], i: int, anchor: tuple[str, ...]) -> bool:
    if i + len(anchor) > len(toks):
        return False
    for k, word in enumerate(anchor):
        t = toks[i + k]
        if t.text != word or (k and not t.glued):
            return False
    return True


def _left_ok(toks: list[Token], i: int, words: frozenset) -> bool:
    """A name may not start inside another word ("x3650M4" is not an M4)."""
    if not (i and toks[i].glued and toks[i - 1].alnum) or toks[i].hyphen:
        return True
    prev = toks[i - 1].text
    return prev in SKIP or prev in words or (prev in ("x", "×") and i >= 2 and toks[i - 2].kind == "d")


def _right_ok(toks: list[Token], j: int, used: set[int]) -> bool:
    """A name may not run on into a longer word or model ("4060ti" is not a 4060)."""
    if j >= len(toks) or j in used or not (toks[j].glued and toks[j].alnum):
        return True
    t = toks[j]
    if t.hyphen and t.kind == "d":      # "v5e-8", "trn2-48": a count after the name
        return True
    if t.text in GLUE_OK_AFTER and not (j + 1 < len(toks) and toks[j + 1].glued and toks[j + 1].kind == "a"):
        return True
    return memory_at(toks, j) is not None or t.text in FORM_WORDS


def _weak_ok(toks: list[Token], i: int, j: int) -> bool:
    """A bare model number ("4090") counts only where it reads as hardware, not as "4000 tokens"."""
    prev = toks[i - 1] if i else None
    nxt = toks[j] if j < len(toks) else None
    if prev is not None and (prev.text in SKIP or prev.text in GPU_CONTEXT or prev.text in COUNT_WORDS):
        return True
    if nxt is not None and (nxt.text in GPU_CONTEXT or (nxt.text == "s" and nxt.glued) or memory_at(toks, j)):
        return True
    n = float(toks[i].text)
    if nxt is not None and nxt.text in NOT_DEVICE_AFTER:
        return False
    if prev is not None and prev.text in ("$", ",", "."):
        return False
    return n >= 1000 and n % 100 != 0


def _window(toks: list[Token], i: int, j: int, width: int) -> range:
    lo = i
    while lo > max(0, i - width) and not is_break(toks[lo - 1]):
        lo -= 1
    hi = j
    while hi < min(len(toks), j + width) and not is_break(toks[hi]):
        hi += 1
    return range(lo, hi)


def _hits_at(toks: list[Token], i: int, idx: _Index, blocked: set[int]) -> list[_Hit]:
    out = []
    for key in idx.by_first.get(toks[i].text, ()):
        if not _anchor_at(toks, i, key.anchor) or not _left_ok(toks, i, key.words):
            continue
        j = i + len(key.anchor)
        spots: list[int] = []
        for word in key.order:
            spot = next((k for k in _window(toks, i, j, len(key.order) + 2)
                         if toks[k].text == word and k not in spots and not i <= k < j and k not in blocked), None)
            if spot is None:
                break
            spots.append(spot)
        if len(spots) != len(key.order) or not _right_ok(toks, j, set(spots)):
            continue
        if len(key.anchor) == 1 and toks[i].kind == "d" and not key.order and not _weak_ok(toks, i, j):
            continue
        first, last = min([i, *spots]), max([j - 1, *spots])
        in_order = spots == sorted(spots) and all(k > j - 1 for k in spots)
        numbered = any(w[0].isdigit() for w in key.anchor)
        score = 3 * len(key.anchor) + 2 * numbered + 2 * len(key.order) + (0.5 if in_order else 0) - 0.01 * (last - first)
        # a model number the name steps over belongs to another name ("EPYC 9654 server" is the 9654,
        # not a generic EPYC server); a memory size does not count
        skipped = [k for k in range(first, last + 1) if not i <= k < j and k not in spots
                   and toks[k].kind == "d" and len(toks[k].text) >= 3 and not memory_at(toks, k)]
        score -= 3 * len(skipped)
        out.append(_Hit(key, first, last, score))
    return out


def _named_hits(toks: list[Token]) -> list[_Hit]:
    idx = _index()
    toks[:] = _corrected(toks, idx)
    blocked = _machine_words(toks)
    found = [h for i in range(len(toks)) if i not in blocked for h in _hits_at(toks, i, idx, blocked)]
    found.sort(key=lambda h: (-h.score, h.first))
    chosen: list[_Hit] = []
    for h in found:
        if all(h.last < c.first or h.first > c.last for c in chosen):
            chosen.append(h)
    return sorted(chosen, key=lambda h: h.first)


# --- qualifiers and variants ---------------------------------------------------------------------
@dataclass
class _Qualifiers:
    memory: float | None = None
    form: str | None = None
    cores: frozenset = frozenset()
    memory_at: tuple[int, int] | None = None   # token range of the memory size
    form_at: int | None = None


def _record_counter(toks: list[Token], k: int) -> bool:
    """筆 alone is the counter for records ("3 萬筆工單"); only 筆電 / 筆記型 name a laptop."""
    return toks[k].text == "筆" and (k + 1 >= len(toks) or toks[k + 1].text not in ("電", "記"))


def _qualifiers(toks: list[Token], first: int, last: int, stop: int) -> _Qualifiers:
    """Memory, package and core count written right after (or, for memory, right before) a name."""
    q = _Qualifiers()
    cores = set()
    k, seen = last + 1, 0
    while k < min(stop, len(toks)) and seen < 12 and not is_break(toks[k]):
        t = toks[k]
        mem = memory_at(toks, k)
        if mem:
            per_device = mem[1] < len(toks) and toks[mem[1]].text in PER_DEVICE_WORDS
            if q.memory is None or per_device:     # "1TB (512G per socket)": the per-device figure wins
                q.memory, q.memory_at = mem[0], (k, mem[1] - 1)
            k = mem[1]
            continue
        if t.text in FORM_WORDS and q.form is None and not _record_counter(toks, k):
            q.form, q.form_at = FORM_WORDS[t.text], k
        elif t.kind == "d" and k + 1 < len(toks) and toks[k + 1].text in CORE_WORDS:
            cores.add(int(float(t.text)))
        elif t.kind == "p" and t.text not in QUALIFIER_FILLER and t.text not in ("+", "/"):
            break
        elif t.text in ("and", "vs", "or", "和", "與", "加"):
            break
        k, seen = k + 1, seen + 1
    if q.memory is None:   # "16G顯存的4060Ti", "80GB A100"
        k = first - 1
        while k >= max(0, first - 6) and not is_break(toks[k]):
            if toks[k].kind == "a" and toks[k].text in ("gb", "g", "tb", "gib") and k >= 1:
                mem = memory_at(toks, k - 1)
                if mem and mem[1] == k + 1:
                    q.memory, q.memory_at = mem[0], (k - 1, k)
                break
            if toks[k].text not in QUALIFIER_FILLER and toks[k].kind != "c" and toks[k].text not in ("vram", "memory"):
                break
            k -= 1
    q.cores = frozenset(cores)
    return q


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= MEMORY_TOLERANCE * max(a, b)


def _memory_fits(hw, gb: float) -> bool:
    """The size is this entry's own, one of its configurations, or (CPUs) any size up to the largest."""
    if _close(hw.memory_gb, gb) or any(_close(m, gb) for m in hw.memory_options_gb):
        return True
    return hw.memory_is_max_config and not hw.memory_options_gb and gb <= hw.memory_gb


def _choose(ids: list[str], default: str, q: _Qualifiers, order: dict[str, int]) -> str:
    table = catalog.all_hardware()

    def score(hw_id: str) -> tuple:
        hw = table[hw_id]
        s = 0
        if q.memory is not None and _memory_fits(hw, q.memory):
            s += 4
        if q.form is not None:
            s += 3 if hw.form_factor == q.form else (-1 if hw.form_factor in FORM_WORDS.values() else 0)
        if q.cores and hw.gpu_cores in q.cores:
            s += 3
        base = table[default]
        return (s, hw_id == default, hw.form_factor == base.form_factor, hw.memory_gb == base.memory_gb, -order[hw_id])
    return max(ids, key=score)


def _sku(toks: list[Token], j: int) -> tuple[str, int] | None:
    """The product number after a CPU family name ("Gold 6430", "9534", "7c13", "8480+")."""
    k = j
    while k < len(toks) and k < j + 3 and toks[k].text in SKU_TIER_WORDS:
        k += 1
    if k >= len(toks) or not toks[k].alnum or not any(c.isdigit() for c in toks[k].text + (
            toks[k + 1].text if k + 1 < len(toks) and toks[k + 1].glued else "")):
        return None
    text, end = toks[k].text, k + 1
    while end < len(toks) and toks[end].glued and (toks[end].alnum or toks[end].text == "+"):
        text += toks[end].text
        end += 1
    return text, end


def _system_memory(toks: list[Token], taken: set[int]) -> float | None:
    """The machine's RAM stated anywhere ("64 gb ram", "32 GB of memory", "768 GB DDR5")."""
    for k in range(len(toks)):
        if k in taken:
            continue
        mem = memory_at(toks, k)
        if mem:
            near = {t.text for t in toks[mem[1]:mem[1] + 3]} | {t.text for t in toks[max(0, k - 2):k]}
            if near & _SYSTEM_MEMORY_WORDS:
                return mem[0]
    return None


def _match(text: str, toks: list[Token], hit: _Hit, stop: int) -> DeviceMatch:
    idx = _index()
    table = catalog.all_hardware()
    ids = idx.groups[hit.key]
    last = hit.last
    chosen = None
    family = [i for k in range(hit.first, hit.last + 1) for i in idx.sku_family.get(toks[k].text, ())]
    if family:
        sku = _sku(toks, hit.last + 1)
        if sku:
            found = [i for i in family if any(re.match(p, sku[0]) for p in table[i].sku_patterns)]
            if found:
                chosen, last = found[0], sku[1] - 1
    q = _qualifiers(toks, hit.first, last, stop)
    if chosen is None:
        chosen = _choose(ids, idx.default[hit.key], q, idx.order)
    hw = table[chosen]
    memory = q.memory
    if memory is None and hw.approximate:
        memory = _system_memory(toks, set(range(hit.first, last + 1)))
    first = hit.first
    # Words that picked the variant belong to its name: "A100 40GB PCIe" is one name (the extractor
    # then reads no memory override from it); a Mac's or a CPU's size stays a configuration to read.
    if q.memory_at and _memory_named(hw, q.memory) and q.memory_at[0] - last <= 3:
        first, last = min(first, q.memory_at[0]), max(last, q.memory_at[1])
    if q.form_at is not None and hw.form_factor == q.form and q.form_at - last <= 3:
        last = max(last, q.form_at)
    while first > 0 and toks[first - 1].text in SKIP and not is_break(toks[first - 1]):
        first -= 1          # the vendor and series words are part of the name: "NVIDIA GeForce RTX 4090"
    sockets = _sockets(toks, hit.first) if hw.hw_class == "cpu" else None
    opened = sum(t.text in "(（" for t in toks[first:last + 1]) - sum(t.text in ")）" for t in toks[first:last + 1])
    if opened > 0 and last + 1 < len(toks) and toks[last + 1].text in ")）":
        last += 1           # "Xeon 6 (Granite Rapids)": close what the name opened
    start, end = toks[first].start, toks[last].end
    others = tuple(i for i in ids if i != chosen and (memory is None or _memory_fits(table[i], memory)))
    return DeviceMatch(chosen, start, end, text[start:end], memory,
                       memory is not None and _memory_fits(hw, memory), sockets, hw.approximate, others)


def _memory_named(hw, gb: float) -> bool:
    """The size is written in one of the entry's own names ("A100 80GB", "4060 Ti 16GB")."""
    for alias in hw.aliases:
        toks = tokenize(alias)
        if any((m := memory_at(toks, k)) and _close(m[0], gb) for k in range(len(toks))):
            return True
    return False


def _sockets(toks: list[Token], first: int) -> int | None:
    """CPU sockets stated: "dual-socket", "2P", "雙路" anywhere, or "dual"/"two" right before the name."""
    for cue, n in _SOCKET_CUES.items():
        if _cue_spans(toks, [cue]):
            return n
    before = [t.text for t in toks[max(0, first - 2):first] if t.kind != "p"]
    if before and before[-1] in ("dual", "two", "雙", "兩"):
        return 2
    return None


# --- machines described by class --------------------------------------------------------------------
def _cue_spans(toks: list[Token], phrases: list[str]) -> list[tuple[int, int]]:
    """(first, last) token index of every occurrence of a phrase, punctuation between words skipped.
    Linear in the tokens: a match starts only at a word, and words are compared on the word list
    (skipping a run of punctuation from every start was quadratic on "[[[[...")."""
    words_at = [i for i, t in enumerate(toks) if t.kind != "p"]
    texts = [toks[i].text for i in words_at]
    spans = []
    for phrase in phrases:
        words = _phrase_words(phrase)
        if not words:
            continue
        n = len(words)
        for j in range(len(texts) - n + 1):
            if texts[j] == words[0] and texts[j:j + n] == words:
                spans.append((words_at[j], words_at[j + n - 1]))
    return spans


@functools.lru_cache(maxsize=1024)
def _phrase_words(phrase: str) -> list[str]:
    """A cue phrase's words (tokenized once: the cue lists are constants read on every message).
    Callers only read the list."""
    return [t.text for t in tokenize(phrase) if t.kind != "p"]


def _class_match(text: str, toks: list[Token]) -> DeviceMatch | None:
    """"an i7 laptop with 32 GB", "a dual-socket server", "CPU only" -> an approximate class-level entry."""
    found = {cls: _cue_spans(toks, cues) for cls, cues in _CLASS_CUES.items()}
    vendors = {v: _cue_spans(toks, cues) for v, cues in _VENDOR_CUES.items()}
    vendor = next((v for v, spans in vendors.items() if spans), None)
    mobile_sku = vendor == "intel" and any(_INTEL_MOBILE_SKU.match(t.text + (toks[n + 1].text if n + 1 < len(toks) and toks[n + 1].glued else ""))
                                           for n, t in enumerate(toks) if t.kind == "d")
    sockets = next((n for cue, n in _SOCKET_CUES.items() if _cue_spans(toks, [cue])), None)
    # "server" or "desktop" alone may be an inference server or a GPU box: they need a sign of a CPU machine.
    cpu_sign = bool(found["cpu"] or vendor or sockets or any(t.text in ("cpu", "cpus", "ddr4", "ddr5") for t in toks))
    cls = "laptop" if found["laptop"] or mobile_sku else None
    if cls is None and cpu_sign:
        cls = next((c for c in ("server", "desktop") if found[c]), None)
    if cls is None and (found["cpu"] or vendors["intel"] and any(t.text in ("i3", "i5", "i7", "i9") for t in toks)
                        or vendors["amd"] and any(t.text == "ryzen" for t in toks)):
        cls = "cpu"
    if cls is None:
        return None
    spans = found.get(cls) or [s for v in vendors.values() for s in v] or found["cpu"]
    first, last = min(s[0] for s in spans), max(s[1] for s in spans)
    sockets = sockets if cls == "server" else None
    hw_id = CLASS_IDS[(cls, vendor)]
    memory = _qualifiers(toks, first, last, len(toks)).memory or _system_memory(toks, set())   # the machine's RAM
    start, end = toks[first].start, toks[last].end
    return DeviceMatch(hw_id, start, end, text[start:end], memory,
                       memory is not None and _memory_fits(catalog.all_hardware()[hw_id], memory), sockets, True)


# --- public API ----------------------------------------------------------------------------------
def find_devices(text: str) -> list[DeviceMatch]:
    """Every catalog device named in `text`, left to right (a class-level CPU when nothing is named)."""
    if not text or not str(text).strip():
        return []
    toks = tokenize(text)
    hits = _named_hits(toks)
    out = []
    for n, hit in enumerate(hits):
        stop = hits[n + 1].first if n + 1 < len(hits) else len(toks)
        out.append(_match(str(text), toks, hit, stop))
    if not out:
        cls = _class_match(str(text), toks)
        out = [cls] if cls else []
    return out


_COMPARED = {"as", "than", "vs", "versus", "like", "compared", "比", "相比", "對比", "vs."}


def resolve(text: str) -> DeviceMatch | None:
    """The device a text is about: its first accelerator not named as a comparison ("as fast as
    an H200 on B300 instances" is about the B300), else its first device."""
    found = find_devices(text)
    if len(found) <= 1:
        return found[0] if found else None
    table = catalog.all_hardware()
    toks = tokenize(text)

    def compared(m: DeviceMatch) -> bool:
        before = [t.text for t in toks if t.end <= m.start][-2:]
        return bool(set(before) & _COMPARED)
    accel = [m for m in found if table[m.id].hw_class != "cpu"]
    return ([m for m in accel if not compared(m)] or accel or found)[0]


def _model_like(tok: Token) -> bool:
    return tok.kind == "d" or (tok.kind == "a" and len(tok.text) <= 3 and tok.text not in ("the", "and", "for", "with"))


def unrecognised(text: str) -> list[UnknownDevice]:
    """Device-looking words no catalog entry took: a series word with a model ("GTX 1060", "Quadro
    M6000", "Tesla K80"), or a letter+number model beside a GPU word ("two K80 cards")."""
    if not text:
        return []
    toks = tokenize(text)
    covered: set[int] = set()
    for m in find_devices(text):
        covered.update(k for k, t in enumerate(toks) if t.start < m.end and m.start < t.end)
    out: list[UnknownDevice] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        start = None
        if t.text in SERIES and k + 1 < len(toks) and toks[k + 1].alnum and _has_digit(toks, k + 1):
            start, end = k, k + 1
        elif t.kind == "a" and len(t.text) <= 2 and k + 1 < len(toks) and toks[k + 1].kind == "d" and toks[k + 1].glued \
                and _near_gpu_word(toks, k):
            start, end = k, k + 1
        if start is None or covered & set(range(start, end + 1)):
            k += 1
            continue
        while end + 1 < len(toks) and (toks[end + 1].glued and toks[end + 1].alnum
                                       or toks[end + 1].text in ("ti", "super", "xt", "xtx")):
            end += 1
        s, e = toks[start].start, toks[end].end
        q = _qualifiers(toks, start, end, len(toks))
        mem_text = str(text)[toks[q.memory_at[0]].start:toks[q.memory_at[1]].end] if q.memory_at else None
        out.append(UnknownDevice(str(text)[s:e], s, e, tuple(closest(str(text)[s:e])), q.memory, mem_text))
        k = end + 1
    return out


def _has_digit(toks: list[Token], k: int) -> bool:
    return toks[k].kind == "d" or (k + 1 < len(toks) and toks[k + 1].glued and toks[k + 1].kind == "d")


def _near_gpu_word(toks: list[Token], k: int) -> bool:
    around = toks[max(0, k - 3):k + 5]
    return any(t.text in GPU_CONTEXT or t.text in SERIES for t in around if t.kind != "p") or \
        any(memory_at(toks, n) for n in range(k + 1, min(len(toks), k + 5)))


_SERIES_VENDOR = {"rtx": "NVIDIA", "gtx": "NVIDIA", "gt": "NVIDIA", "mx": "NVIDIA", "tesla": "NVIDIA", "quadro": "NVIDIA",
                  "titan": "NVIDIA", "geforce": "NVIDIA", "nvidia": "NVIDIA", "jetson": "NVIDIA", "rx": "AMD",
                  "radeon": "AMD", "instinct": "AMD", "mi": "AMD", "amd": "AMD", "ryzen": "AMD", "epyc": "AMD",
                  "arc": "Intel", "intel": "Intel", "xeon": "Intel", "gaudi": "Intel", "apple": "Apple"}


def closest(words: str, k: int = 4) -> list[str]:
    """Catalog ids nearest to unknown device words: the same vendor, shared model words, then the
    nearest model number of the same length."""
    toks = [t for t in tokenize(words) if t.alnum]
    vendor = next((_SERIES_VENDOR[t.text] for t in toks if t.text in _SERIES_VENDOR), None)
    names = {t.text for t in toks if t.kind == "a" and len(t.text) >= 2 and t.text not in SKIP}
    nums = [float(t.text) for t in toks if t.kind == "d"]
    idx = _index()
    table = catalog.all_hardware()
    scored: dict[str, float] = {}
    for key, ids in idx.groups.items():
        key_words = {w for w in (*key.words, *key.anchor) if not w[0].isdigit() and len(w) >= 2 and w not in SKIP}
        key_nums = [float(w) for w in key.anchor if w[0].isdigit()]
        if vendor and table[idx.default[key]].vendor != vendor:
            continue
        s = 2.0 * len(names & key_words)
        if nums and key_nums:
            a, b = nums[0], key_nums[0]
            near = 1 - abs(a - b) / max(a, b)
            if len(str(int(a))) == len(str(int(b))) and near >= 0.5:
                s += 1.5 * near
        if s > 0:
            hw_id = idx.default[key]
            scored[hw_id] = max(scored.get(hw_id, 0.0), s - 0.001 * idx.order[hw_id])
    best = sorted(scored, key=lambda i: -scored[i])
    return [i for i in best if not table[i].approximate][:k]
