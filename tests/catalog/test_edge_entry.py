"""The edge entry (Jetson AGX Orin 64GB): resolvable, sourced, and usable by the roofline without TFLOPS."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.roofline import estimate


@pytest.mark.parametrize("text", ["Jetson AGX Orin", "jetson orin 64gb", "AGX Orin", "jetson_agx_orin_64g"])
def test_aliases_resolve(text):
    assert catalog.resolve_hardware(text) == "jetson_agx_orin_64g"


def test_the_entry_is_the_edge_branch_with_sourced_numbers():
    hw = catalog.hardware("jetson_agx_orin_64g")
    assert (hw.hw_class, hw.platform, hw.cuda_cc) == ("edge", "nvidia-cuda", "8.7")
    assert (hw.memory_gb, hw.mem_bw_gbs) == (64.0, 204.8)
    assert "developer.nvidia.com/embedded/jetson-modules" in hw.source
    assert "developer.nvidia.com/cuda-gpus" in hw.sources["cuda_cc"]
    assert all(v is None for v in hw.tflops.model_dump().values())


def test_estimate_skips_prefill_with_a_note():
    est = estimate("llama-3.1-8b", "jetson_agx_orin_64g", quant="q4_k_m")
    assert est.fits and est.decode_tokens_per_s > 0
    assert est.prefill_tokens_per_s is None and est.ttft_s is None
    assert any(a.startswith("prefill not estimated") for a in est.assumptions)
