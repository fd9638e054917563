"""Typical vs longest prompt, the host's RAM (size, type, speed, channels) and a shared prompt's size.

Restated from real questions: a 4090 server whose users send "usually 8K, a few long documents of 32K+"
(vllm#16444), a 3090 box offloading a big MoE to multi-channel DDR5 (ollama#10810), a dual-socket Ice Lake
with 8 channels of DDR4-3200 per socket under KTransformers (ktransformers#319), a support bot whose every
request carries the same ~3K-token system prompt (vllm#3154, vllm#227, vllm#20044)."""
from __future__ import annotations

import pytest

from agent.extract import extract, extract_answer
from rules.roofline.offload import host_bandwidth

LENGTHS = [
    ("一般 8K，少數長文件 32K 以上", 8000, 32000),
    ("usually 16K, some documents up to 32K", 16000, 32000),
    ("16K typical, some 32K", 16000, 32000),
    ("大多數請求約 4K tokens，偶爾會有 64K 的長文件", 4000, 64000),
    ("Most prompts are around 2K tokens but occasionally up to 100K", 2000, 100000),
    ("通常 2K 左右，最長 16K", 2000, 16000),
]


@pytest.mark.parametrize("text,typical,longest", LENGTHS)
def test_typical_and_longest_both_kept(text, typical, longest):
    v = extract(text).values
    assert (v.get("input_tokens"), v.get("context_length")) == (typical, longest)


@pytest.mark.parametrize("text,typical,longest", LENGTHS[:3])
def test_reply_about_context_keeps_both(text, typical, longest):
    v = extract_answer(text, ["context_length"]).values
    assert (v.get("input_tokens"), v.get("context_length")) == (typical, longest)


@pytest.mark.parametrize("text,want", [
    ("we need a 32K context window, prompts are about 2K", {"context_length": 32000, "input_tokens": 2000}),
    ("16K context", {"context_length": 16000}),
    ("some users send 8K prompts", {"input_tokens": 8000}),
])
def test_single_lengths_unchanged(text, want):
    v = extract(text).values
    assert {k: v.get(k) for k in want} == want


HOSTS = [
    ("2x RTX 3090 (48GB VRAM total), Threadripper 7960X, 256GB DDR5-5200 (4 channels)", 256, "ddr5", 5200, 4),
    ("雙路 Xeon Platinum 8352Y，512GB DDR4-3200（每路 8 通道插滿），1x RTX 4090 24GB", 512, "ddr4", 3200, 8),
    ("a 4090 and 128GB of DDR5 6000 in dual channel", 128, "ddr5", 6000, 2),
    ("一張 3090，主機是八通道 DDR4-2933，256GB 記憶體", 256, "ddr4", 2933, 8),
]


@pytest.mark.parametrize("text,gb,kind,mts,channels", HOSTS)
def test_host_memory_read(text, gb, kind, mts, channels):
    v = extract(text).values
    assert (v.get("host_memory_gb"), v.get("host_mem_type"), v.get("host_mem_mts"), v.get("host_mem_channels")) \
        == (gb, kind, mts, channels)


def test_no_host_memory_from_card_memory():
    v = extract("one RTX 4090 with 24GB, Llama 3 8B").values
    assert not any(k.startswith("host_") for k in v)


def test_host_bandwidth_formula():
    assert host_bandwidth(5200, 4)[0] == pytest.approx(166.4)
    assert host_bandwidth(3200, 8)[0] == pytest.approx(204.8)
    assert "x 8 bytes" in host_bandwidth(3200, 8)[1]


@pytest.mark.parametrize("text,tokens", [
    ("customer-support bot: ~3,000-token shared system prompt + retrieved FAQ, multi-turn chats", 3000),
    ("每個請求都帶同一段 2K tokens 的系統提示詞", 2000),
    ("a system prompt of about 1,500 tokens shared by every request", 1500),
])
def test_shared_prefix_tokens(text, tokens):
    v = extract(text).values
    assert v.get("prefix_tokens") == tokens and v.get("shared_prefix") is True
