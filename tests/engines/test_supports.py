"""supports() and quant_kernel(): hardware and quantization questions the rule engine asks."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from rules import engines as eng
from rules.errors import MissingFactError, UnknownIdError
from rules.ids import ENGINES

HW_DIR = Path(eng.__file__).parent / "catalog" / "hardware"


def hw(platform, cuda_cc=None, hw_id="test-device"):
    """A duck-typed hardware object, as rules.catalog.Hardware exposes it."""
    return SimpleNamespace(id=hw_id, platform=platform, cuda_cc=cuda_cc)


H100, RTX4090, T4, V100 = hw("nvidia-cuda", "9.0"), hw("nvidia-cuda", "8.9"), hw("nvidia-cuda", 7.5), hw("nvidia-cuda", 7.0)
MI300X, M3_ULTRA, XEON, ARC, GAUDI, GRACE = (hw(p) for p in (
    "amd-rocm", "apple-silicon", "x86-cpu", "intel-gpu", "intel-gaudi", "arm-cpu"))


def ok(engine_id, device):
    return eng.supports(engine_id, device)[0]


@pytest.mark.parametrize("device", [M3_ULTRA, MI300X, XEON, ARC, GAUDI, GRACE])
def test_tensorrt_llm_and_dynamo_only_on_nvidia(device):
    for engine_id in ("tensorrt-llm", "dynamo"):
        supported, reason, source = eng.supports(engine_id, device)
        assert not supported and device.platform in reason and source.startswith("https://")
    assert ok("tensorrt-llm", H100) and ok("dynamo", H100)


def test_mlx_only_on_apple():
    assert ok("mlx-lm", M3_ULTRA)
    for device in (H100, MI300X, XEON, ARC, GAUDI, GRACE):
        assert not ok("mlx-lm", device)
    supported, reason, _ = eng.supports("mlx-lm", H100)
    assert not supported and "experimental" in reason  # the CUDA extra exists but is undocumented


def test_exllama_needs_nvidia():
    for engine_id in ("exllamav2", "exllamav3"):
        assert ok(engine_id, RTX4090)
        for device in (MI300X, M3_ULTRA, XEON, ARC, GRACE):
            assert not ok(engine_id, device)


def test_openvino_on_intel_cpu_and_gpu_only():
    assert ok("openvino-genai", XEON) and ok("openvino-genai", ARC)
    for device in (H100, MI300X, M3_ULTRA, GAUDI):
        assert not ok("openvino-genai", device)


def test_vllm_and_sglang_hardware():
    for device in (H100, MI300X, XEON):
        assert ok("vllm", device) and ok("sglang", device)
    supported, reason, _ = eng.supports("vllm", GAUDI)
    assert supported and "plugin" in reason
    assert ok("vllm", M3_ULTRA)          # vLLM-Metal plugin
    assert not ok("sglang", M3_ULTRA)    # MLX backend is source-only: experimental
    assert not ok("sglang", GAUDI)


def test_llama_cpp_runs_nearly_everywhere():
    for device in (H100, RTX4090, MI300X, M3_ULTRA, XEON, ARC, GRACE, T4):
        assert ok("llama.cpp", device)
    assert not ok("llama.cpp", GAUDI)


def test_minimum_compute_capability():
    # Current vLLM needs 7.5; releases up to v0.14.0 still list 7.0 (V100), so Volta runs with that release pinned.
    v = eng.verdict("vllm", V100)
    assert v.ok and v.caveat and "v0.14.0" in v.en and "v0.14.0" in v.zh and ok("vllm", T4)
    assert not ok("vllm", hw("nvidia-cuda", "6.1")) and not ok("sglang", V100)
    supported, reason, source = eng.supports("tensorrt-llm", T4)
    assert not supported and "compute capability" in reason and "nvidia.github.io" in source
    assert ok("tensorrt-llm", RTX4090)
    assert not ok("ollama", hw("nvidia-cuda", "3.5")) and ok("ollama", hw("nvidia-cuda", "5.2"))


def test_crippled_fp16_rules_out_the_fp16_engines():
    # P40 (compute 6.1) runs FP16 at a small fraction of FP32: ExLlama crawls there; llama.cpp does not care.
    p40 = hw("nvidia-cuda", "6.1")
    assert not eng.verdict("exllamav2", p40, slow_fp16=True).ok
    assert eng.verdict("llama.cpp", p40, slow_fp16=True).ok and eng.verdict("ollama", p40, slow_fp16=True).ok
    assert eng.verdict("exllamav2", hw("nvidia-cuda", "6.0"), slow_fp16=False).ok   # P100: fast FP16


def test_vendor_and_gpu_target_lists():
    epyc = SimpleNamespace(id="epyc", name="AMD EPYC", vendor="AMD", platform="x86-cpu", cuda_cc=None)
    xeon = SimpleNamespace(id="xeon", name="Intel Xeon", vendor="Intel", platform="x86-cpu", cuda_cc=None)
    assert not ok("sglang", epyc) and ok("sglang", xeon) and ok("vllm", epyc)
    rdna2 = SimpleNamespace(id="rx6800", name="RX 6800", vendor="AMD", platform="amd-rocm", arch="RDNA 2 (gfx1030)", cuda_cc=None)
    rdna3 = SimpleNamespace(id="rx7900", name="RX 7900 XTX", vendor="AMD", platform="amd-rocm", arch="RDNA 3 (gfx1100)", cuda_cc=None)
    mi250 = SimpleNamespace(id="mi250", name="MI250", vendor="AMD", platform="amd-rocm", arch="CDNA 2 (gfx90a)", cuda_cc=None)
    assert not ok("vllm", rdna2) and ok("vllm", rdna3) and ok("vllm", mi250)
    assert not ok("sglang", rdna3) and not ok("sglang", mi250) and ok("llama.cpp", rdna2)


def test_unknown_compute_capability_does_not_block():
    assert ok("tensorrt-llm", hw("nvidia-cuda", None))


def test_hardware_without_platform_is_a_data_error():
    with pytest.raises(MissingFactError):
        eng.supports("vllm", SimpleNamespace(id="mystery", cuda_cc=None))


def test_every_catalog_device_gets_an_answer_from_every_engine():
    devices = [d for f in sorted(HW_DIR.glob("*.yaml")) for d in yaml.safe_load(f.read_text(encoding="utf-8"))["hardware"]]
    assert devices
    for entry in devices:
        device = hw(entry["platform"], entry.get("cuda_cc"), entry["id"])
        answers = {e: eng.supports(e, device) for e in ENGINES}
        assert all(isinstance(a[1], str) and a[2].startswith("https://") for a in answers.values())
        if entry["platform"] != "nvidia-cuda":
            assert not answers["tensorrt-llm"][0], entry["id"]
        assert any(a[0] for a in answers.values()), f"no engine runs on {entry['id']}"


def test_quant_kernels():
    assert eng.quant_kernel("vllm", "fp8", "nvidia-cuda", "9.0") == "optimized"
    assert eng.quant_kernel("vllm", "fp8", "nvidia-cuda", "8.6") == "supported"   # W8A8 needs 8.9+; Ampere runs it weight-only (Marlin)
    assert eng.quant_kernel("vllm", "fp8", "amd-rocm") == "optimized"
    assert eng.quant_kernel("vllm", "q4_k_m") == "supported"                # GGUF: experimental
    assert eng.quant_kernel("llama.cpp", "q4_k_m", "apple-silicon") == "optimized"
    assert eng.quant_kernel("exllamav2", "exl2-4.0") == "optimized"
    assert eng.quant_kernel("exllamav2", "exl3-3.5") is None
    assert eng.quant_kernel("exllamav3", "exl3-3.5", "nvidia-cuda") == "optimized"
    assert eng.quant_kernel("tensorrt-llm", "nvfp4", "nvidia-cuda", "9.0") is None
    assert eng.quant_kernel("tensorrt-llm", "nvfp4", "nvidia-cuda", "10.0") == "optimized"
    assert eng.quant_kernel("tensorrt-llm", "fp8", "amd-rocm") is None      # not a platform of it
    assert eng.quant_kernel("mlx-lm", "int4", "apple-silicon") == "optimized"
    assert eng.quant_kernel("mlx-lm", "awq") is None
    assert eng.quant_kernel("openvino-genai", "int4", "x86-cpu") == "optimized"


def test_orchestrator_quant_comes_from_its_backends():
    assert eng.quant_kernel("dynamo", "nvfp4", cuda_cc="10.0") == "optimized"
    assert eng.quant_kernel("dynamo", "exl2-4.0") is None
    assert eng.engine("dynamo").quantizations == {}


def test_unknown_quantization_is_an_input_error():
    with pytest.raises(UnknownIdError):
        eng.quant_kernel("vllm", "q3_k_s")
    assert eng.quant_key("exl2-6.5") == "exl2"
