"""A sweep over every catalog device × five model sizes × device counts × the article's serving tiers:
the deterministic answer never breaks what an expert would never sign (issue 15). See invariants.py
for the grid and each invariant; a zh-Hant sample of rendered answers has no English sentence."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import invariants as inv   # tests/rules/invariants.py (this directory is on sys.path under pytest)
import pytest

from rules import catalog

ROWS = list(inv.grid())


def test_the_grid_covers_every_device_model_and_tier():
    assert {r["hardware"] for r in ROWS} == set(catalog.all_hardware())
    assert {r["model"] for r in ROWS} == set(inv.MODELS)
    assert {r["users"] for r in ROWS} == set(inv.TIERS.values())


@pytest.fixture(scope="module")
def swept():
    return inv.sweep(ROWS)


@pytest.mark.parametrize("name", inv.CHECKS)
def test_invariant_holds_on_every_setup(swept, name):
    counts, examples = swept
    assert counts[name] == 0, f"{counts[name]} setups break {name}, e.g.:\n" + "\n".join(examples[name][:5])


def test_the_checks_catch_what_they_are_for():
    """Each invariant can fail: a Mac told to run vLLM, a crowd given Ollama, a reason naming an H100."""
    assert inv._other_devices_named("a datacenter node such as 8xH100 or H100 SXM", catalog.hardware("rtx3090"))
    assert not inv._other_devices_named("on 2x RTX 3090 with PCIe", catalog.hardware("rtx3090"))
    assert "five to ten people" in inv._tier_words(40)
    assert inv.nvidia_only() >= {"tensorrt-llm"}


def _english_sentences():
    """The detector of tests/agent/test_answer_text.py (one detector for every language test)."""
    path = Path(__file__).resolve().parents[1] / "agent" / "test_answer_text.py"
    spec = importlib.util.spec_from_file_location("_answer_text_detector", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.english_sentences


english_sentences = _english_sentences()

ZH_SAMPLE = [dict(hardware=hw, count=count, model=model, users=users, language="zh")
             for i, (hw, model, count, users) in enumerate(
                 (r["hardware"], r["model"], r["count"], r["users"]) for r in ROWS) if i % 499 == 0]
"""About two dozen setups spread over the grid (every 499th row): classes, models and tiers all vary."""
ZH_SAMPLE += [dict(hardware=hw, count=n, model=m, users=u, language="zh") for hw, n, m, u in (
    ("epyc_genoa", 1, "llama-3.1-8b", 300),    # the best that runs, with its limit
    ("mi100", 1, "llama-3.1-8b", 40),          # only llama.cpp runs on this GPU
    ("m3_ultra", 1, "llama-3.1-70b", 300),     # a crowd on a Mac
    ("gaudi3", 8, "deepseek-v3", 6),           # no engine here reads the native format
    ("jetson_orin_nx_16g", 1, "qwen3-30b-a3b", 40),   # does not fit at the smallest format
)]


@pytest.mark.parametrize("raw", ZH_SAMPLE, ids=lambda r: f"{r['count']}x{r['hardware']}-{r['model']}-{r['users']}")
def test_zh_answer_has_no_english_sentence(raw):
    from agent.api import advise_profile
    answer = advise_profile(raw, knowledge=False).contract_json()["answer"]
    found = english_sentences(answer)
    assert not found, (raw, found[:3])
