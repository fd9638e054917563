"""English left in zh-Hant output: runs of English words that are not names, ids, units or terms.

Chinese technical writing in Taiwan keeps product names, ids, flags, units and a handful of terms
in English ("vLLM 的 KV cache", "TP=4", "--max-model-len", "17.4 tok/s"). What a zh-Hant reader
must never get is an English sentence or fragment: "A computer's CPU", "about 20 at once",
"does not fit the GPU memory". `english_runs(text)` finds those.

How a run is found (pure, no I/O beyond the catalogs' names):
1. Allowed spans are removed: code spans and fenced code, English literals quoted whole in 「」, URLs, citation markers ``[3]``, the
   numbered source list (titles of cited notes are the notes' own), CLI flags, and the allowed
   vocabulary (engine names, product-like device and model names from the catalogs, and the
   terms in `TERMS`).
2. What is left is cut at every character that cannot sit inside an English sentence (CJK text
   and full-width punctuation, newlines, brackets of Markdown) into stretches.
3. A stretch is a leak when it holds at least 3 English words of which at least 2 are ordinary
   words (acronyms such as CPU or TP count as words, not as ordinary ones; tokens with digits,
   underscores, dots or "=" are ids and do not count).

A removed name or term leaves nothing behind, so "the KV cache is full" still reads as the run
"the is full". A catalog name counts as allowed only when it looks like a product name (every
word capitalised or holding a digit): "A computer's CPU (class-level …)" is a description, not a
name, and is caught.
"""
from __future__ import annotations

import re
from functools import lru_cache

TERMS = (
    # engine features and techniques people write in English inside Chinese text
    "KV cache", "Prefix Caching", "Automatic Prefix Caching", "RadixAttention", "PagedAttention",
    "continuous batching", "chunked prefill", "speculative decoding", "structured output",
    "structured outputs", "tensor parallel", "tensor parallelism", "pipeline parallel",
    "pipeline parallelism", "expert parallel", "expert parallelism", "data parallel",
    "Multi-LoRA", "LoRA adapter", "LoRA adapters", "CUDA graphs", "CUDA graph", "Apple Silicon",
    "compute capability", "Flash Attention", "FlashAttention", "Tensor Core", "Tensor Cores",
    "Infinity Fabric", "unified memory", "Neural Engine", "prefill", "decode", "all-reduce",
    "all-to-all", "disaggregated serving", "prefill/decode", "draft model", "Mixture of Experts",
    "OpenAI-compatible", "OpenAI compatible", "EAGLE-3", "Medusa", "n-gram", "llama-server",
    "mlx_lm.server", "GuideLLM", "AIPerf", "vllm bench serve", "sglang.bench_serving",
    "guidellm run", "aiperf profile", "Hugging Face", "Gaudi", "Ascend", "Jetson",
    "time per output token", "inter-token latency",     # the harnesses' own metric names, quoted
)
"""Terms allowed in zh-Hant text as written (matched case-insensitively, as whole words)."""

UNITS = r"(?:tok/s|tokens/s|tokens|token|GB/s|TB/s|GiB|GB|TB|MB|ms|s|W|bytes|USD|K|M|B|bpw|%)"

_BREAK = re.compile(r"[^A-Za-z0-9 \t'’\-,.:;!?()/&+%=×~\"$@#*_]")
"""Characters that end an English stretch (CJK, full-width punctuation, newlines, [ ] | < > …)."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’_.=/+\-]*")
_FENCE = re.compile(r"```.*?```", re.S)
_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+", re.I)
_MARKER = re.compile(r"\[\d+\]")
_SOURCE_LINE = re.compile(r"^\s*\[\d+\] .*$", re.M)
_QUOTED = re.compile(r"「[^「」\u3400-\u9fff\n]{1,80}」")
"""An English literal quoted whole inside Chinese text (an error message, a harness's metric name)."""
_FLAG = re.compile(r"(?<!\w)--?[A-Za-z][\w.-]*(?:[= ][\w./:-]+)?")
_NUM_UNIT = re.compile(rf"(?<![A-Za-z])[~≈]?\d[\d,.]*\s*{UNITS}(?![A-Za-z])")
_COMMAND = re.compile(r"\badvisor [a-z]+\b")
"""The program's own command names ("advisor ask: …" opens every CLI error line)."""
_TIMES = re.compile(r"(?<=\d) [x×] (?=[A-Z0-9])")
"""The "x" of a layout or a device count ("TP=2 x PP=2", "2 x H100")."""
_FUNCTION = frozenset("a an the of for per with or and to in on at by is are be not any from as this that".split())


def _is_product(name: str) -> bool:
    """A catalog name that reads as a product name, not an English description."""
    words = re.findall(r"[A-Za-z0-9][\w.+'’-]*", name)
    return bool(words) and all(w[0].isupper() or any(c.isdigit() for c in w) or w.lower() == "x"
                               for w in words if w.lower() not in ("and",)) \
        and not any(w.lower() in _FUNCTION for w in words)


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """Allowed phrases, longest first: engine names and ids, product-like device and model names, terms."""
    from rules import catalog
    from rules.display import short_name
    phrases = set(TERMS)
    for eid, spec in catalog.all_engines().items():
        phrases |= {eid, spec.name}
    for hw in catalog.all_hardware().values():
        for name in (hw.name, short_name(hw.name), *hw.aliases):
            if _is_product(name):
                phrases.add(name)
    for model in catalog.all_models().values():
        for name in (model.name, short_name(model.name), *model.aliases):
            if _is_product(name):
                phrases.add(name)
    return tuple(sorted((p for p in phrases if p.strip()), key=len, reverse=True))


@lru_cache(maxsize=1)
def _vocab_re() -> re.Pattern:
    alts = "|".join(re.escape(p) for p in vocabulary())
    return re.compile(rf"(?<![A-Za-z0-9])(?:{alts})(?![A-Za-z0-9])", re.I)


def _strip_allowed(text: str) -> str:
    text = _FENCE.sub("\n", text)
    text = _SOURCE_LINE.sub("", text)
    text = _CODE.sub(" ", text)
    text = _QUOTED.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _MARKER.sub(" ", text)
    text = _FLAG.sub(" ", text)
    text = _COMMAND.sub(" ", text)
    text = _TIMES.sub(" ", text)
    text = _NUM_UNIT.sub(" ", text)
    return _vocab_re().sub("", text)


def _is_acronym(word: str) -> bool:
    core = word.rstrip("s") if len(word) > 2 else word
    return core.isupper() and len(core) >= 2


def _is_id(word: str) -> bool:
    return any(c.isdigit() or c in "_.=/" for c in word.strip(".")) or bool(re.search(r"[a-z][A-Z]", word))


def english_runs(text: str) -> list[str]:
    """The English sentences and fragments in a zh-Hant text (empty when there are none)."""
    out = []
    for stretch in _BREAK.split(_strip_allowed(text or "")):
        words = [w.rstrip(".,:;!?'’-") for w in _WORD.findall(stretch)]
        words = [w for w in words if w and not _is_id(w)]
        ordinary = [w for w in words if not _is_acronym(w)]
        if len(words) >= 3 and len(ordinary) >= 2:
            out.append(" ".join(stretch.split()))
    return out


SIMPLIFIED = frozenset(
    "这为个们时说对设数吗与过还发会从动开关实现认质测试间题处长应该务载输请记录标检单页头键误读写显体门问给见点"
    "让样变边办总网络际协议级产资讯费块节机构简计约结类选择项术释队调优势运营组态额储库传统压缩备购买卖证书签"
    "阶层线进复杂虚拟")
"""Characters written only in Simplified Chinese (their Traditional forms differ): a zh-Hant text has none."""


def simplified(text: str) -> list[str]:
    """Simplified-only characters in `text`, with a few characters of context each (empty when none)."""
    text = _SOURCE_LINE.sub("", text or "")
    return [text[max(0, i - 4):i + 5] for i, ch in enumerate(text) if ch in SIMPLIFIED]


def leaks(texts: dict[str, str]) -> dict[str, list[str]]:
    """{where: runs} for each named text that has English runs."""
    found = {where: english_runs(t) for where, t in texts.items()}
    return {where: runs for where, runs in found.items() if runs}


if __name__ == "__main__":   # python -m evals.langcheck < answer.md : the English runs of a zh-Hant text
    import sys
    runs = english_runs(sys.stdin.read())
    print("\n".join(runs) or "no English runs")
    sys.exit(1 if runs else 0)
