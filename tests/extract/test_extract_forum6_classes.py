"""Classes of misreading found on the forum6 set (issue 14), each in English and Traditional Chinese,
with phrasings written for these tests from other real threads (not copied from
evals/extraction_forum6.yaml): a whole machine named alone is one device, a count before a described
card, a group the writer belongs to ("me and two colleagues", "three of us"), money is not people,
concurrency with a measure word or as a list of tested levels, goals that imply a priority, multi-card
and multi-machine splitting in Chinese, support questions about a named non-CUDA device, LoRA counts."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str):
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex


# ---------------------------------------------------------------- 1. a whole machine named alone is one device
@pytest.mark.parametrize("text", [
    "Mac Studio M2 Ultra with 192 GB: how big a model can it hold?",
    "M3 Max MacBook Pro, 64GB: llama.cpp gives 6 tok/s on a 70B Q4.",
    "Ryzen AI Max+ 395 mini PC with 128GB unified memory runs gpt-oss-120b at 30 tok/s.",
    "一台 Mac Mini（M4 Pro）跑 Qwen2.5 14B 夠嗎？",
    "剛買了 Mac Studio，M3 Ultra 256G，想跑 Qwen3 235B。",
    "M4 Max 128G 的 MacBook 跑 70B 會不會太慢？",
])
def test_a_machine_named_alone_is_one_device(text):
    assert read(text).values.get("count") == 1


@pytest.mark.parametrize("text, nodes", [
    ("三台 Mac Studio（M3 Ultra）串起來跑 DeepSeek R1，可行嗎？", 3),
    ("Two Mac Studios (M2 Ultra, 192GB each) linked over Thunderbolt 5 for Llama 3.1 405B.", 2),
])
def test_several_macs_are_machines_of_one_device(text, nodes):
    v = read(text).values
    assert (v.get("nodes"), v.get("count")) == (nodes, 1)


@pytest.mark.parametrize("text, n", [
    ("手上只有一張消費級 4090，想跑 Qwen2.5 32B。", 1),
    ("公司給了兩張二手的 A100 40G 做推理。", 2),
    ("I have three used RTX 3090 cards for Llama 3 70B.", 3),
])
def test_a_count_before_a_described_card(text, n):
    assert read(text).values.get("count") == n


# ---------------------------------------------------------------- 2. people: a group the writer belongs to
@pytest.mark.parametrize("text, users", [
    ("It's just me and two coworkers on the office 4090.", 3),
    ("我跟兩個同事在用一張 A6000 跑 Qwen2.5 14B。", 3),
    ("Five of us share one L40S for code completion.", 5),
    ("我們六個人共用一台 H100 伺服器。", 6),
])
def test_a_group_the_writer_belongs_to_counts_the_writer(text, users):
    assert read(text).values.get("users") == users


@pytest.mark.parametrize("text, n", [
    ("Fine for me alone, but once four of us send prompts at the same time it crawls.", 4),
    ("我們三個人同時問，回應就變得超慢。", 3),
])
def test_a_group_at_the_same_time_is_users_and_concurrency(text, n):
    v = read(text).values
    assert (v.get("users"), v.get("concurrency")) == (n, n)


@pytest.mark.parametrize("text", [
    "預算大約 12.5 萬人民幣，想買兩張 4090 跑 Qwen2.5 32B。",
    "整套 8 萬元人民幣以內，要跑 DeepSeek 70B。",
    "兩台伺服器報價 30 萬新台幣，放 Llama 3 70B。",
])
def test_money_is_not_people(text):
    assert read(text).values.get("users") is None


# ---------------------------------------------------------------- 3. concurrency
@pytest.mark.parametrize("text, n", [
    ("Qwen2.5 7B 在 L20 上併發 12 條就開始排隊。", 12),
    ("壓測時併發 2、8、32 都跑過，TTFT 差很多。", 32),
    ("We load-tested at concurrency 4, 8 and 24 on one A100.", 24),
])
def test_concurrency_with_a_measure_word_or_tested_levels(text, n):
    assert read(text).values.get("concurrency") == n


# ---------------------------------------------------------------- 4. priority implied by a goal
@pytest.mark.parametrize("text, prio", [
    ("一張 3090 跑 Qwen2.5 7B，我們錢很少，能省則省。", "cost"),
    ("Keeping the monthly bill down is the only thing that matters; we run Llama 3 8B on an L4.", "cost"),
    ("做客服機器人，第一個 token 要在 300ms 內出來，兩張 L40S 夠嗎？", "latency"),
    ("Time to first token has to stay below 400 ms for our voice agent on an H100.", "latency"),
    ("不需要即時回覆，晚上批次跑完就好，預算也有限，四張 3090 跑 Qwen2.5 72B。", "throughput"),
])
def test_a_goal_implies_the_priority(text, prio):
    assert read(text).values.get("priority") == prio


@pytest.mark.parametrize("text", [
    "On two A100s the throughput stays low, around 300 tok/s.",
    "910B 上 Qwen2.5 72B 的吞吐只有 200 tokens/s。",
])
def test_a_measured_figure_is_no_priority(text):
    assert read(text).values.get("priority") is None


# ---------------------------------------------------------------- 5. topics
@pytest.mark.parametrize("text", [
    "兩台 8 卡 A800 想做多機推理跑 DeepSeek V3，要怎麼設定？",
    "單機一張卡放不下 72B，要怎麼多機多卡一起載入同一個模型？",
    "用 vLLM 雙卡跑 Qwen2 7B 反而比單卡慢，是正常的嗎？",
    "Qwen2.5 32B 放在兩張 3090 上，第二張卡完全沒吃到顯存。",
])
def test_multi_card_or_multi_machine_is_parallelism(text):
    assert "parallelism" in read(text).topics


@pytest.mark.parametrize("text", [
    "昇騰 910B 上可以跑 Qwen2.5 72B 嗎？",
    "請問 910B4 能不能部署 qwen3-32b？",
    "有支援 Atlas 300I Duo 嗎？",
    "Does Ollama support the Jetson AGX Orin GPU?",
    "Can I run Qwen3 8B on an Atlas 300I Duo card?",
])
def test_a_support_question_about_a_named_platform(text):
    assert "platform-support" in read(text).topics


# ---------------------------------------------------------------- 6. LoRA counts
@pytest.mark.parametrize("text, n", [
    ("Serving Llama 3 8B with adapters sql-lora and chat-lora and summary-lora at the same time.", 3),
    ("We loaded 300 copies of one rank-16 adapter to test vLLM multi-LoRA.", 300),
])
def test_lora_counts(text, n):
    assert read(text).values.get("lora_adapters") == n


# ---------------------------------------------------------------- 7. nodes of a named system
@pytest.mark.parametrize("text", ["DGX H100 x2 for DeepSeek V3 in FP8.", "兩台 DGX H100 跑 DeepSeek V3。"])
def test_systems_times_n_are_nodes(text):
    v = read(text).values
    assert (v.get("nodes"), v.get("count")) == (2, 8)


# ---------------------------------------------------------------- 8. one-to-a-machine chips and board variants
@pytest.mark.parametrize("text", [
    "Radeon 8060S iGPU with 96GB given to the GPU, running Qwen3 30B in LM Studio.",
    "Meteor Lake Core Ultra 7 155H, Arc iGPU, OpenVINO gives 8 tok/s on Llama 3 8B.",
    "我的筆電是 Ryzen AI Max+ 395，128G 統一記憶體。",
])
def test_an_integrated_chip_is_one_device(text):
    assert read(text).values.get("count") == 1


@pytest.mark.parametrize("text, hw", [
    ("兩張 H100 80GB（PCIe 版）跑 Llama 3 70B。", "h100_pcie"),
    ("Eight A100 40GB (PCIe) cards in one server.", "a100_40g_pcie"),
])
def test_a_bracketed_board_form_is_the_variant(text, hw):
    v = read(text).values
    assert v.get("hardware") == hw and v.get("interconnect") is None


# ---------------------------------------------------------------- 9. a format asked about, rated or summed is not the setup
@pytest.mark.parametrize("text", [
    "Llama 3 70B on two L40S runs out of memory; would INT8 quantization make it fit?",
    "My Orin Nano runs llama3.2 3b at 20 tok/s. Is it running in FP16 by default?",
    "T4 上的 INT8 有 130 TOPS，Qwen2.5 7B 改成 int8 會不會比較快？",
    "四張 L20 跑 Qwen2.5 72B，BF16 光權重就要 145GB，放得下嗎？",
])
def test_a_format_asked_about_is_not_the_setup(text):
    assert read(text).values.get("quantization") is None


@pytest.mark.parametrize("text", [
    "是自己買兩張 4090 比較省，還是租雲端 A100 比較省？",
    "Which is cheaper over two years, buying a 4090 or renting an A100? We want the cheapest option.",
])
def test_which_is_cheaper_is_cost(text):
    assert read(text).values.get("priority") == "cost"


# ---------------------------------------------------------------- 10. sizes glued to names, instructions followed, things counted
@pytest.mark.parametrize("text, size", [
    ("internlm20b 要幾張卡才跑得動？", 20),
    ("Can a single T4 hold baichuan13b in fp16?", 13),
])
def test_a_size_glued_to_its_family_name(text, size):
    from rules import catalog
    v = read(text).values
    assert v.get("params_b") == size or (v.get("model") and catalog.model(v["model"]).params_b == pytest.approx(size, rel=0.1))


def test_instructions_followed_on_the_users_cards():
    v = read("按照官方文件在 8 張 A800 上用 vLLM 部署 Qwen2.5 72B，吞吐很低。").values
    assert (v.get("hardware"), v.get("count")) == ("a800_80g_sxm", 8)


@pytest.mark.parametrize("text", ["我們要上線 5 個客服模型，每個都是 7B。", "打算部署 3 套問答系統給不同部門。"])
def test_a_number_of_models_or_systems_is_not_people(text):
    assert read(text).values.get("users") is None


@pytest.mark.parametrize("text, n", [
    ("Three notebooks calling the same vLLM server at the same time all stall.", 3),
    ("同時開四個終端跑推理腳本，Ollama 就只回一個。", 4),
])
def test_programs_sending_at_once_are_concurrency(text, n):
    assert read(text).values.get("concurrency") == n


def test_tasks_running_at_once_stay_the_concurrency():
    assert read("同時跑 5-8 個推理任務時，4090 就開始排隊。").values.get("concurrency") == 8


# ---------------------------------------------------------------- 11. hosts and yardsticks
@pytest.mark.parametrize("text, hw", [
    ("An Arc A770 in a dual EPYC 7742 server runs Llama 3 8B slowly under IPEX-LLM.", "arc_a770_16g"),
    ("雙路 Xeon 主機插了一張 RTX 4090，跑 Qwen2.5 14B。", "rtx4090"),
])
def test_counted_sockets_host_the_accelerator(text, hw):
    assert read(text).values.get("hardware") == hw


@pytest.mark.parametrize("text", [
    "我們用兩張 L20 跑 Qwen2.5 32B，跟一台 H100 伺服器比起來慢很多。",
    "兩張 910B 跑 Qwen2 7B，跟 A100 比差了三倍，正常嗎？",
])
def test_a_device_compared_against_is_not_the_users(text):
    assert read(text).values.get("hardware") in ("l20", "ascend_910b")


# ---------------------------------------------------------------- 12. the window changed to; Macs counted before their chip
@pytest.mark.parametrize("text, n", [
    ("vLLM 預設 32768 長度會 OOM，調成 16384 長度就能跑了，卡是 A10。", 16384),
    ("At 128K context it OOMs on the L40S, so I dropped it to 32K context and it works.", 32000),
])
def test_the_window_changed_to_is_the_one_in_use(text, n):
    assert read(text).values.get("context_length") == n


def test_macs_counted_before_their_chip_beat_a_priced_alternative():
    v = read("打算買兩台 Mac Studio（M3 Ultra 256GB），另一個方案是兩張 A100 的伺服器，哪個好？").values
    assert (v.get("hardware"), v.get("nodes"), v.get("count")) == ("m3_ultra", 2, 1)


# ---------------------------------------------------------------- 13. platform support asked of the whole plan, or an idle accelerator
@pytest.mark.parametrize("text", [
    "想在昇騰 910B 上跑 Qwen2.5 72B 給內部用，資料不能出去，這樣可行嗎？",
    "Any news on Ollama using the Intel Arc iGPU on Meteor Lake laptops?",
    "LM Studio on my Radeon 780M laptop never uses the GPU, everything runs on the CPU.",
])
def test_platform_support_of_the_plan_or_an_idle_accelerator(text):
    assert "platform-support" in read(text).topics


@pytest.mark.parametrize("text", [
    "Windows 上的 Ollama 沒有用到 GPU，全部在 CPU 上跑，4090 閒著。",
    "兩張 4090 跑 Qwen2.5 72B AWQ 可行嗎？",
])
def test_no_platform_no_platform_support(text):
    assert "platform-support" not in read(text).topics


# ---------------------------------------------------------------- 14. "多 LoRA" set apart from a number is multi-LoRA
@pytest.mark.parametrize("text", ["預算 16 萬 多 LoRA 服務要怎麼規劃？", "兩張 L40S 共 96G 多 LoRA 同時掛載"])
def test_multi_lora_after_a_number_is_not_a_count(text):
    ex = read(text)
    assert ex.values.get("lora_adapters") is None and "multi-lora" in ex.topics


@pytest.mark.parametrize("text, n", [("客戶有 20多 LoRA 要掛", 20), ("大概 30 多個 LoRA", 30)])
def test_more_than_n_loras_is_still_a_count(text, n):
    assert read(text).values.get("lora_adapters") == n


def test_a_rate_with_more_than_is_not_a_concurrency_level():
    assert read("壓測 8 併發只有 300 多 tokens/s，卡是兩張 L40S。").values.get("concurrency") == 8


def test_a_family_the_catalog_lacks_is_not_its_neighbour():
    assert read("Devstral on a 4090 for a few colleagues").values.get("model") != "codestral-22b"


def test_a_mixed_pair_with_a_brand_word_counts_both():
    assert read("One box with an RTX 4090 and an AMD Radeon RX 7900 XTX in it.").values.get("count") == 2


def test_me_and_colleagues_is_a_team_of_three_not_personal_use():
    v = read("Only me and two colleagues will use it, on one H100.").values
    assert (v.get("users"), v.get("serving_mode")) == (3, "team")


def test_businesses_owning_what_is_served_are_not_users():
    assert read("We host the support bots of 12 customers' websites on two L40S.").values.get("users") is None


def test_a_count_after_a_bracketed_board_form():
    v = read("H200 (SXM) x8 running DeepSeek V3 in FP8.").values
    assert (v.get("hardware"), v.get("count")) == ("h200_sxm", 8)
