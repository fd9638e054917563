"""Under load: engine scheduling profiles, paged and FP8 KV, queueing TTFT, MoE routing per engine, Apple limit."""
from __future__ import annotations

import pytest

from rules.roofline import estimate
from rules.roofline.memory import kv_tokens_held
from rules.roofline.runtime import runtime

NIM_70B = dict(model="llama-3.1-70b", hardware="h100_sxm", count=2, quant="fp8", engine="tensorrt-llm")


@pytest.mark.parametrize("inp, out, ttft_ms", [(5000, 500, 406.77), (500, 2000, 47.77)])
def test_ttft_at_concurrency_one_matches_nvidia_nim(inp, out, ttft_ms):
    """NVIDIA NIM 1.8.0, Llama 3.3 70B fp8 TP2 on 2 x H100 (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance)."""
    est = estimate(**NIM_70B, input_tokens=inp, output_tokens=out)
    assert est.ttft_s == pytest.approx(ttft_ms / 1000, rel=0.20)


def test_a_long_prompt_waits_for_its_prefill_slot_as_load_grows():
    # 256 users x 3,600 tokens exceed the FP8 KV room of 2 x 80 GiB next to the weights; 128 users still fit
    ttft = [estimate(**NIM_70B, input_tokens=3200, output_tokens=400, concurrency=c).ttft_s for c in (1, 8, 32, 256)]
    assert ttft == sorted(ttft) and ttft[2] > 1.3 * ttft[0]
    assert ttft[3] > 5 * ttft[0]  # prompts queue behind each other for the prefill slot


def test_queue_saturates_throughput_like_the_nim_table():
    """NIM table: throughput flat at ~920 tok/s from 100 to 250 users while TTFT grows with the queue."""
    a, b = (estimate(**NIM_70B, input_tokens=5000, output_tokens=500, concurrency=c) for c in (150, 250))
    assert a.aggregate_tokens_per_s == pytest.approx(b.aggregate_tokens_per_s, rel=0.01)
    assert b.queue_s > a.queue_s > 0 and b.ttft_s - a.ttft_s == pytest.approx(b.queue_s - a.queue_s, rel=0.01)
    assert b.aggregate_tokens_per_s == pytest.approx(920, rel=0.25)


def test_trtllm_deploys_fp8_kv_with_fp8_checkpoints_and_it_can_be_overridden():
    est = estimate(**NIM_70B, input_tokens=5000, output_tokens=500, concurrency=64)
    assert est.kv_cache_dtype == "fp8" and any("KV cache in FP8" in a for a in est.assumptions)
    bf16 = estimate(**{**NIM_70B, "quant": "fp8"}, kv_cache_dtype="bf16", input_tokens=5000, output_tokens=500,
                    concurrency=64)
    assert bf16.kv_cache_dtype == "bf16" and bf16.in_service < est.in_service
    assert estimate("llama-3.1-70b", "h100_sxm", count=2, quant="fp8", engine="vllm").kv_cache_dtype is None


def test_paged_kv_holds_the_tokens_in_flight_not_the_full_context():
    assert kv_tokens_held("mean", 2176, 2048).value == 1152  # prompt + half the output, in 16-token blocks
    assert kv_tokens_held("peak", 2176, 2048).value == 2176
    assert kv_tokens_held("slot", 2176, 2048).value == 2176
    vllm = estimate("llama-3.1-8b", "h100_sxm", quant="fp8", engine="vllm", input_tokens=128, output_tokens=4096,
                    concurrency=2000)
    assert vllm.in_service > vllm.max_concurrency  # blocks for tokens so far, not a full context per sequence
    assert vllm.in_service <= runtime("vllm", "datacenter")[0].seq_cap(vllm_hw())


def vllm_hw():
    from rules import catalog
    return catalog.hardware("h100_sxm")


def test_engine_scheduler_limits_come_from_their_defaults():
    from rules import catalog
    h100, a100, l40s = (catalog.hardware(h) for h in ("h100_sxm", "a100_80g_sxm", "l40s"))
    vllm = runtime("vllm", "datacenter")[0]
    assert vllm.seq_cap(h100) == 1024 and vllm.seq_cap(a100) == 256 and vllm.token_budget(a100) == 2048
    sglang = runtime("sglang", "datacenter")[0]
    assert sglang.token_budget(catalog.hardware("mi300x")) == 16384 and sglang.token_budget(l40s) == 8192
    assert runtime("tensorrt-llm", "datacenter")[0].kv_hold == "peak"


def test_unknown_engine_falls_back_with_a_note():
    est = estimate("llama-2-70b", "rx7900xtx", count=2, quant="int4", engine="mlc-llm", parallelism="tp")
    assert est.engine == "mlc-llm" and est.engine_profile == "generic" and est.decode_tokens_per_s > 0
    assert any("'mlc-llm' is not in the catalog" in a for a in est.assumptions)


def test_moe_routing_cost_is_per_engine():
    """The llama.cpp routing constant (~3 us per token-layer) must not land on TensorRT-LLM's prefill."""
    trt = estimate("qwen3-30b-a3b", "b200", quant="nvfp4", engine="tensorrt-llm", input_tokens=2048, output_tokens=1)
    cpp = estimate("qwen3-30b-a3b", "b200", quant="q8_0", engine="llama.cpp", input_tokens=2048, output_tokens=1)
    assert trt.ttft_s < 0.05 and cpp.ttft_s > 2 * trt.ttft_s


def test_static_batch_load():
    """OCI MI300X x8, Llama 3.1 405B FP8, vLLM benchmark_latency: 128 in / 128 out, 1846 tok/s at batch 256."""
    est = estimate("llama-3.1-405b", "mi300x", count=8, quant="fp8", engine="vllm", input_tokens=128,
                   output_tokens=128, concurrency=256, load="static")
    assert est.load == "static" and est.in_service == 256 and est.queue_s == 0
    assert est.aggregate_tokens_per_s == pytest.approx(1846, rel=0.3)


@pytest.mark.parametrize("model, hw, quant, prompt", [("deepseek-v3", "m3_ultra", "q4_k_m", 63_000),
                                                     ("llama-3.1-70b", "m2_ultra", "bf16", 31_000)])
def test_apple_setups_that_run_fit_and_say_when_the_wired_limit_must_be_raised(model, hw, quant, prompt):
    """671B Q4 on a 512 GB M3 Ultra and 70B BF16 on a 192 GB M2 Ultra run in practice: at a short context
    within the default GPU share (75 % of 512 / 192 GiB), at 64K / 32K tokens only with iogpu.wired_limit_mb raised."""
    short = estimate(model, hw, quant=quant, engine="llama.cpp")
    assert short.fits and not any("wired-memory limit raised" in a for a in short.assumptions)
    long = estimate(model, hw, quant=quant, engine="llama.cpp", input_tokens=prompt, output_tokens=1_000)
    assert long.fits
    note = next(a for a in long.assumptions if "wired-memory limit raised" in a)
    assert "iogpu.wired_limit_mb=" in note


def test_small_setups_need_no_raised_limit():
    est = estimate("llama-3.1-8b", "m2_ultra", quant="bf16")
    assert est.fits and not any("wired-memory limit raised" in a for a in est.assumptions)
    assert not estimate("llama-3.1-405b", "m2_ultra", quant="bf16").fits


def test_llamacpp_prefill_on_datacenter_gpus_is_far_below_tensor_peak():
    h100 = estimate("llama-3.1-8b", "h100_sxm", quant="q4_k_m", engine="llama.cpp", input_tokens=512, output_tokens=1)
    vllm = estimate("llama-3.1-8b", "h100_sxm", quant="bf16", engine="vllm", input_tokens=512, output_tokens=1)
    assert h100.prefill_tokens_per_s < 0.6 * vllm.prefill_tokens_per_s
    long = estimate("llama-3.1-8b", "dgx_spark_gb10", quant="q8_0", engine="llama.cpp", input_tokens=32768, output_tokens=1)
    short = estimate("llama-3.1-8b", "dgx_spark_gb10", quant="q8_0", engine="llama.cpp", input_tokens=2048, output_tokens=1)
    assert long.prefill_tokens_per_s < 0.7 * short.prefill_tokens_per_s  # attention at long context


def test_rocm_decode_is_slower_than_the_gddr_share_alone():
    """RX 7900 XTX, llama 8B Q4_K_M, HIP backend: 105.75 tok/s (llama.cpp PR #26284)."""
    est = estimate("llama-3.1-8b", "rx7900xtx", quant="q4_k_m", engine="llama.cpp", input_tokens=0, output_tokens=64)
    assert est.decode_tokens_per_s == pytest.approx(105.75, rel=0.1)


def test_an_estimate_stays_cheap():
    """The planner calls estimate() dozens of times per answer: no catalog work repeats per call."""
    from rules.roofline.runtime import runtime as rt
    rt.cache_clear()
    for c in (1, 2, 4, 8):
        estimate(**NIM_70B, input_tokens=3200, output_tokens=400, concurrency=c)
    assert rt.cache_info().hits >= 3
