"""The evidence guard: no value enters the profile without the user's words behind it."""
from __future__ import annotations

import pytest

from agent import evidence as ev
from agent import understand as und

TEXT = "We have 8x H100 with NVLink and want Llama 3.3 70B for about 50 concurrent users, 80K context."


@pytest.mark.parametrize("needle, ok", [
    ("8x H100", True), ("８×H100", True), ("nvlink", True), ("80K   context", True),
    ("16x H100", False), ("", False), (None, False),
])
def test_evidence_must_occur_in_the_text(needle, ok):
    assert ev.occurs(needle, TEXT) is ok


def test_numbers_in_reads_digits_multipliers_and_number_words():
    nums = ev.numbers_in("two L40S, 80K context, 1,000 users, 兩張 4090")
    assert {2.0, 80000.0, 81920.0, 1000.0, 4090.0} <= nums


def test_llm_values_are_kept_only_with_supporting_evidence():
    values = {"hardware": "H100", "count": 8, "concurrency": 500, "context_length": "80K",
              "model": "Qwen3 32B", "interconnect": "pcie", "serving_mode": "team"}
    evidence = {"hardware": "8x H100", "count": "8x H100", "concurrency": "50 concurrent users",
                "context_length": "80K context", "model": "Llama 3.3 70B", "interconnect": "PCIe only",
                "serving_mode": "a team of engineers"}
    kept, kept_ev, dropped = und.guard(values, evidence, TEXT, strict=True)
    assert kept == {"hardware": "h100_sxm", "count": 8, "context_length": 80000}
    assert kept_ev["hardware"] == "8x H100"
    reasons = " ".join(dropped)
    assert "concurrency=500" in reasons          # a number the evidence does not state
    assert "model='qwen3-32b'" in reasons        # evidence names a different model
    assert "PCIe only" in reasons                # evidence not in the user's words
    assert "serving_mode" in reasons


@pytest.mark.parametrize("field, raw", [
    ("hardware", "a quantum computer"), ("quantization", "q3_magic"), ("serving_mode", "everyone"),
    ("concurrency", "lots"), ("shared_prefix", "maybe"), ("engine", "vllm"),
])
def test_values_outside_the_vocabulary_are_dropped(field, raw):
    kept, _, dropped = und.guard({field: raw}, {field: "8x H100"}, TEXT, strict=True)
    assert kept == {} and len(dropped) == 1


def test_deterministic_values_need_evidence_too_but_no_reparsing():
    kept, _, dropped = und.guard({"count": 8, "users": 12}, {"count": "8x", "users": "twelve people"}, TEXT, strict=False)
    assert kept == {"count": 8} and "users" in dropped[0]


def test_merge_keeps_deterministic_values_and_notes_conflicts():
    values, evidence, notes = und.merge(({"count": 8}, {"count": "8x"}),
                                        ({"count": 16, "context_length": 80000}, {"count": "x", "context_length": "80K"}))
    assert values == {"count": 8, "context_length": 80000}
    assert evidence["context_length"] == "80K"
    assert notes and "count" in notes[0]


def test_apply_records_evidence_and_notes_values_the_profile_rejects():
    from rules.profile import build_profile
    profile, notes = und.apply(build_profile({}), {"count": 8, "concurrency": -3}, {"count": "8x", "concurrency": "-3"})
    assert profile.count == 8 and profile.provenance["count"].evidence == "8x"
    assert profile.concurrency is None and notes and "concurrency" in notes[0]


def test_pick_takes_the_first_item_per_field_that_the_guard_accepts():
    items = [("model", "H100", "Llama 3.3 70B"), ("model", "Llama 3.3 70B", "80K context"),
             ("model", "Llama 3.3 70B", "Llama 3.3 70B"), ("count", 8, "8x H100"), ("count", 16, "8x H100")]
    values, evidence, dropped = und.pick(items, TEXT)
    assert values == {"model": "llama-3.1-70b", "count": 8}
    assert evidence["model"] == "Llama 3.3 70B" and len(dropped) == 2


# --- evidence must support the field, not merely contain the digits (issue 14) ----------------
@pytest.mark.parametrize("text, field, value, said", [
    ("We have an RTX 4090 and want Qwen3 32B.", "context_length", 4090, "RTX 4090"),
    ("We have an RTX 4090 and want Qwen3 32B.", "context_length", 4090, "4090"),
    ("一張 RTX 4090，跑 Qwen3 32B", "context_length", 4090, "RTX 4090"),
    ("Xeon 6 servers, no GPU, Llama 3.1 8B", "nodes", 6, "Xeon 6 servers"),
    ("Llama 3.1 70B for 12 people at once", "context_length", 12, "12 people"),
    ("Llama 3.1 70B for 12 people at once", "count", 12, "12 people"),
    ("We are on CUDA 12.4 with 8x H100", "concurrency", 12, "CUDA 12.4"),
    ("what would it cost per 1M tokens on 8x H100?", "context_length", 1000000, "1M tokens"),
    ("bought in 2024, 8x H100", "users", 2024, "2024"),
    ("Qwen3 32B on two L40S", "params_b", 40, "L40S"),
])
def test_a_number_that_does_not_fit_the_field_is_refused(text, field, value, said):
    kept, _, dropped = und.guard({field: value}, {field: said}, text, strict=True)
    assert kept == {} and dropped, dropped


@pytest.mark.parametrize("text, field, value, said", [
    ("We have an RTX 4090, 32K context, Qwen3 32B.", "context_length", 32000, "32K context"),
    ("context 常常 100K 以上，4 張 4090", "context_length", 100000, "100K"),
    ("Llama 3.1 70B for 12 people at once", "concurrency", 12, "12 people at once"),
    ("全公司 100人，8x H100", "users", 100, "100人"),
    ("8×H100 with NVLink", "count", 8, "8×H100"),
    ("two L40S cards", "count", 2, "two L40S"),
    ("30 LoRA adapters on 8x H100", "lora_adapters", 30, "30 LoRA adapters"),
    ("a 70B model on two GPUs", "params_b", 70, "70B"),
])
def test_a_number_that_fits_the_field_is_kept(text, field, value, said):
    kept, _, dropped = und.guard({field: value}, {field: said}, text, strict=True)
    assert kept == {field: value}, dropped


# --- words must name the value, not negated (issue 14) -----------------------------------------
@pytest.mark.parametrize("text, field, value, said", [
    ("不在乎延遲，只在乎吞吐，4 張 4090", "priority", "latency", "不在乎延遲"),
    ("latency is not a concern, throughput is; 8x H100", "priority", "latency", "latency is not a concern"),
    ("8x H100, Llama 3.1 70B", "interconnect", "nvlink", "8x H100"),
    ("4 張 4090 沒有 NVLink", "interconnect", "nvlink", "NVLink"),
    ("Llama 3.3 70B AWQ on 4x 4090", "quantization", "fp8", "Llama 3.3 70B"),
    ("Llama 3.3 70B 不要用 AWQ，4 張 4090", "quantization", "awq", "AWQ"),
    ("RAG over our docs, 8x H100", "workload", "agent", "RAG over our docs"),
    ("Streaming answers on 2x L40S", "streaming", False, "Streaming"),
    ("輸出要符合 JSON schema，2 張 L40S", "structured_output", True, "2 張 L40S"),
])
def test_a_word_that_does_not_name_the_value_is_refused(text, field, value, said):
    kept, _, dropped = und.guard({field: value}, {field: said}, text, strict=True)
    assert kept == {} and dropped, dropped


@pytest.mark.parametrize("text, field, value, said", [
    ("不在乎延遲，只在乎吞吐，4 張 4090", "priority", "throughput", "只在乎吞吐"),
    ("8x H100 with NVLink", "interconnect", "nvlink", "NVLink"),
    ("4 張 4090 沒有 NVLink", "interconnect", "pcie", "沒有 NVLink"),
    ("Llama 3.3 70B on 4x 4090, Q4", "quantization", "q4_k_m", "Q4"),
    ("Llama 3.3 70B 用 AWQ 量化", "quantization", "awq", "AWQ"),
    ("RAG 問答，8 張 H100", "workload", "rag", "RAG"),
    ("for our team of 50 engineers", "serving_mode", "team", "our team of 50 engineers"),
    ("everyone shares the same system prompt", "shared_prefix", True, "same system prompt"),
    ("no streaming needed, batch jobs", "streaming", False, "no streaming"),
    ("just one GPU, Qwen3 8B", "interconnect", "none", "one GPU"),
])
def test_a_word_that_names_the_value_is_kept(text, field, value, said):
    kept, _, dropped = und.guard({field: value}, {field: said}, text, strict=True)
    assert kept == {field: value}, dropped
