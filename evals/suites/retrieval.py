"""The retrieval suite: labelled queries (en, zh-Hant, cross-lingual) against the knowledge store.

Run: `.venv/bin/python -m evals.suites.retrieval` (prints hit@k and the misses).
"""
from __future__ import annotations

import sys
from pathlib import Path

from evals.suite import CaseOutcome, SuiteReport

QUERIES = Path(__file__).resolve().parent.parent / "retrieval_queries.yaml"


def load_queries(path: Path = QUERIES) -> list[dict]:
    """The labelled queries; each has id, lang, query and expect (chunk ids, any one counts)."""
    import yaml

    items = yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]
    for item in items:
        missing = {"id", "lang", "query", "expect"} - set(item)
        if missing:
            raise ValueError(f"{path}: query {item.get('id', '?')} lacks {sorted(missing)}")
    return items


def run(k: int = 5, queries: Path | None = None, **_: object) -> SuiteReport:
    """Search every labelled query; a case passes when an expected chunk is in the top k."""
    from knowledge.retrieve import all_chunk_ids, search

    known = set(all_chunk_ids())
    outcomes = []
    for item in load_queries(queries or QUERIES):
        unknown = [i for i in item["expect"] if i not in known]
        got = [h.id for h in search(item["query"], k=k)]
        failures = [f"expected chunk not in the store: {i}" for i in unknown]
        if not set(item["expect"]) & set(got):
            failures.append(f"none of {item['expect']} in top {k}: {got}")
        outcomes.append(CaseOutcome(item["id"], not failures, failures,
                                    result={"query": item["query"], "lang": item["lang"], "hits": got}))
    return SuiteReport("retrieval", outcomes, _metrics(outcomes, k))


def _metrics(outcomes: list[CaseOutcome], k: int) -> dict[str, float]:
    def rate(cases: list[CaseOutcome]) -> float:
        return round(sum(c.passed for c in cases) / len(cases), 4) if cases else 0.0

    zh = [c for c in outcomes if c.result["lang"] == "zh"]
    en = [c for c in outcomes if c.result["lang"] == "en"]
    return {f"hit_at_{k}": rate(outcomes), f"hit_at_{k}_zh": rate(zh), f"hit_at_{k}_en": rate(en),
            "queries": float(len(outcomes))}


def main() -> int:
    """Print the metrics and every miss; exit 1 below the 95 % target."""
    from knowledge import offline

    offline.apply()
    report = run()
    for case in report.cases:
        if not case.passed:
            print(f"MISS {case.id}: {case.result['query']}\n     {'; '.join(case.failures)}")
    print(", ".join(f"{name}={value:g}" for name, value in report.metrics.items()))
    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.metrics["hit_at_5"] >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
