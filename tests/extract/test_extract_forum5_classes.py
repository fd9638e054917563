"""Classes of misreading found on the forum5 set (issue 14), each in English and Traditional Chinese,
with phrasings written for these tests (not copied from evals/extraction_forum5.yaml): a stated
parallel layout is the parallelism topic, a single request is concurrency 1, one named device is a
count of one, goals imply a priority, plurals and names that contain numbers, the price tied to the
device, engine flags that set the window and the number of machines."""
from __future__ import annotations

import pytest

from agent.extract import extract


def read(text: str):
    ex = extract(text)
    for words in ex.evidence.values():
        assert words in text, (words, text)
    return ex


# ---------------------------------------------------------------- 1. parallelism as part of the setup
@pytest.mark.parametrize("text", [
    "Serving Qwen3 32B with vLLM at tp 4 on four L40S, throughput is low.",
    "SGLang --tp 8 on one H200 box with DeepSeek V3, only 20 tok/s.",
    "I've tried TP=2 and TP=4 on two A6000s; no real gain.",
    "vllm serve Llama 3.1 70B --tensor-parallel-size 4 keeps running out of memory.",
    "Llama 70B with pipeline-parallel-size 2 across two boxes.",
    "兩張 4090 用 vLLM tensor-parallel-size 2 跑 Qwen2.5 32B AWQ，還是 OOM。",
    "lmdeploy 設 tp=2 起 InternLM2.5 20B，結果只用到一張卡。",
    "用 transformers 的 device_map=auto 把 GLM-4 9B 放在兩張 3090 上，第一張一直爆。",
    "手上三張 V100，想讓它們三卡一起跑一個 72B 模型。",
    "DeepSeek V3 on 16 H100 nodes, --tp 16 --nnodes 2, about 2 tok/s.",
    "torchrun --nproc_per_node 4 with the 30B checkpoint only loads on GPU 0; how do I get it on all four?",
])
def test_a_stated_parallel_layout_is_the_parallelism_topic(text):
    assert "parallelism" in read(text).topics


@pytest.mark.parametrize("text", [
    "gpt-oss-20b on one H100 with TP=1, benchmarked at concurrency 8.",
    "lmdeploy 單卡 tp 1 跑 Qwen2.5 7B，併發 16。",
    "PaddleNLP pp-uie 在 910B 上跑很慢。",
    "Llama 3 8B on a 4090, 40 tok/s.",
])
def test_no_split_no_parallelism(text):
    assert "parallelism" not in read(text).topics


# ---------------------------------------------------------------- 2. concurrency
@pytest.mark.parametrize("text, n", [
    ("Qwen3 8B on an L4 gives 30 tok/s with a single request.", 1),
    ("With just one request at a time the 4090 does 90 tok/s.", 1),
    ("兩張 910B 跑 Qwen3 14B，只發一個請求大概 12 tokens/s。", 1),
    ("單個請求的速度只有 9 token/s，卡是 910B。", 1),
    ("Load test: 64 concurrent requests against Llama 3 8B on one A100.", 64),
    ("Benchmarked at 32 max concurrent requests, 512 in / 128 out.", 32),
    ("With ~40 requests running, the H100 only gives 900 tok/s.", 40),
    ("Firing 512 prompts at once at SGLang on 2x H100.", 512),
    ("TGI is slower than vLLM at low concurrency such as 1 or 8.", 8),
    ("同時打 20 個請求，4090 上每個都很慢。", 20),
])
def test_concurrency_said_as_requests(text, n):
    assert read(text).values.get("concurrency") == n


# ---------------------------------------------------------------- 3. one device named
# (A possessive alone, "my RTX 3090", and an Apple machine named without a number keep no count: the curated
# set, scored per utterance, labels them so; evals/extraction_forum5.yaml's header records the difference.)
@pytest.mark.parametrize("text, hw", [
    ("Renting a RunPod RTX 4090 at $0.40/hour for a 14B model.", "rtx4090"),
    ("用 vLLM 部署 Qwen2 7B，卡是 L4（24G），一直 OOM。", "l4"),
    ("4090 24G 跑 GLM-4 9B 一直顯存不足。", "rtx4090"),
    ("T4（16G）上用 llama.cpp 跑 14B 的 GGUF。", "t4"),
    ("24G 的 3090 可以跑 32B 的 int4 嗎？", "rtx3090"),
    ("單張 A100 跑 Qwen2.5 72B int4 可以嗎？", "a100_80g_sxm"),
])
def test_one_device_named_is_a_count_of_one(text, hw):
    v = read(text).values
    assert (v.get("hardware"), v.get("count")) == (hw, 1)


@pytest.mark.parametrize("text", [
    "We run Llama 3 70B on A100s; which engine?",
    "在 H100 上跑 DeepSeek V3 要用哪個引擎？",
    "Is vLLM faster than TGI on H100?",
    "L40S 跑 Qwen3 32B 的速度怎麼樣？",
])
def test_a_device_without_a_number_stays_uncounted(text):
    assert "count" not in read(text).values


@pytest.mark.parametrize("text, n", [
    ("We cut the Llama 3 70B deployment from eight H100s to four.", 4),
    ("從 8 張 A100 減到 4 張，速度差不多。", 4),
    ("先用４張 A100 跑，後來改 8 張 A100、tp 8。", 8),
])
def test_the_count_after_a_change_is_the_setup(text, n):
    assert read(text).values.get("count") == n


# ---------------------------------------------------------------- 4. priority from stated goals
@pytest.mark.parametrize("text, priority", [
    ("Our app is cost-sensitive; two 4090s or one A100?", "cost"),
    ("Budget is the main constraint for this 70B box.", "cost"),
    ("We want to save money by running fewer servers with LoRA adapters.", "cost"),
    ("想把成本壓低，租 4090 跑 Qwen 14B 可以嗎？", "cost"),
    ("主要看重性價比，買一張 3090 對嗎？", "cost"),
    ("要租哪張卡才不會多花冤枉錢？", "cost"),
    ("私有化部署一年內能不能回本？", "cost"),
    ("老闆只希望不要太燒錢，也要安全。", "cost"),
    ("回應一定要在 300ms 以內，用哪個引擎？", "latency"),
    ("即時性是第一優先，四張 L40S 怎麼配？", "latency"),
    ("資料不能出內網，但業務有低延遲的要求。", "latency"),
    ("Ollama takes 40s to the first token; how do I get that latency down?", "latency"),
    ("Any settings on MI210 to squeeze out more throughput?", "throughput"),
    ("I'd rather trade some latency for bigger batches on two A10Gs.", "throughput"),
])
def test_a_stated_goal_implies_a_priority(text, priority):
    assert read(text).values.get("priority") == priority


@pytest.mark.parametrize("text", [
    "DeepSeek-R1 on 8x H200: first-token latency is 2 s with a short prompt. Is that expected?",
    "vLLM just merged a change with a big latency improvement; will SGLang follow?",
    "First-token latency median is ~12 s at 64 concurrent requests on Gaudi 2.",
    "延遲大概 800ms，四張 A100 跑 70B。",
])
def test_a_latency_figure_or_news_is_no_priority(text):
    assert "priority" not in read(text).values


# ---------------------------------------------------------------- 5. devices and model sizes
@pytest.mark.parametrize("text, hw", [
    ("I have 2 nodes, each with 2 V100s.", "v100_sxm2_32g"),
    ("Four V100s in one box, no NVLink.", "v100_sxm2_32g"),
    ("兩台機器各有兩張 V100。", "v100_sxm2_32g"),
    ("Our Gaudi 2 is slower than an A100 with TGI Gaudi.", "gaudi2"),
    ("tgi-gaudi on Gaudi2 with Llama 2 7B.", "gaudi2"),
    ("Is an H100 at $2.69/hour worth it over an A100?", "h100_sxm"),
    ("H100、A100 太貴了，我們想租一台 RTX 4090 的雲主機。", "rtx4090"),
    ("同一支程式 3090 十秒做完，昇騰 910B 卻要五分鐘。", "ascend_910b"),
])
def test_the_users_device(text, hw):
    assert read(text).values.get("hardware") == hw


def test_the_v100s_product_still_reads():
    assert read("Two V100S cards (32 GB) running Llama 2 13B.").values.get("hardware") == "v100s"


@pytest.mark.parametrize("text, size", [
    ("Qwen 3.6 27B at Q5_K_XL on one 3090.", 27),
    ("在 910B 上用 Qwen1.5_14B 掛多個 LoRA。", 14),
    ("One A100 running a Llama-70B-class model.", 70),
    ("兩張 4090 跑一個 Qwen-32B 級的模型", 32),
])
def test_an_unresolved_models_size_is_kept(text, size):
    ex = read(text)
    assert ex.values.get("params_b") == size and "model" not in ex.values


@pytest.mark.parametrize("text, model", [
    ("Two used 3090s for Llama 70B at Q4_K_M.", "llama-3.1-70b"),   # a catalog alias: the catalog decides
    ("單張 A100（80G）能跑千問 72B 的 int4 嗎？", "qwen2.5-72b"),
    ("能不能用千問 72B 做客服？", "qwen2.5-72b"),
])
def test_a_name_the_catalog_resolves_is_the_model(text, model):
    assert read(text).values.get("model") == model


def test_a_number_in_a_device_name_is_no_model_size():
    assert "params_b" not in read("昇騰 910B 跑 PaddleNLP 很慢。").values


# ---------------------------------------------------------------- 6. prices
@pytest.mark.parametrize("text, price", [
    ("A hosted endpoint costs $9.50/hr, versus one A100 80GB at about $1.80/hr.", 1.80),
    ("託管服務一小時 12 美元，自己租一張 H100 一小時 3 美元。", 3.0),
])
def test_the_device_price_is_the_one_tied_to_the_device(text, price):
    assert read(text).values.get("device_hour_usd") == pytest.approx(price)


@pytest.mark.parametrize("text", [
    "A hosted endpoint costs $9.50/hr versus one A100 at $1.80/hr. Is self-hosting cheaper?",
    "H100 一小時 4 美元、L4 一小時 0.8 美元，跑 7B 選哪張比較省？",
])
def test_hourly_prices_alone_are_not_cost_per_token(text):
    assert "cost-per-token" not in read(text).topics


@pytest.mark.parametrize("text", [
    "H100 at $4/hour vs L4 at $0.8/hour: which is cheaper per token for a 7B?",
    "雲上 H100 一小時 4 美元、L4 一小時 0.8 美元，哪張每個 token 比較便宜？",
])
def test_per_token_cost_asked_is_the_topic(text):
    assert "cost-per-token" in read(text).topics


# ---------------------------------------------------------------- 7. lengths and machines
@pytest.mark.parametrize("text, ctx", [
    ("llama-server -c 32768 on two A6000s with Llama 70B Q4_K_M.", 32768),
    ("TGI with --max-total-tokens 8192 on one L4.", 8192),
    ("TGI 設 max-total-tokens 4096，一張 A10。", 4096),
])
def test_engine_flags_set_the_window(text, ctx):
    assert read(text).values.get("context_length") == ctx


@pytest.mark.parametrize("text, nodes", [
    ("DeepSeek V3 across 4 H100 GPU nodes with SGLang.", 4),
    ("sglang launch with --nnodes 2 --tp 16 on H200.", 2),
    ("用 --nnodes 4 在 H20 上跑 DeepSeek R1。", 4),
])
def test_machines_from_nodes(text, nodes):
    assert read(text).values.get("nodes") == nodes


def test_processes_per_node_are_not_nodes():
    assert read("torchrun --nproc_per_node 8 example.py on 8x A100").values.get("nodes") in (None, 1)


# ---------------------------------------------------------------- further classes from the same sets
@pytest.mark.parametrize("text, link", [
    ("Qwen3 32B on 4x L40S over PCI-E, offline batch.", "pcie"),
    ("Two MI100s on PCIe 4.0 with vLLM.", "pcie"),
])
def test_a_link_after_the_name_is_the_interconnect(text, link):
    assert read(text).values.get("interconnect") == link


@pytest.mark.parametrize("text", [
    "Does SGLang support multi-LoRA on Trainium2?",
    "We need DeepSeek V3 working with vLLM on our 8x MI300X box - is there a way?",
    "vLLM 能不能在 Inferentia2 上跑 Llama 3 8B？",
])
def test_support_on_a_platform_is_asked(text):
    assert "platform-support" in read(text).topics


def test_a_second_hand_card_is_not_a_support_question():
    assert "platform-support" not in read("Building a used RTX 3090 pair with vLLM for a 70B AWQ - is 25 tok/s realistic?").topics


@pytest.mark.parametrize("text, n", [
    ("We're a 25-engineer startup looking at a self-hosted Copilot.", 25),
    ("A 12-person team shares one L40S.", 12),
])
def test_a_hyphenated_head_count_is_users(text, n):
    assert read(text).values.get("users") == n


@pytest.mark.parametrize("text, priority", [
    ("For a high-volume private chatbot, is self-hosting on rented H100s cheaper than APIs?", "cost"),
    ("Privacy first, then cost.", "privacy"),
    ("隱私最重要，其次是成本。", "privacy"),
])
def test_privacy_yields_unless_ranked(text, priority):
    assert read(text).values.get("priority") == priority


@pytest.mark.parametrize("text, n", [
    ("Langchain-Chatchat 設 num_gpus 給 2 跑 chatglm3-6b，只有一張卡在用。", 2),
    ("xinference launch with --n-gpu 4 for Qwen2 72B", 4),
    ("想租一台配 RTX 4090 的雲主機跑 14B 模型。", 1),
])
def test_the_engine_or_the_machine_says_how_many_cards(text, n):
    assert read(text).values.get("count") == n


@pytest.mark.parametrize("text", [
    "My M3 Max streams at 60 tok/s at batch 1. It's just me, one prompt at a time.",
    "llama.cpp on a 4090: 120 tok/s with one request at a time at batch 1.",
])
def test_batch_one_is_the_same_single_load(text):
    assert read(text).values.get("concurrency") == 1


@pytest.mark.parametrize("text", [
    "amd/Llama-3.3-70B-Instruct-FP8-KV on 8x MI355X with TP=8.",
    "跑 amd/Llama-3.1-8B-Instruct-FP8-KV，單張 MI300X。",
])
def test_an_fp8_kv_checkpoint_has_fp8_weights_and_an_fp8_cache(text):
    ex = read(text)
    assert ex.values.get("quantization") == "fp8" and "kv-quantization" in ex.topics


@pytest.mark.parametrize("text, offload", [
    ("DeepSeek-R1 Q2 via llama-server -ngl 8 on eight 24GB GPUs.", True),
    ("DeepSeek-R1 用 llama.cpp，--n-gpu-layers 20，其餘放記憶體。", True),
    ("Llama 3.1 8B with -ngl 99 on a 4090.", False),
])
def test_fewer_gpu_layers_than_the_model_has_is_offload(text, offload):
    assert ("offload" in read(text).topics) is offload


@pytest.mark.parametrize("text, n", [("Gaudi 2 with optimum-habana: 8 HPUs serving Llama 2 70B.", 8),
                                     ("昇騰機器 16 NPUs 跑 DeepSeek-V3", 16)])
def test_accelerator_words_count_devices(text, n):
    assert read(text).values.get("count") == n


@pytest.mark.parametrize("text, price", [
    ("A hosted Llama 70B endpoint costs $8/hr while one H100 is $2.5/hr on RunPod.", 2.5),
    ("API 代管一小時 9 美元，而一張 L40S 一小時 1.2 美元。", 1.2),
])
def test_the_hosted_price_in_the_same_clause_is_not_the_devices(text, price):
    assert read(text).values.get("device_hour_usd") == pytest.approx(price)


@pytest.mark.parametrize("text, priority", [
    ("We need throughput above all: 10M documents overnight on 8x L40S.", "throughput"),
    ("DeepSeek-V3 的成本能不能壓到每百萬 token 1 美元以下？", "cost"),
])
def test_more_ways_to_rank_a_goal(text, priority):
    assert read(text).values.get("priority") == priority


@pytest.mark.parametrize("text, raised", [
    ("I split Llama 3 70B across three 3090s with llama.cpp.", True),
    ("把 Qwen2.5 72B 拆到四張卡上跑，有什麼設定能讓一個實例吃滿 4 卡？", True),
    ("I'd rather run two replicas than splitting one model across both cards.", False),
])
def test_one_model_over_several_cards(text, raised):
    assert ("parallelism" in read(text).topics) is raised


@pytest.mark.parametrize("text, topic", [
    ("公司有兩台 8 卡 A800 伺服器，想跨機跑 DeepSeek-V3。", "parallelism"),
    ("用 ray 把 Llama 3.1 405B 分散在三台上。", "parallelism"),
    ("4090 顯存不夠，部分層跑在 CPU 上，只有 3 token/s。", "offload"),
    ("Only some of the layers stay on the GPU; most of the model sits in system RAM.", "offload"),
])
def test_zh_layout_words(text, topic):
    assert topic in read(text).topics


def test_cards_grouped_into_nodes_is_no_split():
    assert "parallelism" not in read("我們有 16 張 A40，分成兩個節點，二十個同仁。").topics


@pytest.mark.parametrize("text", ["希望每個回答都在 1 秒內回來，四張 L40S 夠嗎？", "Replies must come back within 800 ms on our L4."])
def test_a_wished_response_time_is_latency(text):
    assert read(text).values.get("priority") == "latency"


@pytest.mark.parametrize("text, priority", [
    ("Money matters more than speed for us; two 3090s or a 4090?", "cost"),
    ("錢比速度重要，兩張 3090 還是一張 4090？", "cost"),
    ("We'd like to cut our inference bill in half on 4x A10G.", "cost"),
    ("想把推理費用砍半，四張 A10 跑 Qwen 14B。", "cost"),
    ("We can't justify H100 prices; what's the most economical way to serve an 8B?", "cost"),
    ("We only care about tokens per second across the whole batch on 8x A100.", "throughput"),
    ("Maximizing requests per GPU is the goal on our 4x L40S.", "throughput"),
])
def test_goals_said_in_other_words(text, priority):
    assert read(text).values.get("priority") == priority


@pytest.mark.parametrize("text", ["每月的雲端費用大約 2000 美元，四張 L4。", "The box cost $30k and holds 8x L40S."])
def test_a_price_stated_is_no_goal(text):
    assert "priority" not in read(text).values


@pytest.mark.parametrize("text, n", [
    ("In my test I sent requests sequentially to Llama 3 8B on an A10G.", 1),
    ("Our load test runs 48 virtual users against 2x L40S.", 48),
])
def test_load_said_as_a_test_setup(text, n):
    assert read(text).values.get("concurrency") == n


@pytest.mark.parametrize("text, hw", [
    ("The 4090 is faster than my 3090 on Llama 3 8B.", "rtx3090"),
    ("比起 H20，我們的 L20 慢很多，跑 Qwen2.5 32B。", "l20"),
])
def test_the_device_called_mine_is_the_users(text, hw):
    assert read(text).values.get("hardware") == hw


@pytest.mark.parametrize("text", ["Qwen3-235B-A22B on 8x H20 with EP.", "DeepSeek-V3 在 16 張 H800 上開 EP 16。"])
def test_expert_parallel_in_the_setup_is_parallelism(text):
    assert "parallelism" in read(text).topics
