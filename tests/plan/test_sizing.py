"""Sizing the other way round: ranked hardware options that meet the targets, from text or a request."""
from __future__ import annotations

import json

import pytest

from agent.extract_slo import latency_targets
from agent.sizing import size_text, sizing_request
from rules.errors import InputError
from rules.plan.sizing import SizingRequest, counts, size
from rules import catalog
from ui.cli import main


@pytest.mark.parametrize("text, ttft, tpot", [
    ("what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?", 2000, None),
    ("TTFT under 500ms and TPOT below 40 ms", 500, 40),
    ("首字延遲 2 秒內，每人至少 20 tokens/s", 2000, 50),
    ("need at least 25 tokens/s per user", None, 40),
    ("no targets here, 4x H100", None, None),
])
def test_latency_targets_from_words(text, ttft, tpot):
    values, evidence = latency_targets(text)
    assert values.get("ttft_ms") == ttft and values.get("tpot_ms") == tpot
    assert all(evidence[k] in text for k in values)


def test_issue_example_ranks_options_that_meet_the_targets():
    req, notes, lang = sizing_request("what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?")
    assert req.model == "llama-3.1-70b" and req.ttft_ms == 2000 and req.concurrency >= 1
    assert any("users" in n for n in notes)       # the load came from the head count
    res = size(req)
    assert res.any_meets and 1 <= len(res.options) <= 5
    for o in res.options:
        f = o.plan.figures
        assert o.meets_targets and f.ttft_s * 1000 <= req.ttft_ms and f.tpot_ms <= req.tpot_ms
        assert f.max_concurrency >= req.concurrency
    kept = [o.plan.tier < 2 for o in res.options]
    assert kept == sorted(kept, reverse=True)   # options that keep the precision come first


def test_a_smaller_count_of_the_same_device_misses_the_targets():
    """Each option is the smallest count of its device that meets the targets."""
    req = SizingRequest(model="llama-3.1-70b", concurrency=64, ttft_ms=1000, tpot_ms=40, quantization="fp8",
                        context_length=8192, hardware=("h100_sxm",))
    [opt] = size(req).options
    assert opt.meets_targets
    smaller = [(n, k) for n, k in counts(catalog.hardware("h100_sxm"), 256) if n * k < opt.count * opt.nodes]
    if smaller:
        n, k = smaller[-1]
        tighter = size(req.model_copy(update={"max_devices": n * k}))
        assert not tighter.options or not tighter.options[0].meets_targets


def test_zh_question_gets_a_zh_answer(capsys):
    assert main(["size", "我們要買什麼硬體跑 Llama 3.3 70B，200 人使用，首字延遲 2 秒內？"]) == 0
    out = capsys.readouterr().out
    assert "硬體選項" in out and "排序依據" in out


def test_json_object(capsys):
    assert main(["size", "Qwen3 32B, 64 concurrent requests, TPOT under 40 ms", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["request"]["tpot_ms"] == 40 and data["options"]
    assert {"hardware", "count", "nodes", "plan", "meets_targets", "cost_per_hour"} <= set(data["options"][0])


def test_no_option_meets_impossible_targets():
    res = size(SizingRequest(model="llama-3.1-405b", concurrency=500, ttft_ms=1, tpot_ms=1, max_devices=16))
    assert not res.any_meets
    assert all(o.misses for o in res.options)


@pytest.mark.parametrize("text, message", [
    ("200 users, TTFT under 2 s", "name the model"),
    ("Llama 3.3 70B", "how many users"),
])
def test_missing_facts_are_one_line_errors(text, message, capsys):
    with pytest.raises(InputError, match=message):
        size_text(text)
    assert main(["size", text]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("hw, unit", [("gb200", 72), ("gb300", 72), ("h100_sxm", 8), ("b200", 8), ("b300", 8),
                                      ("mi300x", 8), ("mi355x", 8), ("h100_nvl", 2), ("l40s", 1), ("h100_pcie", 1)])
def test_counts_are_what_can_be_bought(hw, unit):
    """A GB200 NVL72 is bought as a rack of 72, HGX/DGX boards as 8, PCIe cards one at a time."""
    tried = [n * k for n, k in counts(catalog.hardware(hw), 288)]
    assert tried and all(d % unit == 0 for d in tried), tried
    assert tried[0] == unit


def test_options_are_whole_units_with_cost_when_a_price_is_given():
    req = SizingRequest(model="llama-3.1-405b", concurrency=200, ttft_ms=2000, tpot_ms=60, quantization="fp8",
                        hardware=("gb200", "h100_sxm", "l40s"), prices={"h100_sxm": 2.5})
    res = size(req)
    by_hw = {o.hardware: o for o in res.options}
    assert by_hw["gb200"].count % 72 == 0
    assert by_hw["h100_sxm"].count * by_hw["h100_sxm"].nodes % 8 == 0
    h100 = by_hw["h100_sxm"]
    assert h100.cost_per_hour == pytest.approx(2.5 * h100.count * h100.nodes)
    assert h100.plan.figures.cost_per_1m_tokens and by_hw["gb200"].cost_per_hour is None


def test_a_price_in_the_question_reaches_the_options():
    req, _, _ = sizing_request("H100 SXM at $2.50 per GPU-hour: what do we need for Llama 3.3 70B, 100 concurrent requests?")
    assert req.prices == {"h100_sxm": 2.5}
    [opt] = size(req).options
    assert opt.cost_per_hour == pytest.approx(2.5 * opt.count * opt.nodes)
