"""Two label conventions settled for issue 14, in English and Traditional Chinese, in wordings written
for these tests: a single device named in the singular (an article, "one"/"single", a possessive
"my"/"我的", "卡是", "一台", "單張") is a count of one, while a device named with no sign of how many
("A100s", "H100 上跑", "on H100") states no count; "just me" / "只有我自己" is one user, and people said to
do something at the same time ("two users asking at the same time", "兩個使用者會同時用") are both the users
and the concurrency, while a bare count at once ("64 users at the same time", "64 人同時使用") stays the concurrency."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str):
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex


@pytest.mark.parametrize("text, hw", [
    ("Qwen2.5 14B on my RTX 3090 keeps swapping, what engine helps?", "rtx3090"),
    ("Running Mistral Small on my 4090 with Ollama, 25 tok/s.", "rtx4090"),
    ("Got an A10 in the cloud for a 7B chatbot.", "a10"),
    ("Just one Mac Studio M2 Ultra for Llama 3 70B at home.", "m2_ultra"),
    ("My MacBook Pro M4 Max runs Gemma 3 27B slowly.", "m4_max_40c"),
    ("A single L40S serves our 8B model.", "l40s"),
    ("我的 3090 跑 Qwen2.5 14B 很慢，要換引擎嗎？", "rtx3090"),
    ("我這張 4090 用 Ollama 跑 Gemma 3 27B。", "rtx4090"),
    ("一台 Mac Studio M2 Ultra 能跑 Llama 3 70B 嗎？", "m2_ultra"),
    ("單張 L40S 跑 8B 模型夠嗎？", "l40s"),
    ("M2 Ultra 這台機器能跑 Llama 3 70B 嗎？", "m2_ultra"),
    ("想知道 L40S 這張卡跑 Qwen3 32B 夠不夠。", "l40s"),
])
def test_a_single_device_in_the_singular_is_one(text, hw):
    v = read(text).values
    assert (v.get("hardware"), v.get("count")) == (hw, 1)


@pytest.mark.parametrize("text", [
    "Our cluster has L40S cards; which engine for Qwen3 32B?",
    "We serve Llama 3 70B on H100, what engine is best?",
    "Renting H200s by the hour for DeepSeek V3.",
    "在 L40S 上跑 Qwen3 32B 用哪個引擎比較好？",
    "公司用 H100 跑 DeepSeek，要選什麼引擎？",
    "我們的 A100 跑 Llama 3 70B 很慢。",
])
def test_a_device_with_no_sign_of_how_many_stays_uncounted(text):
    assert "count" not in read(text).values


@pytest.mark.parametrize("text, users, conc", [
    ("Two users will be chatting with it at the same time on my 4090.", 2, 2),
    ("Three people query the model simultaneously during the day.", 3, 3),
    ("兩個使用者會同時用這個模型。", 2, 2),
    ("三個同事會在同一時間同時問它問題，卡是 4090。", 3, 3),
])
def test_people_at_the_same_time_are_users_and_concurrency(text, users, conc):
    v = read(text).values
    assert (v.get("users"), v.get("concurrency")) == (users, conc)


# a bare count of people at once stays the concurrency alone (the curated and generated sets' convention)
@pytest.mark.parametrize("text", ["40 users at the same time on two L40S.", "40 人同時使用，兩張 L40S。"])
def test_a_bare_count_at_once_is_the_concurrency_only(text):
    v = read(text).values
    assert (v.get("users"), v.get("concurrency")) == (None, 40)


@pytest.mark.parametrize("text", [
    "It's just me using it, Qwen3 8B on a 4090.",
    "Only me: a personal coding assistant on my 3090.",
    "Nobody else, only me, so load is tiny.",
    "Just me and my old 3090, want to try a 32B model.",
    "只有我自己用，跑 Qwen3 8B。",
    "我自己用而已，4090 跑 14B 模型。",
    "就我一個人在用這台 Mac Studio M2 Ultra。",
])
def test_just_me_is_one_user(text):
    assert read(text).values.get("users") == 1


@pytest.mark.parametrize("text", [
    "I need an engine for Qwen3 8B for my team of 20.",
    "我自己架了一台伺服器給 30 個同事用。",
    "Let me know which engine fits 100 users.",
    "It's just me and my team of 8 on one L40S.",
])
def test_me_in_other_senses_is_not_one_user(text):
    assert read(text).values.get("users") != 1
