"""Classes of misreading found on the forum4 set (issue 14), each in English and Traditional Chinese,
with phrasings written for these tests (not copied from evals/extraction_forum4.yaml): engine settings
that set the context window (and a bracketed setting value is no year), a priority waved away, an
A-not-A question that negates nothing."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str) -> dict:
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex.values


@pytest.mark.parametrize("text, ctx", [
    ("vLLM serving Qwen3 8B (max_model_len 2048) on one L4", 2048),
    ("兩張 A10 跑 Qwen3 8B（max_model_len 2048），啟動很慢", 2048),
    ("DeepSeek V3 with model-max-len 16384 on 8x H200", 16384),
    ("trtllm-serve on 4x H100, max_seq_len 65536, tp 4", 65536),
    ("GPUStack 用 vLLM 跑 Qwen2.5 32B，max_seq_len 8192", 8192),
    ("lmdeploy 四卡 V100（tp 4、session-len 16384）跑 InternLM2.5 20B", 16384),
    ("llama.cpp with --max-context-length 32768 on a 3090", 32768),
])
def test_engine_settings_set_the_context_window(text, ctx):
    assert read(text).get("context_length") == ctx


@pytest.mark.parametrize("text", ["Llama 3 (2024) on a 4090", "Qwen2 released (2024) on one A100"])
def test_a_bracketed_year_stays_a_year(text):
    assert "context_length" not in read(text)


@pytest.mark.parametrize("text, priority", [
    ("Offline job on 4x L40S; I don't much care about latency. Which settings maximize throughput?", "throughput"),
    ("Per-request speed and TTFT don't matter here; we want high throughput on 8x H100.", "throughput"),
    ("延遲無所謂，只在乎吞吐，八張 H100 該怎麼設？", "throughput"),
    ("不太在乎延遲，預算有限，兩張 4090 跑 Qwen3 32B", "cost"),
    ("latency isn't a priority, keep costs down on 2x A100", "cost"),
])
def test_a_priority_waved_away_is_not_stated(text, priority):
    assert read(text).get("priority") == priority


@pytest.mark.parametrize("text", [
    "I don't much care about latency on this 2x A100 box.",
    "TTFT and speed don't matter much to me, one H100.",
    "延遲不重要，四張 L40S",
])
def test_a_waved_latency_alone_states_no_priority(text):
    assert "priority" not in read(text)


# A batch job with latency waved away optimises for throughput (the forum6 header's settled convention:
# "batch job where latency doesn't matter -> throughput"; changed by extract8 from 'no priority').
@pytest.mark.parametrize("text", [
    "I don't much care about latency for this 2x A100 batch job.",
    "TTFT and speed don't matter, it runs overnight on one H100.",
    "延遲不重要，四張 L40S 跑批次",
])
def test_a_batch_job_with_latency_waved_is_throughput(text):
    assert read(text).get("priority") == "throughput"


@pytest.mark.parametrize("text, priority", [
    ("SGLang 在四卡 H200 上有沒有參數可以把吞吐量衝到最高？", "throughput"),
    ("要不要為了低延遲改用 SGLang？兩張 H100", "latency"),
    ("兩張 4090 會不會太慢？我們重視延遲", "latency"),
])
def test_an_a_not_a_question_negates_nothing(text, priority):
    assert read(text).get("priority") == priority


def test_real_negation_still_negates():
    assert read("兩張 4090，沒有 NVLink").get("interconnect") == "pcie"
    assert read("我們不在乎延遲，兩張 4090 跑批次").get("priority") != "latency"   # a batch job: throughput (forum6 header)


@pytest.mark.parametrize("text, hw, count", [
    ("單張昇騰 910B3 跑 Qwen3 8B，很慢", "ascend_910b", 1),
    ("2*910B3 部署 Qwen3 32B", "ascend_910b", 2),
    ("Two Ascend 910B3 cards running GLM-4.6", "ascend_910b", 2),
])
def test_ascend_910b3_is_a_910b(text, hw, count):
    v = read(text)
    assert (v.get("hardware"), v.get("count")) == (hw, count)


@pytest.mark.parametrize("text, nodes, count", [
    ("GLM-4.6 on 4 nodes, 32 H100 in total, TP 8", 4, 8),
    ("across two H200 machines (16 GPUs in total)", 2, 8),
    ("四個節點共 32 張 A100，每個都跑 Qwen3 32B", 4, 8),
    ("兩台伺服器，總共 16 張 H100", 2, 8),
])
def test_machines_then_the_total_they_hold(text, nodes, count):
    v = read(text)
    assert (v.get("nodes"), v.get("count")) == (nodes, count)


@pytest.mark.parametrize("text, count", [
    ("GLM-4.6 on eight RTX PRO 6000 Server Edition cards", 8),
    ("兩張 RTX PRO 6000 Server Edition 跑 Qwen3 32B", 2),
    ("TinyLlama on a laptop RTX 4090, how fast?", 1),
    ("一台筆電版 RTX 4090 跑 Qwen3 8B", 1),
])
def test_edition_and_laptop_words_are_part_of_the_card(text, count):
    v = read(text)
    assert "nodes" not in v and v.get("count") == count


@pytest.mark.parametrize("text", [
    "ktransformers on one RTX 4090 with 512 GB of RAM runs DeepSeek-R1 at 6 tok/s",
    "用 ktransformers 在兩張 A10 上跑 DeepSeek-R1，速度很慢",
    "一張 4090、記憶體 502G 跑 DeepSeek-R1 的 Q4_K_M，要怎麼加速？",
    "Single RTX 3090 and 256GB DDR5 running DeepSeek V3 at Q4_K_M",
    "Qwen3 32B on a 12GB RTX 4070 splits 40%/60% CPU/GPU in Ollama",
    "Llama 3.3 70B on one 4090: 23 GB of VRAM plus 18 GB of system RAM",
    "since the update the model spills into system RAM and crawls",
    "只有 1T 記憶體加 24GB 顯存，R1 能跑嗎？",
])
def test_a_model_split_between_gpu_and_system_memory_is_offload(text):
    assert "offload" in extract(text).topics


@pytest.mark.parametrize("text", [
    "DeepSeek R1 UD-Q2_K_XL in llama.cpp on 4x A800 with 128GB of RAM, every layer offloaded to the GPUs",
    "四張 V100 32G、主機記憶體 256GB，跑 InternVL3-78B 的 int4",
    "ktransformers 說支援 AMX 的 Intel 處理器跑 DeepSeek 會更快",
    "Llama 3.1 8B on one RTX 4090 with 128GB of RAM",
])
def test_a_model_that_fits_its_gpus_is_not_offload(text):
    assert "offload" not in extract(text).topics


@pytest.mark.parametrize("text", [
    "DeepSeek-V3 on 16 H100 (two nodes), tp 8 and pp 2, max-model-len 16384",
    "兩台 H800，tp 8 加 pp 2 部署 DeepSeek-V3",
    "MiniMax-M2 on 8x MI300X from a TP2xEP2 config up to TP8xEP8",
    "GLM-4.5V 用 pipeline 並行 2 × tensor 並行 4 跑在八張 4090 上",
    "八張 4090 多卡推理要怎麼設？",
    "兩張 3090 跑 GLM4V 顯存不足，是不支援雙卡嗎？",
    "兩張 16GB 的卡部署，實際上只跑在其中一張",
    "I need vLLM inference spread over multiple GPUs with several adapters.",
    "xinference won't split it across both cards",
    "Can GPUStack run one model across multiple machines?",
])
def test_spreading_a_model_over_cards_is_parallelism(text):
    assert "parallelism" in extract(text).topics


@pytest.mark.parametrize("text", [
    "Llama-3.3-70B on one H200 with TP 1 and max-num-seqs 256.",   # a size of 1 splits nothing (forum5 convention)
    "兩張 4090 跑 Qwen3 32B，速度只有 20 tok/s。",
    "Two RTX 3090s serving Qwen3 8B to ten people.",
])
def test_one_parallel_setting_or_a_card_count_is_not_parallelism(text):
    assert "parallelism" not in extract(text).topics


@pytest.mark.parametrize("text", [
    "雲上 24GB 的卡一小時 4 元，A100 要 10 元，跑推理哪一種比較划算？",
    "自己買兩張 4090 跑 Qwen3 32B 划算嗎？",
    "Renting an H100 at $2.10/hour to run Llama 3.1 70B instead of paying per-token API prices.",
    "One A100 at $1.5/hr: does that beat $0.10-2 per million tokens on hosted APIs?",
    "2x A100 at $2.49/hr each comes to $3,600 a month. Is renting even worth it?",
    "It works out to $1.84 per million tokens on 2x H100. How do I get that under $0.55?",
    "Does a $15,000 server beat paying $1,200 a month to an API?",
])
def test_self_hosting_weighed_against_rent_or_api_is_cost(text):
    assert read(text).get("priority") == "cost"


@pytest.mark.parametrize("text", [
    "Renting an H100 to run Llama 3.1 70B instead of paying per-token API prices.",
    "We pay about $1,000 a month to GPT-4o for drafting; would two 4090s do?",
])
def test_per_token_api_pricing_raises_cost_per_token(text):
    assert "cost-per-token" in extract(text).topics


@pytest.mark.parametrize("text, priority", [
    ("我只有兩張 3090，能不能出個多卡部署的範例？", None),
    ("資料不能出公司，兩張 3090 跑 Qwen3 32B", "privacy"),
])
def test_a_not_a_is_no_privacy_rule(text, priority):
    assert read(text).get("priority") == priority


@pytest.mark.parametrize("text, conc", [
    ("MiniMax M2.5 FP8 on MI300X with vLLM: TP2 and TP4, concurrency from 4 up to 64.", 64),
    ("I load-test Gemma at 6, 24 and 48 concurrent requests on one RTX PRO 6000.", 48),
    ("from a low-latency config at concurrency 1 up to a throughput config at concurrency 4096", 4096),
    ("sending requests at each batch size from 1 to 150 on 8x H200", 150),
    ("壓測併發從 4 到 64，兩張 H100", 64),
    ("用 evalscope 壓測，20 併發、總共 50 個請求", 20),
])
def test_a_sweep_of_concurrency_sizes_for_its_top(text, conc):
    assert read(text).get("concurrency") == conc


@pytest.mark.parametrize("text", [
    "8 張 H200，max-num-seqs 64，才 8 個併發就很慢",
    "Llama 3.3 70B on 8 H200s with max-num-seqs 256; benchmark at max-concurrency 32",
])
def test_an_engine_limit_is_never_users(text):
    assert "users" not in read(text)


@pytest.mark.parametrize("text, users", [
    ("A vLLM server for a team of roughly five to fifteen people", 15),
    ("About fourteen engineers will use it on two 4090s", 14),
    ("Ninety analysts, one H100", 90),
])
def test_number_words_up_to_ninety(text, users):
    assert read(text).get("users") == users


@pytest.mark.parametrize("text", [
    "MiniMax-M2 on 8x MI300X in SGLang with an fp8_e4m3 KV cache",
    "lmdeploy 四卡 V100 跑 InternVL3-78B，KV cache 用 quant-policy 8",
    "Llama 3.1 70B as 4.0 bpw EXL2 in TabbyAPI with cache_mode Q4 on one 3090",
])
def test_engine_settings_for_the_cache_dtype_are_kv_quantization(text):
    ex = extract(text)
    assert "kv-quantization" in ex.topics and ex.values.get("quantization") != "fp8"


@pytest.mark.parametrize("text, topic", [
    ("1P1D deployment of DeepSeek-R1 across two H200 machines", "disaggregation"),
    ("兩台 H20 做 2P2D 部署 DeepSeek-R1", "disaggregation"),
    ("when several structured-output requests arrive together throughput collapses", "structured-output"),
])
def test_topic_words_written_compactly(text, topic):
    assert topic in extract(text).topics


@pytest.mark.parametrize("text, n", [
    ("a qwen3 base plus math, code and chat LoRAs on one 4090", 3),
    ("We serve legal, medical, finance and support adapters on one A100", 4),
])
def test_a_named_list_of_adapters_counts_them(text, n):
    assert read(text).get("lora_adapters") == n


@pytest.mark.parametrize("text, hw, count", [
    ("看到別家公司用 8×A100 部署 671B，我們手上是 8×4090，跑得動嗎？", "rtx4090", 8),
    ("A friend's 4090 does 60 tok/s; mine is two RTX 3090s.", "rtx3090", 2),
    ("雙路 Xeon、512G 記憶體、兩張 RTX 4090，用 ollama 跑 Qwen3 32B", "rtx4090", 2),
])
def test_someone_elses_device_and_cpu_sockets_are_not_the_gpus(text, hw, count):
    v = read(text)
    assert (v.get("hardware"), v.get("count"), v.get("users")) == (hw, count, None)


@pytest.mark.parametrize("text, hw, count", [
    ("Llama 3 70B in FP16 doesn't fit one H100, so it's 2x H100 at $2.99/hr each", "h100_sxm", 2),
    ("每個模型 90GB，連一張 A100 都放不下", None, None),
    ("Llama 70B doesn't fit on my 4090", "rtx4090", 1),   # "my 4090": one device (the settled convention)
])
def test_a_device_the_model_would_not_fit_gives_way(text, hw, count):
    v = read(text)
    assert (v.get("hardware"), v.get("count")) == (hw, count)


@pytest.mark.parametrize("text, priority", [
    ("Qwen3 0.6B on an RTX 4080: the first request after deployment has a very high TTFT.", None),
    ("We see really long latency on 2x A100 with 50 users", None),
    ("We need low latency on 2x A100", "latency"),
])
def test_a_symptom_is_not_a_priority(text, priority):
    assert read(text).get("priority") == priority


@pytest.mark.parametrize("text", [
    "A vLLM box for fifteen people on 2x 4090: what matters is how many requests it serves at once, not single-stream speed.",
    "兩張 4090 給 15 人用，重點是能同時服務多少人，不是單條速度",
])
def test_serving_many_at_once_is_throughput(text):
    assert read(text).get("priority") == "throughput"
