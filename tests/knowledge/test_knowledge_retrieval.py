"""Retrieval on the shipped corpus: the labelled suite, the seed article, the API contract."""
from __future__ import annotations

import pytest

from evals.suites import retrieval
from knowledge import retrieve
from knowledge.ingest import ingest
from rules.errors import InputError, UnknownIdError


def test_the_labelled_queries_are_a_fair_set():
    queries = retrieval.load_queries()
    assert len(queries) >= 40 and len({q["id"] for q in queries}) == len(queries)
    assert sum(q["lang"] == "zh" for q in queries) >= len(queries) / 3
    crossing = [q for q in queries if q.get("cross")]
    assert any(q["lang"] == "zh" for q in crossing) and any(q["lang"] == "en" for q in crossing)


def test_retrieval_suite_meets_its_target():
    report = retrieval.run(k=5)
    misses = [(c.id, c.failures) for c in report.cases if not c.passed]
    assert report.metrics["hit_at_5"] >= 0.95, misses
    assert not any("not in the store" in f for _, fs in misses for f in fs), misses


SEED_QUERIES = [  # (query, text the right chunk of the article contains)
    ("內部試用只有五個人很順，開放給五十位業務後第一週就卡死，為什麼", "Case 3"),
    ("An Ollama demo was fine for five people and broke once fifty sales staff used it", "Case 3"),
    ("做 benchmark 時應該記錄哪些指標", "TPOT"),
    ("which metrics should an engine benchmark record", "TPOT"),
    ("M3 Ultra 和 H100 的記憶體頻寬差多少", "819 GB/s"),
    ("bandwidth of the M3 Ultra compared with an H100", "819 GB/s"),
]


def test_seed_article_found_in_chinese_and_english(mini_corpus, seed_article):
    """The article (zh-Hant with English terms, no headings) as a user's file, next to a small corpus."""
    summary = ingest([seed_article])
    assert summary.added >= 8
    misses = []
    for query, marker in SEED_QUERIES:
        hits = retrieve.search(query, k=3)
        if not any(h.id.startswith("000_7466c95c23c9ef43#") and marker in h.title + h.text for h in hits):
            misses.append((query, [h.id for h in hits]))
    assert misses == []


def test_get_chunks_keeps_order_and_knows_strictness():
    ids = ["engine-vllm#parallelism", "faq#faq-ollama"]
    assert [h.id for h in retrieve.get_chunks(ids)] == ids
    assert retrieve.get_chunks(["nope#nothing"]) == []
    with pytest.raises(UnknownIdError):
        retrieve.get_chunks(["engine-vllm#paralelism"], strict=True)


def test_search_rejects_an_empty_query_and_bad_k():
    with pytest.raises(InputError):
        retrieve.search("  ")
    with pytest.raises(InputError):
        retrieve.search("vllm", k=0)


def test_read_paths_stay_light():
    """Cold-start guard: search never imports chromadb; get_chunks not even numpy."""
    import subprocess
    import sys

    retrieve.ensure_store()
    code = ("import sys\nfrom knowledge import offline\noffline.apply()\n"
            "from knowledge.retrieve import get_chunks, search\n"
            "assert get_chunks(['faq#faq-ollama'])\n"
            "assert 'numpy' not in sys.modules and 'chromadb' not in sys.modules\n"
            "assert search('vLLM 支援哪些量化格式')\n"
            "assert 'chromadb' not in sys.modules, 'search imported chromadb'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
