"""Partial offload (the blind review's class 4): a model that does not fit the GPU and runs the rest
from system RAM on llama.cpp is estimated at GPU bytes / GPU bandwidth + RAM bytes / RAM bandwidth,
and its launch line places the layers or experts that fit (-ngl N / --n-cpu-moe N), never -ngl 999 alone.

Sanity ranges from public reports: a 70B Q4 on one 24 GB GPU with the rest in DDR5 runs at 2-4 tok/s;
Qwen3-235B-A22B Q4 with experts in RAM at 5-10 tok/s."""
from __future__ import annotations

import pytest

from rules.plan import plan_for_setup
from rules.roofline.estimate import estimate


def test_dense_70b_q4_on_a_24gb_gpu_runs_at_system_ram_speed():
    est = estimate("llama-3.1-70b", "rtx4090", quant="q4_k_m", engine="llama.cpp")
    assert not est.fits and est.offload is not None
    assert 1.5 <= est.decode_tokens_per_s <= 4.0
    o = est.offload
    assert o.ngl is not None and 0 < o.ngl < 80 and o.n_cpu_moe is None
    assert o.ram_gb > 15 and o.host_bw_gbs == 89.6        # the desktop DDR5 host of the hardware catalog
    assert est.decode_tokens_per_s_bound < 6               # the pure bound includes the RAM stream too
    assert any("system RAM" in a for a in est.assumptions)


def test_big_moe_with_experts_in_ram_reads_only_the_active_experts():
    est = estimate("qwen3-235b-a22b", "rtx4090", quant="q4_k_m", engine="llama.cpp")
    o = est.offload
    assert o is not None and o.n_cpu_moe is not None and o.ngl is None
    assert o.ram_gb_per_token < o.ram_gb / 10              # routed experts only, not every weight in RAM
    assert 4.0 <= est.decode_tokens_per_s <= 10.0


def test_small_moe_keeps_attention_on_the_gpu_and_beats_the_dense_speed():
    est = estimate("qwen3-30b-a3b", "rtx3060_12gb", quant="q4_k_m", engine="llama.cpp")
    assert est.offload is not None and est.offload.n_cpu_moe is not None
    full = estimate("qwen3-30b-a3b", "rtx4090", quant="q4_k_m", engine="llama.cpp")
    assert full.offload is None and full.fits
    assert 15 <= est.decode_tokens_per_s < full.decode_tokens_per_s / 2


@pytest.mark.parametrize("engine", ["vllm", None])
def test_engines_without_a_cpu_path_get_no_offload_figures(engine):
    est = estimate("llama-3.1-70b", "rtx4090", quant="q4_k_m" if engine is None else "awq", engine=engine)
    assert est.offload is None and not est.fits


def test_a_fitting_model_is_not_offloaded():
    assert estimate("llama-3.1-8b", "rtx4090", quant="q4_k_m", engine="llama.cpp").offload is None


@pytest.mark.parametrize("model, hardware, flag", [
    ("llama-3.1-70b", "rtx4090", "-ngl "),
    ("qwen3-30b-a3b", "rtx3060_12gb", "--n-cpu-moe "),
])
def test_launch_line_places_what_fits_instead_of_every_layer(model, hardware, flag):
    plan, _ = plan_for_setup(model, hardware, quant="q4_k_m", engine="llama.cpp")
    line = plan.flags["llama.cpp"]
    assert flag in line
    assert "-ngl 999" not in line or "--n-cpu-moe" in line    # all layers only when the experts stay in RAM


def test_prompt_pays_for_copying_the_ram_weights_over_pcie():
    off = estimate("qwen3-235b-a22b", "rtx4090", quant="q4_k_m", engine="llama.cpp", input_tokens=1024)
    short = estimate("qwen3-235b-a22b", "rtx4090", quant="q4_k_m", engine="llama.cpp", input_tokens=16)
    # 2 chunks of 512 tokens x ~118 GB over 32 GB/s: seconds, not the GPU-only fraction of a second
    assert off.ttft_s > 5 and short.ttft_s < 1
    assert any("over PCIe" in f for f in off.formulas)
