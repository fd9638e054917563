"""The MCP tools' Python functions (ui/mcp_tools.py) over the corpus: a refusal is a `gr.Error`
with one line, anything else is a crash; results are strict JSON (issue 17)."""
from __future__ import annotations

import json
import time

import pytest

from fuzz_corpus import BILLION_LAUGHS, TEXTS, YAML_TEXTS
from fuzzkit import TALLIES, Tally, assert_clean

gr = pytest.importorskip("gradio")


@pytest.fixture(scope="module")
def tools():
    from ui.mcp_tools import make_tools
    return {name: fn.__wrapped__ for name, fn in make_tools(None).items()} | {
        f"{name}!": fn for name, fn in make_tools(None).items()}


def _call(tools, name, *args, **kwargs):
    """The guarded tool: gr.Error is the expected refusal; the JSON text must be strict JSON."""
    tally = TALLIES.setdefault("mcp tools", Tally())
    tally.tried += 1
    start = time.thread_time()   # this thread's CPU only (see fuzzkit.call)
    try:
        text = tools[f"{name}!"](*args, **kwargs)
    except gr.Error as exc:
        return ("error", str(exc.message if hasattr(exc, "message") else exc))
    except Exception as exc:  # noqa: BLE001
        tally.crashes.append(f"{type(exc).__name__}: {exc}"[:200])
        return ("crash", exc)
    finally:
        tally.max_cpu = max(tally.max_cpu, time.thread_time() - start)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in {name} output"))
    return ("ok", text)


def test_recommend_and_benchmark_spec_over_the_corpus(tools):
    for text in TEXTS[:4] + TEXTS[12:20]:
        assert_clean("recommend", _call(tools, "recommend", text))
    for answers in YAML_TEXTS:
        assert_clean("recommend answers_yaml", _call(tools, "benchmark_spec", "8x H100, Llama 3.1 70B", answers))
    kind, message = _call(tools, "recommend", "8x H100", BILLION_LAUGHS)
    assert kind == "error" and "not allowed" in message


@pytest.mark.parametrize("kwargs", [
    {"count": 10**12}, {"count": -5}, {"count": float("inf")}, {"concurrency": float("nan")}, {"context": 10**400},
    {"model": "\ud800"}, {"hardware": "[" * 5000}, {"model_config": "{" * 3000}, {"model_config": '{"a": NaN}'},
    {"quant": "\x00"}, {"nodes": 0}, {"input_tokens": 1e999},
], ids=range(12))
def test_estimate_bad_arguments(tools, kwargs):
    args = {"model": "llama-3.1-70b", "hardware": "h100_sxm", **kwargs}
    assert_clean("estimate", _call(tools, "estimate", **args))


def test_search_and_size_bad_arguments(tools):
    for query, k in (("\ud800", 3), ("x" * 50_000, 3), ("nvlink", 10**30), ("nvlink", float("nan")), ("", 1)):
        assert_clean("search_knowledge", _call(tools, "search_knowledge", query, k))
    for text in TEXTS[:4]:
        assert_clean("size_hardware", _call(tools, "size_hardware", text))
