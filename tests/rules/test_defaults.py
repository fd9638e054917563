"""Documented defaults for "I don't know": each is marked assumed and carries its reason."""
from __future__ import annotations

import pytest

from rules.decide import decide
from rules.defaults import NO_DEFAULT, PROPOSERS, apply_defaults, default_for
from rules.ids import ASKABLE_FIELDS
from rules.profile import build_profile


def test_every_askable_field_has_a_default_or_a_reason_not_to():
    assert set(ASKABLE_FIELDS) <= set(PROPOSERS) | set(NO_DEFAULT)
    assert default_for("hardware", build_profile({})) is None and default_for("model", build_profile({})) is None


def test_apply_defaults_marks_values_assumed_with_notes():
    p = apply_defaults(build_profile(dict(hardware="rtx4090", model="llama-3.1-8b")))
    assert p.serving_mode == "personal" and p.workload == "chat" and p.concurrency == 1
    assert p.context_length == 8192 and p.interconnect == "none"
    for field in p.assumed:
        assert p.provenance[field].assumed and p.provenance[field].note
    d = decide(p)
    assert any(a.startswith("serving_mode = personal: ") for a in d.assumptions)


def test_given_values_are_never_overwritten():
    p = build_profile(dict(hardware="h100_sxm", workload="rag", context_length=4096, serving_mode="demo"))
    q = apply_defaults(p)
    assert (q.workload, q.context_length, q.serving_mode) == ("rag", 4096, "demo")
    assert q.input_tokens <= 4096 - q.output_tokens


def test_only_requested_fields_are_filled():
    p = apply_defaults(build_profile(dict(hardware="h100_sxm")), ["context_length"])
    assert p.context_length == 8192 and p.serving_mode is None and p.assumed == ["context_length"]


@pytest.mark.parametrize("given, mode", [
    (dict(users=1000), "production"), (dict(users=120), "team"), (dict(concurrency=4), "demo"),
    (dict(nodes=2), "production"), (dict(hardware="h100_sxm"), "team"), (dict(hardware="m3_ultra"), "personal"),
])
def test_serving_mode_follows_the_user_count(given, mode):
    assert default_for("serving_mode", build_profile(given)).value == mode


@pytest.mark.parametrize("workload, context", [("chat", 8192), ("rag", 16384), ("agent", 32768), ("coding", 32768)])
def test_context_by_workload(workload, context):
    assert default_for("context_length", build_profile(dict(workload=workload))).value == context


def test_an_assumed_context_only_flags_the_kv_budget():
    given = build_profile(dict(hardware="h100_sxm", count=2, model="llama-3.1-70b", quantization="fp8",
                               workload="rag", concurrency=40, context_length=16384))
    assumed = apply_defaults(given.model_copy(update={"context_length": None}), ["context_length"])
    assert assumed.context_length == 16384 and "context_length" in assumed.assumed
    stated, guessed = decide(given), decide(assumed)
    assert "bn-kv-does-not-fit" in stated.rules and "bn-kv-may-not-fit" in guessed.rules
    assert stated.bottleneck_scores["kv-cache"] > guessed.bottleneck_scores["kv-cache"]
    assert guessed.bottleneck == "prefill"


def test_context_is_capped_by_the_model():
    p = build_profile(dict(model="mistral-7b", workload="agent"))
    from rules import catalog
    assert default_for("context_length", p).value <= catalog.model("mistral-7b").max_context


def test_concurrency_from_users_and_mode():
    assert default_for("concurrency", build_profile(dict(users=300))).value == 43   # the busy-hour p99 peak
    assert default_for("concurrency", build_profile(dict(serving_mode="demo"))).value == 5


@pytest.mark.parametrize("hardware, count, quant", [
    ("rtx4090", 1, "int4"), ("h100_sxm", 8, "bf16"), ("h100_sxm", 2, "fp8"), ("h100_sxm", 1, "int4"),
    ("m3_ultra", 1, "int4"), ("a100_80g_sxm", 2, "int8"), ("rx7900xtx", 1, "int4"), ("v100_sxm2_32g", 8, "f16"),
    ("t4", 4, "int4"), ("gaudi3", 8, "bf16"), ("xeon_6900p", 1, "int8"), ("a100_40g_sxm", 1, "int4"),
])
def test_quantization_follows_the_platform(hardware, count, quant):
    # Llama 3.1 70B: 141 GB in BF16, 71 GB in 8 bits, 37 GB in 4 bits; weights may use 75 % of memory.
    # Server GPUs step BF16 -> FP8 (Hopper/Ada/Blackwell) or INT8 -> 4-bit (FP16 on Volta/Turing);
    # local hardware steps down to its own 8- and 4-bit formats; a Mac defaults to MLX 4-bit; Gaudi keeps BF16.
    p = build_profile(dict(hardware=hardware, count=count, model="llama-3.1-70b"))
    assert default_for("quantization", p).value == quant


@pytest.mark.parametrize("model, hardware, count, quant", [
    ("gpt-oss-120b", "h100_sxm", 1, "mxfp4"), ("deepseek-v3", "h100_sxm", 8, "fp8"), ("deepseek-v3", "h200_sxm", 8, "fp8"),
])
def test_quantization_starts_from_the_native_format(model, hardware, count, quant):
    assert default_for("quantization", build_profile(dict(hardware=hardware, count=count, model=model))).value == quant


def test_does_not_fit_is_never_said_of_a_format_that_fits():
    # 70B at 4-bit on 2x RTX 4000 Ada (~37 GB of 2 x 20 GiB): over the 75 % headroom but within memory ->
    # never "does not fit".
    note = default_for("quantization", build_profile(dict(hardware="rtx4000ada", count=2, model="llama-3.1-70b"))).note
    assert "fits" in note and "not fit" not in note
    note = default_for("quantization", build_profile(dict(hardware="h100_sxm", count=8, model="deepseek-v3"))).note
    assert "not fit" in note and "native" in note


def test_an_assumed_quantization_filters_like_a_stated_one():
    p = apply_defaults(build_profile(dict(hardware="m3_ultra", model="llama-3.1-70b")), ["quantization"])
    d = decide(p)
    assert "quant-kernel-check" in d.rules and d.primary == "mlx-lm"
    assert "llama.cpp" in d.alternatives     # MLX 4-bit assumed = each engine's own 4-bit: nobody ruled out for it


def test_a_service_on_pcie_cards_prefers_a_format_that_keeps_the_model_on_one_card():
    # Qwen2.5 32B: BF16 (65 GB) would be split over PCIe; FP8 (33 GB) fits one L40S -> replicas.
    service = build_profile(dict(hardware="l40s", count=4, interconnect="pcie", model="qwen2.5-32b", concurrency=30))
    assert default_for("quantization", service).value == "fp8"
    alone = build_profile(dict(hardware="rtx3090", count=2, interconnect="pcie", model="qwen3-32b", serving_mode="personal"))
    assert default_for("quantization", alone).value == "int8"   # one person keeps 8-bit across both cards


def test_a_native_format_no_engine_runs_here_is_skipped():
    # DeepSeek V3 ships in FP8, which no Mac engine runs: the Mac starts at MLX 4-bit.
    p = build_profile(dict(hardware="m3_ultra", model="deepseek-v3"))
    assert default_for("quantization", p).value == "int4"


def test_a_one_card_format_no_serving_engine_runs_there_is_not_preferred():
    # 4x MI210 serving 70B to a team: vLLM has no 4-bit kernel on ROCm and SGLang's ROCm builds skip
    # gfx90a, so Q4 on one card would leave no serving engine; BF16 over the four cards keeps vLLM.
    team = build_profile(dict(hardware="mi210", count=4, interconnect="pcie", model="llama-3.1-70b", concurrency=8))
    assert default_for("quantization", team).value == "bf16"
    d = decide(apply_defaults(team, ["quantization"]))
    assert d.primary == "vllm" and "sglang" not in d.alternatives
    assert "hw-amd-datacenter-older" in d.rules and "hw-amd-datacenter" not in d.rules
