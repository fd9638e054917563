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


def advice(language: str = "en", intent: str = "recommend", primary: str | None = "vllm",
           alternatives: tuple[str, ...] = ("sglang",), injection: bool = False):
    """A typed Advice built by the agent's own builder from a state with known tool results."""
    from agentfakes import fake_estimate, fake_spec

    from agent.result import build_advice
    from rules.profile import build_profile
    profile = build_profile({"language": language, "concurrency": 64})
    est = fake_estimate(profile) | {"weights_gb": 141.2, "decode_tokens_per_s": 35.24, "ttft_s": 0.35,
                                    "binding_constraint": "bandwidth"}
    state = {
        "intent": intent, "profile": profile.model_dump(mode="json"), "injection": injection,
        "decision": {"primary": primary, "alternatives": list(alternatives),
                     "avoid": [{"engine": "ollama", "reason": "built for one person", "rule": "r-ollama"}],
                     "bottleneck": "scheduler",
                     "parallelism": {"strategy": "tp", "tp": 2, "pp": 1, "ep": 1, "dp": 1,
                                     "reason": "NVLink between the cards"},
                     "warnings": ["measure p99"], "rules": ["r1"],
                     "trace": [{"rule": "r1", "name": "r1", "rationale": "Many users need a real scheduler.",
                                "values": {}, "citations": ["a#b"], "effects": {"score": {"vllm": 2}}}]},
        "estimate": est, "benchmark": fake_spec(profile), "assumptions": ["context_length = 8192: typical chat"],
        "citations": [{"id": "a#b", "title": "Scheduling", "source": "https://x", "text": "..."}],
    }
    return build_advice(state)


def test_template_has_every_part_with_markers_and_tool_numbers():
    text = template_answer(advice())
    for part in ("**Recommendation: vLLM**", "Many users need a real scheduler. [1]", "SGLang",
                 "Ollama: built for one person", "scheduler", "TP (TP=2)", "141 GB", "35.2 tok/s", "0.35 s",
                 "1, 8, 64", "ttft, p99", "context_length = 8192", "measure p99", "[1] Scheduling — https://x"):
        assert part in text, part


def test_template_in_traditional_chinese_and_intent_first():
    zh = template_answer(advice(language="zh", intent="estimate"))
    assert zh.startswith("**估算：**") and "**建議：vLLM**" in zh and "來源" in zh   # zh-Hant punctuation
    bench = template_answer(advice(intent="benchmark"))
    assert bench.startswith("**Benchmark before you commit:**")


def test_template_states_when_nothing_fits_and_flags_steering():
    text = template_answer(advice(primary=None, alternatives=(), injection=True))
    assert text.startswith("> ") and "No engine fits" in text


@pytest.mark.parametrize("x, shown", [(141.2, "141"), (327680, "327,680"), (35.24, "35.2"), (0.353, "0.35"),
                                      (8, "8"), (2259.4, "2,259")])
def test_fmt(x, shown):
    assert fmt(x) == shown


def test_markdown_presenter_adapts_the_one_answer():
    from ui.present import markdown
    a = advice().model_copy(update={"answer": "**Recommendation: vLLM**\n\n## Sources\n[1] x (`a#b`)\n",
                                    "composer": "template (verify failed: y)"})
    assert markdown.answer(a).startswith("**Recommendation")
    assert markdown.terminal(a) == "Recommendation: vLLM\n\nSOURCES\n[1] x (a#b)\n"
    assert markdown.question({"question": "Which GPU?", "fields": ["hardware"]}) == "Which GPU? [hardware]"
    assert markdown.composer_note(a) == "template (verify failed: y)"
    assert markdown.composer_note(a.model_copy(update={"composer": "llm"})) == ""
