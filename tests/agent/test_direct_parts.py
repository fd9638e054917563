"""Every part of the question gets its own direct answer, before the recommendation (agent.direct): a format on
a device, each device the message names, "is one enough?", a batch job's duration, "is my setup wrong?", an
engine on an OS, Vulkan or ROCm. End to end (real extractor, rules, roofline, catalogs); en and zh-Hant."""
from __future__ import annotations

import re

import pytest

from agent import direct
from agent.api import advise
from evals.langcheck import english_runs
from ui.present import markdown


def _answer(text: str) -> str:
    return markdown.answer(advise(text, knowledge=False))


def _before_summary(answer: str) -> str:
    """What the user reads before the recommendation line (or the sizing table)."""
    cut = [m.start() for m in re.finditer(r"\*\*Recommendation|\*\*建議|\*\*Hardware for|\*\*Estimate|\*\*估算", answer)]
    return answer[:min(cut)] if cut else answer


# --- detectors (pure) -----------------------------------------------------------------------------------

def test_devices_keep_each_named_device_with_its_count():
    assert direct.devices("two used RTX 3090s (NVLink bridge) and one new RTX 5090") == [("rtx3090", 2), ("rtx5090", 1)]
    assert [h for h, _ in direct.devices("a MacBook Pro M1 Pro 16GB and a Mac Studio M4 Max 64GB")] == ["m1_pro", "m4_max_40c"]


def test_memory_written_after_a_device_and_a_cpu_servers_ram():
    assert direct.device_memory("a MacBook Pro M1 Pro 16GB and a Mac Studio M4 Max 64GB") == {"m1_pro": 16.0, "m4_max_40c": 64.0}
    assert direct.device_memory("a dual-socket EPYC 9334 box with 384GB DDR5") == {"epyc_genoa": 192.0}


@pytest.mark.parametrize("text, job", [
    ("classify 20M product descriptions (~300 tokens each, answer is one of 40 labels). How long will it take?",
     (20e6, 300, direct.LABEL_TOKENS, True)),
    ("Summarize 5 million support tickets (~800 tokens each, ~100 token summaries): how long will the batch take?",
     (5e6, 800, 100, False)),
    ("要把 300萬 筆評論做分類，每筆約 200 tokens，大概要多久跑完？", (3e6, 200, direct.LABEL_TOKENS, True)),
])
def test_batch_job_reads_items_tokens_and_output(text, job):
    assert direct.batch_job(text) == job


def test_no_batch_job_without_a_duration_question_or_a_count():
    assert direct.batch_job("classify 20M product descriptions with Qwen3-8B on 4x A100") is None
    assert direct.batch_job("how long will it take to load Llama 70B?") is None


@pytest.mark.parametrize("text, asked", [
    ("Can we serve DeepSeek-R1 in FP8, or is one node of 8 enough?", True),
    ("另外 gpt-oss-120b 需要兩台嗎？", True),
    ("Is one H100 80GB enough for Llama 3.3 70B in FP8, or do we need two?", True),
    ("We have two nodes of 8x H100 for DeepSeek-R1.", False),
])
def test_need_count_question(text, asked):
    assert bool(direct.need_asked(text)) is asked


# --- end to end: the direct answer comes first ------------------------------------------------------------

def test_fp8_on_ampere_is_weight_only_and_names_the_native_option():
    lead = _before_summary(_answer("Renting GPUs for Llama 3.1 70B in FP8: is 2x L40S or 1-2x A100 80GB the smarter buy? "
                                   "Does the A100 even run FP8?"))
    assert lead.startswith("**FP8 on NVIDIA A100")
    assert "not natively" in lead and "weight-only" in lead and "8.9" in lead
    assert "L40S runs FP8 natively" in lead and "(Sources:" in lead
    assert "2× NVIDIA L40S:" in lead and "2× NVIDIA A100 80GB SXM4:" in lead   # each option on its own line


def test_fp8_on_ada_is_native_and_a_stated_format_alone_raises_nothing():
    lead = _before_summary(_answer("Our cloud only offers L4 GPUs. Llama 3.1 8B for 30 simultaneous users: "
                                   "is FP8 an option on L4?"))
    assert "**FP8 on NVIDIA L4: yes, natively**" in lead and "--kv-cache-dtype fp8" in lead
    assert "FP8 on" not in _before_summary(_answer("Llama 3.1 70B in FP8 on 2x H100 for 50 users, which engine?"))


def test_mxfp4_floor_the_user_read_is_checked_against_each_engine():
    lead = _before_summary(_answer("Can gpt-oss-120b run on a single H100 80GB with vLLM? What about a single A100 80GB "
                                   "— I read MXFP4 needs compute capability 9.0+."))
    assert "**MXFP4 on NVIDIA A100 80GB SXM4: not natively, but it runs**" in lead
    assert "8.0" in lead and "TensorRT-LLM" in lead   # the 9.0 floor is TensorRT-LLM's, vLLM's is 8.0


def test_zh_nvfp4_on_hopper_is_a_no_in_zh_hant():
    lead = _before_summary(_answer("我們要用 TensorRT-LLM 在 H100 上跑 NVFP4 版本，H100 支援 NVFP4 嗎？"))
    assert "跑 NVFP4：不行" in lead and "Blackwell" in lead
    assert english_runs(lead) == []


def test_a_device_against_a_buy_each_gets_a_fit_verdict():
    lead = _before_summary(_answer("I'm choosing between two used RTX 3090s and one new RTX 5090 for a local coding "
                                   "assistant. I want Llama 3.3 70B if possible. Which box, which engine, how many tok/s?"))
    five = next(line for line in lead.splitlines() if "RTX 5090:" in line)
    assert "does not fit" in five and "instead:" in five and "tok/s" in five   # and what does fit it
    assert re.search(r"RTX 3090: .*tok/s", lead)


def test_two_macs_without_a_model_each_get_a_model_an_engine_and_a_speed():
    lead = _before_summary(_answer("Two Macs on my desk: a MacBook Pro M1 Pro 16GB and a Mac Studio M4 Max 64GB. For a "
                                   "local coding assistant, what's the best model and runtime on each, and how fast?"))
    for mac in ("M1 Pro", "M4 Max"):
        line = next(x for x in lead.splitlines() if mac in x and "tok/s" in x)
        assert re.search(r"\d+(?:\.\d+)? GB", line)
        weights = float(re.search(r"\((\d+(?:\.\d+)?) GB\)", line).group(1))
        assert weights < (16 if mac == "M1 Pro" else 64) * 0.75   # fits the memory the user stated, with room


def test_zh_two_boxes_compared_each_get_engine_and_speed_in_zh_hant():
    lead = _before_summary(_answer("想買桌上型小主機跑 gpt-oss-120b：AMD Strix Halo（Ryzen AI Max+ 395，128GB）跟 NVIDIA DGX "
                                   "Spark（128GB）差在哪？各用什麼引擎？"))
    assert "Ryzen AI Max+ 395：" in lead and "DGX Spark：" in lead and lead.count("tok/s") >= 2
    assert "也可用 vLLM" in lead   # the CUDA box runs the serving engines too
    assert english_runs(lead) == []


def test_one_node_is_not_enough_and_a_second_model_needs_only_one_box():
    lead = _before_summary(_answer("We have 16x H100 (2 nodes, 8 each, InfiniBand between them). Can we serve "
                                   "DeepSeek-R1 in FP8, or is one node of 8 enough?"))
    assert "**Is one node of 8× NVIDIA H100 SXM5 80GB enough for DeepSeek-R1? No**" in lead
    zh = _before_summary(_answer("我們有兩台 DGX Spark，用 200GbE 線直接串起來。想跑 Qwen3-235B-A22B，可行嗎？另外 gpt-oss-120b 需要兩台嗎？"))
    assert "gpt-oss-120b 需要超過1 台 NVIDIA DGX Spark嗎？不需要" in zh
    assert english_runs(zh) == []


def test_batch_duration_is_a_number_with_its_assumptions():
    lead = _before_summary(_answer("Offline job: classify 20M product descriptions (~300 tokens each, answer is one of "
                                   "40 labels) with Qwen3-8B on 4x A100 80GB. How should I run it and roughly how long "
                                   "will it take?"))
    m = re.search(r"\*\*How long: about ([\d.,]+) (hours|days)\*\*", lead)
    assert m, lead[:400]
    hours = float(m.group(1).replace(",", "")) * (24 if m.group(2) == "days" else 1)
    assert 6 <= hours <= 96   # experts: about half a day to a day and a half on four A100s
    assert "(assumed)" in lead and "prefix caching" in lead


def test_reported_speed_is_set_beside_the_estimate_with_the_causes_zh():
    lead = _before_summary(_answer("Jetson AGX Orin 64GB 上用 llama.cpp 跑 8B Q4_K_M 只有 25 tok/s，官方說可以 50 以上。"
                                   "是我設定錯了嗎？有沒有更快的引擎？"))
    assert "是設定錯了嗎？" in lead and "25 tok/s" in lead and "nvpmodel" in lead and "推測解碼" in lead
    assert english_runs(lead) == []


def test_two_engines_on_one_box_misconfigured_question():
    lead = _before_summary(_answer("On my DGX Spark, gpt-oss-120b under vLLM seems slower than llama.cpp. Is something "
                                   "misconfigured? When does vLLM make sense on this box?"))
    assert lead.startswith("**Is something misconfigured?") and "32 concurrent" in lead


def test_engine_on_windows_with_an_amd_card_and_vulkan_or_rocm_zh():
    lead = _before_summary(_answer("我用 Windows 11 加一張 RX 7900 XTX 24GB，想跑 Gemma 3 27B 當日常助手。llama.cpp（Vulkan 還是 "
                                   "ROCm）哪個好？vLLM 能在 Windows 上用這張卡嗎？"))
    assert "Vulkan 還是 ROCm" in lead and "vLLM 在 Windows 上：沒有原生支援" in lead and "在 Linux（WSL2 或 Linux 主機）上" in lead
    assert english_runs(lead) == []


def test_windows_and_a_mac_each_get_their_os_answer():
    lead = _before_summary(_answer("Does vLLM run natively on Windows with an RTX 4080, and on my M3 Max MacBook? If not, "
                                   "what should I use on each for a local OpenAI-compatible server?"))
    assert "vLLM on Windows: not natively" in lead and "vLLM on macOS: not natively" in lead and "MLX-LM" in lead


def test_settings_asked_in_a_sizing_question_get_the_launch_command():
    lead = _before_summary(_answer("Our cloud only offers L4 GPUs. For a support chatbot on Llama 3.1 8B with about 30 "
                                   "simultaneous users, how many L4s do I need and what settings?"))
    assert "**Settings for one NVIDIA L4**" in lead and "vllm serve" in lead and "--max-num-seqs" in lead


def test_enough_on_one_device_states_the_kv_room_and_a_format_in_passing_is_not_a_capability_question():
    lead = _before_summary(_answer("Is one H100 80GB enough for Llama 3.3 70B in FP8 for 20 users, or do we need two?"))
    assert lead.startswith("**Does Llama 3 / 3.1 / 3.3 70B need more than one NVIDIA H100")   # "Llama 3.3" is one name
    assert "sequences of" in lead and "FP8 on" not in lead


def test_each_named_device_keeps_its_line_after_two_other_answers():
    lead = _before_summary(_answer("Can gpt-oss-120b run on a single H100 80GB with vLLM? What about a single A100 80GB "
                                   "— I read MXFP4 needs compute capability 9.0+."))
    assert re.search(r"one NVIDIA H100 SXM5 80GB: .*tok/s", lead) and re.search(r"one NVIDIA A100 80GB SXM4: .*tok/s", lead)


@pytest.mark.parametrize("question", [
    "打算組一台 EPYC 9654 + 一張 4090 + 12 通道 DDR5-4800 共 768GB，用 llama.cpp 跑 DeepSeek-R1 Q4_K_M。大概能跑多快？",
    "I have an EPYC 9654 with one RTX 4090 and 768GB DDR5; how fast will DeepSeek-R1 Q4_K_M run with llama.cpp?",
])
def test_a_host_cpu_beside_its_gpu_is_one_machine_not_two_options(question):
    from agent.api import advise
    from agent.topic_lead import _devices
    advice = advise(question)
    assert [hw for hw, _ in _devices(advice)] == ["rtx4090"]
    assert "254 tok/s" not in advice.answer and "GLM-4.7-Flash" not in advice.answer
