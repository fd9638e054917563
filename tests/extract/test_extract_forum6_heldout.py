"""Held-out tests for the forum6 classes (issue 14): written with test_extract_forum6_classes.py from
other real threads, NOT looked at while fixing; run once at the end and reported as a figure.

First (and only) run, extract8 2026-12-03 on the branch's final code: 14 of 17 passed. The three misses are
kept as expected failures (not fixed after being seen): a bare DGX Spark as one device (the generated grammar
labels a bare machine name without a count), adapters named 'lora-a' (the name reader's stoplist takes a
single letter for an article), and 'dual vs single card' as parallelism (forum/forum2 label that
construction without the topic, forum6 with it)."""
from __future__ import annotations

import pytest

from agent.extract import extract


def values(text: str):
    return extract(text).values


def topics(text: str):
    return extract(text).topics


CASES = [
    # a whole machine named alone
    ("MacBook Pro M1 Max with 64GB, llama 3.1 8B q4 gives 46 tok/s.", "count", 1),
    pytest.param("DGX Spark 128GB: can gpt-oss-120b run there?", "count", 1, marks=pytest.mark.xfail(reason="held-out miss, first run")),
    ("家裡一台 Mac Studio 想跑 DeepSeek R1 671B 的 1.58bit 版。", "count", 1),
    ("兩台 M3 Ultra 的 Mac Studio 用 exo 串起來。", "nodes", 2),
    ("公司只有一張舊的 V100 32G，想跑 InternLM2.5 20B。", "count", 1),
    # people
    ("Only my two teammates and I will query it, on a single L4.", "users", 3),
    ("我和另外四個同事共用一張 4090。", "users", 5),
    ("整機大概 6.5 萬人民幣，配兩張 4090。", "users", None),
    # concurrency
    ("壓測併發 64 條請求時 vLLM 就 OOM 了。", "concurrency", 64),
    ("When two of us hit Ollama at once the second request waits.", "concurrency", 2),
    # priority
    ("We are a tiny startup and every dollar counts; one 4090 for Qwen3 4B.", "priority", "cost"),
    ("首字延遲要控制在 1 秒以內，業務是即時客服。", "priority", "latency"),
    # lora
    pytest.param("Can vLLM hold lora-a, lora-b and lora-c on top of Qwen2.5 7B?", "lora_adapters", 3,
                 marks=pytest.mark.xfail(reason="held-out miss, first run")),
]
TOPIC_CASES = [
    ("請問這個模型能在昇騰 910B 上跑嗎？", "platform-support"),
    ("Is the Jetson Orin Nano supported by vLLM?", "platform-support"),
    ("想用兩台機器做多機多卡推理，vLLM 怎麼配？", "parallelism"),
    pytest.param("雙卡 4090 跑 Qwen 14B 為什麼沒有比單卡快？", "parallelism", marks=pytest.mark.xfail(reason="held-out miss, first run")),
]


@pytest.mark.parametrize("text, field, want", CASES)
def test_heldout_values(text, field, want):
    assert values(text).get(field) == want


@pytest.mark.parametrize("text, topic", TOPIC_CASES)
def test_heldout_topics(text, topic):
    assert topic in topics(text)
