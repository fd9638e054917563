"""Questions about how an engine behaves get their answer first (agent.direct_engine): a verdict, the
mechanism named, the user's own setup, and the engine catalog's facts with their sources.

The questions are restated from real threads (Ollama #9054 / #358, vLLM #3154 / #5666 / #20160 / #17003,
TGI #2506, TensorRT-LLM #451 / #839, SGLang #4759, ik_llama.cpp #437, vLLM #1400), en and zh-Hant.
End to end: real extractor, rules, roofline and catalogs (no retrieval). Held-out cases of the same
classes live in heldout_direct_engine.py (run on purpose, not while fixing)."""
from __future__ import annotations

import re

import pytest

from agent import direct_engine
from agent.api import advise
from evals.langcheck import english_runs


def _advice(text: str, answers: dict | None = None):
    return advise(text, answers, knowledge=False)


def _lead(answer: str) -> str:
    """What the user reads before the recommendation line (or the sizing block)."""
    cut = [m.start() for m in re.finditer(r"\*\*Recommendation|\*\*建議|\*\*Hardware for|\*\*Estimate|\*\*估算", answer)]
    return answer[:min(cut)] if cut else answer


def _first_para(answer: str) -> str:
    return next(p for p in _lead(answer).split("\n\n") if p.strip() and not p.startswith(("+", "?", ">")))


def _answer(text: str, answers: dict | None = None) -> str:
    """The answer's Markdown as the surfaces render it (source links kept)."""
    return _advice(text, answers).answer


# --- detectors (pure) -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, frame", [
    ("Does Ollama use both of my L4 GPUs to serve several users in parallel?", "ollama-parallel"),
    ("4 張 3090 用 Ollama，多人同時用時會四張卡一起跑嗎？", "ollama-parallel"),
    ("I turned on prefix caching in vLLM and generation got slower. Why?", "prefix-effect"),
    ("vLLM 開了 prefix caching 速度完全沒變快，是設定錯了嗎？", "prefix-effect"),
    ("Is there a maximum number of LoRA adapters one vLLM instance can hold?", "lora-capacity"),
    ("vLLM 最多可以掛幾個 LoRA adapter？", "lora-capacity"),
    ("TensorRT-LLM is faster than vLLM for one request but falls apart under concurrency. Is it bad at batching?", "trt-batching"),
    ("我們的 TensorRT-LLM 一開併發就慢到離譜，是它不適合高併發嗎？", "trt-batching"),
    ("With speculative decoding I get 180 tokens/s on one H100 but people quote 1,500 tok/s. Is my number bad?", "specdec-figure"),
    ("開了 speculative decoding 之後，32 個併發時吞吐反而下降，為什麼？", "specdec-figure"),
    ("Would a Xeon with AMX make token generation faster for a 70B model on CPU?", "cpu-amx-numa"),
    ("雙路 EPYC 跑 llama.cpp，NUMA 設定會影響速度嗎？", "cpu-amx-numa"),
    ("vLLM says my Tesla T4 does not support bfloat16. What should I set?", "dtype-support"),
    ("載入 AWQ 版本時出現 qweight 的 key error，怎麼辦？", "dtype-support"),
])
def test_each_frame_is_found_in_both_languages(text, frame):
    assert frame in direct_engine.frames(text)


@pytest.mark.parametrize("text", [
    "We need Llama 3.1 70B on 2x H100 for 50 users. Which engine?",
    "Is Ollama fine for a team of 6 on one RTX 4090?",
    "我們有 4 張 A100，要服務 30 人，用 vLLM 還是 SGLang？",
    "Serve Qwen2.5-7B with 20 LoRA adapters on one L40S for 30 users.",   # a LoRA setup, not a question about limits
    "Use speculative decoding for a single user on an RTX 4090 with Llama 3.1 8B?",
    "We serve 20 LoRA adapters on one A100 for Llama 3.1 8B. What is the max concurrency we can reach?",
    "Will speculative decoding give lower latency for one user of Llama 3.1 8B on an RTX 4090?",
    "Llama 3.1 8B runs at 50 tok/s on my RTX 4090. Is speculative decoding worth trying?",
    # a memory question about Ollama; the GPUs and the users are named in other sentences
    "I pulled qwen3:32b in Ollama and raised num_ctx to 65536. Now it takes 148 GB even with four GPUs. Why?\n"
    "2-4 concurrent users",
])
def test_ordinary_sizing_questions_raise_no_engine_frame(text):
    assert direct_engine.frames(text) == []


# --- end to end: the verdict comes first, with the mechanism and the user's setup ------------------------

def test_ollama_on_many_gpus_is_capacity_not_speed_and_names_the_parallel_slots():
    ans = _answer("I have a box with four RTX 3090s. Will Ollama use all four GPUs at the same time for Llama 3.3 70B, "
                  "and can it serve requests concurrently for 12 people?")
    first = _first_para(ans)
    assert first.startswith("**") and "Ollama" in first
    lead = _lead(ans)
    assert re.search(r"one after another|in turn", lead) and re.search(r"capacity", lead)   # layer split, not TP
    assert "OLLAMA_NUM_PARALLEL" in lead and "docs.ollama.com/faq" in lead
    assert re.search(r"vLLM|SGLang", lead) and "12" in lead          # what to use for their load, with their number
    assert "4× NVIDIA GeForce RTX 3090" in lead or "RTX 3090" in lead


def test_zh_ollama_answer_is_in_zh_hant():
    ans = _answer("我有 4 張 RTX 3090，用 Ollama 跑 Qwen2.5-32B，多人同時用的時候會四張卡一起跑嗎？大概 10 個人。")
    lead = _lead(ans)
    assert "OLLAMA_NUM_PARALLEL" in lead and re.search(r"依序|輪流|一層接一層", lead) and "容量" in lead
    assert not english_runs(lead)


def test_prefix_caching_slower_explains_prefill_only_and_judges_the_bot():
    ans = _answer("I ran vLLM's offline prefix caching example and timed it: with the prefix cache enabled, generation "
                  "was slower. Isn't it supposed to speed things up? Should I enable it for our chatbot, which has a "
                  "2,000-token system prompt, Llama 3.1 8B on one L4 with 10 concurrent chats?")
    first = _first_para(ans)
    assert first.startswith("**") and re.search(r"prefill", first) and re.search(r"decode|generat", first)
    lead = _lead(ans)
    assert "2,000" in lead or "2K" in lead                              # their own prefix
    assert re.search(r"\*\*[^*]*(?:chatbot|bot|your)[^*]*: yes", lead, re.I)   # the second question gets its own verdict
    assert "automatic_prefix_caching" in lead                            # the vLLM docs, linked
    assert "Likely causes" not in lead and "Expected here" not in lead   # not a generic slowness diagnosis
    assert "did not use '2,000-token'" not in ans


def test_zh_prefix_caching_no_speedup():
    ans = _answer("vLLM 開了 prefix caching，速度完全沒有變快，是不是哪裡設定錯了？模型 Qwen2.5-7B，一張 A10G，"
                  "每次提示大約 300 tokens，輸出 800 tokens。")
    lead = _lead(ans)
    assert "prefill" in lead and re.search(r"decode|生成", lead) and re.search(r"不會|沒有|不是", lead)
    assert not english_runs(lead)


def test_lora_capacity_no_fixed_maximum_names_the_tiers_and_flags():
    ans = _answer("We want to serve per-customer LoRA adapters on one Llama 3.1 8B with vLLM on an A10G. Is there a maximum "
                  "number of adapters? Where do they live, and what happens when a request needs one that is not on "
                  "the GPU? We have 40 adapters of rank 16.")
    first = _first_para(ans)
    assert first.startswith("**") and re.search(r"no fixed|memory", first, re.I)
    lead = _lead(ans)
    for flag in ("--max-loras", "--max-cpu-loras", "--max-lora-rank", "--enable-lora"):
        assert flag in lead
    assert re.search(r"disk", lead) and re.search(r"CPU", lead)
    assert re.search(r"\d+(?:\.\d+)? MB", lead)                            # adapter size from rank 16 and the model
    assert "docs.vllm.ai" in lead


def test_zh_lora_capacity():
    ans = _answer("vLLM 最多可以掛幾個 LoRA adapter？不在 GPU 上的 adapter 請求進來時會怎樣？Qwen2.5-7B，一張 L40S，30 個 adapter。")
    lead = _lead(ans)
    assert "--max-loras" in lead and "--max-cpu-loras" in lead and re.search(r"沒有固定|記憶體", lead)
    assert not english_runs(lead)


def test_trtllm_under_concurrency_is_a_configuration_verdict():
    ans = _answer("TensorRT-LLM beats vLLM for a single request on our 2x A100 80GB with Llama 3.1 8B, but once 64 "
                  "requests run at once it gets far slower than vLLM. Is TensorRT-LLM bad at concurrency or is it my "
                  "config? Which one for production?")
    first = _first_para(ans)
    assert first.startswith("**") and re.search(r"config|build", first, re.I)
    lead = _lead(ans)
    assert "max_batch_size" in lead and "max_num_tokens" in lead and re.search(r"in-flight", lead)
    assert "nvidia.github.io/TensorRT-LLM" in lead and "64" in lead


def test_zh_trtllm_concurrency():
    ans = _answer("我比較 TensorRT-LLM 和 vLLM：單一請求時 TensorRT-LLM 比較快，可是 50 個併發時 TensorRT-LLM 就慢到離譜。"
                  "是 TensorRT-LLM 不適合高併發，還是我的設定有問題？4 張 A800 80GB，Qwen2.5-14B。")
    lead = _lead(ans)
    assert "max_batch_size" in lead and re.search(r"設定|編譯|建置", lead)
    assert not english_runs(lead)


def test_specdec_figure_single_stream_versus_aggregate():
    ans = _answer("I serve Llama 3.1 8B on one H100 with vLLM and speculative decoding (a 1B draft, 8 speculative "
                  "tokens) and get about 240 tokens/s, but people quote 1,000+ tokens/s. Is my number bad?",
                  {"concurrency": "1-4 concurrent requests"})
    first = _first_para(ans)
    assert first.startswith("**") and re.search(r"\bno\b|good|not bad", first, re.I)
    lead = _lead(ans)
    assert re.search(r"aggregate|in total|across", lead) and "240" in lead
    assert re.search(r"concurren|batch", lead) and re.search(r"draft", lead)
    assert "speculative" in lead and "docs.vllm.ai" in lead


def test_zh_specdec_throughput_drop_under_load():
    ans = _answer("SGLang 開了 speculative decoding（EAGLE）之後，32 個併發時吞吐反而下降，為什麼？Llama 3.1 8B，一張 H100。")
    lead = _lead(ans)
    assert re.search(r"併發|批次", lead) and re.search(r"頻寬|驗證", lead)
    assert not english_runs(lead)


def test_amx_does_not_drive_decode_on_cpu():
    ans = _answer("Would a Xeon with AMX make token generation faster for Llama 3.1 70B Q4_K_M running on CPU with "
                  "llama.cpp? Our dual-socket server has 512GB DDR5.")
    first = _first_para(ans)
    assert first.startswith("**") and "AMX" in first and re.search(r"bandwidth", first)
    lead = _lead(ans)
    assert re.search(r"prefill|prompt processing", lead) and "--numa" in lead


def test_zh_numa_dual_socket():
    ans = _answer("雙路 Xeon 的伺服器用 llama.cpp 純 CPU 跑 Qwen2.5-32B Q4_K_M，NUMA 設定會影響速度嗎？AMX 有幫助嗎？")
    lead = _lead(ans)
    assert "--numa" in lead and "AMX" in lead and re.search(r"頻寬", lead)
    assert not english_runs(lead)


def test_t4_bf16_error_gets_dtype_half_first():
    ans = _answer("vLLM says my Tesla T4 does not support bfloat16 when I load Mistral-7B-Instruct. What should I set?")
    lead = _lead(ans)
    assert "--dtype half" in lead and "BF16" in lead


def test_t4_three_errors_each_get_their_cause():
    ans = _answer("Mistral-7B-Instruct with vLLM on a Tesla T4: bfloat16 is not supported, float16 runs out of memory, and "
                  "the AWQ version fails with a qweight key error. How do I get it working?")
    first = _first_para(ans)
    assert first.startswith("**BF16") and "--dtype half" in first and "7.5" in first
    lead = _lead(ans)
    assert re.search(r"14\.\d GB", lead) and "--quantization awq" in lead and "CPU / MoE offload" not in lead


# --- no invented premises, no disclaimers for what was used ------------------------------------------------

@pytest.mark.parametrize("text, answers", [
    ("I run a 2x RTX 3090 box and I'm thinking of replacing it with two Radeon AI PRO R9700 cards and running vLLM. "
     "Is that a good move for Qwen3-32B?", None),
    ("我們用 8 張 RTX 4090 以 vLLM tensor parallel 8 部署 Qwen2.5-32B，多人併發時只要有請求在排隊，生成就變得很慢。"
     "這跟硬體有關嗎？應該怎麼部署？", {"concurrency": "30-50"}),
    ("4 張 H20 跑 Qwen3-235B-A22B 會 OOM，換成 8 張 H20 就能跑。是不是 4 張跑不動？", None),
])
def test_no_invented_leaving_premise(text, answers):
    ans = _answer(text, answers)
    assert "moving away from" not in ans and "您要換掉" not in ans


def test_a_stated_move_away_still_counts():
    from agent.topic_lead import abandoning
    text = ("We run Ollama for 15 people and it gets very slow when several ask at once. What should we run instead? "
            "One RTX 4090, Llama 3.1 8B.")
    assert abandoning(text) and abandoning("我們想把 Ollama 換掉，改用什麼比較好？")
    assert not abandoning("Should we switch from Ollama to vLLM?")   # a question, not a move
    assert _advice(text).decision.primary != "ollama"


def test_numbers_the_plan_used_are_not_disclaimed():
    ans = _answer("Customer-support bot with a ~3,000-token shared system prompt on one A10G 24GB, Mistral-7B-Instruct, "
                  "10-20 concurrent chats. Should I enable prefix caching?")
    assert "did not use '3,000-token'" not in ans and "I did not use '~3,000-token'" not in ans
