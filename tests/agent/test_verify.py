"""Grounding checks on LLM prose: engines, citations and numbers must come from the tools."""
from __future__ import annotations

import pytest

from agent import verify
from agent.names import engine_names, engines_named
from rules.ids import ENGINES

RESULT = {
    "primary": "vllm", "alternatives": ["sglang"], "avoid": [{"engine": "ollama", "reason": "x"}],
    "citations": [{"id": "faq#nvlink", "title": "t", "source": "s", "text": "x"},
                  {"id": "bottlenecks#kv", "title": "t", "source": "s", "text": "x"}],
}
NUMBERS = [141.2, 0.35, 80000, 327680, 35.24, 8, 4090, 3.1, 70]
GOOD = ("Use **vLLM** with pipeline parallelism over the 8 cards [1]; SGLang is the alternative and "
        "Ollama should be avoided. Weights take about 141 GB, TTFT is 350 ms at an 80K context, "
        "KV cache 327,680 bytes per token, decode about 35.2 tok/s on the RTX 4090 [2].")


def test_grounded_prose_passes():
    assert verify.problems(GOOD, RESULT, NUMBERS) == []


@pytest.mark.parametrize("text, fragment", [
    (GOOD + " TensorRT-LLM would be faster.", "tensorrt-llm"),
    (GOOD.replace("[2]", "[3]"), "[3]"),
    (GOOD + " See `faq#made-up` too.", "faq#made-up"),
    (GOOD.replace("141 GB", "150 GB"), "150"),
    (GOOD.replace("35.2", "42"), "42"),
    (GOOD.replace("[1]", "").replace("[2]", ""), "cites no source"),
    (GOOD.replace("**vLLM**", "an engine"), "recommended engine vllm"),
])
def test_each_kind_of_ungrounded_prose_is_caught(text, fragment):
    issues = verify.problems(text, RESULT, NUMBERS)
    assert issues and any(fragment in i for i in issues), issues


@pytest.mark.parametrize("printed, truth, ok", [
    ("141", 141.2, True), ("140", 141.2, True), ("100", 141.2, False), ("141.2", 141.2, True),
    ("350", 0.35, True), ("80K", 80000, True), ("128K", 131072, True), ("327,680", 327680, True),
    ("36", 35.24, False), ("35", 35.24, True), ("3.4", 3.35, True), ("12.5", 0.125, True), ("13", 141.2, False),
])
def test_numbers_match_up_to_rounding_and_unit_views(printed, truth, ok):
    assert verify.matches(printed, truth) is ok


def test_names_inside_ids_are_not_numbers():
    assert [p for p, _ in verify.numbers("FP8 on H100, p99 latency, TP=2 [4]")] == ["2"]


def test_every_engine_id_has_a_display_name_that_is_recognised():
    assert set(engine_names()) == set(ENGINES)   # every engine named by its catalog entry
    for engine, name in engine_names().items():
        assert engines_named(f"We suggest {name} here.") == {engine}


def test_ollama_is_not_llama_cpp_and_bare_exllama_names_no_version():
    assert engines_named("Ollama") == {"ollama"}
    assert engines_named("ExLlama is fine") == set()
    assert engines_named("TRT-LLM and MLX") == {"tensorrt-llm", "mlx-lm"}


SOURCED = {**RESULT, "citations": [{**c, "source": "https://docs.vllm.ai/en/latest/"} for c in RESULT["citations"]]}


@pytest.mark.parametrize("extra", [
    "Ollama was built for personal use, so it is not the pick here.",
    "Keep the time to first token < 0.35 s for chat.",
    "Details: [vLLM docs](https://docs.vllm.ai/en/latest/) and https://docs.vllm.ai/en/latest/.",
    "Also consider SGLang when many requests share a prefix.",
])
def test_ordinary_prose_is_not_taken_for_harm(extra):
    assert verify.problems(GOOD + " " + extra, SOURCED, NUMBERS) == []


@pytest.mark.parametrize("extra, fragment", [
    ("<!channel> read this", "markup"), ("@here read this", "whole channel"), ("![](https://x.example/p.png)", "image"),
    ("[docs](https://evil.example/)", "links outside"), ("See www.evil.example now", "links outside"),
    ("**Recommendation: Ollama**", "presents ollama"), ("You could try Ollama for this team.", "recommends ollama"),
    ("Decode reaches 35,240 tok/s.", "35,240"), ("Every number you write must be copied from FACTS or SOURCES.", "instructions"),
    ("x" * 6000, "characters long"), ("use \u202e vLLM", "invisible"),
])
def test_unsafe_prose_is_caught(extra, fragment):
    issues = verify.problems(GOOD + " " + extra, SOURCED, NUMBERS)
    assert any(fragment in i for i in issues), issues
