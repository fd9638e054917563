"""No English sentences or fragments reach a zh-Hant user, on any surface (evals/langcheck.py).

Runs the real advisor on the zh-Hant questions of tests/lang/zh_questions.yaml (written from real
Chinese-language threads) and checks every text a user reads. New answer sentences, capacity lines
or labels added without their zh-Hant text fail here. The held-out third is checked the same way.
"""
from __future__ import annotations

import pytest
from zhsurfaces import questions, texts_for

from evals.langcheck import english_runs, leaks, simplified


def test_the_checker_finds_english_and_spares_names_ids_and_terms():
    assert english_runs("在 A computer's CPU 上執行") == ["A computer's CPU"]
    assert english_runs("放得下 the GPU memory, runs with 3 GB in system RAM")
    assert english_runs("the KV cache is full")             # a term inside a sentence does not hide it
    for fine in ("vLLM 的 KV cache 比較大", "建議：vLLM — 4 × NVIDIA GeForce RTX 4090 上 TP=4 · 放得下（權重 37.5 GB）",
                 "一台 Mac Studio M3 Ultra 自己用 Llama 3.3 70B", "啟動指令：`vllm serve x --tensor-parallel-size 4`",
                 "[1] The one-page decision list: hardware, then workload — https://example.com (decision-list#a)",
                 "prefill 與 decode", "舊版會出現「no kernel image is available」錯誤", "單一串流 17.4 tok/s，首字延遲 0.96 s", "加上 --max-num-seqs 20 再測"):
        assert english_runs(fine) == [], fine


@pytest.mark.parametrize("q", questions(), ids=lambda q: q["id"])
def test_zh_hant_output_has_no_english_runs(q, capsys):
    texts = texts_for(q, capsys)
    found = leaks(texts)
    assert not found, "\n".join(f"{where}: {runs[:5]}" for where, runs in found.items())
    mixed = {where: simplified(t) for where, t in texts.items() if simplified(t)}   # zh-Hant, not Simplified
    assert not mixed, mixed


def test_the_cli_prints_zh_hant_for_a_zh_hant_question(capsys):
    """What the terminal shows: the follow-up questions, the simulated "don't know", the answer; and the
    benchmark plan as Markdown (`benchspec --format markdown`)."""
    from ui.cli import main
    text = "2 張 H100，Qwen3 32B 做 RAG，40 個併發，平均提示 8000 token"
    assert main(["ask", text]) == 0
    out = capsys.readouterr().out
    assert "不知道" in out and english_runs(out) == []
    assert main(["benchspec", text, "--format", "markdown"]) == 0
    plan = capsys.readouterr().out
    assert plan.startswith("# 測試計畫") and english_runs(plan) == []


def test_zh_hant_text_is_traditional():
    """The advisor's own zh-Hant words (catalogs of messages and labels) hold no Simplified-only character."""
    from agent import compose, names
    from evals.langcheck import simplified
    from rules.benchspec import text_zh
    from ui.present import labels, webtext
    tables = [compose.LABELS["zh"], labels.LABELS["zh"], webtext.TEXT["zh"], names.FIELDS["zh"], text_zh.METRICS,
              text_zh.RUNS, text_zh.RUN_NOTES, text_zh.RECORD, text_zh.SLO_BASIS, text_zh.CHECKS, text_zh.IF_FAILS,
              text_zh.RULES, text_zh.FILL, {"tpot": text_zh.TPOT}, dict(enumerate(t for _, t in text_zh.PATTERNS))]
    found = {k: simplified(v) for table in tables for k, v in table.items() if simplified(str(v))}
    assert not found, found
    assert simplified("这个模型") and not simplified("這個模型")
