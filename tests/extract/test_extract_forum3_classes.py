"""Classes of misreading found on the forum3 set (issue 14), each in English and Traditional Chinese,
with phrasings written for these tests (not copied from evals/extraction_forum3.yaml): a measured
figure is no priority, a device named as a yardstick is not the user's, two different cards in one
box, machines × devices × memory, machines written after the device, 電腦 / workstations as
machines, a card given by its bare number, a rented device, 雙 before a card, a Chinese measure word
after a number, idioms with "one", sizes inside device names, context said as a token ceiling,
requests batched together, one adapter per request of a batch, response-time wishes."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str) -> dict:
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex.values


@pytest.mark.parametrize("text", [
    "On 2x L40S the throughput is only 900 tok/s with Qwen3 32B",
    "Our speed is just 12 tok/s on one 3090",
    "兩張 A100 跑 Qwen3 32B，輸出吞吐只有每秒三十幾個 token",
    "一張 4090 推理速度只有 15 tokens/s，正常嗎？",
    "四張 V100，最高輸出速度只有 60 token/s",
    "4x MI100 give 128GB with decent throughput for less than one H100",
])
def test_a_measured_figure_is_no_priority(text):
    assert "priority" not in read(text), text


@pytest.mark.parametrize("text", [
    "Qwen3 32B on one L4, we want answers within 2 seconds",
    "How do we keep short chat requests fast on 2x H100?",
    "三張 T4 跑 Qwen3 8B，希望能壓到兩秒以內回應",
    "latency under 300 ms matters for us",
])
def test_a_response_time_wished_for_is_latency(text):
    assert read(text).get("priority") == "latency", text


@pytest.mark.parametrize("text, hardware", [
    ("On my RTX 5090 it runs 3 times slower than a Mac Studio M3 Ultra did", "rtx5090"),
    ("Qwen3 32B on our L40S is slower than on H100 or H200", "l40s"),
    ("一張 4090 跑起來比 H100 慢很多", "rtx4090"),
])
def test_a_device_named_as_a_yardstick_is_not_the_users(text, hardware):
    assert read(text).get("hardware") == hardware, text


def test_only_yardstick_devices_leave_the_device_unsaid():
    assert "hardware" not in read("On our Tenstorrent box TTFT is 10 times slower than on H100 or H200")


@pytest.mark.parametrize("text, count", [
    ("an RTX 5090 plus an RTX 4090 in one box", 2),
    ("2x 4090 + 1x 3090 for a 70B model", 3),
    ("一張 RTX 5000 Ada 加一張 A6000，混插", 2),
    ("4090 加 3090 跑 Qwen3 32B", 2),
])
def test_different_cards_in_one_box_add_up(text, count):
    assert read(text).get("count") == count, text


@pytest.mark.parametrize("text, count", [
    ("4 張 RTX PRO 6000 搭雙路 EPYC 9654", 4),
    ("4x H100 plus a dual EPYC host", 4),
])
def test_the_host_cpus_do_not_add_to_the_cards(text, count):
    assert read(text).get("count") == count, text


@pytest.mark.parametrize("text, count, nodes", [
    ("兩台 H100（2×8×80G）跑 DeepSeek R1", 8, 2),
    ("two H200 boxes (2x8x141GB) for DeepSeek V3", 8, 2),
    ("three 910B*8 machines for DeepSeek V3", 8, 3),
    ("two H100*8 servers", 8, 2),
    ("手邊有 4 台電腦，每台一張 RTX 3060", 1, 4),
    ("3 workstations, each with 2x RTX 4090", 2, 3),
])
def test_machines_and_devices_per_machine(text, count, nodes):
    got = read(text)
    assert (got.get("count"), got.get("nodes")) == (count, nodes), got


@pytest.mark.parametrize("text, count", [
    ("我只有一張 1080，跑 Qwen3 8B", 1),
    ("手上有兩張 2080，想跑 Qwen3 14B", 2),
    ("Ollama on an RTX PRO 4000 Blackwell with Qwen3 14B", 1),
])
def test_a_count_before_a_card_the_catalog_does_not_know(text, count):
    assert read(text).get("count") == count, text


@pytest.mark.parametrize("text, hardware, count", [
    ("At $2.50 an hour for a rented H100", "h100_sxm", 1),
    ("two leased A100s for Llama 3.1 70B", "a100_80g_sxm", 2),
    ("雙 2080 Ti 22G 跑 Qwen2.5 32B", "rtx2080ti", 2),
    ("租來的 H100 兩張", "h100_sxm", 2),
])
def test_count_words_around_a_device(text, hardware, count):
    got = read(text)
    assert (got.get("hardware"), got.get("count")) == (hardware, count), got


@pytest.mark.parametrize("text", [
    "公司想建一套內部用的 LLM 系統",
    "公司有兩台伺服器",
    "multi-user chat, but simultaneous users get served one after another",
    "users get answered one by one",
])
def test_a_number_that_counts_something_else_is_no_user_count(text):
    assert "users" not in read(text), text


@pytest.mark.parametrize("text", [
    "lmdeploy 能不能在昇騰 910B 上跑 deepseek-ocr？",
    "Does vLLM run deepseek-ocr on an Ascend 910B?",
])
def test_a_size_inside_a_device_name_is_no_model_size(text):
    assert "params_b" not in read(text), text


@pytest.mark.parametrize("text", [
    "Qwen3 on an M3 Ultra with mistral.rs is slow",
    "用 mistral.rs 跑 Qwen3 8B",
])
def test_the_mistral_rs_engine_is_not_a_mistral_model(text):
    assert "mistral" not in (read(text).get("model") or ""), text


@pytest.mark.parametrize("text, context", [
    ("Two RTX 5090s with a 262,144-token max context", 262144),
    ("exactly one RTX 3090: a 131,072-token ceiling", 131072),
    ("a 32,768-token window on one L4", 32768),
])
def test_a_token_ceiling_is_the_context(text, context):
    assert read(text).get("context_length") == context, text


@pytest.mark.parametrize("text, concurrency, loras", [
    ("tok/s triples when 16 sequences are batched together", 16, None),
    ("Llama 3.1 8B with multi-LoRA, a batch of 16 where every request brings its own adapter", 16, 16),
    ("Llama 3.1 8B，一次 8 個請求一起跑", 8, None),
])
def test_requests_run_together(text, concurrency, loras):
    got = read(text)
    assert (got.get("concurrency"), got.get("lora_adapters")) == (concurrency, loras), got


@pytest.mark.parametrize("text", [
    "lmdeploy 能不能在昇騰 910B 上推理 Qwen2.5 32B？",
    "Qwen3 8B 能部署在昇騰 910B 上嗎？",
    "這個模型可以放到昇騰 310P 上面部署嗎？",
    "Can DeepSeek V3 run on a single node with 8 x Ascend 910B4 32GB?",
])
def test_asking_whether_a_model_runs_on_a_platform_device(text):
    assert "platform-support" in extract(text).topics, text


@pytest.mark.parametrize("text", [
    "24G 的 4090 可以用 vLLM 啟動 Qwen3 32B AWQ，不過要把 context 壓到 4000。",
    "支援 AMX 的 Intel 處理器跑 DeepSeek 會快不少。",
])
def test_a_report_that_something_ran_is_no_support_question(text):
    assert "platform-support" not in extract(text).topics, text


@pytest.mark.parametrize("text, topic", [
    ("12 台 H20 伺服器，每個節點各跑一個實例，還是跨節點做分散式推理比較好？", "parallelism"),
    ("Is distributed inference across our 3 nodes worth it for DeepSeek R1?", "parallelism"),
    ("4 張 4090 搭雙路 EPYC，顯卡加 CPU 混合推理跑 DeepSeek R1", "offload"),
    ("DeepSeek R1 GGUF on one 4090: most of the model sits in system RAM", "offload"),
])
def test_distributed_and_split_memory_topics(text, topic):
    assert topic in extract(text).topics, text


@pytest.mark.parametrize("text, params", [
    ("lmdeploy 能不能在昇騰 910B 上推理蒸餾模型 deepseekr1-qwen2.5-32b？", 32),
    ("用昇騰 910B 推理蒸餾模型 deepseekr1-qwen2.5-32b，速度很慢", 32),
])
def test_a_glued_name_with_another_size_is_another_model(text, params):
    ex = extract(text)
    assert "model" not in ex.values and ex.values.get("params_b") == params, ex.values
    assert any(u.kind == "model" for u in ex.not_understood), ex.not_understood


@pytest.mark.parametrize("text, model", [
    ("Qwen3-30B-A3B on a 4090", "qwen3-30b-a3b"),
    ("DeepSeek-R1-Distill-Qwen-32B on 2x 4090", "deepseek-r1-distill-qwen-32b"),
    ("Llama-3.1-8B-Instruct-AWQ on a 4090", "llama-3.1-8b"),
])
def test_a_name_whose_tail_agrees_still_resolves(text, model):
    assert extract(text).values.get("model") == model, text
