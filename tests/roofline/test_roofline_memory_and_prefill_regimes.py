"""Memory in binary units, hybrid linear-attention KV, Apple's wired-memory limit, and llama.cpp prompt
processing on NVIDIA workstation/datacenter parts (issue 18)."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.decide import decide
from rules.model_config import spec_from_config
from rules.profile import build_profile
from rules.roofline import calibration as cal
from rules.roofline import estimate, memory
from rules.roofline.prefill import prefill_seconds

GIB = 2**30
QWEN3_NEXT_CONFIG = {  # Qwen/Qwen3-Next-80B-A3B config.json (the copy in ai-dynamo/aiconfigurator)
    "architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "full_attention_interval": 4,
    "head_dim": 256, "hidden_size": 2048, "intermediate_size": 5120, "linear_conv_kernel_dim": 4,
    "linear_key_head_dim": 128, "linear_num_key_heads": 16, "linear_num_value_heads": 32,
    "linear_value_head_dim": 128, "max_position_embeddings": 262144, "mlp_only_layers": [],
    "moe_intermediate_size": 512, "num_attention_heads": 16, "num_experts": 512, "num_experts_per_tok": 10,
    "num_hidden_layers": 48, "num_key_value_heads": 2, "shared_expert_intermediate_size": 512,
    "decoder_sparse_step": 1, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "vocab_size": 151936}


def test_device_memory_is_sold_in_binary_units():
    h100, m3u = catalog.hardware("h100_sxm"), catalog.hardware("m3_ultra")
    assert memory.capacity_bytes(h100).value == 80 * GIB       # nvidia-smi: 81,559 MiB on an "80 GB" H100
    assert memory.usable_bytes(m3u, 512).value == pytest.approx(512 * GIB * m3u.usable_memory_fraction)
    est = estimate("llama-3.1-8b", "h100_sxm", quant="bf16", engine="vllm")
    assert est.memory.capacity_gb == pytest.approx(85.9, abs=0.05)   # every figure in GB = 1e9 bytes


def test_hybrid_linear_attention_keeps_kv_only_in_full_attention_layers():
    spec = catalog.model("qwen3-next-80b-a3b")
    att = spec.attention
    per_token = memory.kv_bytes_per_token(spec).value
    assert per_token == spec.kv_bytes_per_token_bf16 == 2 * (spec.layers - att.linear_layers) * 2 * 256 * 2
    state = att.linear_layers * att.linear_state_values * 2
    assert memory.kv_bytes(spec, 0).value == state                    # the fixed DeltaNet state
    assert memory.kv_bytes(spec, 32768).value == pytest.approx(per_token * 32768 + state)
    # a full-attention model of the same shape would hold four times the growing part
    assert per_token * 4 == 2 * spec.layers * 2 * 256 * 2


def test_the_deltanet_state_is_read_from_the_config():
    spec = spec_from_config(QWEN3_NEXT_CONFIG, name="Qwen3-Next")
    assert spec.attention.linear_layers == 36
    assert spec.attention.linear_state_values == 32 * 128 * 128 + (2 * 16 * 128 + 32 * 128) * 3
    assert memory.kv_bytes_per_token(spec).value == 24576


def test_a_hybrid_model_without_a_known_state_says_it_is_not_counted():
    est = estimate("qwen3.5-27b", "h100_sxm", quant="fp8", engine="vllm")
    assert any("linear-attention layers is not counted" in a for a in est.assumptions)


def test_apple_setups_that_run_do_fit():
    r1 = estimate("deepseek-r1", "m3_ultra", quant="q4_k_m", engine="llama.cpp", memory_gb=512)
    assert r1.fits and not any("wired-memory limit raised" in a for a in r1.assumptions)
    l70 = estimate("llama-3.1-70b", "m2_ultra", quant="bf16", engine="llama.cpp", memory_gb=192)
    assert l70.fits and not any("wired-memory limit raised" in a for a in l70.assumptions)


def test_apple_says_when_the_wired_limit_must_be_raised():
    est = estimate("deepseek-r1", "m3_ultra", quant="q4_k_m", engine="llama.cpp", memory_gb=512,
                   input_tokens=100_000, output_tokens=1_000, context_length=131_072)
    note = next(a for a in est.assumptions if "wired-memory limit raised" in a)
    assert est.fits and f"iogpu.wired_limit_mb={int(512 * GIB * memory.APPLE_RAISED_FRACTION / 2**20)}" in note
    d = decide(build_profile(dict(hardware="m3_ultra", model="deepseek-r1", quantization="q4_k_m", memory_gb=512,
                                  context_length=131_072, concurrency=1)))
    assert any("iogpu.wired_limit_mb" in w for w in d.warnings)
    assert "llama.cpp" not in {a.engine for a in d.avoid}


def test_llama_cpp_prompt_processing_on_pro_nvidia_parts():
    l8 = catalog.model("llama-3.1-8b")
    h100, a100 = catalog.hardware("h100_pcie"), catalog.hardware("a100_80g_pcie")
    # Hopper reaches a smaller share of its (wgmma) tensor peak than Ampere with llama.cpp's mma.sync kernels
    assert cal.pro_nvidia_prefill_efficiency(h100.cuda_cc) < cal.pro_nvidia_prefill_efficiency(a100.cuda_cc)
    f16 = prefill_seconds(l8, h100, "f16", 512, engine="llama.cpp").value
    q4 = prefill_seconds(l8, h100, "q4_k_m", 512, engine="llama.cpp").value
    assert q4 > f16                                            # int8 MMQ kernels below cuBLAS F16 here
    # without flash attention an 8K prompt pays the F32 score matrix: several times its attention FLOPs
    fa = prefill_seconds(l8, h100, "f16", 8192, engine="llama.cpp").value
    no_fa = prefill_seconds(l8, h100, "f16", 8192, engine="llama.cpp", flash_attention=False).value
    assert no_fa > 1.2 * fa
    assert 8192 / no_fa == pytest.approx(6191, rel=0.15)      # llama-bench pp8192, H100 PCIe, fa off (XiongjieDai)


def test_unknown_engine_of_a_published_row_estimates_with_a_note():
    est = estimate("llama-2-70b", "a10g", count=4, quant="int4", engine="mlc-llm", parallelism="tp")
    assert est.engine_profile == "generic" and est.decode_tokens_per_s > 0
    assert any("'mlc-llm' is not in the catalog" in a for a in est.assumptions)
