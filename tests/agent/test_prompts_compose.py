"""Prompt constants fill every placeholder; the template answer is built from results only."""
from __future__ import annotations

import re
import string

import pytest

from agent import prompts
from agent.compose import fmt, template_answer

PROMPTS = {name: value for name, value in vars(prompts).items() if name.isupper() and isinstance(value, str)}


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_every_placeholder_is_filled(name):
    template = PROMPTS[name]
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    values = {f: f"<<{f.upper()}>>" for f in fields}
    text = template.format(**values)
    assert all(v in text for v in values.values())
    assert re.search(r"\{[a-z_]+\}", text) is None      # no placeholder left unfilled


def test_the_call_sites_use_exactly_the_prompts_placeholders():
    from agent.understand import extraction_prompt
    system, user = extraction_prompt("8x H100 <<TEXT>>", ["interconnect"])
    assert "<<TEXT>>" in user and "interconnect" in user and "{" not in system.replace('{"', "").replace("{{", "")


FACTS = {
    "intent": "recommend", "profile": {"language": "en"}, "primary": "vllm", "alternatives": ["sglang"],
    "avoid": [{"engine": "ollama", "reason": "built for one person"}], "bottleneck": "scheduler",
    "parallelism": {"strategy": "tp", "tp": 2, "pp": 1, "ep": 1, "dp": 1, "reason": "NVLink between the cards"},
    "estimate": {"fits": True, "weights_gb": 141.2, "decode_tokens_per_s": 35.24, "ttft_s": 0.35,
                 "binding_constraint": "bandwidth"},
    "benchmark": {"concurrency": [1, 8, 64], "metrics": ["ttft", "p99"]},
    "assumptions": ["context_length = 8192: typical chat"], "warnings": ["measure p99"],
    "citations": [{"id": "a#b", "title": "Scheduling", "source": "https://x", "text": "..."}],
    "trace": [{"rule": "r1", "rationale": "Many users need a real scheduler.", "citations": ["a#b"],
               "effects": {"score": {"vllm": 2}}}],
    "injection": False,
}


def test_template_has_every_part_with_markers_and_tool_numbers():
    text = template_answer(FACTS)
    for part in ("**Recommendation: vLLM**", "Many users need a real scheduler. [1]", "SGLang",
                 "Ollama: built for one person", "scheduler", "TP (TP=2)", "141 GB", "35.2 tok/s", "0.35 s",
                 "1, 8, 64", "ttft, p99", "context_length = 8192", "measure p99", "[1] Scheduling — https://x"):
        assert part in text, part


def test_template_in_traditional_chinese_and_intent_first():
    zh = template_answer({**FACTS, "profile": {"language": "zh"}, "intent": "estimate"})
    assert zh.startswith("**估算:**") and "**建議: vLLM**" in zh and "來源" in zh
    bench = template_answer({**FACTS, "intent": "benchmark"})
    assert bench.startswith("**Benchmark before you commit:**")


def test_template_states_when_nothing_fits_and_flags_steering():
    text = template_answer({**FACTS, "primary": None, "alternatives": [], "injection": True})
    assert text.startswith("> ") and "No engine fits" in text


@pytest.mark.parametrize("x, shown", [(141.2, "141"), (327680, "327,680"), (35.24, "35.2"), (0.353, "0.35"),
                                      (8, "8"), (2259.4, "2,259")])
def test_fmt(x, shown):
    assert fmt(x) == shown


def test_renderers_share_one_answer():
    from ui import render
    result = {"answer": "**Recommendation: vLLM**\n\n## Sources\n[1] x (`a#b`)\n", "composer": "template (verify failed: y)"}
    assert render.markdown(result).startswith("**Recommendation")
    assert render.terminal(result) == "Recommendation: vLLM\n\nSOURCES\n[1] x (a#b)\n"
    assert render.slack(result).startswith("*Recommendation: vLLM*") and "*Sources*" in render.slack(result)
    assert render.question({"question": "Which GPU?", "fields": ["hardware"]}) == "Which GPU? [hardware]"
    assert render.composer_note(result) == "template (verify failed: y)" and render.composer_note({"composer": "llm"}) == ""
