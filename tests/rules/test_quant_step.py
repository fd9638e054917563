"""Review-4 class "stuck on one quantization format": a format no engine on the hardware reads never
ends in "no engine fits" — the same weights in a format that does run take its place, said as such.

- GPTQ on 4x MI50 (gfx906): upstream vLLM/SGLang do not build for gfx906 and llama.cpp has no GPTQ kernel,
  yet llama.cpp runs the same model as a 4-bit GGUF there (nlzy/vllm-gfx906#3: 70B Q5_K_S ~20 tok/s).
- NVFP4 on an L40S: Ada (CC 8.9) has no FP4 tensor cores; AWQ/INT4 or FP8 of the same weights runs.
- FP8 on an MI210: CDNA2 (gfx90a) has no FP8 units (vllm-project/vllm#16394); INT8 or 4-bit runs.
- A Raspberry Pi (17 GB/s) is memory-bandwidth bound: a latency priority takes the 4-bit GGUF, about twice
  the tokens/s of Q8_0 (geerlingguy/sbc-reviews#21)."""
from __future__ import annotations

import pytest

from rules.decide import decide
from rules.defaults import apply_defaults, runnable_quantization
from rules.profile import build_profile
from rules.quant import bits_per_weight


@pytest.mark.parametrize("hardware, count, model, quant, engine", [
    ("mi50_32g", 4, "qwen3-32b", "gptq-4bit", "llama.cpp"),
    ("l40s", 1, "qwen3-32b", "nvfp4", "vllm"),
    ("mi210", 1, "llama-3.1-8b", "fp8", "vllm"),
])
def test_a_format_nothing_here_reads_steps_to_one_that_runs(hardware, count, model, quant, engine):
    stated = build_profile(dict(hardware=hardware, count=count, model=model, quantization=quant))
    p = runnable_quantization(stated)
    assert p.quantization != quant
    assert "quantization" in p.assumed and quant in p.provenance["quantization"].note
    d = decide(apply_defaults(p))
    assert d.primary is not None
    assert engine == d.primary or engine in d.alternatives


def test_narrower_first_then_a_wider_format_that_fits():
    # NVFP4 -> the 4-bit AWQ/INT4 build (not wider); FP8 on an MI210 -> BF16 (vLLM's 8-bit needs FP8 units
    # there), because an 8B model at 16 GB fits the 64 GB card; a 70B at BF16 on one MI210 does not
    step = runnable_quantization(build_profile(dict(hardware="l40s", model="qwen3-32b", quantization="nvfp4")))
    assert step.quantization == "int4"
    step = runnable_quantization(build_profile(dict(hardware="mi210", model="llama-3.1-8b", quantization="fp8")))
    assert step.quantization == "bf16"
    step = runnable_quantization(build_profile(dict(hardware="mi210", model="llama-3.1-70b", quantization="fp8")))
    assert bits_per_weight(step.quantization) <= 8


def test_a_format_that_runs_is_kept_as_stated():
    p = build_profile(dict(hardware="l40s", model="qwen3-32b", quantization="awq"))
    assert runnable_quantization(p) is p
    p = build_profile(dict(hardware="rtx4090", model="qwen3-32b", quantization="q4_k_m"))
    assert runnable_quantization(p) is p


def test_apply_defaults_steps_a_stated_format_that_cannot_run():
    p = apply_defaults(build_profile(dict(hardware="mi50_32g", count=4, model="qwen3-32b", quantization="gptq-4bit")))
    assert p.quantization != "gptq-4bit" and decide(p).primary is not None


@pytest.mark.parametrize("hardware", ["raspberry_pi_5"])
def test_latency_on_a_bandwidth_bound_edge_device_takes_4_bit(hardware):
    base = dict(hardware=hardware, model="llama-3.2-3b", concurrency=1)
    fast = apply_defaults(build_profile(base | {"priority": "latency"}), ["quantization"])
    assert bits_per_weight(fast.quantization) <= 4.5


# --- the operating system the user runs ----------------------------------------------------------------------

def test_windows_rules_out_engines_without_a_native_windows_build():
    # vLLM: "No native Windows; WSL or community forks" (engine catalog); a 4060 Ti chat box on Windows gets
    # ExLlama or llama.cpp, with WSL2 named as the way round for vLLM
    base = dict(hardware="rtx4060ti_16g", model="qwen2.5-14b", quantization="awq", concurrency=1)
    d = decide(apply_defaults(build_profile(base | {"os": "windows"})))
    assert d.primary not in ("vllm", "sglang") and "vllm" not in d.alternatives
    avoid = {a.engine: a.reason for a in d.avoid}
    assert "WSL" in avoid["vllm"]
    assert d.primary is not None
    linux = decide(apply_defaults(build_profile(base)))
    assert "vllm" not in {a.engine for a in linux.avoid} or linux.primary is not None


def test_one_person_on_an_edge_board_gets_4_bit_a_cpu_server_keeps_8_bit():
    pi = apply_defaults(build_profile(dict(hardware="raspberry_pi_5", model="llama-3.2-3b")), ["serving_mode", "quantization"])
    assert bits_per_weight(pi.quantization) <= 4.5
    xeon = build_profile(dict(hardware="xeon_6900p", model="llama-3.1-70b"))
    from rules.defaults import default_for
    assert default_for("quantization", xeon).value == "int8"
