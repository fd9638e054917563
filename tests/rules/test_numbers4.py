"""Review-3 classes A-B (numbers, fit facts): each test states a fact an expert checked the answer against.

- FP8 needs FP8 hardware on AMD: CDNA2 (MI250/MI210, gfx90a) has none, and vLLM refuses FP8 checkpoints there
  (vllm-project/vllm#16394: "type fp8e4b8 not supported in this architecture"); MI300X runs FP8 natively.
- A format the engine has no kernel for on the user's GPU is never listed for it (AWQ on vLLM needs CC 7.5: not V100).
- llama.cpp's row split (-sm row) syncs every split matrix multiply through the host: 3x P40 run a 70B Q4 at
  about 10 tok/s, not the 3x of one card's bandwidth (ollama/ollama#5458: 3x P40 ~3 -> ~10 t/s with row split).
- A MoE whose experts stay in system RAM (--n-cpu-moe) serves at least one sequence on the GPU it runs on, and
  an RTX 30-class desktop streams those experts from DDR4, not DDR5.
- One plan shows one per-stream speed: the plan line says which figure is per stream and which counts the
  whole request (prefill included)."""
from __future__ import annotations

import pytest

from rules import catalog, engines
from rules.plan import plan_for_setup
from rules.roofline.estimate import estimate


# --- FP8 on AMD ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_fp8_has_no_kernel_on_cdna2(engine):
    mi250 = catalog.hardware("mi250")
    assert engines.device_kernel(engine, "fp8", mi250) is None


def test_fp8_runs_natively_on_mi300x():
    assert engines.device_kernel("vllm", "fp8", catalog.hardware("mi300x")) == "optimized"


def test_fp8_still_runs_on_hopper_and_weight_only_on_ampere():
    assert engines.device_kernel("vllm", "fp8", catalog.hardware("h100_sxm")) == "optimized"
    assert engines.device_kernel("vllm", "fp8", catalog.hardware("a100_80g_sxm")) == "supported"


def test_fp8_405b_on_mi250_is_not_planned_at_fp8():
    plan, est = plan_for_setup("llama-3.1-405b", "mi250", count=4, engine="vllm")
    assert est.quantization != "fp8"
    assert "--quantization fp8" not in plan.flags.get("vllm", "")


def test_mi250_launch_counts_gcds():
    """Each MI250 OAM is two GPUs to ROCm: vLLM's TP size counts GCDs (4 cards = 8)."""
    plan, _ = plan_for_setup("mixtral-8x22b", "mi250", count=4, engine="vllm", quant="bf16")
    line = plan.flags["vllm"]
    assert "--tensor-parallel-size 8" in line or "--pipeline-parallel-size" in line


# --- AWQ on Volta -----------------------------------------------------------------------------------------

def test_awq_is_not_a_vllm_format_on_v100():
    v100 = catalog.hardware("v100_sxm2_32g")
    assert engines.device_kernel("vllm", "awq", v100) is None
    assert engines.own_format("vllm", "int4", v100.platform, v100.cuda_cc) != "awq"


# --- llama.cpp row split on P40s --------------------------------------------------------------------------

def test_three_p40_70b_q4_is_single_digit_to_about_ten_tok_s():
    plan, est = plan_for_setup("llama-3.1-70b", "p40", count=3, quant="q4_k_m", engine="llama.cpp")
    assert 4.0 <= est.decode_tokens_per_s <= 11.0


def test_row_split_pays_a_host_sync_per_split_matmul():
    tp = estimate("llama-3.1-70b", "p40", count=3, quant="q4_k_m", engine="llama.cpp", parallelism="tp")
    assert tp.step.comm_ms > 20          # 80 layers x 7 split matmuls, each synchronised through the host
    vllm_like = estimate("llama-3.1-70b", "a100_80g_sxm", count=2, quant="bf16", engine="vllm", parallelism="tp")
    assert vllm_like.step.comm_ms < 5    # server engines all-reduce twice per layer (unchanged)


# --- MoE expert offload -----------------------------------------------------------------------------------

def test_expert_offload_serves_a_sequence_and_uses_a_ddr4_host():
    est = estimate("qwen3-30b-a3b", "rtx3060_12gb", quant="q4_k_m", engine="llama.cpp", context_length=16384)
    o = est.offload
    assert o is not None and o.n_cpu_moe is not None
    assert est.max_concurrency >= 1                      # it runs: the KV cache stays on the GPU
    assert o.host_bw_gbs == pytest.approx(51.2)          # dual-channel DDR4-3200 desktop
    assert 15 <= est.decode_tokens_per_s <= 45


def test_offload_launch_flag_matches_the_estimate():
    plan, est = plan_for_setup("qwen3-30b-a3b", "rtx3060_12gb", quant="q4_k_m", engine="llama.cpp")
    assert f"--n-cpu-moe {est.offload.n_cpu_moe}" in plan.flags["llama.cpp"]


def test_ada_desktop_keeps_the_ddr5_host():
    est = estimate("llama-3.1-70b", "rtx4090", quant="q4_k_m", engine="llama.cpp")
    assert est.offload.host_bw_gbs == pytest.approx(89.6)


# --- one plan, one per-stream figure ---------------------------------------------------------------------

@pytest.mark.parametrize("lang, per_stream, whole", [("en", "per stream", "whole requests"),
                                                     ("zh", "每條串流", "整個請求")])
def test_plan_line_names_per_stream_and_whole_request_figures(lang, per_stream, whole):
    from rules.plan.explain import figures_line
    plan, est = plan_for_setup("deepseek-r1", "m3_ultra", quant="int4", engine="mlx-lm", input_tokens=30000,
                               output_tokens=500, memory_gb=512)
    c = plan.chosen
    line = figures_line(c, 1, 32768, lang)
    assert per_stream in line and whole in line
    assert f"{1000 / c.figures.tpot_ms:.1f}" in line or f"{1000 / c.figures.tpot_ms:.0f}" in line


# --- Strix Halo prefill -----------------------------------------------------------------------------------

def test_strix_halo_prefill_is_about_a_thousand_tokens_per_second():
    """lhl/strix-halo-testing#33: gpt-oss-120b MXFP4 pp2048 998 tok/s, tg32 47 tok/s (llama.cpp ROCm)."""
    est = estimate("gpt-oss-120b", "ryzen_ai_max_395", quant="mxfp4", engine="llama.cpp", input_tokens=2048,
                   output_tokens=128)
    assert 600 <= est.prefill_tokens_per_s <= 1400
    assert 30 <= est.decode_tokens_per_s <= 60


def test_int4_checkpoints_need_marlin_on_vllm_so_not_on_v100():
    v100 = catalog.hardware("v100_sxm2_32g")
    assert engines.device_kernel("vllm", "int4", v100, exact=True) is None     # W4A16 via Marlin: Ampere+
    assert engines.device_kernel("vllm", "gptq-4bit", v100, exact=True) is not None
