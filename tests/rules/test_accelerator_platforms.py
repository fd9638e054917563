"""TPU, Inferentia/Trainium and Ascend are recognised and answered honestly: which engine reaches them,
through what, and never an engine that does not run there."""
from __future__ import annotations

import pytest

from rules import engines
from rules.decide import decide
from rules.defaults import apply_defaults
from rules.profile import build_profile


def run(hw: str, **kw):
    return decide(apply_defaults(build_profile(dict(hardware=hw, model="llama-3.1-8b", **kw))))


@pytest.mark.parametrize("hw,platform,engines_there", [
    ("tpu_v5e", "google-tpu", {"vllm", "sglang"}), ("tpu_v6e", "google-tpu", {"vllm", "sglang"}),
    ("inferentia2", "aws-neuron", {"vllm"}), ("trainium2", "aws-neuron", {"vllm"}),
    ("ascend_910b", "huawei-ascend", {"vllm", "sglang", "llama.cpp"}),
])
def test_only_the_engines_with_a_plugin_or_backend_there(hw, platform, engines_there):
    runs = {e for e in engines.all_engines() if engines.supports(e, hw)[0]}
    assert runs == engines_there
    d = run(hw, serving_mode="team")
    assert d.primary == "vllm" and set(d.recommended) <= engines_there
    assert {"mlx-lm", "exllamav2", "tensorrt-llm", "ollama"} <= {a.engine for a in d.avoid}


@pytest.mark.parametrize("hw,rule,words", [
    ("tpu_v5e", "hw-google-tpu", ["tpu-inference", "SGLang-JAX"]),
    ("trainium1", "hw-aws-neuron", ["NxD Inference", "beta"]),
    ("ascend_910b", "hw-huawei-ascend", ["vllm-ascend", "CANN"]),
])
def test_the_answer_says_through_what_and_how_mature(hw, rule, words):
    d = run(hw)
    fired = next(t for t in d.trace if t.rule == rule)
    text = " ".join([fired.rationale, *d.warnings])
    assert all(w in text for w in words), text
    for engine in ("vllm",):
        ok, reason, source = engines.supports(engine, hw)
        assert ok and "plugin" in reason and source.startswith("https://")


def test_plugin_platforms_default_to_bf16_not_gguf():
    for hw in ("tpu_v6e", "gaudi2", "trainium2", "ascend_910b"):
        p = apply_defaults(build_profile(dict(hardware=hw, model="llama-3.1-8b")))
        assert p.quantization == "bf16"


def test_llama_cpp_on_ascend_reads_only_its_cann_formats():
    assert engines.quant_kernel("llama.cpp", "q4_0", "huawei-ascend") == "optimized"
    assert engines.quant_kernel("llama.cpp", "q4_k_m", "huawei-ascend") is None
    assert engines.quant_kernel("llama.cpp", "q4_k_m", "nvidia-cuda") == "optimized"


def test_unknown_hardware_with_a_stated_memory_gets_the_fit_arithmetic():
    fits = decide(apply_defaults(build_profile(dict(model="llama-3.1-8b", memory_gb=24))))
    assert fits.primary == "llama.cpp" and "hw-unknown-fits-stated-memory" in fits.rules
    assert any("24 GB" in w for w in fits.warnings)
    too_big = decide(apply_defaults(build_profile(dict(model="llama-3.1-70b", memory_gb=24, quantization="q4_k_m"))))
    assert "hw-unknown-exceeds-stated-memory" in too_big.rules and too_big.primary == "llama.cpp"


def test_a_class_level_machine_says_its_figures_are_typical():
    d = run("cpu_laptop_intel")
    assert "hw-approximate" in d.rules and any("89.6 GB/s" in w for w in d.warnings)
