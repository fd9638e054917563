"""Quantization said as a decision still to make, in English and Traditional Chinese: "should we
quantize to FP8?", "要不要量化成 FP8", "is it worth going to AWQ?", "FP8 值不值得？", a format beaten
in a comparison ("does AWQ beat GPTQ?", "AWQ 會比 GPTQ 快嗎"), and a format said of the KV cache
through an engine flag or a clause about the cache ("--kv-cache-dtype fp8", "KV cache dropped from
q8_0 to q4_0"). None of these is the weight format the user runs; a format given as the condition of
a feasibility question ("will it fit at 4-bit?") or stated as the setup still is.

Written for issue 14 from the phrasing of public threads (vLLM, llama.cpp, lmdeploy, Qwen, unsloth
issues and pages), before the quantization reader was changed for them."""
from __future__ import annotations

import pytest

from agent.extract import extract


def quant(text: str) -> str | None:
    ex = extract(text)
    if "quantization" in ex.values:
        assert ex.evidence["quantization"] in text, (text, ex.evidence)
    return ex.values.get("quantization")


ASKED = [
    # whether to quantize at all, or to which format
    "Qwen3 32B on an H100, should we quantize to FP8?",
    "Qwen3 32B on an H100: should I use FP8?",
    "Qwen3 32B on one H100, is it worth going to FP8?",
    "Qwen3 32B on 2x L40S. should the weights be FP8?",
    "Qwen3 32B on 2x L40S. worth switching to AWQ?",
    "Qwen3 32B on 2x L40S. any point in INT8?",
    "Qwen3 32B on 2x L40S. do you recommend AWQ?",
    "Qwen3 32B on 2x L40S. would you quantize it to INT4?",
    "Qwen3 32B on 2x L40S. would FP8 be faster?",
    "Qwen3 32B on 2x L40S. how much quality do we lose with 4-bit?",
    "Qwen3 32B, should we go FP8 or stay BF16?",
    "Qwen3 32B on one A5000, shoud we quantize to fp8",          # a typo and no question mark
    "Mistral Nemo on 3 7900 XTX, latency first, is it worth going to AWQ",
    "Qwen3 32B 一張 H100，要不要量化成 FP8？",
    "Qwen3 32B 一張 H100，要不要量化成FP8",
    "Qwen3 32B，該不該用 FP8？",
    "Qwen3 32B，適合用 FP8 嗎？",
    "Qwen3 32B，FP8 適合嗎",
    "Qwen3 32B，兩張 L40S。是否要改用 AWQ？",
    "Qwen3 32B，兩張 L40S。FP8 值不值得？",
    "Qwen3 32B，兩張 L40S。量化到 FP8 有必要嗎？",
    "Qwen3 32B，兩張 L40S。有建議用 AWQ 嗎？",
    "Qwen3 32B，兩張 L40S。需不需要量化成 INT8？",
    # compared: neither side is chosen
    "Qwen3 32B on 2x L40S. does AWQ beat GPTQ?",
    "Qwen3 32B，兩張 L40S。用 AWQ 會比 GPTQ 快嗎？",
    # said of the KV cache, not the weights
    "Llama 3.1 70B on 2x H100, --kv-cache-dtype fp8",
    "Llama 3.1 70B on 2x H100, kv_cache_dtype=fp8_e4m3",
    "Qwen3 32B on 2x L40S. does KV cache quantization to FP8 hurt quality?",
    "Qwen3 32B，兩張 L40S。KV cache 可以量化到 INT8 嗎？",
    "llama-server with a 27B on a 24GB card: the KV cache dropped from q8_0 to q4_0 to pay for the longer context",
]

STATED = [
    # the format stays: it is the setup, or the condition of a feasibility question
    ("Qwen3 32B, can it run in FP8 on an A100?", "fp8"),
    ("Qwen3 32B, will it fit at 4-bit?", "int4"),
    ("Qwen3 32B 用 4-bit 放得下嗎？", "int4"),
    ("Qwen3 32B，打算用 AWQ", "awq"),
    ("Qwen3 32B, we will run AWQ", "awq"),
    ("Qwen3 32B, we should quantize to FP8 and serve it on one H100", "fp8"),
    ("Qwen3 32B, want to quantize to FP8", "fp8"),
    ("Qwen3 32B，想量化成 FP8", "fp8"),
    ("We run Qwen3 32B AWQ on 2x 4090s, should we switch to SGLang?", "awq"),
    ("Qwen3-32B-AWQ 跑在兩張 4090，要不要換 SGLang？", "awq"),
    ("How many GPUs do we need for Llama 3.1 70B in FP8?", "fp8"),
    ("Llama 3.1 70B AWQ on 2x H100 with FP8 KV cache", "awq"),
    ("Llama 3.1 70B 兩張 H100，KV 快取 FP8，權重 AWQ", "awq"),
    ("Qwen3 32B, the KV cache in FP8 and the weights in AWQ", "awq"),
    # real phrasings of formats the reader already knows
    ("unsloth/Llama-3.1-8B-bnb-4bit on a T4", "int4"),
    ("Qwen3-32B-FP8-Dynamic on an H100", "fp8"),
    ("gpt-oss-120b mx fp4 on an H100", "mxfp4"),
    ("Llama 3.1 70B nv-fp4 on a B200", "nvfp4"),
    ("Qwen3 32B，ＦＰ８權重", "fp8"),
    ("Qwen3 32B，４－ｂｉｔ量化", "int4"),
    ("Llama 3.1 8B 用半精度跑", "f16"),
    ("Llama 3.1 70B 全精度 FP16", "f16"),
    ("Llama 3.1 70B w4a16 GPTQ on 2x L40S", "gptq-4bit"),
    ("Llama 3.1 70B EXL2 4.65bpw on 2x 3090", "exl2-4.65"),
    ("預設參數、不量化的 half 精度下，RTX3090 跑 ChatGLM-6B 要 10 秒", "f16"),
    # a bit width said of a GGUF file is llama.cpp's quant of that width; an 8-bit float is FP8
    ("Qwen3 32B, 8-bit GGUF, on a 4090", "q8_0"),
    ("Qwen3 32B, GGUF 4-bit, on a 4090", "q4_k_m"),
    ("Qwen3 32B 的 4bit GGUF，一張 4090", "q4_k_m"),
    ("Qwen3 32B 用 GGUF 8 位元，一張 4090", "q8_0"),
    ("Qwen3 32B in 8-bit float on an H100", "fp8"),
]

UNKNOWN = [
    # formats with no id in the contract: not read as a neighbouring id
    "DeepSeek R1 unsloth dynamic 1.58-bit on 2x H100",
    "DeepSeek R1 UD-IQ1_S on 2x H100",
    "Qwen3 32B gguf 量化，一張 4090",
    "Llama 3.1 70B, fp32",
    "Qwen3 32B in 4-bit float on a B200",
]


@pytest.mark.parametrize("text", ASKED)
def test_a_format_still_to_decide_is_not_the_weights(text):
    assert quant(text) is None, text


@pytest.mark.parametrize("text, expected", STATED)
def test_a_stated_format_is_read(text, expected):
    assert quant(text) == expected, text


@pytest.mark.parametrize("text", UNKNOWN)
def test_formats_without_an_id_are_not_read(text):
    assert quant(text) is None, text


@pytest.mark.parametrize("text, kv", [
    ("Llama 3.1 70B on 2x H100, --kv-cache-dtype fp8", "fp8"),
    ("Llama 3.1 70B on 2x H100, kv_cache_dtype=fp8_e4m3", "fp8"),
])
def test_engine_flags_set_the_kv_cache_dtype(text, kv):
    assert extract(text).values.get("kv_cache_dtype") == kv, text


@pytest.mark.parametrize("text", [
    "Qwen3 32B on an H100, should we quantize to FP8?",
    "Qwen3 32B on one A5000, shoud we quantize to fp8",
    "Mistral Nemo on 3 7900 XTX, is it worth going to AWQ",
    "Qwen3 32B 一張 H100，要不要量化成 FP8？",
])
def test_a_format_question_is_a_topic(text):
    assert "quantization-format" in (extract(text).topics or []), text
