"""Each part of the question gets its direct answer, and the engine asked about leads (end to end:
real extractor, rules, roofline and knowledge store)."""
from __future__ import annotations

from agent.api import ask


def _lead(result: dict) -> str:
    return result["answer"].split("### ")[0]


def test_two_models_each_get_a_fit_and_a_together_line():
    r = ask("On one H100 80GB we want to serve both Llama 3.1 8B and Qwen2.5 32B for about 10 internal users. "
            "Do both fit?")
    lead = _lead(r)
    assert "8B" in lead and "Qwen2.5" in lead and "Both at once" in lead


def test_support_question_about_a_device_named_earlier():
    r = ask("Is a used Tesla P40 24GB worth buying to run Llama 3.1 8B at home? Does vLLM support it?")
    lead = _lead(r)
    assert "6.1" in lead and "7.0" in lead and "no official build" in lead
    assert r["primary"] in ("llama.cpp", "ollama")


def test_bfloat16_complaint_on_turing_gets_fp16():
    r = ask("vLLM complains about bfloat16 on my 2x RTX 2080 Ti. I want to serve Qwen2.5 7B for 4 users.")
    assert "--dtype half" in _lead(r)
    assert "ExLlamaV3 brings" not in r["answer"]   # the stock multi-card line names an engine that needs Ampere


def test_stated_shared_prompt_opens_with_prefix_caching():
    r = ask("All requests share the same long system prompt. 2x L40S, Llama 3.1 8B, 50 concurrent users.")
    assert r["answer"].startswith("**Prefix caching**")


def test_moe_offload_question_leads_with_a_hybrid_engine():
    r = ask("RTX 4060 Ti 16GB and 64GB RAM, Qwen3-30B-A3B. Can I offload the MoE experts to the CPU? Which engine?")
    assert r["primary"] in ("llama.cpp", "ollama")


def test_avoid_list_leaves_out_engines_the_user_is_not_weighing():
    r = ask("Single RTX 4090, Qwen2.5 14B, 60 people on our team use it, 20 requests at once")
    details = r["answer"]
    assert "NVIDIA Dynamo:" not in details and "Not supported on this hardware" in details
    assert any(a["engine"] == "dynamo" for a in r["avoid"])   # the JSON contract keeps every exclusion


def test_zh_windows_question_is_answered_first():
    r = ask("vLLM 可以在 Windows 上跑嗎？我有一張 RTX 4080，想跑 Qwen2.5 7B 給自己用。")
    assert "WSL" in _lead(r)[:400]


def test_tool_calling_and_fa_flag_each_get_their_answer():
    lead = _lead(ask("llama-server with Qwen2.5 32B Q4_K_M on a 3090: how do I enable tool calling, and should I "
                     "pass the -fa flag?"))
    assert "**Tool calling**" in lead and "--jinja" in lead
    assert "**Flash attention (-fa)**" in lead and "auto" in lead


def test_jetson_power_mode_is_answered():
    lead = _lead(ask("Jetson AGX Orin 64GB running Llama 3.1 8B for a robot, one user. Which power mode should I use?"))
    assert "nvpmodel -m 0" in lead and "jetson_clocks" in lead


def test_self_host_versus_api_is_concluded():
    lead = _lead(ask("Is self-hosting Llama 3.1 70B on 2x H100 at $2.50 per GPU-hour cheaper than paying an API "
                     "for about 50 users?"))
    assert "per 1M output tokens" in lead and "self-hosting wins when the API charges more than" in lead


def test_yes_no_question_about_an_engine_gets_its_verdict_first():
    ok = ask("Small internal demo for 6 colleagues on one RTX 3090, Llama 3.1 8B. Is Ollama fine for that?")
    assert ok["answer"].startswith("**The engine you asked about**") and "Ollama: yes" in _lead(ok)
    leave = ask("We have 60 engineers on one H100 with Qwen2.5 32B and use Ollama. Should we switch?")
    assert "Switch from Ollama: yes" in _lead(leave) and leave["primary"] != "ollama"
    zh = ask("我們有 30 位工程師，機器是 2 張 L40S，模型 Qwen2.5 32B AWQ，用 Ollama 可以嗎？")
    assert "Ollama：不建議" in _lead(zh)


def test_two_named_engines_compared_with_figures_and_a_yes_or_no():
    lead = _lead(ask("Is MLX really faster than llama.cpp on my MacBook Pro M3 Max 64GB? I run Qwen2.5 32B at 4-bit."))
    assert lead.startswith("**The two engines you compared**") and "tok/s" in lead
    assert "Yes" in lead or "No" in lead


def test_engine_not_native_on_the_os_gets_no_contradicting_device_yes():
    lead = _lead(ask("Can vLLM run on Windows 11? I have one RTX 4090 and want to run Qwen2.5 14B just for myself."))
    assert "not natively" in lead and "RTX 4090: yes" not in lead and "Natively on Windows" in lead


def test_fp8_on_ampere_with_the_engine_asked_about():
    lead = _lead(ask("Can I use TensorRT-LLM with FP8 on my RTX 3060 12GB to speed up Llama 3.1 8B?"))
    assert "yes, but not in FP8" in lead and "8.9" in lead and "no FP8 tensor cores" in lead


def test_speculative_decoding_names_a_draft_with_the_same_tokenizer():
    lead = _lead(ask("Is speculative decoding worth it for single-user latency? One H100 80GB running Llama 3.1 70B "
                     "FP8 for a coding assistant."))
    assert "Llama 3.2 1B" in lead and "tokenizer" in lead and "--speculative-config" in lead


def test_worth_buying_gets_a_verdict_and_which_engines_it_rules_out():
    lead = _lead(ask("Is a used Tesla P40 24GB worth buying to run Llama 3.1 8B at home? Does vLLM support it?"))
    assert lead.startswith("**Is it worth it**") and "worth it as a card for llama.cpp" in lead and "vLLM" in lead


def test_which_is_faster_names_the_faster_engine_in_zh():
    lead = _lead(ask("vLLM 和 SGLang 哪個比較快？4 張 H100 有 NVLink，Llama 3.1 70B，200 人內部使用。"))
    assert "是，" not in lead[:40] and "快約" in lead


def test_reasons_when_the_primary_is_what_is_left():
    r = ask("二手 Tesla P40 值得買嗎？想跑 Llama 3.1 8B，vLLM 支援嗎？")
    why = r["answer"].split("理由")[1][:600]
    assert "vLLM" in why and "Dynamo" not in why


def test_can_engine_do_it_on_a_mac_is_answered_no():
    lead = _lead(ask("We want to serve Llama 3.3 70B to 30 employees at the same time from a Mac Studio M3 Ultra "
                     "512GB. Can vLLM do it?"))
    assert "vLLM: no" in lead


def test_engine_on_a_platform_word_without_a_device():
    lead = _lead(ask("Does vLLM run on ROCm?"))
    assert "vLLM on AMD GPUs (ROCm): yes" in lead


def test_prefix_technique_question_is_not_read_as_a_shared_prompt():
    lead = _lead(ask("RadixAttention vs vLLM prefix caching?"))
    assert "radix tree" in lead and "Every request here starts with the same prefix" not in lead
