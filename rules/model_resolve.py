"""Model names as people write them -> catalog ids, through a token index (built once, lazily).

    resolve(text)   -> Match | None   one name ("qwen2.5:14b", "Qwen/Qwen2.5-Coder-14B-Instruct",
                                       "R1-Distill-Llama-70B", "Hermes 3 70B", "TheBloke/...-AWQ")
    find(text)      -> list[Match]    the model names inside free text, with their spans
    identify(text)  -> Match | None   a catalog model, else a generic size ("a 70B model",
                                       "a 30B MoE with 3B active", "一個 70B 的模型"), flagged approximate

A name is split into family, version, size and variant tokens ("qwen2.5-coder:14b" -> qwen | 2.5 |
14b | coder). Every catalog entry gets the same tokens from its id, name and HF id. An entry is a
candidate when its family is named and any stated version and size agree (size within 15 % of total
or active parameters); candidates are scored by shared variant tokens, and lose points for variant
words on either side that the other lacks. A unique best candidate wins; a tie is no answer.
Fine-tunes ("Hermes 3", "Tulu 3") are rewritten to their base from rules/catalog/finetunes.yaml,
and the match says what the name was read as.
"""
from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: ~10x faster

_QUANT = re.compile(
    r"(?i)(?<![a-z0-9])(?:i?q\d(?:_k)?(?:_[a-z0-9]+)*|\d+-?bits?|int\d|u?fp\d+|bf16|f16|fp16|mxfp4|nvfp4|w\d+a\d+|"
    r"exl\d(?:-[\d.]+)?(?:bpw)?|[\d.]+bpw|gguf|awq|gptq|mlx|dynamic|static|per-?tensor|qat|ud|hf|latest|"
    r"instruct|chat|it|base|community|preview|exp|terminus|sft|dpo|rl)(?![a-z0-9])")
_TOKEN = re.compile(
    r"(?P<size>\d+x\d+(?:\.\d+)?b|\d+(?:\.\d+)?b|[1-9]\d{2}m)(?![a-z])|(?P<active>a\d+(?:\.\d+)?b)(?![a-z])"
    r"|(?P<word2>[a-z]+\d[a-z]{2,})|(?P<ver>[vrkm]\d+(?:\.\d+)?)(?![\d.]*[bm](?![a-z]))(?![a-z])|(?P<num>\d+(?:\.\d+)?)|(?P<word>[a-z]+)")
_CJK_FAMILY = {"通義千問": "qwen", "通义千问": "qwen", "千問": "qwen", "千问": "qwen", "羊駝": "llama", "羊驼": "llama",
               "深度求索": "deepseek", "智譜": "glm", "智谱": "glm", "月之暗面": "kimi"}
_SEP = re.compile(r"[\s\-_:/,()\[\]+]+")
# A name never runs into a bracket: "Qwen3 8B (max_model_len 2048)" is Qwen3 8B and a setting.
_STOP = re.compile(r"(?i)\s(?:vs\.?|versus|and|or|on|with|using|via|in|at|for|to|from|inside)\s|[,;，；、。(\[]|還是|或是|或|和|跟|與|在|用|搭配|上")


TIERS = frozenset({"large", "medium", "small", "mini", "tiny", "nano", "micro", "pro", "max", "plus", "turbo",
                   "lite", "air", "flash", "ultra", "vision", "nemo"})
"""Words that name one size or product of a family ("Mistral Large", "Qwen2.5 Max", "Phi-3 mini"): a name
carrying one is that model or no catalog model, never the family's other sizes."""


@dataclass(frozen=True)
class Match:
    """What a model name was read as."""

    id: str | None
    text: str
    start: int = 0
    end: int = 0
    params_b: float | None = None
    active_params_b: float | None = None
    approximate: bool = False
    variant_note: str | None = None
    """Set when the name is a fine-tune, quantized build or repackaging of the catalog entry."""
    variant_kind: str | None = None
    """'fine-tune' or 'build' when variant_note is set."""


@dataclass(frozen=True)
class _Entry:
    id: str
    family: frozenset[str]
    versions: frozenset[str]
    variants: frozenset[str]       # distinguishing words in the id
    words: frozenset[str]          # every word of id, name and HF id
    sizes: tuple[float, ...]       # params and active params, billions
    name: str
    length: int                    # tokens in the id: the plainest entry of a family wins a tie


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, token) pairs: size / active / ver / num / word."""
    low = text.lower().replace("___", ".")
    for zh, fam in _CJK_FAMILY.items():
        low = low.replace(zh, f" {fam} ")
    low = _QUANT.sub(" ", low)
    out: list[tuple[str, str]] = []
    for part in _SEP.split(low):
        for m in _TOKEN.finditer(part):
            kind = m.lastgroup
            tok = m.group(kind)
            kind = "word" if kind == "word2" else kind
            if kind == "word" and tok == "b" and out and out[-1][0] == "num":  # "27 b"
                out[-1] = ("size", out[-1][1] + "b")
                continue
            if kind == "num" and len(tok) == 4 and "." not in tok:             # 2507, 0414: release dates
                kind = "word"
            out.append((kind, tok))
    return out


def _size_b(tok: str) -> float:
    tok = tok.lstrip("a")
    if "x" in tok:
        n, each = tok[:-1].split("x")
        return float(n) * float(each)
    return float(tok[:-1]) / (1000 if tok.endswith("m") else 1)


@functools.cache
def _finetunes() -> list[tuple[tuple[str, ...], str]]:
    path = Path(__file__).with_name("catalog") / "finetunes.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    return [(tuple(t for _, t in _tokens(f["name"])), f["base"]) for f in data["finetunes"]]


@functools.cache
def _index() -> tuple[dict[str, _Entry], frozenset[str], dict[str, str]]:
    """Entries by id, the family vocabulary, and exact-alias lookup (normalised text -> id)."""
    from rules.catalog import all_models
    entries, families, aliases = {}, set(), {}
    for mid, spec in all_models().items():
        id_toks = _tokens(mid.replace("-", " "))
        fam = {id_toks[0][1]} | ({"r1"} if ("ver", "r1") in id_toks else set())  # "R1-Distill-Llama-70B"
        names = (mid, spec.name, (spec.hf_id or "").split("/")[-1], *spec.aliases)
        toks = [tok for text in names for tok in _tokens(text)]
        words = {t for _, t in toks}
        versions = {t for k, t in toks if k in ("num", "ver")}
        variants = {t for k, t in id_toks[1:] if k == "word"}
        entries[mid] = _Entry(mid, frozenset(fam), frozenset(versions), frozenset(variants), frozenset(words),
                              (spec.params_b, spec.active_params_b), spec.name, len(id_toks))
        families |= fam
        for alias in (mid, *spec.aliases):
            aliases.setdefault(_norm(alias), set()).add(mid)
    exact = {k: next(iter(v)) for k, v in aliases.items() if len(v) == 1}
    return entries, frozenset(families), exact


def _norm(text: str) -> str:
    return re.sub(r"[\s\-_:/.]+", "", str(text).lower())


# Real model families the catalog may not hold, each one letter or two from one it does ("Devstral" is not a
# misspelt "Codestral"): never "corrected" into their neighbour.
_OTHER_FAMILIES = frozenset({"devstral", "magistral", "ministral", "pixtral", "mathstral", "codegemma", "codeqwen",
                             "starcoder", "starcoder2", "internvl", "minicpm", "qwenvl"})


def _fix_typos(toks: list[tuple[str, str]], families: frozenset[str]) -> list[tuple[str, str]]:
    """Misspelt family words ("lamma", "Qwwen", "deepsek") -> the closest family word."""
    out = []
    words = [f for f in families if len(f) >= 4]
    for kind, tok in toks:
        if kind == "word" and len(tok) >= 4 and tok not in families and tok not in _OTHER_FAMILIES:
            close = difflib.get_close_matches(tok, words, n=1, cutoff=0.8)
            tok = close[0] if close else tok
        out.append((kind, tok))
    return out


def _apply_finetunes(toks: list[tuple[str, str]], families: frozenset[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Replace a fine-tune's name by its base; when the name also states the base ("Hermes 3 Llama 3.2 3B"),
    just drop the fine-tune's words."""
    seq = [t for _, t in toks]
    for name, base in _finetunes():
        n = len(name)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i:i + n]) == name:
                rest = toks[:i] + toks[i + n:]
                named = any(t in families for _, t in rest)
                return (rest if named else toks[:i] + _tokens(base) + toks[i + n:]), base
    return toks, None


def _size_ok(entry: _Entry, sizes: list[tuple[str, str]]) -> bool:
    """Every stated size names this entry: verbatim ("8x7b"), or near its total (or, for "A3B"-style
    and exact figures, its active) parameters."""
    for kind, tok in sizes:
        if tok in entry.words:
            continue
        want, (total, active) = _size_b(tok), entry.sizes
        near_total = abs(want - total) <= max(0.10 * total, 0.3)
        near_active = abs(want - active) <= (0.15 if kind == "active" else 0.05) * active
        if not (near_total if kind == "size" else False) and not near_active:
            return False
    return True


def _score(entry: _Entry, words: set[str], vocab: frozenset[str]) -> float:
    shared = len(entry.variants & words)
    missing = len(entry.variants - words)                     # entry is a variant the text did not name
    foreign = len({w for w in words if w in vocab} - entry.words)  # text names a variant this entry is not
    verbatim = len({w for w in words if w[0].isdigit()} & entry.words)  # "30b" written as the entry writes it
    return 2 * shared - 1.5 * missing - 1.0 * foreign + verbatim


@functools.cache
def _variant_vocab() -> frozenset[str]:
    entries, families, _ = _index()
    return frozenset().union(*(e.variants for e in entries.values())) - families


def resolve(text: str) -> Match | None:
    """The catalog entry a model name refers to, or None (unknown or ambiguous)."""
    if not text or not str(text).strip():
        return None
    entries, families, exact = _index()
    raw = str(text).strip()
    key = _norm(raw.split("/")[-1])
    if key in exact:
        return Match(exact[key], raw, 0, len(raw), variant_note=None)
    stripped = _norm(_QUANT.sub(" ", raw.split("/")[-1].lower()))
    if stripped in exact:
        mid = exact[stripped]
        return Match(mid, raw, 0, len(raw), variant_note=_note(raw, mid, None), variant_kind=_variant_kind(raw, mid, None))
    toks, base = _apply_finetunes(_fix_typos(_tokens(raw.split("/")[-1]), families), families)
    fams = {t for _, t in toks if t in families}
    if not fams:
        return None
    sizes = [(k, t) for k, t in toks if k in ("size", "active")]
    versions = {t for k, t in toks if k in ("num", "ver")}
    words = {t for k, t in toks if k == "word"}
    tiers = words & TIERS
    cands = [e for e in entries.values() if e.family & fams and versions - e.family <= e.versions and _size_ok(e, sizes)
             and tiers <= e.words]
    mid = _best(cands, words | {t for _, t in sizes}, toks if not sizes else None)
    if not mid:
        return None
    kind = _variant_kind(raw, mid, base)
    return Match(mid, raw, 0, len(raw), variant_note=_note(raw, mid, base), variant_kind=kind)


def _best(cands: list[_Entry], words: set[str], sizeless: list[tuple[str, str]] | None) -> str | None:
    """The unique best-scoring candidate; ties go to a family's default-size alias ("mixtral", "llama3.2")
    or to the plainest id, else no answer."""
    if not cands:
        return None
    vocab = _variant_vocab()
    scored = sorted(((_score(e, words, vocab), -e.length, e.id) for e in cands), reverse=True)
    top = [s for s in scored if s[0] == scored[0][0]]
    if len(top) == 1:
        if sizeless is not None and _other_size_named(cands, top[0][2], words & vocab):
            return _default(sizeless)   # "Qwen3 Coder" is 30B-A3B and 480B-A35B alike: which size is asked
        return top[0][2]
    if sizeless is not None and (default := _default(sizeless)) in {s[2] for s in top}:
        return default
    if top[0][1] > top[1][1] and _same_size(top[0][2], top[1][2]):
        return top[0][2]
    if words & TIERS and all(_same_size(top[0][2], s[2]) for s in top):
        return max(s[2] for s in top)   # "Mistral Large": its releases share one architecture size; the newest id
    return None


def _default(sizeless: list[tuple[str, str]]) -> str | None:
    """The family's default-size alias for a name given without a size ("mixtral", "llama3.2"), if the catalog has one."""
    return _index()[2].get(_norm("".join(t for k, t in sizeless if k != "word" or t in _index()[1])))


def _other_size_named(cands: list[_Entry], best: str, variants: set[str]) -> bool:
    """Another candidate of another size whose names carry every variant word the text gave: a name
    without a size does not pick between them."""
    entries = _index()[0]
    return any(e.id != best and variants <= e.words and not _same_size(e.id, best) for e in cands) if variants else False


def _same_size(a: str, b: str) -> bool:
    entries = _index()[0]
    pa, pb = entries[a].sizes[0], entries[b].sizes[0]
    return abs(pa - pb) <= 0.15 * max(pa, pb)


def _note(raw: str, mid: str, base: str | None) -> str | None:
    """Say how a name that is not the catalog entry itself was read (English; see `describe_variant`)."""
    kind = _variant_kind(raw, mid, base)
    return describe_variant(raw, mid, kind, "en") if kind else None


def _variant_kind(raw: str, mid: str, base: str | None) -> str | None:
    from rules.catalog import all_models
    if base:
        return "fine-tune"
    org = raw.split("/")[0].lower() if "/" in raw else ""
    official = (all_models()[mid].hf_id or "").split("/")[0].lower()
    if re.search(r"(?i)gguf|awq|gptq|exl\d|mlx|\dbit|fp8|int\d|q\d_", raw) or (org and org != official):
        return "build"
    return None


def describe_variant(raw: str, mid: str, kind: str, lang: str = "en") -> str:
    """One sentence, in the user's language, saying which catalog architecture a variant name was read as."""
    from rules.catalog import all_models
    name = all_models()[mid].name
    if lang == "zh":
        what = "微調版" if kind == "fine-tune" else "量化或重新打包的版本"
        return f"「{raw}」視為 {name}（{mid}）的{what}：以相同架構估算"
    what = "a fine-tune of" if kind == "fine-tune" else "a quantized or repackaged build of"
    return f"'{raw}' is read as {what} {name} ({mid}): estimated with the same architecture"


def find(text: str) -> list[Match]:
    """Model names inside free text, left to right, each with its span."""
    _, families, _ = _index()
    out: list[Match] = []
    for m in re.finditer(r"[^\s,;，；、。]+", text):
        if out and m.start() < out[-1].end:
            continue
        head = [t for _, t in _fix_typos(_tokens(m.group(0)), families)]
        anchors = families | {name[0] for name, _ in _finetunes()}
        if not head or not (set(head) & anchors or any(z in m.group(0) for z in _CJK_FAMILY)):
            continue
        hit = _longest(text, m.start())
        # "能跑千問 72B": a Chinese family word glued to the words before it starts the name itself
        cjk = [m.start() + i for z in _CJK_FAMILY for i in [m.group(0).find(z)] if i > 0]
        if not hit and cjk:
            hit = _longest(text, min(cjk))
        if hit:
            out.append(hit)
    return out


def _longest(text: str, start: int) -> Match | None:
    """The longest span from `start` (up to a clause break, at most 6 words) that resolves."""
    stop = _STOP.search(text, start + 1)
    end = stop.start() if stop else len(text)
    bounds = [m.end() for m in re.finditer(r"[^\s]+", text[start:end])][:6]
    for i in range(len(bounds) - 1, -1, -1):
        hit = resolve(text[start:start + bounds[i]].rstrip(".!?"))
        if hit and _tier_follows(text, start + bounds[i], hit.id):
            return None   # "Mistral Large": the family's default size is not the model named
        if hit:  # drop trailing words that add nothing to the name (so "FP8" after it stays a quantization)
            while i > 0 and not _tokens(text[start + bounds[i - 1]:start + bounds[i]]):
                i -= 1
            span = text[start:start + bounds[i]].rstrip(".!?")
            hit = resolve(span) or hit
            return Match(hit.id, span, start, start + len(span), variant_note=hit.variant_note,
                         variant_kind=hit.variant_kind)
    return None


def tier_mismatch(mid: str, word: str) -> bool:
    """`word` is a tier word ("Large", "Max") that catalog entry `mid` does not carry."""
    entry = _index()[0].get(mid)
    return bool(entry) and word.lower() in TIERS and word.lower() not in entry.words


def _tier_follows(text: str, at: int, mid: str) -> bool:
    """The word right after a resolved name is a tier word that entry does not carry ("Mistral" + "Large")."""
    nxt = re.match(r"[\s\-_]*([A-Za-z]+)", text[at:])
    return bool(nxt and tier_mismatch(mid, nxt.group(1)))


_GENERIC = re.compile(
    r"(?i)(?<![\w.])(?P<p>\d+(?:\.\d+)?)\s?(?:b\b|billion\b)(?:[\s-]*(?:moe)?[\s-]*a(?P<a>\d+(?:\.\d+)?)b\b)?")
_ACTIVE = re.compile(r"(?i)(?P<a>\d+(?:\.\d+)?)\s?b\s+(?:params?\s+)?active|(?:active|激活|啟用|启用|活躍)\D{0,12}?(?P<b>\d+(?:\.\d+)?)\s?b")


def identify(text: str) -> Match | None:
    """A catalog model named in `text`, else a generic model from a stated size (approximate)."""
    hits = find(text)
    if hits:
        return hits[0]
    whole = resolve(text)
    if whole:
        return whole
    m = _GENERIC.search(text)
    if not m:
        return None
    active = m.group("a")
    if not active:
        act = _ACTIVE.search(text, m.end())
        active = act and (act.group("a") or act.group("b"))
    return Match(None, m.group(0), m.start(), m.end(), params_b=float(m.group("p")),
                 active_params_b=float(active) if active else None, approximate=True)


_REPO_TOKEN = re.compile(r"\d+(?:\.\d+)*|[a-z]+")
_HF_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def _repo_tokens(text: str) -> list[str]:
    return _REPO_TOKEN.findall(text.lower())


def serving_repo(spec: Any, words: str | None = None) -> str:
    """The checkpoint a launch command should load: the user's own Hugging Face repo when they wrote one
    ("org/name", e.g. a fine-tune), else the chat checkpoint whose name shares most words with theirs
    ("Llama 3.3 70B" → Llama-3.3-70B-Instruct; "Qwen3-Coder-30B-A3B" → the Coder repo), else the newest
    chat checkpoint, else the architecture's reference repo."""
    said = (words or "").strip()
    if _HF_REPO.match(said):
        return said
    if getattr(spec, "id", None) == "custom":   # a model outside the catalog: a placeholder naming it, never "custom"
        return f"<{said} checkpoint>" if said else "<model checkpoint>"
    repos = list(getattr(spec, "chat_repos", None) or [])
    if not repos:
        return spec.hf_id or spec.id
    wanted = set(_repo_tokens(said))
    best = max(repos, key=lambda r: (len(wanted & set(_repo_tokens(r.split("/")[-1]))), -repos.index(r)))
    return best
