"""The engine follows the hardware, an unknown device is said to be unknown, and figures stay plausible.

Classes (review 5): an engine named for a platform it does not run on (ExLlamaV2 listed for a Mac, an
FP16-kernel engine for a Pascal P40); an accelerator the catalog does not know answered for the host CPU
named beside it; an old MHA model read as a GQA one (KV ~5x too small); a tensor-parallel pair of cards
estimated several times slower than one card. Wording here is new (not the review questions), en and
zh-Hant; HELD_OUT cases were kept aside while fixing and are reported on their first run.
"""
from __future__ import annotations

import pytest

from agent.api import ask
from rules import catalog
from rules.roofline import estimate


def _lead(answer: str) -> str:
    """The answer above its details block (plain or markdown rendering, en or zh-Hant)."""
    for mark in ("### Details", "DETAILS", "### 細節", "細節"):
        answer = answer.split(mark)[0]
    return answer


# --- the local-engine list follows the platform ------------------------------------------------------
@pytest.mark.parametrize("text", [
    "I'm the only one using my MacBook Pro M4 Max 128GB; what should run Llama 3.1 70B at 4-bit locally?",
    "只有我自己用 Mac Studio M2 Ultra 192GB，想在本機跑 Qwen2.5 32B，該用哪個引擎？",
])
def test_a_mac_never_hears_exllama_as_a_local_pick(text):
    r = ask(text)
    assert r["primary"] in ("mlx-lm", "llama.cpp", "ollama")
    why = _lead(r["answer"])
    assert "ExLlama" not in why, why


def test_an_nvidia_desktop_for_one_person_still_lists_exllama():
    r = ask("Just me with one RTX 4090 at home, Qwen2.5 32B for coding, which engine?")
    assert "serve-personal" in r["rules"]
    assert "ExLlamaV2" in r["answer"]


# --- Pascal: FP16-kernel engines are out, llama.cpp is the engine ------------------------------------
@pytest.mark.parametrize("text", [
    "One Tesla P40 24GB in a Linux box, only me, Mistral 7B: which engine gives usable speed?",
    "我只有一張 Tesla P40 24GB，自己一個人用，想跑 Llama 2 13B，該選哪個引擎？",
])
def test_a_p40_gets_llama_cpp_not_an_fp16_engine(text):
    r = ask(text)
    assert r["primary"] in ("llama.cpp", "ollama")
    assert "exllamav2" not in [r["primary"], *r["alternatives"]]
    assert "exllamav3" not in [r["primary"], *r["alternatives"]]


# --- an accelerator the catalog does not know, next to a known host CPU --------------------------------
@pytest.mark.parametrize("text,device", [
    ("My box has a Moore Threads MTT S4000 card on an EPYC 7543 host with 256GB RAM. Which engine for Qwen2.5 14B?",
     "S4000"),
    ("伺服器是 Xeon Gold 6338，插了一張 Biren BR104 加速卡，想跑 Llama 3.1 8B，該用什麼引擎？", "BR104"),
])
def test_an_unknown_card_in_a_known_cpu_host_is_not_answered_for_the_cpu(text, device):
    r = ask(text)
    assert r["profile"]["hardware"] is None, r["profile"]["hardware"]
    assert any(device in w for w in r["not_understood"]), r["not_understood"]
    assert r["primary"] != "openvino-genai"
    assert any(device in q["question"] for q in r["questions"])


def test_the_r9700_is_a_catalog_device_with_its_own_memory():
    hw = catalog.hardware(catalog.resolve_hardware("Radeon AI PRO R9700"))
    assert hw.platform == "amd-rocm" and hw.memory_gb == 32 and "gfx1201" in (hw.arch or "")
    assert hw.mem_bw_gbs and hw.source


def test_an_r9700_in_an_old_xeon_host_is_planned_for_the_card():
    r = ask("Ubuntu, one AMD Radeon AI PRO R9700, old Xeon E5-2680 v4 host with 128GB RAM, just me, Qwen3 32B. "
            "Which engine?")
    assert r["profile"]["hardware"] == catalog.resolve_hardware("R9700")
    assert r["primary"] in ("llama.cpp", "vllm", "ollama")
    for e in ("exllamav2", "exllamav3", "tensorrt-llm", "openvino-genai", "mlx-lm"):
        assert e not in [r["primary"], *r["alternatives"]]


# --- old MHA models resolve with their own shape ------------------------------------------------------
@pytest.mark.parametrize("name,kv", [("Qwen-14B-Chat", 819_200), ("Qwen-7B-Chat", 524_288)])
def test_first_generation_qwen_keeps_its_full_multi_head_kv(name, kv):
    spec = catalog.model(catalog.resolve_model(name))
    assert spec.kv_heads == spec.q_heads and spec.kv_bytes_per_token_bf16 == kv


def test_capacity_of_an_mha_14b_on_a_4090_is_tens_not_hundreds():
    r = ask("We serve Qwen-14B-Chat with vLLM on 8 RTX 4090s (PCIe, no NVLink) for 300 staff, 40 requests at "
            "once, prompts ~1,500 tokens and answers ~400. How many can it hold?")
    assert r["estimate"]["kv_bytes_per_token"] >= 800_000


# --- tensor parallel over PCIe is not several times slower than one card -------------------------------
def test_tp2_over_pcie_with_a_server_style_engine_is_not_slower_than_one_card():
    one = estimate("qwq-32b", "rtx5090", count=1, quant="awq", engine="exllamav3", input_tokens=1000,
                   output_tokens=1000, concurrency=1)
    two = estimate("qwq-32b", "rtx5090", count=2, quant="awq", engine="exllamav3", parallelism="tp",
                   input_tokens=1000, output_tokens=1000, concurrency=1)
    assert two.decode_tokens_per_s >= 0.9 * one.decode_tokens_per_s, (one.decode_tokens_per_s, two.decode_tokens_per_s)


# --- held out: written with the above, not looked at while fixing --------------------------------------
HELD_OUT = [
    ("Solo user, Mac Studio M1 Ultra 128GB, want the fastest way to run Mixtral 8x7B locally.", "mac"),
    ("家裡一張 GTX 1080 Ti 11GB，自己用，想跑 Qwen2.5 7B，哪個引擎比較快？", "pascal"),
    ("I have a Tenstorrent Wormhole n300 card in a Threadripper 7970X workstation; which engine for Llama 3.1 8B?",
     "unknown"),
    ("公司用 Llama-2-13B-chat 跑在一張 A100 80GB 上，vLLM，同時 20 個請求，每個 3000 tokens，KV 夠嗎？", "mha"),
]


@pytest.mark.parametrize("text,kind", HELD_OUT)
def test_held_out(text, kind):
    r = ask(text)
    picks = [r["primary"], *r["alternatives"]]
    if kind == "mac":
        assert r["primary"] in ("mlx-lm", "llama.cpp", "ollama")
        assert "ExLlama" not in _lead(r["answer"])
    elif kind == "pascal":
        assert r["primary"] in ("llama.cpp", "ollama") and "exllamav2" not in picks
    elif kind == "unknown":
        assert r["profile"]["hardware"] is None and r["not_understood"]
    else:
        assert r["estimate"]["kv_bytes_per_token"] >= 800_000


# --- one person on two cards: replicas serve nobody else ----------------------------------------------
@pytest.mark.parametrize("text", [
    "Only I use this box: 2x RTX 4090 on PCIe, Qwen2.5 32B AWQ, one chat at a time. Best layout for speed?",
    "只有我一個人用，兩張 RTX 3090（PCIe），跑 Qwen2.5 14B AWQ，一次一個對話，怎麼配置最快？",
])
def test_one_request_at_a_time_is_never_planned_as_replicas(text):
    r = ask(text)
    assert r["parallelism"]["strategy"] != "dp", r["parallelism"]


# --- several people at 80K+ context: paged KV (vLLM/SGLang), not a slot-split local server -------------
@pytest.mark.parametrize("text", [
    "Five of us will share Llama 3.3 70B with the full 128K context window, usually 2-3 at once; hardware not bought yet.",
    "我們 5 個人要共用 Llama 3.1 70B，要用滿 128K context，同時大約 3 個人；硬體還沒買。",
])
def test_a_few_people_at_very_long_context_get_a_paged_kv_server(text):
    r = ask(text)
    assert r["primary"] in ("vllm", "sglang"), (r["primary"], r["rules"])
    assert "ollama" not in [r["primary"], *r["alternatives"]]


# --- a script over tens of thousands of items is a batch job, not one person chatting -----------------
@pytest.mark.parametrize("text", [
    "A Python script needs to label about 80,000 product reviews with Llama 3.1 8B on one RTX 4090, sentiment only.",
    "要用一張 RTX 4090 跑 Qwen2.5 7B，把 3 萬筆客服工單逐筆分類，目前一次送一筆，該用什麼引擎？",
])
def test_labelling_tens_of_thousands_of_items_is_a_batch_job(text):
    r = ask(text)
    assert r["primary"] in ("vllm", "sglang"), (r["primary"], r["profile"])


# --- a model the catalog does not know: its KV shape is said to be a guess, with the MHA worst case ----
@pytest.mark.parametrize("text,word", [
    ("We run Baichuan2-13B-Chat on one A100 80GB for 20 users with 2,000-token prompts. How many fit at once?",
     "multi-head"),
    ("用一張 A100 80GB 跑 Baichuan2-13B-Chat 給 20 個人用，prompt 約 2,000 tokens，同時能撐幾個？", "多頭"),
])
def test_an_unknown_models_kv_shape_is_a_stated_guess_with_its_worst_case(text, word):
    r = ask(text)
    assert r["profile"]["model"] is None
    note = [w for w in r["warnings"] if word in w]
    assert note and any(ch.isdigit() for ch in note[0]), r["warnings"]
    assert "custom" not in note[0]


def test_a_catalog_model_gets_no_shape_guess_warning():
    r = ask("We run Llama 3.1 8B on one A100 80GB for 20 users with 2,000-token prompts. How many fit at once?")
    assert not [w for w in r["warnings"] if "multi-head" in w]


# --- a Pascal card's reasons: no "the single-card picks are ExLlamaV2 and vLLM" -------------------------
@pytest.mark.parametrize("text", [
    "I have a single Tesla P40 and want Llama 3.2 3B just for me; which engine?",
    "我只有一張 Tesla P40，想自己跑 Qwen2.5 7B，用哪個引擎？",
])
def test_a_pascal_card_is_not_told_the_single_rtx_picks(text):
    r = ask(text)
    assert r["primary"] in ("llama.cpp", "ollama")
    assert "hw-single-rtx" not in r["rules"] and "hw-nvidia-pascal" in r["rules"]
