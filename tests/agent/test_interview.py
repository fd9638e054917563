"""The interview policy: which fields matter for this profile, how many per round, when to stop."""
from __future__ import annotations

import pytest

from agent import interview as policy
from rules.profile import build_profile


def profile(**values):
    return build_profile(values)


def test_hardware_and_model_come_first_for_a_vague_opening():
    assert policy.questions_needed(profile(), "recommend")[:3] == ["hardware", "model", "serving_mode"]


def test_explain_asks_nothing():
    assert policy.questions_needed(profile(), "explain") == []


@pytest.mark.parametrize("count, asked", [(1, False), (2, True), (8, True)])
def test_interconnect_only_with_several_devices(count, asked):
    # the 3090 takes an optional NVLink bridge: whether it is bridged is the open question
    p = profile(hardware="rtx3090", count=count, model="qwen3-32b", serving_mode="personal")
    assert ("interconnect" in policy.questions_needed(p, "recommend")) is asked


def test_interconnect_counts_devices_across_nodes():
    p = profile(hardware="h100_sxm", count=1, nodes=2, model="llama-3.1-70b", serving_mode="production")
    assert "interconnect" in policy.questions_needed(p, "recommend")


@pytest.mark.parametrize("workload, asked", [("rag", True), ("agent", True), ("chat", False), ("batch", False)])
def test_context_length_for_long_context_workloads(workload, asked):
    p = profile(hardware="h100_sxm", count=1, model="llama-3.1-8b", serving_mode="personal", workload=workload)
    assert ("context_length" in policy.questions_needed(p, "recommend")) is asked


def test_context_length_not_asked_when_prompt_length_is_known():
    p = profile(hardware="h100_pcie", count=1, model="qwen3-32b", workload="summarization", input_tokens=30000)
    assert "context_length" not in policy.questions_needed(p, "recommend")


@pytest.mark.parametrize("mode, asked", [("team", True), ("production", True), ("personal", False), ("demo", False)])
def test_concurrency_for_shared_services(mode, asked):
    p = profile(hardware="l40s", count=1, model="qwen3-32b", serving_mode=mode)
    assert ("concurrency" in policy.questions_needed(p, "recommend")) is asked


def test_serving_mode_not_asked_when_the_load_is_stated():
    p = profile(hardware="h100_sxm", count=8, model="llama-3.1-70b", concurrency=64)
    assert "serving_mode" not in policy.questions_needed(p, "recommend")


def test_estimate_asks_quantization_not_workload():
    p = profile(hardware="rtx4090", count=1, model="llama-3.1-8b")
    needed = policy.questions_needed(p, "estimate")
    assert "quantization" in needed and "workload" not in needed and "serving_mode" not in needed


def test_asked_fields_are_never_asked_again():
    assert "hardware" not in policy.questions_needed(profile(), "recommend", asked=["hardware"])


def test_a_round_covers_at_most_three_fields_and_there_are_at_most_three_rounds():
    assert len(policy.next_round(profile(), "recommend", [], 0)) == 3
    assert policy.next_round(profile(), "recommend", [], policy.MAX_ROUNDS) == []


def _decide_sensitive_to(field):
    """A pure fake rule engine whose answer depends only on `field`."""
    def decide(p):
        return {"primary": "vllm" if getattr(p, field) in ("team", "production", "pcie") else "llama.cpp",
                "alternatives": [], "avoid": [], "bottleneck": None, "parallelism": None}
    return decide


def test_fields_that_cannot_change_the_decision_are_not_asked():
    p = profile(hardware="rtx3090", count=2, model="qwen3-32b")
    by_mode = policy.next_round(p, "recommend", [], 0, _decide_sensitive_to("serving_mode"))
    by_link = policy.next_round(p, "recommend", [], 0, _decide_sensitive_to("interconnect"))
    assert by_mode == ["serving_mode"]
    assert by_link == ["interconnect"]


def test_the_decision_filter_never_drops_hardware_or_model():
    full = profile(hardware="rtx4090", count=1, model="llama-3.1-8b")
    insensitive = _decide_sensitive_to("priority")
    assert policy.changes_decision("hardware", full, insensitive)
    assert policy.changes_decision("model", full, insensitive)
    # without a model nothing can be probed: every relevant field is asked, model first
    assert policy.next_round(profile(hardware="rtx4090", count=1), "recommend", [], 0, insensitive)[0] == "model"


def test_a_probe_the_profile_rejects_does_not_count_as_a_change():
    p = profile(hardware="rtx4090", count=1, model="llama-3.1-8b", input_tokens=20000)
    # context_length=8192 < input_tokens is impossible; the other probe alone cannot show a change
    assert not policy.changes_decision("context_length", p, _decide_sensitive_to("serving_mode"))


@pytest.mark.parametrize("lang, marker", [("en", "?"), ("zh", "？")])
def test_one_concise_question_per_round_in_the_users_language(lang, marker):
    text = policy.phrase(["hardware", "model", "serving_mode"], lang)
    assert text.endswith(marker) and text.count(marker) == 1
    assert len(text) < 260
    if lang == "zh":
        assert "硬體" in text and "模型" in text
    else:
        assert "hardware" in text and "model" in text


def test_every_askable_field_has_a_phrase_in_both_languages():
    from rules.ids import ASKABLE_FIELDS
    for field in ASKABLE_FIELDS:
        assert set(policy.PHRASES[field]) == {"en", "zh"}


@pytest.mark.parametrize("intent", ["recommend", "benchmark", "estimate"])
def test_setup_refinements_wait_until_device_and_model_are_known(intent):
    vague = policy.questions_needed(profile(count=4), intent)
    assert not set(vague) & set(policy.REFINES_SETUP)
    assert vague[:2] == ["hardware", "model"]
    # hardware alone or model alone is still not a setup the fit can be judged on
    for half in (profile(hardware="rtx4090", count=4), profile(model="llama-3.1-70b")):
        assert "quantization" not in policy.questions_needed(half, intent)


def test_quantization_is_asked_once_the_setup_is_known():
    for known in (dict(hardware="rtx4090", count=4), dict(memory_gb=16)):
        p = profile(model="llama-3.1-8b", serving_mode="personal", **known)
        assert "quantization" in policy.questions_needed(p, "recommend")


def test_rounds_with_unanswered_questions_never_reach_quantization_before_the_setup():
    asked: list[str] = []
    for rounds in range(policy.MAX_ROUNDS):
        fields = policy.next_round(profile(), "recommend", asked, rounds)
        assert len(fields) <= policy.FIELDS_PER_ROUND
        if rounds == 0:
            assert fields == ["hardware", "model", "serving_mode"]
        assert "quantization" not in fields
        asked += fields


# --- ask only what the catalog cannot answer (issue 14) ---------------------------------------
@pytest.mark.parametrize("hardware", ["h100_sxm", "h200_sxm", "b200", "mi300x", "h100_nvl", "gaudi3"])
def test_no_interconnect_question_when_the_part_fixes_the_link(hardware):
    p = profile(hardware=hardware, count=8, model="llama-3.1-70b", serving_mode="team")
    assert "interconnect" not in policy.questions_needed(p, "recommend")


@pytest.mark.parametrize("hardware", ["rtx4090", "rtx5090", "l40s", "l4"])
def test_no_interconnect_question_for_cards_without_a_bridge_in_one_machine(hardware):
    p = profile(hardware=hardware, count=4, model="qwen3-32b", serving_mode="team")
    assert "interconnect" not in policy.questions_needed(p, "recommend")


def test_several_machines_ask_only_how_the_machines_connect():
    p = profile(hardware="h100_sxm", count=8, nodes=2, model="llama-3.1-405b", serving_mode="production")
    assert "interconnect" in policy.questions_needed(p, "recommend")
    for lang in ("en", "zh"):
        text = policy.phrase(["interconnect"], lang, profile=p)
        assert "NVLink" not in text and "InfiniBand" in text
    single_4090s = profile(hardware="rtx4090", count=4, nodes=2, model="qwen3-32b")
    assert "NVLink" not in policy.phrase(["interconnect"], "en", profile=single_4090s)


def test_bridge_capable_cards_are_asked_about_the_bridge_in_both_languages():
    p = profile(hardware="rtx3090", count=2, model="qwen3-32b", serving_mode="personal")
    assert "NVLink" in policy.phrase(["interconnect"], "en", profile=p)
    assert "NVLink" in policy.phrase(["interconnect"], "zh", profile=p) and policy.phrase(["interconnect"], "zh", profile=p).endswith("？")


def test_no_quantization_question_for_a_model_that_ships_in_one_format():
    for intent in ("recommend", "estimate"):
        gpt_oss = profile(hardware="h100_sxm", count=1, model="gpt-oss-120b", serving_mode="personal")
        assert "quantization" not in policy.questions_needed(gpt_oss, intent)
        llama = profile(hardware="h100_sxm", count=1, model="llama-3.1-70b", serving_mode="personal")
        assert "quantization" in policy.questions_needed(llama, intent)


def test_a_fact_already_given_is_never_asked():
    given = profile(hardware="rtx3090", count=2, interconnect="pcie", model="qwen3-32b", quantization="awq",
                    serving_mode="team", concurrency=8, workload="chat", context_length=8192, priority="cost")
    assert policy.questions_needed(given, "recommend") == []


def test_a_latency_problem_asks_the_load_before_anything_else():
    p = profile(hardware="h100_sxm", count=8, model="llama-3.1-70b", priority="latency")
    needed = policy.questions_needed(p, "recommend")
    assert needed[0] == "concurrency" and "priority" not in needed


def test_a_latency_problem_read_from_words_asks_concurrency_first():
    from agent.extract import extract
    for text in ("Our p99 TTFT is too high on 8x H100 serving Llama 3.1 70B. Which engine?",
                 "8 張 H100 跑 Llama 3.1 70B，p99 首字延遲太高，延遲要壓低，該用哪個引擎？"):
        ex = extract(text)
        p = build_profile(ex.values)
        assert p.priority == "latency", text
        assert policy.questions_needed(p, "recommend")[0] == "concurrency", text


def test_an_amd_card_is_asked_about_its_own_bridge_not_nvlink():
    p = profile(hardware="mi210", count=4, model="llama-3.1-70b", serving_mode="team")
    for lang in ("en", "zh"):
        text = policy.phrase(["interconnect"], lang, profile=p)
        assert "NVLink" not in text and "Infinity Fabric" in text
