"""BM25 over a CJK-aware tokenizer: lowercased Latin words plus CJK unigrams and bigrams.

No segmenter is needed for Traditional Chinese: character bigrams carry most word meaning and
unigrams catch single-character terms. Dotted or hyphenated names (llama.cpp, tensorrt-llm)
are kept whole as well as in parts.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff"
_TOKEN = re.compile(rf"[{_CJK}]+|[a-z0-9]+(?:[.\-+_][a-z0-9]+)*")
_STOP = frozenset(
    "a an and are as at be by can do does for from has have how i if in into is it its me my "
    "not of on or our so than that the their them then there these they this to use used "
    "using was we what when where which who why will with would you your".split())


def _norm(word: str) -> str:
    """A light plural fold so 'engines' meets 'engine'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_CJK_START = re.compile(rf"[{_CJK}]")
_JOINERS = re.compile(r"[.\-+_]")


def tokenize(text: str, query: bool = False) -> list[str]:
    """Tokens of `text` for BM25. A query keeps only the bigrams of a CJK run: its single
    characters match nearly every Chinese chunk and drown the informative terms."""
    text = unicodedata.normalize("NFKC", text).lower()
    out: list[str] = []
    for run in _TOKEN.findall(text):
        if _CJK_START.match(run):
            if not query or len(run) == 1:
                out.extend(run)
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
            continue
        parts = _JOINERS.split(run)
        if len(parts) > 1:
            out.append(run)
        out.extend(_norm(p) for p in parts if p and p not in _STOP)
    return out


def build(texts: list[str]):
    """A bm25s index over `texts` (positions are the caller's row numbers)."""
    import bm25s

    index = bm25s.BM25()
    index.index([tokenize(t) or [""] for t in texts], show_progress=False)
    return index


def save(index, directory: Path) -> None:
    """Persist the index into `directory`."""
    index.save(str(directory))


class SavedIndex:
    """A saved bm25s index read back for querying only: its vocabulary and the eager score matrix
    (CSC arrays), summed per query token exactly as bm25s does. Importing bm25s costs about as
    much as numpy itself; a cold `advisor ask` only needs these arrays."""

    def __init__(self, directory: Path):
        import json

        import numpy as np

        params = json.loads((directory / "params.index.json").read_text(encoding="utf-8"))
        self.dtype = np.dtype(params.get("dtype", "float32"))
        self.vocab_dict: dict[str, int] = json.loads((directory / "vocab.index.json").read_text(encoding="utf-8"))
        self.scores = {name: np.load(directory / f"{name}.csc.index.npy", allow_pickle=False)
                       for name in ("data", "indices", "indptr")}
        self.scores["num_docs"] = params["num_docs"]

    def get_tokens_ids(self, query_tokens: list[str]) -> list[int]:
        """Ids of the query tokens the index knows (unknown ones dropped)."""
        return [self.vocab_dict[t] for t in query_tokens if t in self.vocab_dict]

    def get_scores_from_ids(self, ids: list[int]):
        """BM25 score of every document: each query token's column of precomputed scores, added."""
        import numpy as np

        data, indices, indptr = self.scores["data"], self.scores["indices"], self.scores["indptr"]
        out = np.zeros(self.scores["num_docs"], dtype=self.dtype)
        for token in ids:
            start, end = indptr[token], indptr[token + 1]
            np.add.at(out, indices[start:end], data[start:end])
        return out


def load(directory: Path):
    """Load an index saved by `save` (a SavedIndex when it is the plain Lucene variant, which is
    what `build` makes; any other variant through bm25s itself)."""
    import json

    params = json.loads((directory / "params.index.json").read_text(encoding="utf-8"))
    if params.get("method") == "lucene" and not (directory / "nonoccurrence_array.index.npy").exists():
        return SavedIndex(directory)
    import bm25s

    return bm25s.BM25.load(str(directory), mmap=False)


def scores(index, query: str):
    """BM25 score of every row for `query` (zeros when no query token is known)."""
    import numpy as np

    ids = index.get_tokens_ids(tokenize(query, query=True))
    if not ids:
        return np.zeros(index.scores["num_docs"], dtype=np.float32)
    return index.get_scores_from_ids(ids)
