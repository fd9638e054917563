"""Racks and fleets as people name them: a GB200/GB300 NVL72 is a rack of 72 GPUs on one NVLink domain,
so "4 racks of GB200 NVL72" is 288 GPUs planned as replicas over domains of 72."""
from __future__ import annotations

import pytest

from agent.api import ask
from agent.extract import extract


@pytest.mark.parametrize("text, hw, count, nodes", [
    ("4 racks of GB200 NVL72, DeepSeek V3", "gb200", 72, 4),
    ("4x GB200 NVL72 for Llama 3.1 405B", "gb200", 72, 4),
    ("GB200 NVL72 x4", "gb200", 72, 4),
    ("a GB200 NVL72 rack, Llama 3.1 405B", "gb200", 72, None),
    ("two racks of GB300 NVL72", "gb300", 72, 2),
    ("我們有 4 台 GB200 NVL72 機櫃", "gb200", 72, 4),
    ("兩個 GB200 NVL72 機櫃", "gb200", 72, 2),
    ("144 GB200 NVL72 GPUs", "gb200", 72, 2),
    ("8x H100 SXM", "h100_sxm", 8, None),           # no rack: unchanged
])
def test_rack_phrasings_read_as_racks_of_72(text, hw, count, nodes):
    v = extract(text).values
    assert (v.get("hardware"), v.get("count"), v.get("nodes")) == (hw, count, nodes)


def test_four_nvl72_racks_are_planned_as_replicas_over_domains_of_72():
    res = ask("4 racks of GB200 NVL72, DeepSeek V3, 1000 concurrent users, chat, 8K context")
    plan = res["plan"]
    assert plan["scale"]["devices"] == 288 and plan["scale"]["domain"] == 72
    assert plan["feasible"], plan["chosen"]["rejected"]
    lay = plan["chosen"]["layout"]
    assert lay["tp"] * lay["ep"] <= 72 and lay["tp"] * lay["pp"] * lay["ep"] * lay["dp"] <= 288
    assert plan["scale"]["replica_devices"] <= 72     # no network named between the racks: replicas stay in one
    assert res["primary"] in plan["flags"]


def test_racks_with_a_named_network_may_span_them():
    res = ask("2 racks of GB200 NVL72 joined by InfiniBand, Llama 3.1 405B FP8, 500 concurrent users, 8K context")
    assert res["profile"]["count"] == 72 and res["profile"]["nodes"] == 2
    assert res["plan"]["feasible"] and res["plan"]["scale"]["network"] == "infiniband"
