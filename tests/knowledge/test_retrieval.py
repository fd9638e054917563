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


def test_seed_article_found_in_chinese_and_english(seed_article):
    summary = ingest([seed_article])
    assert summary.added >= 8
    doc = "000_7466c95c23c9ef43#"
    for query in ("八張 4090 沒有 NVLink，要用 TP 還是 PP？作者怎麼建議",
                  "Wisely Chen article: can eight RTX 4090s use TensorRT-LLM?"):
        hits = retrieve.search(query, k=5)
        seed_hits = [h for h in hits if h.id.startswith(doc)]
        assert seed_hits, (query, [h.id for h in hits])
        assert any("4090" in h.text for h in seed_hits)


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
