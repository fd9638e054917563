"""The interview rules of issue 14 end to end, from the user's own words, in English and zh-Hant:
only what the catalog cannot answer is asked (no link question for SXM/NVL parts or one card, no
NVLink option for cards without one, no format question for a one-format model), nothing given is
asked again, a latency problem asks the load first, and words that look like a device or model but
were not placed are quoted back."""
from __future__ import annotations

import pytest
from test_conversation import advisor


def first_question(text: str) -> dict | None:
    out = advisor().turn("t", text)
    return out.question


def asked_fields(text: str) -> list[str]:
    q = first_question(text)
    return q["fields"] if q else []


@pytest.mark.parametrize("text", [
    "8x H100 SXM, Llama 3.1 70B, for an internal team of 200 people. Which engine?",
    "8 張 H100 SXM，跑 Llama 3.1 70B，內部團隊 200 人用，推薦哪個引擎？",
    "Four H100 NVL cards, Qwen3 32B, our team of 80. Which engine?",
    "4 張 H100 NVL，Qwen3 32B，公司內部 80 人，該用哪個？",
])
def test_no_link_question_when_the_part_fixes_the_link(text):
    assert "interconnect" not in asked_fields(text)


@pytest.mark.parametrize("text", [
    "A single RTX 4090, Qwen3 32B, for our team of 20. Which engine?",
    "一張 RTX 4090，跑 Qwen3 32B，團隊 20 人用，推薦哪個？",
])
def test_no_link_question_for_one_card(text):
    assert "interconnect" not in asked_fields(text)


@pytest.mark.parametrize("text, lang", [
    ("Two machines with 4 RTX 4090 each, Qwen3 32B, an external service for customers. Which engine?", "en"),
    ("兩台機器，各 4 張 RTX 4090，跑 Qwen3 32B，對外服務客戶，推薦哪個引擎？", "zh"),
])
def test_no_nvlink_option_for_cards_that_have_none(text, lang):
    adv = advisor()
    out = adv.turn("t", text)
    questions = []
    while out.question is not None:
        questions.append(out.question)
        out = adv.turn("t", "I don't know" if lang == "en" else "不知道")
    link = [q for q in questions if "interconnect" in q["fields"]]
    assert link, questions                                   # how the two machines connect is open
    assert all("NVLink" not in q["question"] for q in link)
    assert any(("InfiniBand" in q["question"]) for q in link)


@pytest.mark.parametrize("text, model", [
    ("8x H200 SXM, DeepSeek V3, 200 concurrent chat users", "deepseek-v3"),
    ("八張 H200 跑 DeepSeek-R1，200 人同時聊天", "deepseek-r1"),
])
def test_no_format_question_for_a_model_released_in_fp8_only(text, model):
    """DeepSeek-V3/R1 ship FP8 weights only: on devices that compute FP8 and hold them, there is no
    format to choose."""
    from agent.api import advise
    advice = advise(text, knowledge=False)
    assert advice.profile.summary.model == model
    assert all("quantization" not in q.fields for q in advice.questions), [q.fields for q in advice.questions]
    assert advice.estimate.quantization == "fp8"   # planned at the released format


@pytest.mark.parametrize("text", [
    "8x H100 SXM, DeepSeek V3, 200 concurrent chat users",          # 671 GB of FP8 > 640 GB of HBM
    "DeepSeek R1 671B 想在一台 512GB 記憶體的伺服器加一張 4090 上跑，一個人用，可以嗎？",
    "Three Mac Studio M3 Ultra 512GB, DeepSeek V3 for our team",    # no FP8 compute on Apple GPUs
])
def test_the_format_is_asked_when_the_released_fp8_cannot_run_as_is(text):
    from agent.api import advise
    advice = advise(text, knowledge=False)
    assert any("quantization" in q.fields for q in advice.questions), [q.fields for q in advice.questions]


@pytest.mark.parametrize("text, model", [
    ("gpt-oss-120b on one H100 for our team of 30. Which engine?", "gpt-oss-120b"),
    ("一張 H100 跑 gpt-oss-120b，內部 30 人用，推薦哪個引擎？", "gpt-oss-120b"),
])
def test_no_format_question_for_a_model_that_ships_in_one_format(text, model):
    adv = advisor()
    out = adv.turn("t", text)
    asked = []
    while out.question is not None:
        asked += out.question["fields"]
        out = adv.turn("t", "I don't know")
    assert "quantization" not in asked
    assert out.result["profile"]["model"] == model


@pytest.mark.parametrize("text, reply", [
    ("Two RTX 3090s, Qwen3 32B, for our team of 30. Which engine?", "PCIe only, no NVLink. 10 concurrent requests, chat."),
    ("兩張 RTX 3090，跑 Qwen3 32B，團隊 30 人用，推薦哪個？", "只有 PCIe，沒有 NVLink。10 個併發，聊天用。"),
])
def test_a_fact_given_in_a_reply_is_not_asked_again(text, reply):
    adv = advisor()
    out = adv.turn("t", text)
    first = out.question["fields"] if out.question else []
    out = adv.turn("t", reply)
    later = []
    while out.question is not None:
        later += out.question["fields"]
        out = adv.turn("t", "I don't know")
    assert not set(first) & set(later), (first, later)
    assert not {"hardware", "model", "interconnect", "concurrency", "workload"} & set(later)
    p = out.result["profile"]
    assert p["interconnect"] == "pcie" and p["concurrency"] == 10


@pytest.mark.parametrize("text", [
    "Two RTX 3090 with NVLink, Qwen3 32B AWQ, team of 30, 10 concurrent requests, chat, 8K context, cost matters most.",
    "兩張 RTX 3090 有 NVLink，Qwen3 32B AWQ，團隊 30 人，10 個併發，聊天，context 8K，最在意成本。",
])
def test_a_fact_given_in_the_opening_is_never_asked(text):
    out = advisor().turn("t", text)
    asked = [f for q in ([out.question] if out.question else out.result["questions"]) for f in q["fields"]]
    assert not {"hardware", "model", "interconnect", "quantization", "concurrency", "workload",
                "context_length", "priority"} & set(asked)


@pytest.mark.parametrize("text", [
    "Our p99 TTFT is far too high on 8x H100 with Llama 3.1 70B. Which engine should we use?",
    "8 張 H100 跑 Llama 3.1 70B，p99 TTFT 太高了，延遲要壓低，該換哪個引擎？",
])
def test_a_p99_ttft_problem_asks_the_concurrency_first(text):
    q = first_question(text)
    assert q is not None and q["fields"][0] == "concurrency" and "priority" not in q["fields"]


@pytest.mark.parametrize("text, word, said", [
    ("I have 4 Cambricon MLU370 cards and want Llama 3.1 8B for 20 people at once. Which engine?", "MLU370", "did not recognise"),
    ("我有 4 張 Cambricon MLU370，想跑 Llama 3.1 8B，20 個併發，推薦哪個？", "MLU370", "認"),
])
def test_a_device_word_not_placed_is_quoted_in_the_question(text, word, said):
    q = first_question(text)
    assert q is not None and "hardware" in q["fields"]
    assert word in q["question"] and said in q["question"]


PREVIOUS = {"hardware": "h100_sxm", "count": 8, "model": "llama-3.1-70b", "quantization": "fp8", "concurrency": 64,
            "serving_mode": "team"}


@pytest.mark.parametrize("text, kind", [
    ("What about 4 H100s instead?", "amended"), ("換成 Qwen3 32B 呢？", "amended"), ("And with 100 users?", "amended"),
    ("Actually it's 16 H100s, not 8.", "amended"), ("Same setup but 200 concurrent users", "amended"),
    ("Switch the model to Qwen3 235B", "amended"), ("其他不變，併發改成 200", "amended"),
    ("New question: 8x MI300X, DeepSeek V3, 200 users", "new"), ("另外一個案子：兩台 Mac Studio M3 Ultra，跑 DeepSeek R1", "new"),
    ("Different box: a single RTX 4090 with Qwen3 8B for myself.", "new"), ("我們另一個團隊有 4 張 4090，跑 Qwen3 32B，20 人", "new"),
    ("And for a second customer: 2x L40S with Mistral 7B, 10 users", "new"), ("再問一個：一張 4090 跑 Qwen3 8B 自己用", "new"),
])
def test_a_new_situation_or_a_follow_up_is_told_apart(text, kind):
    from agent.extract import extract
    from agent.understand import profile_change
    assert profile_change(PREVIOUS, extract(text).values, text) == kind
