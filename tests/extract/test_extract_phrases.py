"""The extractor on the phrasings people use (English, Traditional Chinese, mixed).

Each case lists the values it must read; `absent` lists fields it must leave alone. These phrasings
are written apart from the labelled set (evals/extraction_set.yaml) so both check the same rules
from two sides.
"""
from __future__ import annotations

import pytest

from agent.extract import extract

CASES = [
    # hardware and counts
    ("8×H100 in one box", {"hardware": "h100_sxm", "count": 8}, ["nodes"]),
    ("we rent 8x H100", {"hardware": "h100_sxm", "count": 8}, []),
    ("手上 4 張 4090", {"hardware": "rtx4090", "count": 4}, []),
    ("兩張 3090 而已", {"hardware": "rtx3090", "count": 2}, []),
    ("八張 A100 80GB", {"hardware": "a100_80g_sxm", "count": 8}, ["memory_gb"]),
    ("three L40S cards", {"hardware": "l40s", "count": 3}, []),
    ("just a single 4090 here", {"hardware": "rtx4090", "count": 1}, []),
    ("H200 x 4", {"hardware": "h200_sxm", "count": 4}, []),
    ("M3 Ultra 256GB", {"hardware": "m3_ultra", "memory_gb": 256}, ["count"]),
    ("a Mac Studio M2 Ultra", {"hardware": "m2_ultra", "count": 1}, []),
    ("Xeon, no GPU", {"hardware": "xeon_spr"}, ["count"]),
    ("MI300X", {"hardware": "mi300x"}, ["count"]),
    ("8 nodes of H100", {"hardware": "h100_sxm", "nodes": 8}, ["count"]),
    ("DGX Spark on my desk", {"hardware": "dgx_spark_gb10"}, ["count"]),
    ("two DGX H100 systems", {"hardware": "h100_sxm", "count": 8, "nodes": 2}, []),
    ("an 8-GPU H200 server", {"hardware": "h200_sxm", "count": 8, "nodes": 1}, []),
    ("Llama 3.1 8B on 2 GPUs", {"model": "llama-3.1-8b", "count": 2}, ["params_b", "hardware"]),
    ("RTX 4090 24GB", {"hardware": "rtx4090", "memory_gb": 24}, ["count", "params_b"]),
    ("Apple M4 Max 64GB", {"hardware": "m4_max_40c", "memory_gb": 64}, []),
    ("我們沒有 H100，只有 4090 兩張", {"hardware": "rtx4090", "count": 2}, []),
    ("32 張 H100，分成四個節點", {"hardware": "h100_sxm", "count": 8, "nodes": 4}, []),
    # interconnect
    ("4 張 3090 沒有 NVLink", {"interconnect": "pcie"}, []),
    ("two cards, no NVLink", {"interconnect": "pcie"}, []),
    ("a single 4090, no NVLink of course", {"count": 1}, ["interconnect"]),
    ("只有 PCIe 而已", {"interconnect": "pcie"}, []),
    ("with NVLink bridges", {"interconnect": "nvlink"}, []),
    ("nodes talk over InfiniBand", {"interconnect": "infiniband"}, []),
    ("RoCE between hosts", {"interconnect": "ethernet"}, []),
    ("plain Ethernet", {"interconnect": "ethernet"}, []),
    ("8 H100 PCIe cards", {"hardware": "h100_pcie", "count": 8}, ["interconnect"]),
    # models and sizes
    ("Llama 3.3 70B Instruct", {"model": "llama-3.1-70b"}, ["params_b"]),
    ("a 32B model", {"params_b": 32}, ["model"]),
    ("70B 模型", {"params_b": 70}, ["model"]),
    ("DeepSeek-V3", {"model": "deepseek-v3"}, []),
    ("Qwen3-30B-A3B", {"model": "qwen3-30b-a3b"}, ["params_b", "architecture"]),
    ("gpt-oss-120b", {"model": "gpt-oss-120b"}, []),
    ("Mixtral", {"model": "mixtral-8x7b"}, []),
    ("Mixtral 8x22B", {"model": "mixtral-8x22b"}, []),
    ("DeepSeek-R1-Distill-Qwen-32B", {"model": "deepseek-r1-distill-qwen-32b"}, ["params_b"]),
    ("an 80B MoE, 3B active", {"params_b": 80, "active_params_b": 3, "architecture": "moe"}, []),
    # quantization
    ("FP8 weights", {"quantization": "fp8"}, ["kv_cache_dtype"]),
    ("4-bit AWQ", {"quantization": "awq"}, []),
    ("Q4_K_M", {"quantization": "q4_k_m"}, []),
    ("GGUF q4", {"quantization": "q4_k_m"}, []),
    ("EXL2 4.0bpw", {"quantization": "exl2-4.0"}, []),
    ("INT4", {"quantization": "int4"}, []),
    ("NVFP4", {"quantization": "nvfp4"}, []),
    ("launch in Q4 2026", {}, ["quantization"]),
    ("KV cache in FP8", {"kv_cache_dtype": "fp8"}, ["quantization"]),
    # lengths
    ("80K context", {"context_length": 80000}, []),
    ("128k 上下文", {"context_length": 128000}, []),
    ("prompts around 6K tokens", {"input_tokens": 6000}, []),
    ("answers of about 500 tokens", {"output_tokens": 500}, []),
    ("輸入 2000 tokens", {"input_tokens": 2000}, []),
    ("context window of 32,768 tokens", {"context_length": 32768}, []),
    # users and concurrency
    ("50 個併發", {"concurrency": 50}, ["users"]),
    ("50 concurrent users", {"concurrency": 50}, ["users"]),
    ("about 100 employees", {"users": 100}, ["concurrency"]),
    ("5 個人試用", {"users": 5, "serving_mode": "demo"}, ["concurrency"]),
    ("同時 30 人在用", {"concurrency": 30}, []),
    # workload
    ("a chatbot", {"workload": "chat"}, []),
    ("地端 RAG", {"workload": "rag", "priority": "privacy"}, []),
    ("文件摘要", {"workload": "summarization"}, []),
    ("coding agent", {"workload": "agent"}, []),
    ("離線批次處理", {"workload": "batch"}, []),
    ("continuous batching is on", {}, ["workload"]),
    ("not a chatbot, an offline batch job", {"workload": "batch"}, []),
    # flags
    ("same system prompt every time", {"shared_prefix": True}, []),
    ("有很多重複的 prefix", {"shared_prefix": True}, []),
    ("retrieved chunks repeat", {"shared_prefix": True}, []),
    ("JSON schema output", {"structured_output": True}, []),
    ("需要結構化輸出", {"structured_output": True}, []),
    ("30 LoRA adapters", {"lora_adapters": 30}, []),
    ("streaming to the browser", {"streaming": True}, []),
    ("we do not stream", {"streaming": False}, []),
    # serving mode
    ("本機自己用", {"serving_mode": "personal"}, []),
    ("a PoC", {"serving_mode": "demo"}, []),
    ("內部團隊用", {"serving_mode": "team"}, []),
    ("going to production for customers", {"serving_mode": "production"}, []),
    ("對外服務", {"serving_mode": "production"}, []),
    ("跨機房部署", {"serving_mode": "fleet"}, []),
    ("not for production, a demo", {"serving_mode": "demo"}, []),
    # priorities
    ("latency is what we optimise for", {"priority": "latency"}, []),
    ("吞吐量最重要", {"priority": "throughput"}, []),
    ("成本考量", {"priority": "cost"}, []),
    ("隱私", {"priority": "privacy"}, []),
    ("可攜性", {"priority": "portability"}, []),
    ("開發速度", {"priority": "dev-speed"}, []),
    ("we don't care about cost", {}, ["priority"]),
    ("what is the latency of decode?", {}, ["priority"]),
    ("非常在意延遲", {"priority": "latency"}, []),
]


@pytest.mark.parametrize("text,expected,absent", CASES, ids=[c[0] for c in CASES])
def test_reads_what_the_words_say(text, expected, absent):
    ex = extract(text)
    for field, value in expected.items():
        assert ex.values.get(field) == value, (field, ex.values)
        assert ex.evidence[field] in text
    for field in absent:
        assert field not in ex.values, (field, ex.values)


def test_full_width_characters_keep_exact_evidence():
    text = "我有８張Ｈ１００，沒有ＮＶＬｉｎｋ"
    ex = extract(text)
    assert ex.values["hardware"] == "h100_sxm" and ex.values["count"] == 8 and ex.values["interconnect"] == "pcie"
    assert ex.evidence["count"] == "８張Ｈ１００" and all(e in text for e in ex.evidence.values())


def test_priorities_keep_the_users_order():
    ex = extract("Privacy first, then cost; latency matters less.")
    assert ex.values["priority"] == "privacy"
    assert ex.values["priorities"][:2] == ["privacy", "cost"]


def test_inconsistent_lengths_drop_the_prompt_length_not_the_context():
    ex = extract("context 8k, prompts around 20k tokens")
    assert ex.values == {"context_length": 8000}
