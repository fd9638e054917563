"""The resolver's contract: ids, spans in free text, variant notes (en / zh-Hant), generic sizes."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.model_resolve import describe_variant, find, identify, resolve


@pytest.mark.parametrize("text, want", [
    ("Qwen2.5-Coder 14B", "qwen2.5-coder-14b"), ("qwen2.5:14b", "qwen2.5-14b"),
    ("Qwen/Qwen2.5-Coder-14B-Instruct", "qwen2.5-coder-14b"), ("R1-Distill-Llama-70B", "deepseek-r1-distill-llama-70b"),
    ("llama3.3", "llama-3.1-70b"), ("gemma3:27b", "gemma-3-27b"),
    ("Mistral-Small-3.1-24B-Instruct-2503", "mistral-small-3.1-24b"), ("Llama 3.1 7B", None), ("Qwen3", None),
])
def test_resolve(text, want):
    got = resolve(text)
    assert (got.id if got else None) == want


def test_fine_tunes_and_builds_say_what_they_were_read_as():
    hermes = resolve("Hermes 3 70B")
    assert hermes.id == "llama-3.1-70b" and hermes.variant_kind == "fine-tune" and "fine-tune" in hermes.variant_note
    awq = resolve("TheBloke/Llama-2-70B-AWQ")
    assert awq.id == "llama-2-70b" and awq.variant_kind == "build"
    assert resolve("meta-llama/Llama-3.1-8B-Instruct").variant_note is None
    zh = describe_variant("Hermes 3 70B", "llama-3.1-70b", "fine-tune", "zh")
    assert "微調" in zh and "llama-3.1-70b" in zh


def test_find_gives_spans_and_leaves_the_quantization_outside():
    text = "Serve Llama 3.1 70B FP8 and Qwen2.5-Coder-32B on 4x H100"
    hits = find(text)
    assert [h.id for h in hits] == ["llama-3.1-70b", "qwen2.5-coder-32b"]
    assert text[hits[0].start:hits[0].end] == "Llama 3.1 70B"
    assert find("Mac Studio M2 Ultra, 192GB") == []


@pytest.mark.parametrize("text, p, a", [
    ("a 70B model", 70, None), ("a 30B MoE with 3B active", 30, 3), ("一個 70B 的模型", 70, None),
    ("100B MoE 激活 10B", 100, 10),
])
def test_generic_sizes_are_approximate(text, p, a):
    got = identify(text)
    assert got.id is None and got.approximate and got.params_b == p and got.active_params_b == a


def test_catalog_facade():
    assert catalog.resolve_model("qwq") == "qwq-32b"
    assert catalog.resolve_model_match("unsloth/gemma-3-27b-it-GGUF").variant_kind == "build"
