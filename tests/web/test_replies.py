"""Quick replies: only answers the catalog allows for this profile, one group per open field, and
every reply read back by the interview's own reader as the value it stands for."""
from __future__ import annotations

import pytest

from agent.extract import extract_answer
from rules.profile import build_profile
from ui.present import replies

ASKABLE = ("hardware", "interconnect", "model", "quantization", "workload", "context_length", "concurrency",
           "shared_prefix", "serving_mode", "priority")
SIDE_EFFECTS = {"hardware": {"count"}, "priority": {"priorities"}}
"""Fields a reply may also set (a device count with a device, the priority list with a priority)."""

PROFILES = {
    "nothing": None,
    "4x rtx3090 70b": {"hardware": "rtx3090", "count": 4, "model": "llama-3.1-70b"},
    "4x rtx4090": {"hardware": "rtx4090", "count": 4, "model": "qwen3-32b"},
    "2 nodes h100": {"hardware": "h100_sxm", "count": 8, "nodes": 2, "model": "llama-3.1-70b"},
    "mi100 pair": {"hardware": "mi100", "count": 2},
    "m3 ultra": {"hardware": "m3_ultra", "count": 1, "model": "llama-3.1-70b"},
}


def _profile(name):
    data = PROFILES[name]
    return build_profile(data) if data is not None else None


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(PROFILES))
def test_every_reply_reads_back_as_its_value(name, lang):
    profile = _profile(name)
    for field in ASKABLE:
        for reply in replies.replies_for(field, profile, {"fields": [field]}, lang):
            got = extract_answer(reply.text, [field]).values
            assert got.get(field) == reply.value, (field, reply.text, got)
            stray = set(got) & set(ASKABLE) - {field} - SIDE_EFFECTS.get(field, set())
            assert not stray, (field, reply.text, got)


def test_links_offered_are_the_ones_the_hardware_has():
    links = {name: {r.value for r in replies.replies_for("interconnect", _profile(name), {}, "en")}
             for name in ("4x rtx3090 70b", "4x rtx4090", "2 nodes h100", "mi100 pair")}
    assert links["4x rtx3090 70b"] == {"nvlink", "pcie"}            # 3090s take an NVLink bridge
    assert links["4x rtx4090"] == {"pcie"}                          # 4090s have none: never offer NVLink
    assert links["2 nodes h100"] == {"infiniband", "ethernet"}      # SXM boards: only the link between machines
    assert links["mi100 pair"] == {"infinity-fabric", "pcie"}       # AMD's bridge is not NVLink


def test_formats_and_contexts_the_setup_allows():
    quant = {name: {r.value for r in replies.replies_for("quantization", _profile(name), {}, "en")}
             for name in ("4x rtx3090 70b", "4x rtx4090", "m3 ultra")}
    assert "fp8" not in quant["4x rtx3090 70b"] and "fp8" in quant["4x rtx4090"]   # Ampere has no FP8
    assert "awq" not in quant["m3 ultra"] and "q4_k_m" in quant["m3 ultra"]
    contexts = {r.value for r in replies.replies_for("context_length", _profile("4x rtx4090"), {}, "en")}
    assert contexts and max(contexts) <= 40960                      # Qwen3 32B's maximum context


def test_catalog_suggestions_for_unknown_device_words_come_first():
    suggested = replies.replies_for("hardware", None, {"options": ["NVIDIA GeForce RTX 4090"]}, "en")
    assert [r.value for r in suggested] == ["rtx4090"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_question_gets_one_group_per_field_and_a_composed_answer_sets_them_all(lang):
    profile = _profile("4x rtx3090 70b")
    question = {"question": "?", "fields": ["serving_mode", "interconnect", "quantization"]}
    groups = replies.groups(question, profile, lang)
    assert [g.field for g in groups] == question["fields"] and all(g.replies for g in groups)
    picked = [g.replies[-1] for g in groups]
    message = replies.compose([r.text for r in picked], lang)
    got = extract_answer(message, question["fields"]).values
    assert {g.field: got.get(g.field) for g in groups} == {g.field: r.value for g, r in zip(groups, picked)}


def test_every_catalog_device_gets_readable_possible_replies():
    """Every device of the catalog, alone, four in a box and two boxes of eight: the link and format
    replies offered are ones the device has, and each reads back as its value."""
    from rules import catalog
    models = list(catalog.all_models())
    for i, (hw_id, hw) in enumerate(catalog.all_hardware().items()):
        for count, nodes in ((1, 1), (4, 1), (8, 2)):
            profile = build_profile({"hardware": hw_id, "count": count, "nodes": nodes,
                                     "model": models[i % len(models)]})
            for field in ("interconnect", "quantization", "context_length"):
                for reply in replies.replies_for(field, profile, {}, "en" if i % 2 else "zh"):
                    assert extract_answer(reply.text, [field]).values.get(field) == reply.value, (hw_id, reply)
                    assert reply.value not in ("nvlink", "infinity-fabric") or hw.scaleup_gbs, (hw_id, reply)
                    assert reply.value != "fp8" or hw.tflops.fp8, (hw_id, reply)


CORRECTIONS = {"hardware": ("RTX 4090", "rtx4090"), "count": ("8", 8), "model": ("Qwen3 32B", "qwen3-32b"),
               "quantization": ("FP8", "fp8"), "workload": ("RAG", "rag"), "context_length": ("32K", 32000),
               "users": ("100", 100), "concurrency": ("40", 40), "interconnect": ("NVLink", "nvlink")}
WORDS = {"serving_mode": {"en": ("external production", "production"), "zh": ("對外正式上線", "production")},
         "priority": {"en": ("latency", "latency"), "zh": ("延遲", "latency")}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_correction_from_the_profile_panel_is_read_as_that_field(lang):
    from agent.extract import extract
    cases = {**CORRECTIONS, **{f: words[lang] for f, words in WORDS.items()}}
    assert set(cases) == set(replies.CORRECTABLE)
    for field, (typed, value) in cases.items():
        text = replies.correction(field, typed, lang)
        assert extract(text).values.get(field) == value, (text, extract(text).values)
