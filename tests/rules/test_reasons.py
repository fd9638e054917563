"""Reasons that fit the setup and are true: every text the rules can show is filled from the
user's own profile (hardware, model, numbers), exists in en and zh-Hant, and names no other setup."""
from __future__ import annotations

import re

import pytest

from rules.decide import decide
from rules.defaults import apply_defaults
from rules.explain import explain
from rules.facts import Facts
from rules.profile import build_profile
from rules.ruleset import load_rules

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _texts(rule):
    """(kind, en, zh) of every user-facing text of a rule."""
    out = [("rationale", rule.rationale.en, rule.rationale.zh)]
    eff = rule.effects
    if eff.warning:
        out.append(("warning", eff.warning.en, eff.warning.zh))
    for ex in eff.exclude:
        out.append((f"exclude {ex.engine}", ex.reason.en, ex.reason.zh))
    if eff.parallelism:
        out.append(("parallelism", eff.parallelism.reason.en, eff.parallelism.reason.zh))
    return out


@pytest.mark.parametrize("rule", load_rules(), ids=lambda r: r.id)
def test_every_template_has_both_languages_and_known_placeholders(rule):
    for kind, en, zh in _texts(rule):
        assert en.strip() and zh.strip(), f"{rule.id} {kind}: missing a language"
        en_names, zh_names = set(_PLACEHOLDER.findall(en)), set(_PLACEHOLDER.findall(zh))
        assert en_names == zh_names, f"{rule.id} {kind}: en and zh fill different facts"
        assert en_names <= set(Facts.model_fields), f"{rule.id} {kind}: unknown facts {en_names - set(Facts.model_fields)}"


# Boilerplate that names a setup the user does not have.
OTHER_SETUPS = {
    "two_h100": (dict(hardware="h100_sxm", count=2, model="llama-3.1-70b", quantization="fp8", users=30),
                 ["8xH100", "8×H100", "8x H100"]),
    "dgx_spark": (dict(hardware="dgx_spark_gb10", model="llama-3.1-70b", users=20), ["single RTX", "單張 RTX"]),
    "thirty_users": (dict(hardware="l40s", count=2, model="qwen2.5-32b", concurrency=30),
                     ["five to ten", "5-10 person", "五到十人"]),
}


@pytest.mark.parametrize("name", sorted(OTHER_SETUPS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_reason_names_another_setup(name, lang):
    raw, banned = OTHER_SETUPS[name]
    d = decide(apply_defaults(build_profile(raw)))
    zh = lang == "zh"
    shown = "\n".join([*(e.rationale_zh if zh else e.rationale for e in d.trace),
                       *(a.reason_zh if zh else a.reason for a in d.avoid),
                       *(d.warnings_zh if zh else d.warnings),
                       (d.parallelism.reason_zh if zh else d.parallelism.reason) if d.parallelism else ""])
    for phrase in banned:
        assert phrase.lower() not in shown.lower(), f"{name}/{lang}: '{phrase}' in\n{shown}"


def test_reasons_name_the_users_hardware_and_model():
    d = decide(apply_defaults(build_profile(dict(hardware="h100_sxm", count=2, model="llama-3.1-70b",
                                                 quantization="fp8", users=30))))
    why = explain(d, "en")
    assert "H100" in why and "2" in why
    assert not _PLACEHOLDER.search(explain(d, "en")) and not _PLACEHOLDER.search(explain(d, "zh"))


# Setups that make every kind of rule fire somewhere: local and server GPUs, Macs, CPUs, edge, plugins.
GRID = [
    dict(hardware="rtx4090", model="qwen2.5-14b", users=8, serving_mode="team", workload="coding", context_length=90000),
    dict(hardware="rtx3090", count=4, interconnect="pcie", model="llama-3.1-70b", quantization="awq", concurrency=40),
    dict(hardware="h100_sxm", count=8, nodes=2, interconnect="infiniband", model="deepseek-v3", serving_mode="production",
         priority="latency", structured_output=True, lora_adapters=8),
    dict(hardware="b200", count=8, nodes=4, model="llama-3.1-405b", quantization="nvfp4", serving_mode="fleet"),
    dict(hardware="m3_ultra", model="llama-3.1-70b", users=200, workload="rag", shared_prefix=True),
    dict(hardware="m4_max_40c", model="qwen3-30b-a3b", quantization="nvfp4", serving_mode="personal"),
    dict(hardware="xeon_6900p", model="llama-3.1-8b", users=10, priority="portability"),
    dict(hardware="jetson_agx_orin_64g", model="llama-3.1-8b", quantization="fp8", serving_mode="personal"),
    dict(hardware="gaudi3", count=8, model="llama-3.1-70b", users=100, priority="dev-speed"),
    dict(hardware="mi300x", count=8, model="qwen3-235b-a22b", users=300, workload="agent"),
    dict(hardware="dgx_spark_gb10", model="llama-3.1-70b", users=20),
    dict(hardware="v100_sxm2_32g", count=8, interconnect="nvlink", model="llama-3.1-70b", users=100),
    dict(hardware="rtx3090", model="qwen3-235b-a22b", quantization="q4_k_m", serving_mode="personal"),
    dict(model="llama-3.1-8b", users=60),
]


@pytest.mark.parametrize("raw", GRID, ids=lambda r: f"{r.get('hardware', 'no-hw')}-{r['model']}")
def test_every_shown_text_is_filled_and_bilingual(raw):
    """Walk what each fired rule, check and exclusion shows: filled from the setup, in both languages."""
    d = decide(apply_defaults(build_profile(raw)))
    texts = [(e.rationale, e.rationale_zh) for e in d.trace] + [(a.reason, a.reason_zh) for a in d.avoid]
    texts += list(zip(d.warnings, d.warnings_zh))
    if d.parallelism:
        texts.append((d.parallelism.reason, d.parallelism.reason_zh))
    assert len(d.warnings) == len(d.warnings_zh)
    for en, zh in texts:
        assert en and zh and not _PLACEHOLDER.search(en) and not _PLACEHOLDER.search(zh), (en, zh)
        assert "None" not in en, en
        assert re.search(r"[\u4e00-\u9fff]", zh), zh


def test_every_engine_answers_every_catalog_device_in_both_languages():
    from rules import catalog, engines
    from rules.ids import ENGINES
    for hw in catalog.all_hardware().values():
        for engine in ENGINES:
            v = engines.verdict(engine, hw)
            assert v.en and re.search(r"[\u4e00-\u9fff]", v.zh) and v.source.startswith("https://"), (engine, hw.id, v)


def test_assumption_lines_exist_in_both_languages():
    d = decide(apply_defaults(build_profile(dict(hardware="rtx3090", count=2, model="qwen3-32b", users=6,
                                                 serving_mode="team"))))
    assert d.assumptions and len(d.assumptions) == len(d.assumptions_zh)
    for en, zh in zip(d.assumptions, d.assumptions_zh):
        assert en.split(" = ")[0] == zh.split(" = ")[0] and re.search(r"[\u4e00-\u9fff]", zh), (en, zh)
