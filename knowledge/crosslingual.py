"""Cross-lingual query expansion with a small bilingual term list (`zh_terms.yaml`).

The English fact sheets carry most engine detail, and a Traditional-Chinese question ("vLLM
支援哪些量化格式？") shares only the engine name with them. Adding the English phrases of the
Chinese terms a query contains lets BM25 and the embedder reach those notes; adding the Chinese
term of an English phrase lets English questions reach the zh-Hant notes.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

TERMS_FILE = Path(__file__).with_name("zh_terms.yaml")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=1)
def terms() -> list[tuple[str, list[str], list[str]]]:
    """(Chinese term, all English phrases, phrases that may expand English queries), longest first."""
    rows = []
    for line in TERMS_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        zh, _, rest = line.partition(":")
        phrases = [p.strip() for p in rest.split(",") if p.strip()]
        rows.append((zh.strip(), [p.lstrip("~") for p in phrases],
                     [p for p in phrases if not p.startswith("~")]))
    return sorted(rows, key=lambda row: -len(row[0]))


def to_english(query: str) -> str:
    """`query` plus the English phrases of each Chinese term it contains (for BM25)."""
    if not _CJK.search(query):
        return query
    rest, extra = query, []
    for zh, phrases, _ in terms():
        if zh in rest:
            extra.extend(phrases)
            rest = rest.replace(zh, " ")
    return f"{query} {' '.join(extra)}" if extra else query


def translate(query: str) -> str:
    """`query` with each known Chinese term replaced by its English phrases (for the embedder,
    which leans towards passages in the query's language)."""
    if not _CJK.search(query):
        return query
    for zh, phrases, _ in terms():
        if zh in query:
            query = query.replace(zh, f" {' '.join(phrases)} ")
    return " ".join(query.split())


def to_chinese(query: str) -> str:
    """`query` plus the Chinese term of each (specific) English phrase it contains."""
    lowered, extra = query.lower(), []
    for zh, pattern in _english_patterns():
        if zh not in query and pattern.search(lowered):
            extra.append(zh)
    return f"{query} {' '.join(extra)}" if extra else query


@lru_cache(maxsize=1)
def _english_patterns() -> list[tuple[str, re.Pattern]]:
    """(Chinese term, one pattern matching any of its expanding English phrases as whole words),
    compiled once instead of one search per phrase per query."""
    return [(zh, re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![a-z0-9])"))
            for zh, _, phrases in terms() if phrases]
