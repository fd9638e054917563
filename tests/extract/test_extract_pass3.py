"""Issue 14, third pass: classes found with hand-written probes and the dev split (never the held-out
generated split), in English and Traditional Chinese. Phrasings are written for these tests."""
from __future__ import annotations

import pytest

from agent.extract import extract


def check(text: str, expected: dict, absent: tuple = ()) -> dict:
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    for field, value in expected.items():
        assert ex.values.get(field) == value, (text, field, ex.values)
    for field in absent:
        assert field not in ex.values, (text, field, ex.values)
    return ex.values


# --- quantization: a format asked about, put off, compared against or dated is not the one served ----

@pytest.mark.parametrize("text", [
    "Qwen3 32B on 2x H100. Is FP8 worth it?", "Qwen3 32B on 2x H100, would AWQ help?",
    "Qwen3 32B on 2x H100; is INT4 accurate enough?", "Qwen3 32B on 2x H100. What about 4-bit?",
    "Qwen3 32B 跑在兩張 H100。FP8 值得嗎？", "Qwen3 32B 跑在兩張 H100，INT4 準確度夠嗎？", "兩張 H100 跑 Qwen3 32B。4-bit 可以嗎？",
    "Qwen3 32B on 2x H100. Does vLLM support GGUF Q4_K_M?", "Qwen3 32B on 2x H100, can SGLang load AWQ checkpoints?",
    "Qwen3 32B on 2x H100, we'd like to compare FP8 and INT8", "Qwen3 32B on 2x H100. How does AWQ compare with GPTQ?",
    "兩張 H100 跑 Qwen3 32B，AWQ 好還是 FP8 好？",
    "Qwen3 32B on 2x H100, we could try AWQ later", "兩張 H100 跑 Qwen3 32B，之後可能改 FP8",
    "Qwen3 32B on 2x H100; the FP8 kernels in vLLM are new to us",
    "Does an FP8 KV cache keep accuracy better than int8?",
    "Qwen3 32B on 2x H100, our Q4 budget is tight", "Qwen3 32B on 2x H100, the Q4 rollout", "兩張 H100 跑 Qwen3 32B，預計 Q4 上線",
])
def test_a_format_that_is_only_discussed_is_not_the_weights(text):
    check(text, {}, absent=("quantization",))


@pytest.mark.parametrize("text, quant", [
    ("Will Llama 3.3 70B fit on two RTX 3090s at 4-bit?", "int4"),     # a condition of the question stays
    ("Can we run DeepSeek R1 on 8x H200 with FP8?", "fp8"),
    ("Llama 3.1 70B in FP8 rather than BF16", "fp8"), ("Llama 3.1 70B 用 FP8 而不是 BF16", "fp8"),
    ("Llama 3.1 70B, not quantized, 8 H100", "bf16"), ("we don't want to quantize Llama 3.1 8B", "bf16"),
    ("Llama 3.1 8B 不要量化", "bf16"), ("Llama 3.1 70B FP16 全精度", "f16"),
    ("Llama 3.1 70B exl2 at 4.5 bpw", "exl2-4.5"), ("Llama 3.1 70B 用 exl2（6.0 bpw）", "exl2-6.0"),
    ("Qwen3 32B in Q4 on 2 x 3090, we launch in Q4", "q4_k_m"),
])
def test_a_format_chosen_or_set_as_a_condition_is_read(text, quant):
    check(text, {"quantization": quant})


@pytest.mark.parametrize("text", ["Llama 3.1 70B - FP8 - 8x H100", "Llama 3.1 70B — FP8 — 8x H100"])
def test_a_dash_between_clauses_is_no_minus_sign(text):
    check(text, {"count": 8, "hardware": "h100_sxm", "quantization": "fp8"})


def test_a_glued_minus_is_still_an_impossible_count():
    from rules.errors import ProfileError
    with pytest.raises(ProfileError):
        extract("Llama 70B on -8 H100")


@pytest.mark.parametrize("text, expected", [
    ("We're on 3 boxes of 4x H100 NVL 94GB", {"hardware": "h100_nvl", "count": 4, "nodes": 3}),
    ("H100 NVL 96GB*4，要上 Qwen3 32B", {"hardware": "h100_nvl", "count": 4}),
])
def test_memory_after_an_nvl_part_is_no_rack_size(text, expected):
    check(text, expected)


# --- concurrency said in other words -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Qwen3 32B on 4x H100, 64 requests in flight.", "64 in-flight requests on 2 L40S with Llama 3.1 8B",
    "We need 64-way concurrency; Llama 3.1 70B, 8x H100", "Llama 3.1 8B, 64 live sessions, 1x L4",
    "64 open sessions at once on 2 L40S", "Llama 3.1 70B on 4 H100 with 64 active users at any moment",
    "4 張 H100 跑 Qwen3 32B，同一時間 64 個使用者。", "一次 64 個請求，兩張 L40S 跑 Llama 3.1 8B", "Llama 3.1 70B；並行 64 個請求；8 張 H100",
    "4 張 H100 跑 Qwen3 32B，64 條並發。", "64 人同時使用，4 張 H100",
    "64 users at the same time on 4x H100", "64 users simultaneously on 2x L40S",
])
def test_concurrency_said_as_in_flight_live_or_at_one_time(text):
    check(text, {"concurrency": 64}, absent=("users",))


@pytest.mark.parametrize("text, expected, absent", [
    ("64 users on 4x H100", {"users": 64}, ("concurrency",)),
    ("8-way tensor parallel on 8x H100", {"count": 8}, ("concurrency",)),
    ("we have 64 open tickets and 2 L40S", {"count": 2}, ("concurrency",)),
    ("全公司 300 人，同時大概 30 人在用", {"users": 300, "concurrency": 30}, ()),
])
def test_people_and_other_numbers_stay_out_of_concurrency(text, expected, absent):
    check(text, expected, absent)


# --- quantization: the weights as released, switches and spellings -------------------------------

@pytest.mark.parametrize("text, quant", [
    ("gpt-oss-120b at native precision", "mxfp4"), ("DeepSeek V3 原生精度，8 張 H200", "fp8"),
    ("Llama 3.1 70B, original weights", "bf16"), ("Qwen3 32B 原始權重", "bf16"), ("Llama 3.1 70B, no quant", "bf16"),
    ("Llama 3.1 70B in 16-bit precision", "bf16"), ("Llama 2 70B 16 bit", "f16"), ("Llama 3.1 70B 16 位元", "bf16"),
    ("Llama 3.1 70B in FP8 (BF16 originally)", "fp8"),   # an explicit format beats the words for the release
])
def test_weights_as_released_take_the_catalog_format(text, quant):
    check(text, {"quantization": quant})


@pytest.mark.parametrize("text, quant", [
    ("Qwen3 32B, we skip FP8 and use INT8", "int8"), ("Qwen3 32B, switching from FP8 to BF16", "bf16"),
    ("Qwen3 32B, avoiding 8-bit, in 4-bit", "int4"), ("Qwen3 32B, FP8; INT8 is not an option", "fp8"),
    ("Qwen3 32B 從 FP8 換成 INT8", "int8"), ("Qwen3 32B 以 BF16 取代 FP8", "bf16"), ("Qwen3 32B 捨棄 8-bit 改 4-bit", "int4"),
    ("Qwen3 32B FP8 not BF16", "fp8"), ("Qwen3 32B 用 AWQ，GPTQ 不考慮", "awq"),
])
def test_a_format_switched_away_from_or_ruled_out_loses(text, quant):
    check(text, {"quantization": quant})


@pytest.mark.parametrize("text, quant", [
    ("Qwen3 32B FP8_DYNAMIC", "fp8"), ("Qwen3 32B, MX-FP4", "mxfp4"), ("Qwen3 32B NV-FP4 on a B200", "nvfp4"),
    ("Llama 3.1 70B, ExLlamaV2 4.0bpw", "exl2-4.0"), ("Llama 3.1 70B exl2 quant at 4.0 bpw", "exl2-4.0"),
    ("Llama 3.1 70B 量化成 4.0bpw 的 EXL2", "exl2-4.0"), ("ＬＬＡＭＡ　３．１　７０Ｂ　ＥＸＬ２　４．０ＢＰＷ", "exl2-4.0"),
])
def test_format_spellings(text, quant):
    check(text, {"quantization": quant})


# --- blind review: totals over nodes, a known family named by size ----------------------------------

@pytest.mark.parametrize("text, count, nodes", [
    ("16x H100 (2 nodes), Llama 3.1 405B", 8, 2), ("16 張 H100（2 台機器），Llama 3.1 405B", 8, 2),
    ("16 H100s in total on 2 servers", 8, 2), ("16x H100 in 2 nodes", 8, 2), ("16 張 H100，分在兩台機器", 8, 2),
    ("2 nodes of 8x H100", 8, 2), ("two 8x H100 nodes", 8, 2), ("8x H100 (2 nodes of 8)", 8, 2),
    ("兩台 8 卡 H100", 8, 2),
])
def test_a_total_given_with_its_nodes_is_split_per_node(text, count, nodes):
    check(text, {"count": count, "nodes": nodes})


@pytest.mark.parametrize("text", ["Qwen 32B on 2x 4090", "Qwen 32B 跑在兩張 4090 上"])
def test_a_known_family_named_by_size_is_no_unrecognised_model(text):
    ex = extract(text)
    assert ex.values.get("params_b") == 32.0 and not [u for u in ex.not_understood if u.kind == "model"], ex


def test_an_unknown_family_is_still_quoted_back():
    ex = extract("GLM-5.1 on 8x H100")
    assert [u.text for u in ex.not_understood if u.kind == "model"] == ["GLM-5.1"]


# --- blind review: hardware options compared, replicas ---------------------------------------------

@pytest.mark.parametrize("text, own, compared", [
    ("1x H100 vs 2x H200 for Llama 3.1 70B?", ("h100_sxm", 1), [{"hardware": "h200_sxm", "count": 2}]),
    ("一張 H100 還是兩張 H200 跑 Llama 3.1 70B？", ("h100_sxm", 1), [{"hardware": "h200_sxm", "count": 2}]),
    ("Is 8x H100 cheaper than 4x H200 for Llama 3.1 405B?", ("h100_sxm", 8), [{"hardware": "h200_sxm", "count": 4}]),
    ("8 張 H100 對比 4 張 H200，哪個跑 Llama 3.1 405B 比較划算？", ("h100_sxm", 8), [{"hardware": "h200_sxm", "count": 4}]),
    ("two 3090s with NVLink or one 5090?", ("rtx3090", 2), [{"hardware": "rtx5090", "count": 1}]),
    ("Gaudi 3 or H100 for Mistral 7B?", ("gaudi3", None), [{"hardware": "h100_sxm", "count": None}]),
])
def test_a_comparison_of_hardware_keeps_every_option(text, own, compared):
    ex = extract(text)
    assert (ex.values.get("hardware"), ex.values.get("count")) == own, ex.values
    assert ex.values["compared_hardware"] == compared and ex.evidence["compared_hardware"] in text
    assert not [u for u in ex.not_understood if u.kind == "number"], ex.not_understood   # "2x"/"兩張" are used


@pytest.mark.parametrize("text", ["we run 2x 4090 and 1x 3090 together", "moving from a 4090 to 2x H100", "我們有 2 張 4090 和 1 張 3090"])
def test_parts_of_one_setup_or_a_setup_left_behind_are_no_comparison(text):
    check(text, {}, absent=("compared_hardware",))


def test_compared_options_reach_the_profile():
    from agent.understand import apply
    from rules.profile import build_profile
    ex = extract("1x H100 vs 2x H200 for Llama 3.1 70B?")
    profile, notes = apply(build_profile({}), ex.values, ex.evidence)
    assert not notes and profile.compared_hardware[0].hardware == "h200_sxm" and profile.compared_hardware[0].count == 2
    assert profile.provenance["compared_hardware"].evidence == "2x H200"


@pytest.mark.parametrize("text, count", [
    ("2 x 2 replicas of Llama 3.1 70B on H100", 4), ("2 replicas of 4x H100 for Llama 3.1 70B", 8),
    ("2 replicas with TP=4 on H100", 8), ("3 個副本，每個 2 張 H100", 6), ("兩個副本各 4 張 H100", 8),
])
def test_replicas_count_the_devices_of_all_of_them(text, count):
    check(text, {"hardware": "h100_sxm", "count": count})


# --- forum classes: counts of unknown product codes, the device switched to, a count said again ------

@pytest.mark.parametrize("text, count", [("Dual R9700 as my local coding assistant", 2), ("twin MI50s for Qwen3 32B", 2),
                                         ("兩張 R9700 跑 Qwen3 32B", 2)])
def test_dual_and_twin_count_devices_known_or_not(text, count):
    check(text, {"count": count})


def test_an_unknown_product_code_with_letters_and_four_digits_is_quoted_back():
    # (the R9700 of the first version is a catalog device now; R9900 is no product)
    assert [u.text for u in extract("Dual R9900 for coding").not_understood] == ["R9900"]
    assert extract("Dual R9700 for coding").values["hardware"] == "r9700"
    assert not extract("DeepSeek R1 on 8x H100").not_understood   # "R1" is a model, not a device


@pytest.mark.parametrize("text, hardware, count", [
    ("先用 A800 80G × 2 部署 qwen-72b，之後改用 A100 40G × 4，每張卡都快滿了", "a100_40g_sxm", 4),
    ("We ran 2x 4090 at first, then we switched to 4x L40S", "l40s", 4),
    ("我用 4 張 4090 跑 72B int4，換成 1 張 A100 反而還可以", "rtx4090", 4),   # a trial swap, not the setup
])
def test_the_device_switched_to_later_is_the_setup(text, hardware, count):
    check(text, {"hardware": hardware, "count": count})


@pytest.mark.parametrize("text, hardware, count", [
    ("spin it up on a g6.12xlarge with 4 × NVIDIA L4", "l4", 4),
    ("Has anyone used a Tesla P40 with vLLM? I just bought 10 P40s.", "p40", 10),
    ("a 4090 and 2x 3090 in two boxes", "rtx4090", 1),   # another device keeps the first one named
])
def test_the_same_device_counted_again_beats_an_article(text, hardware, count):
    check(text, {"hardware": hardware, "count": count})


@pytest.mark.parametrize("text, value", [
    ("50-user concurrency on 2x L40S", 50), ("users (concurrent): 50", 50), ("50 CCU on 4x H100", 50),
    ("並發用戶 50，4 張 H100", 50), ("在線人數 50", 50), ("高峰期 50 人", 50), ("batch size 32 on 4x H100", 32),
    ("batch of 32 requests", 32), ("32 sequences per batch", 32), ("peak load of 50 requests", 50), ("up to 50 requests at peak", 50),
])
def test_concurrency_said_as_batches_peaks_and_concurrent_users(text, value):
    check(text, {"concurrency": value})


@pytest.mark.parametrize("text, users", [("we batch documents overnight, 500 users", 500), ("the 1000 users batch job", 1000)])
def test_a_batch_job_keeps_its_users(text, users):
    check(text, {"users": users}, absent=("concurrency",))


@pytest.mark.parametrize("text, count, nodes", [
    ("I run vLLM on one 8-GPU server; if I add a second identical 8-GPU server, TP or PP across them?", 8, 2),
    ("現在一台 8 卡 H100，再加一台要用 TP 還是 PP？", 8, 2),
])
def test_a_machine_added_to_the_stated_ones_counts_as_a_node(text, count, nodes):
    check(text, {"count": count, "nodes": nodes})


@pytest.mark.parametrize("text", [
    "Qwen3 32B on 2x H100. KV cache 能用 FP8 嗎？", "Qwen3 32B on 2x H100. Which 4-bit format is best?", "兩張 H100 跑 Qwen3 32B，哪種 4-bit 格式比較好？",
    "Qwen3 32B on 2x H100. FP8 能省多少顯存？", "Qwen3 32B on 2x H100, would quantizing to 4-bit hurt?", "兩張 H100 跑 Qwen3 32B，量化到 4-bit 會不會太傷？",
    "Qwen3 32B on 2x H100. Is GPTQ still relevant?", "Qwen3 32B on 2x H100. Do we need 16-bit?", "Qwen3 32B on 2x H100. Is NVFP4 ready for production?",
    "Qwen3 32B on 2x H100. Should I keep BF16 or go FP8?", "兩張 H100 跑 Qwen3 32B，llama.cpp 能跑 AWQ 嗎？",
])
def test_a_format_asked_about_in_other_words_is_not_the_weights(text):
    check(text, {}, absent=("quantization",))


@pytest.mark.parametrize("text, price", [("$2.50 per H100-hour, 8x H100", 2.5), ("8x H100 at $2.50/GPU-hour", 2.5),
                                         ("2.5 USD per L40S hour", 2.5), ("H100 每張卡每小時 2.5 美元", 2.5), ("每 GPU 小時 2.5 美元，8 張 H100", 2.5)])
def test_a_device_hour_price_in_its_phrasings(text, price):
    check(text, {"device_hour_usd": price})


def test_the_ask_summary_shows_compared_options_only_when_there_are_some():
    from agent.result import profile_view
    from agent.understand import apply
    from rules.profile import build_profile
    ex = extract("1x H100 vs 2x H200 for Llama 3.1 70B")
    view = profile_view(apply(build_profile({}), ex.values, ex.evidence)[0])
    assert view.summary.compared_hardware == [{"hardware": "h200_sxm", "count": 2}]
    plain = profile_view(apply(build_profile({}), *[extract("2x H100 for Llama 3.1 70B").values,
                                                    extract("2x H100 for Llama 3.1 70B").evidence])[0])
    assert plain.summary.compared_hardware is None


@pytest.mark.parametrize("text, users, concurrency", [
    ("200 users, 20 of them at once", 200, 20), ("200 users (20 concurrent)", 200, 20), ("200 users / 20 concurrent", 200, 20),
    ("200 users and up to 20 simultaneous requests", 200, 20), ("two hundred users, twenty at once", 200, 20),
    ("200 users, peak 20", 200, 20), ("200 users but only 20 at peak", 200, 20), ("200 人，併發 20", 200, 20),
    ("兩千人，同時兩百人", 2000, 200),
])
def test_users_and_the_share_at_once_stay_apart(text, users, concurrency):
    check(text, {"users": users, "concurrency": concurrency})


@pytest.mark.parametrize("text, n", [("30 students, all at the same time", 30), ("team of 20, all at once", 20),
                                     ("100 人，全部同時上線", 100), ("並發約兩百個請求", 200), ("12 people at once", 12)])
def test_people_said_to_be_there_all_at_once_are_the_concurrency(text, n):
    check(text, {"concurrency": n}, absent=("users",))


@pytest.mark.parametrize("text, users, concurrency", [
    ("200 users with 10% concurrency", 200, 20), ("500 users, 10% of them at once", 500, 50), ("全公司 500 人，同時在線約 10%", 500, 50),
])
def test_a_share_of_the_users_at_once_is_the_concurrency(text, users, concurrency):
    check(text, {"users": users, "concurrency": concurrency})


@pytest.mark.parametrize("text", ["200 users, GPU at 50% utilization", "200 users; 30% cheaper than H100"])
def test_other_percentages_are_no_share_at_once(text):
    check(text, {"users": 200}, absent=("concurrency",))


@pytest.mark.parametrize("text, n", [("concurrency between 20 and 30", 30), ("between 20 and 30 concurrent requests", 30),
                                     ("128 max concurrency on 4x H100", 128), ("並發 20 到 30", 30)])
def test_concurrency_ranges_and_max_take_the_upper_end(text, n):
    check(text, {"concurrency": n})


@pytest.mark.parametrize("text", ["手上有Intel server 雙CPU，打算部署 GLM-4.7-Flash", "Intel server 雙 CPU", "Xeon server 雙CPU"])
def test_sockets_inside_a_cpu_name_count(text):
    check(text, {"hardware": "cpu_server_intel", "count": 2})


def test_replicas_that_agree_with_the_count_are_not_quoted_back():
    ex = check("Qwen3 32B on 4x H100, 2 x 2 replicas", {"count": 4}) and extract("Qwen3 32B on 4x H100, 2 x 2 replicas")
    assert not ex.not_understood


# The forum4/forum5 conventions (settled for issue 14): a tp/pp size above 1 that is part of the stated setup is the
# parallelism topic; a size of 1 splits nothing and raises it only when asked about.
@pytest.mark.parametrize("text, raised", [
    ("Dual R9700, Qwen3.6-27B FP8 with TP 2 and max-model-len 131072.", True),
    ("DeepSeek-V3.2 on 8xH20 with tensor-parallel-size 8 gives only 30 tokens/s. Is something wrong?", True),
    ("兩張 4090，用 tp=2 跑 Llama 3 8B。", True),
    ("gpt-oss-20b on one H100 with TP=1 at concurrency 4.", False), ("單卡 tp 1 跑 Qwen3 8B。", False),
    ("Is TP=8 a bad idea without NVLink?", True), ("TP 4 or PP 4 for 70B?", True), ("要用 TP 還是 PP？", True),
])
def test_a_parallel_size_above_one_in_the_setup_is_the_parallelism_topic(text, raised):
    assert ("parallelism" in extract(text).topics) is raised


import pytest as _pytest


@_pytest.mark.parametrize("text, count", [("two used RTX 3090s", 2), ("4 second-hand 3090s", 4), ("兩張二手 3090", 2),
                                          ("3 brand-new RTX 5090 cards", 3)])
def test_the_cards_state_between_count_and_name_keeps_the_count(text, count):
    from agent.extract import extract
    assert extract(text).values["count"] == count
