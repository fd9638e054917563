"""Ollama runs one server process that places each model over the GPUs it sees (on one GPU when it fits,
else split by layers; OLLAMA_SCHED_SPREAD=1 always splits) and has no replicas of its own (engine catalog:
single_server). The planner offers it only those layouts, and says that two copies need one ollama serve
per GPU behind a load balancer. Restated from real threads (ollama/ollama#4198 three people on several
GPUs, #1813 one model on a dedicated GPU), en and zh-Hant; held-out twins in heldout_engine_logic.py."""
from __future__ import annotations

import pytest

from agent.api import advise
from rules import engines
from rules.plan import legality
from rules.plan.schema import Layout
from ui.present import markdown

ONE_GPU = [
    ("en", "two RTX 3090, Ollama, Qwen2.5 14B Q4, 4 people"),
    ("zh", "三張 RTX 4090 用 Ollama 跑 Llama 3.1 8B，3 個人同時用"),
]


@pytest.fixture(scope="module")
def answers():
    texts = [t for _, t in ONE_GPU] + ["Ollama with Llama 3.3 70B Q4_K_M on 2x RTX 3090 for 3 of us"]
    return {t: advise(t, knowledge=False) for t in texts}


@pytest.mark.parametrize("lang, text", ONE_GPU)
def test_ollama_is_one_instance_on_one_gpu_when_the_model_fits_one(answers, lang, text):
    a = answers[text]
    assert a.decision.primary == "ollama" and a.plan is not None and a.plan.layout is not None
    assert a.plan.layout.dp == 1 and a.plan.layout.tp == 1 and a.plan.layout.pp == 1, a.plan.layout
    answer = markdown.answer(a)
    assert "DP=" not in answer.split("\n")[0]
    assert ("負載平衡" if lang == "zh" else "load balancer") in answer and "OLLAMA_SCHED_SPREAD=1" in answer
    ollama = next(c for c in a.plan.launch if c.engine == "ollama")
    assert "instances" not in ollama.command and "OLLAMA_SCHED_SPREAD" not in ollama.command


def test_a_model_larger_than_one_gpu_is_split_by_layers_and_told_to_spread(answers):
    a = answers["Ollama with Llama 3.3 70B Q4_K_M on 2x RTX 3090 for 3 of us"]
    assert a.plan.layout.pp == 2 and a.plan.layout.dp == 1, a.plan.layout
    ollama = next(c for c in a.plan.launch if c.engine == "ollama")   # the named engine gets its own launch line
    assert "OLLAMA_SCHED_SPREAD=1" in ollama.command


def test_replicas_are_not_an_ollama_layout_but_remain_one_for_llama_cpp():
    two = Layout(tp=1, pp=1, ep=1, dp=2)
    assert legality.engine_reason(two, "ollama", frozenset({"pp"}), False, False)
    assert legality.engine_reason(two, "llama.cpp", frozenset({"pp", "tp"}), False, False) is None
    fact = engines.engine("ollama").single_server
    assert fact is not None and fact.source.startswith("https://")
