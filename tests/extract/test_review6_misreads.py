"""Review-6 misreads fixed as classes, in wordings written for these tests (en and zh-Hant): a model number
after a product word is not a count of machines ("Atlas 800 servers"); a K-suffixed length ("32K", "128K
window") is never a number of requests; a total split unevenly over machines ("10 cards in 3 servers") keeps
its total; a device the user is moving to beats the one they are leaving; a CPU beside a GPU is the host, not an
unused number."""
from __future__ import annotations

import pytest

from agent.extract import extract, extract_answer


@pytest.mark.parametrize("text", [
    "Our cluster is Atlas 800 servers with 8x Ascend 910B2 each, DeepSeek 32B is slow.",
    "兩台 Atlas 800 伺服器，每台裝 8 張 Ascend 910B，跑 Qwen2.5 72B。",
    "We have a PowerEdge XE9680 server with 8x H100 for Llama 70B.",
    "一台 Xeon 6 伺服器配 4 張 L40S，要跑 Qwen3 32B。",
])
def test_a_model_number_after_a_product_word_is_not_a_machine_count(text):
    v = extract(text).values
    assert v.get("nodes") in (None, 1, 2), v
    assert v.get("count") in (4, 8), v


@pytest.mark.parametrize("text, fields", [
    ("64K", ["concurrency", "context_length"]),
    ("around 128K window", ["concurrency", "context_length"]),
    ("3-5 parallel chats, 16K", ["concurrency", "context_length"]),
    ("大概 3 到 5 個併發，32K", ["concurrency", "context_length"]),
])
def test_a_k_length_in_a_reply_is_the_context_not_the_concurrency(text, fields):
    v = extract_answer(text, fields).values
    assert v.get("concurrency", 0) < 1000 and v.get("users", 0) < 1000, v
    assert v.get("context_length", 0) >= 16000, v


@pytest.mark.parametrize("text", ["64K", "128K 的窗口"])
def test_a_k_length_never_answers_how_many_at_once(text):
    v = extract_answer(text, ["concurrency"]).values
    assert "concurrency" not in v and "users" not in v, v


@pytest.mark.parametrize("text", ["10K users", "一萬個使用者"])
def test_a_k_number_of_people_stays_people(text):
    assert extract(text).values.get("users") == 10000


@pytest.mark.parametrize("text, total", [
    ("We own 7 Tesla P40 cards spread over 2 servers (4+3).", 7),
    ("我們有 10 張 P40，分在 3 台伺服器（4、4、2）。", 10),
    # the total said first in words, then restated with its machines (a question, then its follow-up answer)
    ("We picked up seven Tesla P40s for a chatbot.\n7x Tesla P40 24GB in 2 servers (4+3), PCIe only", 7),
    ("我們買了十張 P40 要跑內部聊天。\n10 張 P40 分在 3 台伺服器（4、4、2）", 10),
])
def test_a_total_split_unevenly_over_machines_keeps_its_total(text, total):
    v = extract(text).values
    assert v.get("count", 1) * v.get("nodes", 1) == total, v


@pytest.mark.parametrize("text, hw", [
    ("My workstation has 2x RTX 4090 today; I'm considering replacing them with two Radeon AI PRO R9700 cards. Is vLLM usable on 2x R9700?", "r9700"),
    ("現在用兩張 3090，打算換成兩張 R9700，vLLM 在 R9700 上穩定嗎？", "r9700"),
])
def test_the_device_being_bought_beats_the_one_being_replaced(text, hw):
    assert extract(text).values.get("hardware") == hw


@pytest.mark.parametrize("text", [
    "RX 7900 XTX, Ryzen 7 7800X3D host, 32GB DDR5, llama.cpp is slow",
    "RTX 4090 跟 Core i9 14900K 的主機，Ollama 很慢",
])
def test_hosts_and_lengths_are_not_unused_numbers(text):
    assert extract(text).not_understood == [], extract(text).not_understood


@pytest.mark.parametrize("text, nodes", [
    ("We have three PowerEdge XE9680 servers, 8x H100 in each.", 3),
    ("兩台 Atlas 800，每台 8 張 910B2，跑 DeepSeek 蒸餾 32B。", 2),
])
def test_a_number_before_a_server_model_counts_machines(text, nodes):
    ex = extract(text)
    assert (ex.values.get("nodes"), ex.values.get("count")) == (nodes, 8), ex.values
    assert ex.not_understood == [], ex.not_understood   # the server model is the machine, not an unknown device


@pytest.mark.parametrize("text", ["8 張 910B2 跑 Qwen2.5 32B", "four 910B3 NPUs for Llama 3 70B"])
def test_ascend_910b_variants_by_their_bare_number(text):
    assert extract(text).values.get("hardware") == "ascend_910b"


@pytest.mark.parametrize("text", [
    "排隊時，同時處理的請求也是一個一個慢慢增加。\n全公司 120 人，尖峰同時 20-40 個請求",
    "我們把卡一張一張加上去測；尖峰同時 40 個請求，全公司 120 人",
])
def test_a_doubled_one_is_a_manner_not_one_request(text):
    assert extract(text).values.get("concurrency") == 40


@pytest.mark.parametrize("text, conc", [
    ("only me, now and then 3 requests", 3),
    ("就我一個人，有時候會有 2 個請求", 2),
])
def test_a_sometimes_peak_of_requests_is_the_concurrency(text, conc):
    ex = extract(text)
    assert ex.values.get("concurrency") == conc and ex.not_understood == [], (ex.values, ex.not_understood)


@pytest.mark.parametrize("text", [
    "One Gaudi 2 card out of a 4-card server serves Llama 3 8B; vLLM runs with max 128 sequences.",
    "一張 L40S，放在 4 卡的伺服器裡；vLLM 設 max_num_seqs 128，跑 Qwen2.5 7B。",
])
def test_a_machine_size_and_an_engine_limit_are_not_unused_numbers(text):
    assert extract(text).not_understood == [], extract(text).not_understood
