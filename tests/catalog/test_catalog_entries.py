"""Hardware and model catalogs: every reference id present, sourced, validated, resolvable."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rules import catalog
from rules.errors import DataError, ProfileError, UnknownIdError
from rules.ids import HARDWARE_CLASSES, PLATFORMS
from rules.profile import build_profile
from rules.roofline.memory import kv_bytes_per_token

DATA = Path(__file__).resolve().parents[2] / "evals" / "data"


def _csv(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_reference_hardware_id_is_in_the_catalog():
    ids = {r["hw_id"] for r in _csv("hardware.csv")}
    assert ids <= set(catalog.all_hardware())


def test_every_reference_model_id_is_in_the_catalog():
    ids = {r["id"] for r in _csv("models.csv")}
    assert ids <= set(catalog.all_models())


@pytest.mark.parametrize("hw_id", sorted(catalog.all_hardware()))
def test_hardware_entries_are_sourced_and_consistent(hw_id):
    hw = catalog.hardware(hw_id)
    assert hw.source and "http" in hw.source
    assert hw.platform in PLATFORMS and hw.hw_class in HARDWARE_CLASSES
    assert hw.mem_bw_gbs > 0 and hw.memory_gb > 0
    if hw.platform == "nvidia-cuda":
        assert hw.cuda_cc and "cuda_cc" in hw.sources
    if hw.hw_class == "apple":
        assert 0.6 <= hw.usable_memory_fraction <= 0.8 and "usable_memory_fraction" in hw.sources
    for field in ("p2p", "interconnect"):
        assert field in hw.sources


def test_reference_values_carried_over():
    rows = {r["hw_id"]: r for r in _csv("hardware.csv")}
    for hw_id in ("h100_sxm", "m3_ultra", "mi300x", "rtx4090", "b200"):
        assert catalog.hardware(hw_id).mem_bw_gbs == float(rows[hw_id]["mem_bw_gbs"])
    assert catalog.hardware("h100_sxm").mem_bw_gbs / catalog.hardware("m3_ultra").mem_bw_gbs == pytest.approx(4.1, abs=0.05)


def test_specific_facts():
    assert catalog.hardware("dgx_spark_gb10").platform == "nvidia-cuda"
    assert catalog.hardware("dgx_spark_gb10").cuda_cc == "12.1"
    assert catalog.hardware("h100_sxm").cuda_cc == "9.0"
    assert catalog.hardware("rtx4090").p2p is False and catalog.hardware("rtx4090").interconnect == "pcie"
    assert catalog.hardware("h100_sxm").interconnect == "nvlink"
    assert catalog.hardware("xeon_spr").platform == "x86-cpu"
    assert catalog.hardware("xeon_spr").mem_bw_gbs == pytest.approx(8 * 8 * 4800 / 1000)
    assert catalog.hardware("m3_ultra").interconnect == "unified"


@pytest.mark.parametrize("text, expected", [
    ("H100", "h100_sxm"), ("H100 PCIe", "h100_pcie"), ("4090", "rtx4090"), ("RTX 4090", "rtx4090"),
    ("M3 Ultra", "m3_ultra"), ("MI300X", "mi300x"), ("Xeon", "xeon_spr"), ("Sapphire Rapids", "xeon_spr"),
    ("A100", "a100_80g_sxm"), ("L40S", "l40s"), ("B200", "b200"), ("GB200", "gb200"),
    ("DGX Spark", "dgx_spark_gb10"), ("Arc A770", "arc_a770_16g"), ("8x H100 SXM", "h100_sxm"),
    ("Mac Studio M3 Ultra 512GB", "m3_ultra"), ("m4 max", "m4_max_40c"), ("h100_sxm", "h100_sxm"),
    ("Mac Studio", None), ("A10", None), ("quantum computer", None),
])
def test_resolve_hardware(text, expected):
    assert catalog.resolve_hardware(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Llama 3.3 70B", "llama-3.1-70b"), ("Llama 3 70B", "llama-3.1-70b"), ("Llama-3.1-70B-Instruct", "llama-3.1-70b"),
    ("meta-llama/Llama-3.3-70B-Instruct", "llama-3.1-70b"), ("Qwen3 30B A3B", "qwen3-30b-a3b"),
    ("Qwen3-Coder-30B-A3B", "qwen3-30b-a3b"), ("DeepSeek-V3", "deepseek-v3"), ("DeepSeek R1", "deepseek-r1"),
    ("gpt-oss 20b", "gpt-oss-20b"), ("Mixtral", "mixtral-8x7b"), ("Llama 3.1 8B Instruct", "llama-3.1-8b"),
    ("Qwen3", None), ("llama", None),
])
def test_resolve_model(text, expected):
    assert catalog.resolve_model(text) == expected


def test_unknown_ids_name_the_closest():
    with pytest.raises(UnknownIdError) as err:
        catalog.hardware("h1000")
    assert "h100_sxm" in str(err.value)
    with pytest.raises(UnknownIdError) as err:
        catalog.model("llama-3.1-7b")
    assert "llama-3.1-8b" in err.value.suggestions


@pytest.mark.parametrize("row", _csv("models.csv"), ids=lambda r: r["id"])
def test_kv_formula_matches_reference(row):
    spec = catalog.model(row["id"])
    assert spec.kv_bytes_per_token_bf16 == int(row["kv_bytes_per_token_bf16"])
    growth = kv_bytes_per_token(spec).value
    if spec.attention.sliding_layers:  # only full-attention layers grow past the window
        assert growth == spec.kv_bytes_per_token_bf16 * (spec.layers - spec.attention.sliding_layers) / spec.layers
    else:
        assert growth == spec.kv_bytes_per_token_bf16


def test_moe_active_params_follow_from_the_config():
    for model_id in ("gpt-oss-20b", "gpt-oss-120b", "mixtral-8x7b", "qwen3-235b-a22b", "deepseek-v3"):
        spec = catalog.model(model_id)
        emb = spec.embedding_params_b
        dense = spec.params_b - spec.routed_expert_params_b - 2 * emb
        active = dense + spec.routed_expert_params_b * spec.experts_per_tok / spec.experts + emb
        assert active == pytest.approx(spec.active_params_b, rel=0.06), model_id


def test_describe_model_lists_its_assumptions():
    spec = catalog.describe_model(14)
    assert spec.architecture == "dense" and spec.assumptions
    assert 4000 <= spec.hidden <= 6000 and spec.kv_bytes_per_token_bf16 == 2 * spec.layers * 8 * 128 * 2
    moe = catalog.describe_model(100, 10)
    assert moe.architecture == "moe" and any("MoE" in a for a in moe.assumptions)
    with pytest.raises(ProfileError):
        catalog.describe_model(10, 20)


def test_check_profile_against_catalog():
    catalog.check_profile_against_catalog(build_profile({"hardware": "h100_sxm", "model": "llama-3.1-8b"}))
    with pytest.raises(ProfileError) as err:
        catalog.check_profile_against_catalog(build_profile({"hardware": "h1000"}))
    assert err.value.field == "hardware" and "h100_sxm" in str(err.value)
    with pytest.raises(ProfileError) as err:
        catalog.check_profile_against_catalog(build_profile({"model": "llama-2-7b", "context_length": 8192}))
    assert err.value.field == "context_length" and "4096" in str(err.value)


def test_engine_delegation():
    pytest.importorskip("rules.engines")
    assert catalog.engine("vllm").id == "vllm"
    assert "llama.cpp" in catalog.all_engines()
    with pytest.raises(UnknownIdError):
        catalog.engine("not-an-engine")


@pytest.mark.parametrize("mutate, field", [
    (lambda e: e.pop("source"), "source"),
    (lambda e: e.update(mem_bw_gbs=-1), "mem_bw_gbs"),
    (lambda e: e.update(platform="quantum"), "platform"),
    (lambda e: e.update(surprise=1), "surprise"),
])
def test_bad_catalog_entry_names_file_entry_and_field(tmp_path, monkeypatch, mutate, field):
    import yaml
    data = yaml.safe_load((catalog.CATALOG_DIR / "hardware.yaml").read_text())
    mutate(data["hardware"][3])
    (tmp_path / "hardware.yaml").write_text(yaml.safe_dump(data))
    monkeypatch.setattr(catalog, "CATALOG_DIR", tmp_path)
    catalog.all_hardware.cache_clear()
    try:
        with pytest.raises(DataError) as err:
            catalog.all_hardware()
        msg = str(err.value)
        assert "hardware.yaml" in msg and data["hardware"][3]["id"] in msg and field in msg
    finally:
        catalog.all_hardware.cache_clear()
