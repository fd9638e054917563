"""A setup that does not fit is answered with the nearest setups that do (agent.workable), each planned
by the same rules and planner as the user's own, and the Markdown the user reads renders (bold labels
close in both languages). End to end: real extractor, rules, planner, roofline and catalogs."""
from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from agent.api import advise
from agent.tools import as_dict, default_tools
from rules import catalog, engines
from rules.plan import plan_for_profile
from rules.profile import build_profile
from ui.present import markdown

NO_FIT = [
    ("en", "8x H100 SXM, DeepSeek V3 at FP8, 200 concurrent chat users"),
    ("zh", "兩張 L4，Llama 3.3 70B 用 BF16，給 20 個人用"),
    ("en", "Mac mini M4 16GB, Qwen2.5 32B at Q4_K_M, only for me"),
    ("zh", "一張 RTX 4090 想跑 Llama 3.1 70B FP16，只有我自己用"),
]


@pytest.fixture(scope="module")
def answers():
    return {text: advise(text, knowledge=False) for _, text in NO_FIT}


@pytest.mark.parametrize("lang, text", NO_FIT)
def test_a_setup_that_does_not_fit_gets_workable_options(answers, lang, text):
    advice = answers[text]
    assert advice.estimate is not None and not advice.estimate.fits
    assert advice.workable, "no workable option offered for a setup that does not fit"
    for option in advice.workable:
        hw = catalog.hardware(option.hardware)
        assert option.engine is None or engines.supports(option.engine, hw)[0], (option.engine, hw.id)
        assert option.max_concurrency >= 1


@pytest.mark.parametrize("lang, text", NO_FIT)
def test_each_option_carries_the_planners_own_figures(answers, lang, text):
    """Nothing in an option is made up: planning the changed profile directly gives the same figures."""
    advice = answers[text]
    base = {f.field: f.value for f in advice.profile.fields if f.origin != "implied"}
    for option in advice.workable:
        changed = {**base, "hardware": option.hardware,
                   "count": option.count, "nodes": option.nodes, "quantization": option.quantization}
        if option.model:
            changed.update(model=option.model)
            changed.pop("params_b", None)
        if option.change != "quantize":
            changed.pop("interconnect", None)
        profile = build_profile(changed)
        _, est = plan_for_profile(profile, as_dict(default_tools().decide(profile)))
        assert est.quantization == option.quantization
        assert est.decode_tokens_per_s == pytest.approx(option.decode_tokens_per_s, rel=0.02)


def test_options_come_cheapest_first_and_name_the_change(answers):
    advice = answers["8x H100 SXM, DeepSeek V3 at FP8, 200 concurrent chat users"]
    kinds = [o.change for o in advice.workable]
    assert kinds[0] == "quantize" and kinds[0] != "more_devices"
    assert kinds == sorted(kinds, key=["quantize", "smaller_model", "larger_device", "more_devices"].index)
    bigger = [o for o in advice.workable if o.change == "larger_device"]
    assert bigger and catalog.hardware(bigger[0].hardware).memory_gb > 80
    assert catalog.hardware(bigger[0].hardware).tflops.bf16 >= catalog.hardware("h100_sxm").tflops.bf16 * 0.9
    more = [o for o in advice.workable if o.change == "more_devices"]
    assert more and more[0].nodes == 2 and more[0].count == 8   # a second node, not 16 cards in one box


def test_unified_memory_is_not_offloaded_and_a_mac_is_not_doubled(answers):
    advice = answers["Mac mini M4 16GB, Qwen2.5 32B at Q4_K_M, only for me"]
    assert advice.estimate.offload is None, "an Apple GPU has no separate system RAM to offload to"
    assert all(o.change != "more_devices" for o in advice.workable)
    assert any(o.change == "smaller_model" and o.model and o.model.startswith("qwen2.5-") for o in advice.workable)


def test_a_single_user_on_one_card_is_offered_the_smaller_format_from_ram(answers):
    advice = answers["一張 RTX 4090 想跑 Llama 3.1 70B FP16，只有我自己用"]
    first = advice.workable[0]
    assert first.change == "quantize" and first.quantization == "q4_k_m" and first.ram_gb


def test_a_team_is_not_offered_a_plan_that_reads_weights_from_ram(answers):
    advice = answers["兩張 L4，Llama 3.3 70B 用 BF16，給 20 個人用"]
    assert all(o.ram_gb is None for o in advice.workable)


@pytest.mark.parametrize("lang, text", NO_FIT)
def test_the_options_lead_the_answer_in_the_users_language(answers, lang, text):
    answer = markdown.answer(answers[text])
    head = "可行的替代方案" if lang == "zh" else "Workable instead"
    at = answer.find(head)
    assert 0 <= at < answer.find("Measure first" if lang == "en" else "先實測")
    if lang == "zh":
        assert "Workable" not in answer and " at " not in answer[at:answer.find("\n\n", at)]


def test_a_setup_that_fits_has_no_options_and_a_thread_forgets_them():
    fits = advise("2x RTX 3090, Llama 3.1 8B for 10 people", knowledge=False)
    assert fits.estimate.fits and not fits.workable
    assert "workable" not in fits.contract_json()
    nofit = advise("8x H100 SXM, DeepSeek V3 at FP8, 200 concurrent chat users", knowledge=False)
    assert nofit.contract_json()["workable"][0]["change"] == "quantize"


_MD = MarkdownIt()


@pytest.mark.parametrize("text", [
    "8x H100 SXM, DeepSeek V3 at FP8, 200 concurrent chat users",
    "八張 H100 SXM 跑 DeepSeek V3（FP8），200 個使用者同時聊天",
    "一張 RTX 4090 想跑 Llama 3.1 70B FP16，只有我自己用",
    "我們有 2 張 RTX 3090，想用 Qwen2.5 32B AWQ 給 10 個同事用",
])
def test_bold_labels_render_in_both_languages(text):
    """'**建議：**沒有' shows its asterisks: Markdown does not close bold after punctuation when a letter
    follows. Every bold the answer opens must render."""
    html = _MD.render(markdown.answer(advise(text, knowledge=False)))
    prose = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert "**" not in prose, prose[max(0, prose.find("**") - 80):prose.find("**") + 80]


def test_the_structured_surfaces_carry_the_same_options():
    """The JSON API and MCP answer (ui.present.data.essentials) list the options the Markdown shows."""
    from ui.present import data
    advice = advise("8x H100 SXM, DeepSeek V3 at FP8, 200 concurrent chat users", knowledge=False)
    compact = data.essentials(advice)
    assert [w["hardware"] for w in compact["workable"]] == [w.hardware for w in advice.workable]
    assert "workable" not in data.essentials(advise("2x RTX 3090, Llama 3.1 8B for 10 people", knowledge=False))
