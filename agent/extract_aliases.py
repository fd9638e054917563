"""Find catalog names in free text: one compiled regex per catalog over every id and alias, so a
match gives both the id and the exact span (the evidence).

Aliases come from rules.catalog; they are matched with flexible separators ("Llama-3.3-70B",
"llama 3.3 70b", "RTX4090" all hit their alias) and case-insensitively. Built once, on first use.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_SEP_RE = re.compile(r"[\s\-_:/]+")
# Vendor words are optional in front of any name ("Apple M4 Max", "NVIDIA L4", "Intel Arc B580").
_VENDOR = r"(?:apple|nvidia|intel|amd|geforce|radeon|instinct)"
_VENDOR_RE = re.compile(rf"^(?:{_VENDOR}[\s\-_]+)+", re.I)
_FLEX = r"[\s\-_:]*"
# A name may end in a plural ("4090s"); it may not continue into a longer word or version.
_TAIL = r"(?:s|'s)?(?![A-Za-z0-9]|\.\d)"
_SIZE_TOKEN = re.compile(r"\d+(?:\.\d+)?b|\d+x\d+b", re.I)
# After a family name without a size ("Mixtral", "llama3"), these words mean a different model.
_FAMILY_BREAK = re.compile(
    r"[\s\-_:]*(?:(?P<size>\d+(?:\.\d+)?)\s?b\b|\d+x\d+b\b|distill|large|small|medium|nemo|mini|vision|vl\b|guard|scout|maverick)",
    re.I | re.ASCII)
# Names people use that the catalog does not list (same architecture as the id).
EXTRA_MODEL_ALIASES = {"deepseek-v3": ["DeepSeek V3.1", "DeepSeek-V3.1", "DeepSeek-V3.1-Terminus"]}


@dataclass(frozen=True)
class AliasHit:
    """A catalog name found in the text."""

    id: str
    start: int
    end: int
    family: bool   # the alias names a model family without a size


def _parts(alias: str) -> list[str]:
    """Alias split at its separators and at word→number joins of long words ("qwen3" → qwen, 3)."""
    out: list[str] = []
    for part in _SEP_RE.split(alias.strip().lower()):
        out.extend(p for p in re.split(r"(?<=[a-z]{3})(?=\d)", part) if p)
    return out


def _norm(text: str) -> str:
    return re.sub(r"[\s\-_:/.']+", "", _VENDOR_RE.sub("", text.strip()).lower())


def _alias_pattern(alias: str) -> str:
    return _FLEX.join(re.escape(p) for p in _parts(_VENDOR_RE.sub("", alias.strip())))


class AliasIndex:
    """Every alias of one catalog as a single regex; `find(text)` returns the hits, left to right."""

    def __init__(self, names: dict[str, list[str]], sizes: dict[str, float] | None = None):
        self._sizes = sizes or {}
        table: dict[str, set[str]] = {}
        for key, aliases in names.items():
            for alias in (key, *aliases):
                if alias and len(_norm(alias)) >= 2 and "(" not in alias:
                    table.setdefault(_norm(alias), set()).add(key)
        self._ids = {k: next(iter(v)) for k, v in table.items() if len(v) == 1}
        self._family = {k for k in self._ids if not _SIZE_TOKEN.search(k)}
        patterns = {}
        for key, aliases in names.items():
            for alias in (key, *aliases):
                if alias and _norm(alias) in self._ids:
                    patterns[_alias_pattern(alias)] = len(_norm(alias))
        alternation = "|".join(sorted(patterns, key=lambda p: (-patterns[p], p)))
        # A name starts a word, or follows a count glued to it ("4x4090s", "8×H100").
        self._re = re.compile(rf"(?:(?<![A-Za-z0-9])|(?<=\d[xX×*]))(?:{_VENDOR}[\s\-_]*)*(?P<core>{alternation}){_TAIL}", re.I)

    def _lookup(self, matched: str) -> str | None:
        key = _norm(matched)
        for cand in (key, key[:-1] if key.endswith("s") else None):
            if cand and cand in self._ids:
                return cand
        return None

    def _family_ok(self, key: str, text: str, end: int) -> bool:
        """A family name followed by another size or variant names a different model."""
        brk = _FAMILY_BREAK.match(text, end)
        if brk is None:
            return True
        size, own = brk.group("size"), self._sizes.get(key)
        return bool(size and own and abs(float(size) - own) <= 0.1 * own)

    def find(self, text: str) -> list[AliasHit]:
        """Catalog names in `text` (non-overlapping, longest alias wins at a position)."""
        hits = []
        for m in self._re.finditer(text):
            key = self._lookup(m.group(0)[m.start("core") - m.start():])
            if key is None:
                continue
            family = key in self._family
            if family and not self._family_ok(self._ids[key], text, m.end()):
                continue
            hits.append(AliasHit(self._ids[key], m.start(), m.end(), family))
        return hits


# A multiplier, or a bare vendor/processor word ("offload to CPU RAM", "Intel Arc?"), is not a device named.
_NOT_A_NAME = re.compile(r"[x×*]|\W*|(?:the\s+)?(?:CPUs?|Intel|AMD|NVIDIA|GPUs?|Apple)", re.I)


class DeviceIndex:
    """Hardware names through the catalog's token index (rules.hardware_index): variants chosen by the
    memory and package written next to the name, and the span of the whole name ("Xeon 6", "A100 PCIe").
    A multiplier is never a name ("4 x rtx5060ti"), and names glued to a count that the token index
    does not split ("1xRTX4090Ds") are found through the catalog's aliases."""

    def find(self, text: str) -> list[AliasHit]:
        """Device names in `text`, found once per turn for a text (the hardware extractor, the topic
        finder and the unplaced-words check all ask)."""
        from rules import memo
        return list(memo.once(("device-names", text), lambda: self._find(text)))

    def _find(self, text: str) -> list[AliasHit]:
        from rules.hardware_index import find_devices
        hits = [_whole_name(text, h) for m in find_devices(text)
                if not _NOT_A_NAME.fullmatch(text[m.start:m.end].strip())
                for h in [_one_phrase(text, AliasHit(m.id, m.start, m.end, False))] if h
                for h in [_without_count(text, h)] if h]
        extra = [h for h in _hardware_aliases().find(text) if not any(h.start < o.end and o.start < h.end for o in hits)]
        found = sorted(hits + extra, key=lambda h: h.start)
        # "GB300 NVL72": a rack suffix right after a name belongs to that name, not to another device
        out: list[AliasHit] = []
        for h in found:
            if out and _RACK_WORD.fullmatch(text[h.start:h.end]) and not text[out[-1].end:h.start].strip():
                out[-1] = AliasHit(out[-1].id, out[-1].start, h.end, out[-1].family)
            else:
                out.append(h)
        return out


_LEADING_COUNT = re.compile(r"(?:\d{1,2}\s*[張片塊卡台顆個]\s*|\d{1,2}\s+|\d{1,4}\s*[x×*](?!TX?\b)\s*)(?=[A-Za-z])", re.I)   # not "3rd", "4090 laptop", "9060XT"
# What the token index leaves off a name: a vendor word glued in front ("GeForceRTX 4080", "RadeonRX
# 9070"), a cloud instance size ("p5.48xlarge", "g4dn.xlarge") or a package generation ("A800 SXM4").
_GLUED_VENDOR = re.compile(r"(?:GeForce|Radeon|NVIDIA|AMD)\s*(?:RTX|GTX|RX)?\s*$", re.I)
_GENERIC_HEAD = re.compile(r"(?:GPUs?|cards?|顯卡|device)\s*[:：=]?\s*", re.I)
_GENERIC_TAIL = re.compile(r"\s+(?:GPUs?|cards?)$", re.I)
_MEMORY_AFTER = re.compile(r"(?P<pkg>\s*(?:PCIe|SXM\d?))?\s*[(\[]?\s*(?P<gb>\d{1,3})\s?GB?\b", re.I)
_NAME_TAIL = re.compile(r"\.(?:\d{0,2}x?large|metal)\b|(?<=SXM)\d\b", re.I)
# A name never runs across a sentence or into a bracket; a bare "server" is not a device named.
_PHRASE_BREAK = re.compile(r"[.?!;。？！；](?:\s|$)|[,，、]|\s(?:and|or|with)\s", re.I)
_LINK_AFTER = re.compile(r"\s+(?:on|over|via|through|linked\s+by)\s+(?:PCI[\s-]?e?|NV[\s-]?Link|Infini[\s-]?Band)", re.I)
_MULTIPLIER = re.compile(r"\s+[x×*]\s*\d+\s*$|\s*[×*]\s*\d+\s*$", re.I)
_RACK_WORD = re.compile(r"NVL\d{2,3}", re.I)
_GENERIC_WORDS = re.compile(r"(?:(?:inference|model|api|web|the|a|an|our|which)\s+)*(?:servers?|伺服器|服務器|主機)"
                            r"|serv(?:e[sd]?|ing)", re.I)   # the verb ("want to serve Qwen3"), read by the index as "server"


def _one_phrase(text: str, hit: AliasHit) -> AliasHit | None:
    """The hit cut at a sentence or list break ("Intel server, CPU only" → "Intel server") when its first
    part still names a device; None for a generic word ("inference server") or nothing left."""
    name = text[hit.start:hit.end]
    link = _LINK_AFTER.search(name)
    if link:   # "8xL40S over PCI-E", "MI50s on PCIe 4.0": the link is stated, not part of the name (the variant read stays)
        hit = AliasHit(hit.id, hit.start, hit.start + link.start(), hit.family)
        name = text[hit.start:hit.end]
    brk = _PHRASE_BREAK.search(name.rstrip(".?!;。？！；")) or _MULTIPLIER.search(name)   # "Gaudi x 2" is two Gaudis
    if brk:
        from rules import catalog
        ident = catalog.resolve_hardware(name[:brk.start()]) if brk.start() > 0 else None
        if ident is None:
            return None
        hit = AliasHit(ident, hit.start, hit.start + len(name[:brk.start()].rstrip()), hit.family)
    return None if _GENERIC_WORDS.fullmatch(text[hit.start:hit.end].strip()) else hit


def _whole_name(text: str, hit: AliasHit) -> AliasHit:
    """The hit widened over the parts of its name the token index leaves off, and cut at a bracket."""
    start, end = hit.start, hit.end
    lead = re.match(r"[^\w(]+", text[start:end])
    if lead and lead.end() < end - start:   # "- 筆電", ": laptop": the words, not the punctuation before them
        start += lead.end()
    cut = text.find("(", start, end)
    if cut > start:
        end = len(text[start:cut].rstrip()) + start
    glued = _GLUED_VENDOR.search(text, max(0, start - 12), start)
    if glued and glued.end() == start:
        start = glued.start()
    tail = _NAME_TAIL.match(text, end)
    if tail:
        end = tail.end()
    from rules import catalog
    ident = catalog.resolve_hardware(text[start:end]) if cut > start else None   # "Trainium(共2" was read as Trainium2
    head = _GENERIC_HEAD.match(text, start, end)
    if head and head.end() < end and (bare := catalog.resolve_hardware(text[head.end():end])):
        start, ident = head.end(), bare   # "GPU: 4090" in a form is the desktop card
    word = _GENERIC_TAIL.search(text, start, end)
    if word and word.start() > start and (bare := catalog.resolve_hardware(text[start:word.start()])):
        end, ident = word.start(), bare   # "4060 GPU" is the desktop card; "Laptop GPU" names the other one
    mem = _MEMORY_AFTER.match(text, end)
    if mem:   # "Arc A770 8GB", "A100 PCIe 40GB": the memory written after the name picks the variant
        ident = catalog.resolve_hardware(f"{text[start:end]}{mem.group('pkg') or ''} {mem.group('gb')}GB") or ident
    if (start, end) == (hit.start, hit.end) and ident in (None, hit.id):
        return hit
    return AliasHit(ident or hit.id, start, end, hit.family)
_VERSION_AFTER = re.compile(r"[\s-]*\d+[A-Za-z]{0,3}\b")


def _without_count(text: str, hit: AliasHit) -> AliasHit | None:
    """A name read with the count before it ("2 Gaudi 3" is two Gaudi 3, not a Gaudi 2): the count is
    cut off and the rest, with a version written after it, resolved again through the catalog."""
    m = _LEADING_COUNT.match(text, hit.start, hit.end)
    if not m:
        return hit
    from rules import catalog
    start = m.end()
    version = _VERSION_AFTER.match(text, hit.end)
    for end in ((version.end(), hit.end) if version else (hit.end,)):
        ident = catalog.resolve_hardware(text[start:end])
        if ident:
            return AliasHit(ident, start, end, False)
    return None


@functools.cache
def _hardware_aliases() -> AliasIndex:
    from rules import catalog
    return AliasIndex({k: [a for a in h.aliases if len(a) > 2] for k, h in catalog.all_hardware().items()})


@functools.cache
def hardware_index() -> DeviceIndex:
    """The hardware index (built once, on first use, by rules.hardware_index)."""
    return DeviceIndex()


@functools.cache
def model_index() -> AliasIndex:
    """Alias index over the model catalog (bare sizes like "70B" are not names)."""
    from rules import catalog
    models = catalog.all_models()
    names = {k: [a for a in (*m.aliases, *EXTRA_MODEL_ALIASES.get(k, ())) if not re.fullmatch(r"\d+(?:\.\d+)?b", _norm(a))]
             for k, m in models.items()}
    return AliasIndex(names, {k: m.params_b for k, m in models.items()})


@functools.cache
def hardware_class(hw_id: str) -> str | None:
    """The catalog's hw_class of an id (apple, consumer, datacenter, ...)."""
    from rules import catalog
    return catalog.all_hardware()[hw_id].hw_class
