"""Each roofline formula against a hand calculation, and the issue's known answers."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.errors import InputError
from rules.quant import bits_per_weight, compute_dtype
from rules.roofline import comm, memory
from rules.roofline.decode import decode_step, decode_tokens_per_s, decode_tokens_per_s_bound
from rules.roofline.layout import Layout, build_layout
from rules.roofline.prefill import attention_flops, linear_params, prefill_flops, prefill_seconds
from rules.roofline.serving import cost_per_1m_tokens, max_concurrency, static_batch, under_load

L70, L7 = catalog.model("llama-3.1-70b"), catalog.model("llama-2-7b")
H100, M3U, R4090 = catalog.hardware("h100_sxm"), catalog.hardware("m3_ultra"), catalog.hardware("rtx4090")


def test_known_answer_llama70b_fp16_weights():
    assert memory.weight_bytes(L70, "f16").value / 1e9 == pytest.approx(141.1, abs=0.2)


def test_known_answer_kv_bytes_llama70b():
    assert memory.kv_bytes_per_token(L70).value == 327_680  # 2 x 80 x 8 x 128 x 2


def test_known_answer_bandwidth_ratio():
    assert H100.mem_bw_gbs / M3U.mem_bw_gbs == pytest.approx(4.1, abs=0.05)


@pytest.mark.parametrize("quant, bits", [("bf16", 16), ("fp8", 8), ("q8_0", 8.5), ("q4_0", 4.5), ("mxfp4", 4.25),
                                         ("nvfp4", 4.5), ("exl2-4.0", 4.0), ("exl3-2.5", 2.5)])
def test_bits_per_weight(quant, bits):
    assert bits_per_weight(quant) == bits


def test_unknown_quant_is_an_input_error():
    with pytest.raises(InputError):
        bits_per_weight("q3_banana")
    with pytest.raises(InputError):
        bits_per_weight("exl2-40")


def test_gguf_sizes_match_published_files():
    # llama.cpp #4167: Llama 2 7B Q8_0 6.67 GiB, Q4_0 3.56 GiB, F16 12.55 GiB
    for quant, gib in (("q8_0", 6.67), ("q4_0", 3.56), ("f16", 12.55)):
        assert memory.weight_bytes(L7, quant).value / 2**30 == pytest.approx(gib, rel=0.03)
    # gpt-oss-20b MXFP4 GGUF 11.27 GiB (non-expert tensors Q8_0 in that file)
    gpt = catalog.model("gpt-oss-20b")
    assert memory.weight_bytes(gpt, "mxfp4", "llama.cpp").value / 2**30 == pytest.approx(11.27, rel=0.03)


def test_kv_cache_quantization_and_mla_and_sliding_window():
    assert memory.kv_bytes_per_token(L70, "fp8").value == 327_680 / 2
    assert memory.kv_bytes_per_token(catalog.model("deepseek-v3")).value == 61 * (512 + 64) * 2
    gpt = catalog.model("gpt-oss-20b")  # 12 full layers grow, 12 sliding layers stop at 128 tokens
    per_layer = 2 * 8 * 64 * 2
    assert memory.kv_bytes(gpt, 4096).value == 12 * per_layer * 4096 + 12 * per_layer * 128
    assert memory.kv_bytes(gpt, 100).value == 24 * per_layer * 100


def test_moe_reads_active_experts_at_batch_one_and_more_as_batch_grows():
    mix = catalog.model("mixtral-8x7b")
    assert memory.experts_touched(mix, 1).value == pytest.approx(2 / 8)
    shares = [memory.experts_touched(mix, b).value for b in (1, 2, 8, 64)]
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0, abs=1e-6)
    b1 = memory.step_weight_bytes(mix, "bf16", 1).value
    assert b1 < memory.step_weight_bytes(mix, "bf16", 8).value <= memory.weight_bytes(mix, "bf16").value
    # batch 1: active params (~12.9B) x 2 bytes, without the input embedding
    assert b1 / 1e9 == pytest.approx((mix.active_params_b - mix.embedding_params_b) * 2, rel=0.05)


def test_apple_usable_fraction_and_reserve():
    assert memory.usable_bytes(M3U).value == pytest.approx(512 * 2**30 * 0.75)
    assert memory.usable_bytes(M3U, 256).value == pytest.approx(256 * 2**30 * 0.75)
    assert memory.reserve_bytes(H100, "vllm", 80e9).value == pytest.approx(8e9)
    assert memory.reserve_bytes(R4090, "llama.cpp", 24e9).value == pytest.approx(1.2e9)


def test_decode_bound_is_bandwidth_over_bytes():
    bound = decode_tokens_per_s_bound(L7, R4090, "q4_0", context=0).value
    bytes_per_token = memory.step_weight_bytes(L7, "q4_0").value
    assert bound == pytest.approx(1008e9 / bytes_per_token)
    assert decode_tokens_per_s(L7, R4090, "q4_0").value < bound


def test_small_model_on_hbm_is_overhead_bound():
    step = decode_step(catalog.model("qwen2.5-7b"), catalog.hardware("b200"), "q4_k_m", 1, 512, Layout("none"))
    assert step.overhead_s > step.weights_s + step.kv_s


def test_kv_reads_grow_with_context():
    short = decode_step(L70, H100, "fp8", 1, 1_000, Layout("none"))
    long = decode_step(L70, H100, "fp8", 1, 100_000, Layout("none"))
    assert long.kv_s == pytest.approx(short.kv_s * 100, rel=1e-6) and long.seconds > short.seconds


def test_batching_amortises_weights_until_compute_bound():
    one = decode_step(L7, H100, "bf16", 1, 512, Layout("none"))
    many = decode_step(L7, H100, "bf16", 64, 512, Layout("none"))
    assert many.weights_s == pytest.approx(one.weights_s)  # weights read once per step
    assert 64 / many.seconds > 20 / one.seconds
    huge = decode_step(L7, H100, "bf16", 4096, 16, Layout("none"))
    assert huge.compute_s > huge.weights_s  # compute-bound at very large batch


def test_prefill_flops_and_attention_term():
    n = 512
    expected = 2 * linear_params(L7) * n + 2 * L7.embedding_params_b * 1e9 + 4 * 32 * 4096 * n * n / 2
    assert prefill_flops(L7, n).value == pytest.approx(expected)
    assert attention_flops(L7, 2 * n) == pytest.approx(4 * attention_flops(L7, n))
    per_token_short = prefill_seconds(L7, H100, "bf16", 1_000).value / 1_000
    per_token_long = prefill_seconds(L7, H100, "bf16", 32_000).value / 32_000
    assert per_token_long > per_token_short


def test_prefill_uses_fp8_rate_only_where_engine_and_device_have_it():
    tf = H100.tflops.model_dump()
    assert compute_dtype("fp8", tf, "vllm") == "fp8"
    assert compute_dtype("fp8", tf, "llama.cpp") == "bf16"
    assert compute_dtype("fp8", catalog.hardware("a100_80g_sxm").tflops.model_dump(), "vllm") == "bf16"


def test_allreduce_formula_and_links():
    one = comm.allreduce_s(16_384, 2, H100).value
    assert one == pytest.approx(2 * 1 * 5e-6 + 2 * 1 / 2 * 16_384 / 450e9)
    nvlink = comm.tp_step_s(8192, 80, 1, 4, H100).value
    pcie_no_p2p = comm.tp_step_s(8192, 80, 1, 4, R4090).value
    assert pcie_no_p2p > nvlink > 0
    assert comm.link(R4090)[0] == "pcie-no-p2p"
    assert comm.pp_step_s(8192, 1, 1, H100).value == 0


def test_layouts():
    assert build_layout(None, 1) == Layout("none")
    assert build_layout(None, 8).tp == 8
    lay = build_layout(None, 8, nodes=2)
    assert (lay.tp, lay.pp, lay.devices) == (8, 2, 16)
    assert build_layout("tp+dp", 8, replica_devices=2) == Layout("tp+dp", tp=2, dp=4)
    with pytest.raises(InputError):
        build_layout("none", 2)
    with pytest.raises(InputError):
        build_layout("zigzag", 2)


def test_max_concurrency_and_queueing():
    assert max_concurrency(10e9, 1e9).value == 10

    def step(batch, prompt_tokens):  # 20 ms + 0.1 ms per sequence + 10 us per prompt token
        return 0.02 + 1e-4 * batch + 1e-5 * prompt_tokens
    solo = under_load(1, 1, 0.2, step, 1000, 100)
    assert solo.ttft_s == pytest.approx(0.2) and solo.queue_s == 0  # one user: the prompt alone, no wait
    assert solo.tpot_s == pytest.approx(0.0201) and solo.prefill_tokens_per_step == 0
    crowded = under_load(100, 10, 0.2, step, 1000, 100)
    t = 0.02 + 1e-3 + 1e-5 * 10 * 1000 / 100          # 10 decodes + 100 prompt tokens per step
    x = 10 / (0.2 + 100 * t)
    rho = x * 0.2
    assert crowded.tpot_s == pytest.approx(t) and crowded.requests_per_s == pytest.approx(x)
    assert crowded.queue_s == pytest.approx(90 / x)
    assert crowded.ttft_s == pytest.approx(90 / x + t / 2 + rho * 0.2 / (2 * (1 - rho)) + 0.2)
    assert crowded.output_tokens_per_s == pytest.approx(100 * x)
    assert crowded.output_tokens_per_s > solo.output_tokens_per_s


def test_chunked_prefill_spreads_a_long_prompt_over_steps():
    def step(batch, prompt_tokens):
        return 0.05
    whole = under_load(8, 8, 0.1, step, 8000, 100)
    chunked = under_load(8, 8, 0.1, step, 8000, 100, token_budget=2048)
    assert whole.ttft_s < chunked.ttft_s  # 4 chunks of 2040 tokens, one per 50 ms step, instead of 0.1 s


def test_static_batch():
    b = static_batch(16, 1.0, 0.02, 100)
    assert b.output_tokens_per_s == pytest.approx(16 * 100 / (1.0 + 100 * 0.02)) and b.ttft_s == 1.0


def test_cost_formula():
    assert cost_per_1m_tokens(8, 2.0, 1000).value == pytest.approx(8 * 2.0 / (1000 * 3600) * 1e6)
