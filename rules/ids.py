"""The one vocabulary of the advisor: every id in DESIGN.md's contracts, defined once.

Other modules import these names; nothing else spells an engine, a field or a metric id.
"""
from __future__ import annotations

import re
from typing import Literal, get_args

EngineId = Literal[
    "llama.cpp", "mlx-lm", "ollama", "exllamav2", "exllamav3",
    "vllm", "sglang", "tensorrt-llm", "dynamo", "openvino-genai",
]
ENGINES: tuple[str, ...] = get_args(EngineId)

# Fixed quantization ids; `exl2-<bpw>` / `exl3-<bpw>` are matched by pattern.
QUANTS_FIXED: tuple[str, ...] = (
    "bf16", "f16", "fp8", "int8", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0",
    "int4", "awq", "gptq-4bit", "mxfp4", "nvfp4",
)
EXL_QUANT_RE = re.compile(r"^(exl2|exl3)-(\d+(?:\.\d+)?)$")

InterconnectId = Literal["nvlink", "pcie", "infinity-fabric", "infiniband", "ethernet", "unified", "none"]
INTERCONNECTS: tuple[str, ...] = get_args(InterconnectId)

FieldId = Literal[
    "hardware", "interconnect", "model", "quantization", "workload",
    "context_length", "concurrency", "shared_prefix", "serving_mode", "priority",
]
ASKABLE_FIELDS: tuple[str, ...] = get_args(FieldId)

ServingMode = Literal["personal", "demo", "team", "production", "fleet"]
SERVING_MODES: tuple[str, ...] = get_args(ServingMode)

Bottleneck = Literal["prefill", "decode", "kv-cache", "scheduler", "interconnect", "memory-capacity"]
BOTTLENECKS: tuple[str, ...] = get_args(Bottleneck)

Strategy = Literal["none", "tp", "pp", "tp+pp", "ep", "dp", "tp+dp"]
STRATEGIES: tuple[str, ...] = get_args(Strategy)

Metric = Literal[
    "ttft", "tpot", "itl", "e2e_latency", "p50", "p95", "p99", "output_tokens_per_s",
    "requests_per_s", "gpu_memory_headroom", "kv_cache_hit_rate", "cost_per_1m_tokens",
]
METRICS: tuple[str, ...] = get_args(Metric)

Intent = Literal["recommend", "explain", "estimate", "benchmark", "size"]
INTENTS: tuple[str, ...] = get_args(Intent)

# What the user optimises for (the tenth question of the source article).
Priority = Literal["latency", "throughput", "cost", "privacy", "portability", "dev-speed"]
PRIORITIES: tuple[str, ...] = get_args(Priority)

# Workload shapes; each maps to a bottleneck in the source's workload table.
WorkloadKind = Literal["chat", "rag", "summarization", "agent", "coding", "batch"]
WORKLOADS: tuple[str, ...] = get_args(WorkloadKind)

Architecture = Literal["dense", "moe", "multimodal", "hybrid"]
ARCHITECTURES: tuple[str, ...] = get_args(Architecture)

HardwareClass = Literal["edge", "apple", "consumer", "workstation", "datacenter", "cpu"]
HARDWARE_CLASSES: tuple[str, ...] = get_args(HardwareClass)

Language = Literal["en", "zh"]


def is_quant(value: str) -> bool:
    """True when `value` is a quantization id of the contract."""
    return value in QUANTS_FIXED or bool(EXL_QUANT_RE.match(value))


def exl_bpw(value: str) -> float | None:
    """Bits per weight of an `exl2-<bpw>` / `exl3-<bpw>` id, else None."""
    m = EXL_QUANT_RE.match(value)
    return float(m.group(2)) if m else None

# Software platform of a device: what an engine must support to run on it.
# google-tpu, aws-neuron and huawei-ascend: accelerators none of the ten engines targets natively;
# some reach them through hardware plugins or vendor forks (rules/catalog/engines.yaml says which).
Platform = Literal["nvidia-cuda", "amd-rocm", "apple-silicon", "intel-gpu", "intel-gaudi", "x86-cpu", "arm-cpu",
                   "google-tpu", "aws-neuron", "huawei-ascend"]
PLATFORMS: tuple[str, ...] = get_args(Platform)
