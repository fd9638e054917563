"""What the user stated is what the answer uses, and no template text leaks (issue 15, review 5).

Classes, each in English and zh-Hant, worded afresh (not the review's questions):
- a network named between nodes is the one planned over (never "an assumed Ethernet link");
- a stated context or prompt length sets the launch line's --max-model-len and the TTFT;
- a stated input:output ratio splits a token volume (never "no input/output split given");
- the adapter count planned for is the one the user will grow to, and a single adapter reads as one;
- the "not used" list names only numbers the plan did not take (restated counts, link multipliers and
  ordinals are not quoted back);
- advice is gated on the target: no CUDA-graph advice on a CPU, no vLLM memory flag for another engine;
- the "options you compared" and co-hosting blocks appear only when the user asked for them.
Real rules, real extractor, no retrieval.
"""
from __future__ import annotations

import re

import pytest

from agent.api import advise


def _advise(text, answers=None):
    return advise(text, answers, knowledge=False)


def _launch(a):
    return next(c.command for c in a.plan.launch if c.engine == (a.plan.engine or a.decision.primary))


def _max_len(a):
    m = re.search(r"--max-model-len (\d+)|--context-length (\d+)|-c (\d+)|--max-seq-len (\d+)", _launch(a))
    return int(next(g for g in m.groups() if g)) if m else None


def _unused(a):
    return [n.text for n in a.not_understood if n.kind == "number"]


# --- the network between nodes ---------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "We have two servers with 8x A100 80GB each, linked by InfiniBand, and want Llama 3.1 405B in BF16 "
    "for about 30 concurrent analysts. How do we lay it out?",
    "兩台伺服器，每台 8 張 A100 80GB，節點之間用 InfiniBand 連接，要跑 Llama 3.1 405B（BF16），同時約 30 人使用，要怎麼切？",
])
def test_a_named_network_between_nodes_is_the_one_planned_over(text):
    a = _advise(text)
    assert a.plan.search is None or "ethernet" not in str(a.plan.search).lower()
    assert not re.search(r"assumed Ethernet|假設的乙太網路", a.answer), a.answer


@pytest.mark.parametrize("text, answers", [
    ("How should Llama 3.1 405B in BF16 be split over our two A100 nodes for the analytics group?",
     {"hardware": "2 nodes, 8x A100 80GB SXM each", "interconnect": "NVLink in each node, 4x 200G InfiniBand between them",
      "concurrency": "about 30 at once"}),
    ("Llama 3.1 405B（BF16）要怎麼切到我們兩台 A100 上？",
     {"hardware": "2 台，每台 8 張 A100 80GB SXM", "interconnect": "每台內部 NVLink，節點之間 4x 200G InfiniBand",
      "concurrency": "同時約 30 個"}),
])
def test_a_network_given_as_an_answer_is_the_one_planned_over(text, answers):
    a = _advise(text, answers)
    assert a.plan.search is None or "ethernet" not in str(a.plan.search).lower()
    assert not re.search(r"assumed Ethernet|假設的乙太網路", a.answer), a.answer


# --- lengths the user stated --------------------------------------------------------------------------
@pytest.mark.parametrize("text, floor", [
    ("One H100 80GB, Qwen2.5 32B, a handful of users, and each conversation can grow to 48K tokens of context. Launch flags?", 48000),
    ("一張 H100 80GB 跑 Qwen2.5 32B，幾個人用，每段對話的上下文最長會到 48K tokens，啟動參數怎麼設？", 48000),
])
def test_a_stated_context_sets_the_launch_length(text, floor):
    a = _advise(text)
    assert a.profile.summary.context_length and a.profile.summary.context_length >= floor
    assert _max_len(a) is not None and _max_len(a) >= floor, _launch(a)


@pytest.mark.parametrize("text, answers, floor", [
    ("Which engine should run Llama 3.1 70B on our 4x H100 SXM box for the support team?",
     {"context_length": "24K usually, sometimes 100K", "concurrency": "about 20 at once"}, 24000),
    ("我們有 4 張 H100 SXM，要給客服團隊跑 Llama 3.1 70B，用哪個引擎？",
     {"context_length": "通常 24K，偶爾到 100K", "concurrency": "同時約 20 人"}, 24000),
])
def test_a_length_given_for_a_field_never_asked_still_reaches_the_plan(text, answers, floor):
    a = _advise(text, answers)
    assert a.profile.summary.context_length and a.profile.summary.context_length >= floor
    assert "context_length" not in a.profile.summary.assumed
    assert _max_len(a) >= floor, _launch(a)


@pytest.mark.parametrize("text", [
    "RAG over our manuals on one L40S with Llama 3.1 8B: prompts are about 10K tokens after retrieval, answers short. "
    "What time to first token should we see?",
    "用一張 L40S 跑 Llama 3.1 8B 做手冊 RAG，檢索後的 prompt 大約 10K tokens，回答很短，首字延遲應該多少？",
])
def test_a_stated_prompt_length_drives_the_first_token_time(text):
    a = _advise(text)
    assert a.profile.summary.input_tokens >= 10000
    assert _max_len(a) >= 10000, _launch(a)
    est = a.plan.estimate
    # ttft must cover prefilling the stated prompt, not a short default one
    assert est.ttft_s >= 10000 / est.prefill_tokens_per_s * 0.9, (est.ttft_s, est.prefill_tokens_per_s)


# --- a stated input:output ratio -------------------------------------------------------------------
@pytest.mark.parametrize("text, share", [
    ("Self-hosting Llama 3.3 70B on rented H100s at $2.50 per GPU-hour: about 200M tokens a month with a 4:1 "
     "input to output ratio. What does a million tokens really cost us?", 0.2),
    ("租 H100（每張每小時 2.5 美元）自架 Llama 3.3 70B，每月約 2 億 tokens，輸入:輸出 約 4:1，實際每百萬 tokens 成本是多少？", 0.2),
])
def test_a_stated_ratio_splits_the_volume(text, share):
    a = _advise(text)
    assert not re.search(r"no input/output split|沒有提供輸入/輸出|未提供輸入與輸出|沒有說明輸入", a.answer), a.answer
    assert a.volume and abs(a.volume["output_per_month"] / a.volume["tokens_per_month"] - share) < 0.02, a.volume


# --- adapters ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Mistral 7B with a single LoRA on one L40S today; by next year we expect roughly 25 tenant adapters. "
    "How should we serve it as that grows?",
    "目前在一張 L40S 上用 Mistral 7B 掛一個 LoRA，明年預計會有大約 25 個客戶各自的 adapter，之後該怎麼部署？",
])
def test_the_adapter_count_planned_for_is_the_one_the_user_grows_to(text):
    a = _advise(text)
    assert a.profile.summary.lora_adapters == 25
    assert not [t for t in _unused(a) if "25" in t], _unused(a)
    assert not re.search(r"\b1 adapters\b|\b1 full copies\b", a.answer)


def test_one_adapter_is_never_written_as_a_plural_count():
    a = _advise("One A10G, Llama 3.1 8B with one LoRA adapter for our chatbot, about 10 users. Which engine?")
    assert not re.search(r"\b1 adapters\b|\b1 full copies\b", a.answer), a.answer


# --- the "not used" list --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, answers", [
    ("On two RTX A6000 cards (2x 48GB, PCIe) I run Qwen2.5 32B for myself. Which engine is fastest?", {}),
    ("Can one H100 80GB serve Mistral Small 24B to 40 concurrent users?", {"concurrency": "40 requests at the same time"}),
    ("兩台機器、共 16 張 H100，節點間 4x 400G InfiniBand，跑 DeepSeek-V3，同時 20 個請求，該怎麼部署？", {}),
    ("兩台伺服器各 8 張 H100，每台用 8x 200G InfiniBand 互連，跑 DeepSeek-V3 給內部 30 個併發。", {}),
    ("Our CPU box is a 2-socket Xeon Platinum 8480+ with 16x 32GB DDR5; llama.cpp ran Llama 3.1 8B 2x faster than vLLM. "
     "Which engine should we keep?", {}),
])
def test_numbers_the_plan_took_are_not_quoted_back(text, answers):
    a = _advise(text, answers)
    assert _unused(a) == [], _unused(a)
    assert not re.search(r"I did not use|沒有用上", a.answer)


def test_an_ordinal_is_not_an_unused_number():
    a = _advise("用一張 RTX 4090 跑 Qwen2.5 14B，第一個 token 要等 5 秒才出來，這正常嗎？")
    assert not [t for t in _unused(a) if "一個" in t], _unused(a)


# --- advice gated on the target ---------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "On a 64-core AMD EPYC 9554 server with no GPU, llama.cpp runs Llama 3.1 8B at about 7 tok/s. Is that expected?",
    "On a CPU-only Xeon box, vLLM's CPU backend gives Mistral 7B about 5 tok/s. Is that normal?",
    "我們只有一台 Intel Xeon Platinum 8480+ 的 CPU 伺服器，沒有 GPU，用 llama.cpp 跑 Llama 3.1 8B 只有每秒 6 個 token，這樣正常嗎？",
    "只有 CPU 的 Xeon 伺服器，用 vLLM 的 CPU 後端跑 Mistral 7B 每秒只有 5 個 token，正常嗎？",
])
def test_a_cpu_target_gets_no_gpu_runtime_advice(text):
    a = _advise(text)
    assert not re.search(r"CUDA graph|enforce-eager|gpu-memory-utilization", a.answer, re.I), a.answer


def test_a_memory_split_flag_is_named_only_for_the_engine_that_has_it():
    a = _advise("Laptop with Intel Core Ultra 7 155H and 64GB RAM, OpenVINO GenAI on the iGPU: Qwen2.5 7B or "
                "Qwen2.5 14B for my own coding help, which one and how fast?")
    if a.decision.primary != "vllm":
        assert "--gpu-memory-utilization" not in a.answer, a.answer


# --- blocks only for what was asked -------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The vendor's recipe puts Llama 3.1 405B on one B200 node, but we own 16x H100 SXM in two nodes with InfiniBand. "
    "How do we split it?",
    "官方範例是在一台 B200 上跑 Llama 3.1 405B，但我們只有兩台 H100 SXM（共 16 張，InfiniBand 互連），要怎麼切？",
])
def test_hardware_only_mentioned_is_not_turned_into_compared_options(text):
    a = _advise(text)
    assert not re.search(r"options you compared|您比較的選項", a.answer), a.answer.split("\n\n")[:3]
    assert a.profile.summary.hardware == "h100_sxm"


@pytest.mark.parametrize("text", [
    "Our 8x H100 node runs Qwen2.5 72B well at 25 tok/s, but DeepSeek-V3 across two such nodes (InfiniBand) "
    "is much slower. Is that normal?",
    "我們 8 張 H100 跑 Qwen2.5 72B 有每秒 25 token，但兩台（InfiniBand）跑 DeepSeek-V3 卻慢很多，這正常嗎？",
])
def test_a_model_mentioned_for_contrast_is_not_co_hosted(text):
    a = _advise(text)
    assert not re.search(r"Both at once|兩個同時放|--gpu-memory-utilization, e\.g\.", a.answer), a.answer


@pytest.mark.parametrize("text, answers, hw", [
    ("I tried agents on a MacBook M1 Pro 16GB and on a Mac Studio M2 Ultra 192GB; both recompute the cache. "
     "Is the bigger Mac practical for a local coding agent?", {"hardware": "Mac Studio M2 Ultra 192GB"}, "m2_ultra"),
    ("我在 M1 Pro 16GB 和 Mac Studio M2 Ultra 192GB 都試過 coding agent，大的那台實用嗎？",
     {"hardware": "Mac Studio M2 Ultra 192GB"}, "m2_ultra"),
])
def test_the_device_the_user_confirms_is_the_one_planned(text, answers, hw):
    a = _advise(text, answers)
    assert a.profile.summary.hardware == hw
    assert not re.search(r"options you compared|您比較的選項", a.answer)


# --- first-token time for the long prompts the user stated ------------------------------------------
@pytest.mark.parametrize("text, answers", [
    ("Which engine for Llama 3.1 70B on 4x H100 SXM for our legal team?",
     {"context_length": "40K tokens, whole contracts", "concurrency": "10 at once"}),
    ("4 張 H100 SXM 跑 Llama 3.1 70B 給法務團隊，用哪個引擎？", {"context_length": "40K tokens（整份合約）", "concurrency": "同時 10 個"}),
])
def test_the_headline_gives_the_first_token_time_of_the_stated_context(text, answers):
    a = _advise(text, answers)
    head = next(line for line in a.answer.splitlines() if "Recommendation" in line or "建議" in line)
    m = re.search(r"([\d,]+)(?:-token prompt alone: TTFT| token 提示：首字延遲)\s*(?:約\s*)?~?([\d.]+) s", head)
    assert m, head
    assert int(m.group(1).replace(",", "")) >= 39000 and float(m.group(2)) > a.plan.estimate.ttft_s


# --- a reasoning model is launched with room to think ---------------------------------------------
def test_a_reasoning_model_benchmarked_at_short_lengths_keeps_a_long_window():
    a = _advise("DeepSeek-R1-Distill-Qwen-32B on 4x A100 80GB, benchmark at 1K in / 1K out with 32 concurrent. Launch?")
    assert _max_len(a) >= 32768, _launch(a)


def test_a_stated_window_for_a_reasoning_model_is_kept():
    a = _advise("DeepSeek-R1-Distill-Qwen-32B on 4x A100 80GB with an 8K context, 16 concurrent. Launch?")
    assert _max_len(a) < 16384, _launch(a)


# --- a token volume sets the load, so the verdicts agree -------------------------------------------
@pytest.mark.parametrize("text, answers", [
    ("What does self-hosting Llama 3.3 70B on rented H100s ($2/GPU-hour) really cost per million tokens?",
     {"workload": "internal helpdesk bot, ~150M tokens/month, 3:1 input:output", "priority": "cost"}),
    ("租 H100（每張每小時 2 美元）自架 Llama 3.3 70B，每百萬 tokens 的真實成本是多少？",
     {"workload": "內部客服機器人，每月約 1.5 億 tokens，輸入:輸出 3:1", "priority": "成本"}),
])
def test_a_volume_given_as_an_answer_sets_the_load_and_no_replica_verdict_contradicts_it(text, answers):
    a = _advise(text, answers)
    assert not re.search(r"over capacity|超出容量", a.answer), a.answer
    assert not [x for x in a.assumptions if re.match(r"concurrency = \d+ \(default\)|concurrency = \d+$", x)]


# --- the window of the checkpoint the user named ---------------------------------------------------
@pytest.mark.parametrize("text", [
    "Qwen3-Coder-30B-A3B as a local coding agent on a Mac Studio M2 Max 64GB, 64K context, just me. Which engine and how fast?",
    "Mac Studio M2 Max 64GB 跑 Qwen3-Coder-30B-A3B 當本機 coding agent，上下文 64K，只有我用，用哪個引擎、多快？",
])
def test_a_checkpoint_with_its_own_longer_window_is_planned_at_the_stated_context(text):
    a = _advise(text)
    assert a.plan is not None and a.plan.estimate is not None, a.tool_notes
    assert a.plan.estimate.context_length >= 64000   # (MLX-LM's server has no window flag: the estimate's)


def test_the_base_checkpoint_keeps_its_own_limit():
    from rules import catalog
    spec = catalog.model("qwen3-30b-a3b")
    assert catalog.named_spec(spec, "Qwen3-30B-A3B").max_context == 40960
    assert catalog.named_spec(spec, "Qwen3-Coder-30B-A3B").max_context == 262144


@pytest.mark.parametrize("text, answers", [
    ("How long will it take to run Llama 3.1 8B over our corpus on 4x L40S?",
     {"workload": "offline batch: ~500,000 documents, ~800 tokens in / ~200 tokens out each"}),
    ("離線批次：用 4 張 L40S 跑 Llama 3.1 8B 處理約 50 萬篇文件要多久？", {"workload": "離線批次，每篇輸入約 800 tokens、輸出約 200 tokens"}),
])
def test_a_batch_jobs_stated_lengths_are_not_called_assumed(text, answers):
    a = _advise(text, answers)
    line = next((x for x in a.answer.splitlines() if "How long" in x or "要多久" in x), "")
    assert "800" in line and not re.search(r"assumed|假設", line), line


@pytest.mark.parametrize("text, hw", [
    ("I followed a tutorial on my 2x RTX 3090 for Llama 70B. Which engine?", "rtx3090"),
    ("照著範例在我的 4090 上跑 Qwen2.5 14B，用哪個引擎？", "rtx4090"),
    ("We run the official vLLM image on 2x A100 80GB for Llama 3.1 70B.", "a100_80g_sxm"),
])
def test_a_guide_the_user_followed_does_not_hide_their_own_device(text, hw):
    from agent.extract import extract
    assert extract(text).values.get("hardware") == hw


@pytest.mark.parametrize("text, answers", [
    ("Mistral 7B on one L4 for the claims team: what first-token time will we see?",
     {"workload": "claims review: prompts of about 12K tokens, short answers", "concurrency": "about 40 at once"}),
    ("一張 L4 跑 Mistral 7B 給理賠團隊，首字延遲會是多少？",
     {"workload": "理賠審查：prompt 約 12K tokens，回答很短", "concurrency": "同時約 40 個"}),
])
def test_an_overloaded_answer_still_gives_the_first_token_time_of_the_stated_prompt(text, answers):
    a = _advise(text, answers)
    head = next(line for line in a.answer.splitlines() if "Recommendation" in line or "建議" in line)
    assert re.search(r"12,000(?:-token prompt alone: TTFT| token 提示：首字延遲)", head), head


@pytest.mark.parametrize("text, answers, words", [
    ("Self-hosting Llama 3.3 70B on rented H100s at $2.20 per GPU-hour: what is our real cost per 1M tokens?",
     {"workload": "staff assistant, about 100M tokens a month, office hours only", "priority": "cost"}, "business hours"),
    ("租 H100（每張每小時 2.2 美元）自架 Llama 3.3 70B，每百萬 tokens 多少錢？",
     {"workload": "員工助理，每月約 1 億 tokens，只在上班時間使用", "priority": "成本"}, "只在上班時間開機"),
])
def test_traffic_in_business_hours_gets_its_own_bill(text, answers, words):
    a = _advise(text, answers)
    assert words in a.answer, a.answer[:900]
    assert not [n.text for n in a.not_understood if "1M" in n.text]   # the unit a price is quoted in


# --- typical vs longest prompt (r6-zh-01): the load at the typical one, one long prompt alone at the window -------
@pytest.mark.parametrize("text, answers", [
    ("Which engine for Qwen2.5 32B on 8x RTX 4090 for our company?",
     {"context_length": "usually 8K, some documents up to 32K", "concurrency": "30-50 at peak"}),
    ("8 張 RTX 4090 跑 Qwen2.5 32B 給公司內部用，用哪個引擎？",
     {"context_length": "一般 8K，少數長文件 32K 以上", "concurrency": "尖峰同時 30-50 個請求"}),
])
def test_typical_prompt_sizes_the_load_and_the_longest_the_window(text, answers):
    a = _advise(text, answers)
    s = a.profile.summary
    assert (s.input_tokens, s.context_length) == (8000, 32000)
    head = next(line for line in a.answer.splitlines() if "Recommendation" in line or "建議" in line)
    m = re.search(r"([\d,]+)(?:-token prompt alone: TTFT| token 提示：首字延遲)", head)
    assert m and int(m.group(1).replace(",", "")) > 16000, head   # the long one alone, beside the load's TTFT
