"""Node phrases, a pilot followed by a rollout, and scale said without an exact number.

"one 8x H100 node" is eight devices in one node; after "a 5-person pilot", "next month we open it
to 50 sales reps" is the target state; "好幾個機櫃" / "hundreds of H100s" is a fleet, with no count.
"""
from __future__ import annotations

import pytest

from agent.extract import extract

NODE_CASES = [
    # text, count, nodes (None = must be absent)
    ("We have one 8x H100 SXM node with NVLink", 8, 1),
    ("an 8×H100 node", 8, 1),
    ("two 8x H100 nodes", 8, 2),
    ("2 nodes of 8x H100", 8, 2),
    ("4 台伺服器，每台 8 張 H100", 8, 4),
    ("8 nodes of H100", None, 8),
    ("3 H200 nodes behind a load balancer", None, 3),
    ("five 4-GPU L4 servers", 4, 5),
    ("8x H100 nodes", 8, None),
    ("a single 4090 box", 1, None),
]


@pytest.mark.parametrize("text,count,nodes", NODE_CASES, ids=[c[0] for c in NODE_CASES])
def test_a_multiplier_is_devices_per_node_and_the_number_before_it_is_nodes(text, count, nodes):
    ex = extract(text)
    assert ex.values.get("count") == count, ex.values
    assert ex.values.get("nodes") == nodes, ex.values
    assert all(ex.evidence[f] in text for f in ex.values)


def test_one_node_evidence_names_the_node():
    ex = extract("We have one 8x H100 SXM node with NVLink, serving Llama 3.1 70B")
    assert ex.evidence["nodes"].startswith("one") and ex.evidence["nodes"].endswith("node")
    assert ex.evidence["count"].startswith("8x")


@pytest.mark.parametrize("text,field", [("幾百張 H100", "count"), ("十幾張 4090", "count"), ("二十幾個人在用", "users"),
                                        ("數十張 A100", "count"), ("hundreds of H100s", "count")])
def test_a_vague_amount_gives_no_number(text, field):
    assert field not in extract(text).values


@pytest.mark.parametrize("text,field,value", [("加上兩張 4090", "count", 2), ("一百多人使用", "users", 100),
                                              ("我們有三十張 A100", "count", 30)])
def test_whole_chinese_numerals_still_count(text, field, value):
    assert extract(text).values[field] == value


ROLLOUT_CASES = [
    # text, users, serving_mode (None = must be absent), users evidence
    ("Our Ollama box worked great for a 5-person pilot. Next month we open it to 50 sales reps. Can we keep Ollama?",
     50, "team", "50 sales reps"),
    ("內部 5 個人用 Ollama 試用一切順利，下週要正式開放給 50 個業務同仁", 50, "team", "50 個業務同仁"),
    ("We want to roll out to 300 employees; first a pilot with 10 people.", 300, "team", "300 employees"),
    ("目前 10 個工程師試跑，下個月開放給客戶，預計 3000 個用戶", 3000, "production", "3000 個用戶"),
    ("Pilot with 5 people, next month we open it to 200 users.", 200, None, "200 users"),
    ("A pilot next week for 4 people on one L4.", 4, "demo", "4 people"),
    ("先給 6 位同事試用，之後推廣到整個客服部門 120 人", 120, "team", "120 人"),
]


@pytest.mark.parametrize("text,users,mode,words", ROLLOUT_CASES, ids=[c[0][:40] for c in ROLLOUT_CASES])
def test_after_a_pilot_the_rollout_sets_users_and_mode(text, users, mode, words):
    ex = extract(text)
    assert ex.values.get("users") == users and ex.evidence.get("users") == words, (ex.values, ex.evidence)
    assert ex.values.get("serving_mode") == mode, ex.values
    if mode:
        assert ex.evidence["serving_mode"] in text


def test_the_rollout_sets_concurrency_too():
    ex = extract("Today we serve 40 concurrent users; next month we expect 400 concurrent.")
    assert ex.values["concurrency"] == 400 and "users" not in ex.values


def test_without_a_pilot_the_first_audience_stands():
    ex = extract("About 80 engineers use it, and next month the sales team gets access.")
    assert ex.values["users"] == 80


FLEET_CASES = [
    ("我們有好幾個機櫃的 GB200 NVL72，要對外提供大規模的 API 服務", "fleet", "好幾個機櫃"),
    ("dozens of racks of B200 behind one API", "fleet", "dozens of racks"),
    ("H100 clusters across two data centers", "fleet", "across two data centers"),
    ("幾百張 H100 的推論叢集", "fleet", "幾百張"),
    ("thousands of GPUs, one control plane", "fleet", "thousands of GPUs"),
    ("要對外提供大規模的 API 服務", "production", "對外"),
    ("an external production API for our partners", "production", "production"),
    ("one rack of H100s for an internal team", "team", "internal team"),
    ("hundreds of users, all internal", "team", "internal"),
]


@pytest.mark.parametrize("text,mode,words", FLEET_CASES, ids=[c[0] for c in FLEET_CASES])
def test_scale_without_a_number_is_a_fleet(text, mode, words):
    ex = extract(text)
    assert ex.values.get("serving_mode") == mode and ex.evidence["serving_mode"] == words, (ex.values, ex.evidence)
    assert "count" not in ex.values and "nodes" not in ex.values
