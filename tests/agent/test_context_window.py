"""A context beyond the model's own window (rules.context_window): the answer says the window, the extension
the model card documents (YaRN factor, source) with the launch flag, and plans at the extended window; beyond
what the card documents it plans at the longest documented window and says so. Restated from real threads
(exllamav3#29 'Qwen3 uses YaRN for long contexts'; a replay service stretching Qwen3-8B to 65,536 with YaRN
factor 2), en and zh-Hant; held-out twins in heldout_engine_logic.py."""
from __future__ import annotations

import pytest

from agent.api import advise
from rules import catalog, context_window
from ui.present import markdown


@pytest.fixture(scope="module")
def answers():
    texts = ["Serve Qwen3-32B on 2x A100 80GB for 10 users with 64K context, chat",
             "Qwen3-32B 放在兩張 A100 80GB，要 64K context，10 個人用",
             "Llama 3.1 8B with a 200K context on one H100, 4 users"]
    return {t: advise(t, knowledge=False) for t in texts}


@pytest.mark.parametrize("text, lang", [("Serve Qwen3-32B on 2x A100 80GB for 10 users with 64K context, chat", "en"),
                                        ("Qwen3-32B 放在兩張 A100 80GB，要 64K context，10 個人用", "zh")])
def test_a_documented_extension_is_named_with_its_flag_and_planned(answers, text, lang):
    a = answers[text]
    assert a.estimate is not None and a.estimate.context_length >= 64_000
    answer = markdown.answer(a)
    said = next(line for line in answer.splitlines() if "40,960" in line and "YaRN" in line and "huggingface.co" in line)
    assert ("本身的 context" in said) if lang == "zh" else ("own window" in said)
    assert "huggingface.co/Qwen/Qwen3-32B" in said and "factor 2" in said
    launch = next(c for c in a.plan.launch if c.engine == a.decision.primary)
    assert '"factor":2.0' in launch.command or "--rope-scale 2" in launch.command, launch.command


def test_beyond_what_the_card_documents_is_planned_at_the_window_and_said(answers):
    a = answers["Llama 3.1 8B with a 200K context on one H100, 4 users"]
    assert a.estimate is not None and a.estimate.context_length == 131_072
    answer = markdown.answer(a)
    assert any("131,072" in line and "200,000" in line for line in answer.splitlines())


def test_the_factor_is_the_smallest_half_step_that_covers_the_need():
    spec = catalog.model("qwen3-32b")
    assert context_window.window(spec, 30_000) is None
    assert context_window.window(spec, 65_536).factor == 2.0
    assert context_window.window(spec, 100_000).factor == 3.5
    w = context_window.window(spec, 300_000)
    assert w.planned == 131_072 and w.factor == 4.0 and w.capped
    assert context_window.launch_flags("llama.cpp", context_window.window(spec, 65_536)) == \
        "--rope-scaling yarn --rope-scale 2 --yarn-orig-ctx 32768 --ctx-size 65536"
    assert context_window.window(catalog.model("llama-3.1-8b"), 200_000).factor is None


@pytest.mark.parametrize("text", ["Serve Qwen3-32B on 2x A100 80GB for 10 users with 64K context, chat",
                                  "Qwen3-32B 放在兩張 A100 80GB，要 64K context，10 個人用",
                                  "Llama 3.1 8B with a 200K context on one H100, 4 users"])
def test_the_summary_says_it_beside_the_headline(answers, text):
    lines = markdown.answer(answers[text]).splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(("**Recommendation", "**建議")))
    assert any(line.startswith("- Context") and ("40,960" in line or "131,072" in line) for line in lines[head:head + 3])
