"""Classes of misreading seen in answer reviews (issue 14), in English and Traditional Chinese:
a device-count range, one machine said in words, CPU sockets, a load given as a lower bound or a
round magnitude, devices per machine stated beside the total, and a model family named without a
size that has several sizes in the catalog."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str):
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex


@pytest.mark.parametrize("text, hardware, count", [
    ("We have 1-2x A100 for Llama 3.1 8B", "a100_80g_sxm", 2),
    ("1-2 A100s, Qwen3 32B", "a100_80g_sxm", 2),
    ("1～2 張 A100 跑 Llama 3.1 8B", "a100_80g_sxm", 2),
    ("2-3 張 4090 跑 Qwen3 32B", "rtx4090", 3),
])
def test_a_count_range_takes_its_upper_end_and_is_understood(text, hardware, count):
    ex = read(text)
    assert (ex.values.get("hardware"), ex.values.get("count")) == (hardware, count), ex.values
    assert not [u for u in ex.not_understood if u.kind == "number"], ex.not_understood


@pytest.mark.parametrize("text, count", [
    ("one node with 8x H100", 8),
    ("a single machine with 4 RTX 4090s", 4),
    ("單機 8 張 H100", 8),
    ("一台機器 4 張 4090", 4),
    ("單機跑 Qwen3 32B，4 張 4090", 4),
])
def test_one_machine_in_words_is_one_node(text, count):
    ex = read(text)
    assert ex.values.get("nodes", 1) == 1 and ex.values.get("count") == count, ex.values


@pytest.mark.parametrize("text, count", [
    ("a 2-socket Xeon server running Llama 3.1 8B", 2),
    ("dual-socket EPYC 9654 server, Llama 3.1 8B", 2),
    ("two-socket EPYC 9654 server", 2),
    ("4-socket Xeon box for Qwen3 8B", 4),
    ("雙路 EPYC 伺服器跑 Qwen3 32B", 2),
    ("兩路 EPYC 伺服器跑 Qwen3 32B", 2),
])
def test_cpu_sockets_are_the_device_count_of_one_server(text, count):
    ex = read(text)
    assert ex.values.get("count") == count and ex.values.get("nodes", 1) == 1, ex.values
    assert not ex.not_understood, ex.not_understood


@pytest.mark.parametrize("text, concurrency", [
    ("100+ concurrent users on Llama 3.1 70B", 100),
    ("120 concurrent on 4x H100", 120),
    ("80 concurrent requests on 2x A100", 80),
    ("上百人同時使用，Qwen3 32B", 100),
    ("上千人同時在線，四張 H100", 1000),
    ("一百多人同時使用 Qwen3 32B", 100),
])
def test_concurrency_as_a_bound_or_a_round_magnitude(text, concurrency):
    assert read(text).values.get("concurrency") == concurrency, text


@pytest.mark.parametrize("text, users", [
    ("公司上百人要用 Qwen3 32B", 100),
])
def test_a_round_magnitude_of_people_is_users(text, users):
    assert read(text).values.get("users") == users, text


@pytest.mark.parametrize("text, count, nodes", [
    ("16 張 H100（每台 8 張，共 2 台）跑 DeepSeek V3", 8, 2),
    ("16 張 H100，每台 8 張", 8, 2),
    ("32 張 A100，每台 8 張", 8, 4),
    ("16x H100 (8 per node, 2 nodes)", 8, 2),
    ("32 H100s, 8 per server", 8, 4),
    ("8 張 4090，共 2 台", 8, 2),
])
def test_devices_per_machine_beside_the_total(text, count, nodes):
    ex = read(text)
    assert (ex.values.get("count"), ex.values.get("nodes")) == (count, nodes), ex.values
    assert not [u for u in ex.not_understood if u.kind == "number"], ex.not_understood


@pytest.mark.parametrize("text", [
    "Qwen-3 Coder on 2x H100",
    "Qwen3 Coder on 2x H100 for our IDE plugin",
    "qwen3-coder 跑在一張 4090 上",
    "用 Qwen3 Coder，兩張 H100",
])
def test_a_family_with_several_sizes_named_without_one_is_not_picked(text):
    ex = read(text)
    assert "model" not in ex.values, ex.values
    # the whole name is quoted back ("I did not recognise 'Qwen3 Coder'…"), so the size can be asked
    assert any(u.kind == "model" and "coder" in u.text.lower() for u in ex.not_understood), ex.not_understood


@pytest.mark.parametrize("text, model", [
    ("Qwen3 Coder 480B on 8x H200", "qwen3-coder-480b-a35b"),
    ("qwen3-coder:30b on a 4090", "qwen3-30b-a3b"),
    ("Qwen3-Coder-30B-A3B 跑在一張 4090", "qwen3-30b-a3b"),
    ("Llama 3.1 on 2x H100", "llama-3.1-8b"),   # a family's default-size alias still resolves
    ("Mixtral on 2x H100", "mixtral-8x7b"),
])
def test_a_sized_name_or_a_default_alias_still_resolves(text, model):
    assert read(text).values.get("model") == model, text


# Classes the dev grammar showed once its quantization phrasings grew (evals/extraction_gen/dev.py).
@pytest.mark.parametrize("text, expected, absent", [
    ("On 4 GPUs, want to serve Qwen3 8B, can we offload the MoE experts to CPU RAM?", {"count": 4}, ("hardware",)),
    ("4 張卡，想 serve Qwen3 8B", {"count": 4}, ("hardware",)),
    ("Running phi3 - quantized to FP8 - $3.5/hr per GPU", {"model": "phi-3-mini-4k", "quantization": "fp8"}, ()),
    ("one Jetson Orin NX, planning to deploy Code-Llama-7B - cost is the main concern", {"model": "codellama-7b"}, ()),
    ("公司有 A2 Tensor Core GPU顯卡 2 張", {"hardware": "a2", "count": 2}, ()),
    ("4 4-GPU g6.xlarge servers available", {"count": 4, "nodes": 4}, ()),
    ("手上有 A100 40GB PCIe 共 4 張", {"hardware": "a100_40g_pcie", "count": 4}, ()),
])
def test_verbs_dashes_and_memory_around_names(text, expected, absent):
    got = read(text).values
    for field, value in expected.items():
        assert got.get(field) == value, (text, got)
    for field in absent:
        assert field not in got, (text, got)
