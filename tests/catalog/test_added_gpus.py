"""GPUs added after the reference set (V100, T4, A6000, L40, 4080, 3090 Ti): load, resolve, break nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules import catalog

NEW = {
    "v100_sxm2_32g": "7.0", "t4": "7.5", "rtxa6000": "8.6",
    "l40": "8.9", "rtx4080": "8.9", "rtx3090ti": "8.6",
}

TYPED = {
    "V100": "v100_sxm2_32g", "Tesla V100": "v100_sxm2_32g", "4x V100 32GB": "v100_sxm2_32g",
    "T4": "t4", "Tesla T4": "t4", "A6000": "rtxa6000", "RTX A6000": "rtxa6000",
    "L40": "l40", "RTX 4080": "rtx4080", "4080": "rtx4080", "3090 Ti": "rtx3090ti",
    "RTX 3090 Ti": "rtx3090ti",
}

# Phrases that resolved before these entries existed; they must resolve the same way now.
OLD_PHRASES = ["3090", "RTX 3090", "2x 3090", "4090", "RTX 4090", "L40S", "NVIDIA L40S", "A100",
               "A100 40GB", "A100 PCIe", "H100", "L4", "A10G", "RTX 6000 Ada", "5090", "MI300X",
               "M3 Ultra", "8x H100 SXM", "4x A100 80GB"]


@pytest.mark.parametrize("hw_id,cc", sorted(NEW.items()))
def test_new_entry_loads_with_its_compute_capability(hw_id, cc):
    hw = catalog.hardware(hw_id)
    assert hw.platform == "nvidia-cuda" and hw.cuda_cc == cc
    assert "http" in hw.source and hw.mem_bw_gbs > 0 and hw.memory_gb > 0


def test_datasheet_facts_that_drive_the_roofline():
    v100, t4, l40 = (catalog.hardware(i) for i in ("v100_sxm2_32g", "t4", "l40"))
    # Volta and Turing have no BF16 tensor path: a guessed number would mislead the roofline.
    assert v100.tflops.bf16 is None and t4.tflops.bf16 is None and v100.tflops.fp8 is None
    assert (v100.memory_gb, v100.mem_bw_gbs, v100.interconnect) == (32.0, 900.0, "nvlink")
    # L40 datasheet: 362.1 is the sparse BF16 figure, so dense is half of it (not the L40S value).
    assert l40.tflops.bf16 == pytest.approx(181.05)
    assert l40.tflops.bf16 < catalog.hardware("l40s").tflops.bf16
    assert catalog.hardware("rtx4080").p2p is False and catalog.hardware("rtx3090ti").p2p is False


@pytest.mark.parametrize("text,hw_id", sorted(TYPED.items()))
def test_what_people_type_resolves(text, hw_id):
    assert catalog.resolve_hardware(text) == hw_id
    assert catalog.resolve_hardware(text.lower()) == hw_id


LEGACY = Path(__file__).with_name("data") / "legacy_resolutions.yaml"
# Names whose meaning changed on purpose: a Xeon of unknown generation is now the class-level
# Xeon server (approximate figures) rather than silently a Sapphire Rapids socket.
CHANGED_ON_PURPOSE = {"Xeon": "cpu_server_intel"}


def test_nothing_that_resolved_before_changed():
    """Every name of the original catalog resolves as the old alias matcher resolved it."""
    legacy = yaml.safe_load(LEGACY.read_text(encoding="utf-8"))
    assert len(legacy) > 200
    changed = {p: (old, catalog.resolve_hardware(p)) for p, old in legacy.items()
               if catalog.resolve_hardware(p) != CHANGED_ON_PURPOSE.get(p, old)}
    assert not changed
    assert catalog.resolve_hardware("3090") == "rtx3090" and catalog.resolve_hardware("4090") == "rtx4090"
    assert catalog.resolve_hardware("L40S") == "l40s"
