"""The hardware index on the classes of text it must read right (rules.hardware_index)."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.errors import DataError
from rules.hardware_index import closest, find_devices, resolve, unrecognised


def ids(text: str) -> list[str]:
    return [m.id for m in find_devices(text)]


@pytest.mark.parametrize("text,hw_id", [
    ("Xeon Gold 6430", "xeon_spr"), ("Intel(R) Xeon(R) Platinum 8480+", "xeon_spr"), ("dual Xeon 6138", "xeon_skx"),
    ("Xeon Platinum 8352Y", "xeon_icx"), ("Xeon Gold 6530", "xeon_emr"), ("EPYC 9654", "epyc_genoa"),
    ("EPYC 7763", "epyc_milan"), ("epyc 7c13", "epyc_milan"), ("EPYC 9575F", "epyc_turin"), ("EPYC 7742", "epyc_rome"),
    ("Xeon E5-2666", "cpu_server_intel"), ("Xeon", "cpu_server_intel"), ("EPYC", "cpu_server_amd"),
])
def test_cpu_product_numbers_pick_the_generation(text, hw_id):
    assert resolve(text).id == hw_id


def test_a_number_in_a_product_name_is_part_of_the_name():
    m = resolve("Xeon 6 server, no GPU")
    assert m.id == "xeon_6900p" and m.text == "Xeon 6"
    assert resolve("Xeon 6 (Granite Rapids) server").text == "Xeon 6 (Granite Rapids)"


@pytest.mark.parametrize("text", ["we need 4000 tokens for 100 users", "a 100-user team", "80K context",
                                  "Which inference server is best for 50 users?", "I live in Rome", "M.2 SSD slot",
                                  "x3650M5 with 64GB"])
def test_numbers_and_words_that_are_not_devices(text):
    assert find_devices(text) == []


@pytest.mark.parametrize("text,hw_id", [
    ("4x4090", "rtx4090"), ("8xH100", "h100_sxm"), ("2xMI60", "mi60"), ("3090s", "rtx3090"), ("P100's", "p100_pcie_16g"),
    ("RTX4090", "rtx4090"), ("4060ti", "rtx4060ti_8g"), ("rx9070xt", "rx9070xt"), ("兩張 3090", "rtx3090"),
    ("用多少卡4090", "rtx4090"), ("v5e-8", "tpu_v5e"), ("trn1.2xlarge", "trainium1"), ("inf2.48xlarge", "inferentia2"),
    ("g5.xlarge", "a10g"), ("p4d.24xlarge", "a100_40g_sxm"), ("c7g", "graviton3"), ("r8g", "graviton4"),
])
def test_glued_counts_plurals_and_instance_names(text, hw_id):
    assert resolve(text).id == hw_id


@pytest.mark.parametrize("text,hw_id", [
    ("Jetson Orion Nano", "jetson_orin_nano_8g"), ("Jetston Orin Nano 8GB", "jetson_orin_nano_8g"),
    ("snapdargon x elite", "snapdragon_x_elite"), ("Ascned NPU", "ascend_910b"),
    ("Jetson Nano Orin", "jetson_orin_nano_8g"), ("RTX 6000 Pro", "rtxpro6000_bw"), ("Spark DGX", "dgx_spark_gb10"),
])
def test_one_typo_and_swapped_words(text, hw_id):
    assert resolve(text).id == hw_id


@pytest.mark.parametrize("text,hw_id,memory", [
    ("A100 PCIe 40GB", "a100_40g_pcie", 40), ("80GB A100", "a100_80g_sxm", 80), ("H100 NVL 96GB", "h100_nvl", 96),
    ("3060 8GB", "rtx3060_8g", 8), ("RTX 3060", "rtx3060_12g", None), ("M3 Max 14C CPU 30C GPU", "m3_max_30c", None),
    ("M4 Max 40-core", "m4_max_40c", None), ("16G顯存的4060Ti", "rtx4060ti_16g", 16), ("RTX 4090 laptop", "rtx4090_laptop", None),
    ("910B4 32GB", "ascend_910b", 32),
])
def test_memory_package_and_cores_choose_among_variants(text, hw_id, memory):
    m = resolve(text)
    assert (m.id, m.memory_gb) == (hw_id, memory)


def test_a_stated_size_that_is_no_variant_is_an_override():
    m = resolve("the China-modded 4090 48 GB")
    assert m.id == "rtx4090" and m.memory_gb == 48 and not m.memory_matches
    assert resolve("H100 80GB").memory_matches


def test_the_device_in_use_not_the_one_compared_with():
    assert resolve("same perf as H200 on B300 instances").id == "b300"
    assert resolve("AMD EPYC 7713, 256GB RAM, 2xA6000ada").id == "rtx6000ada"   # the accelerator, not the CPU


@pytest.mark.parametrize("text,hw_id,memory", [
    ("an i7 laptop with 32 GB", "cpu_laptop_intel", 32), ("Thinkpad, i7 8550u, 32 GB RAM", "cpu_laptop_intel", 32),
    ("i7-1370P, 64 GB RAM, no GPU", "cpu_laptop_intel", 64), ("a dual-socket server with 768 GB DDR5, no GPU", "cpu_server_generic", 768),
    ("AMD ryzen 7, with 64 gb ram", "cpu_desktop_amd", 64), ("CPU only, 16GB RAM", "cpu_generic", 16),
    ("筆電 i5，記憶體 16GB", "cpu_laptop_intel", 16),
])
def test_a_machine_described_by_its_class_is_approximate(text, hw_id, memory):
    m = resolve(text)
    assert (m.id, m.memory_gb, m.approximate) == (hw_id, memory, True)
    assert catalog.hardware(hw_id).approximate


def test_sockets_are_read_for_cpu_servers():
    assert resolve("a dual-socket server with 768 GB DDR5, no GPU").count == 2
    assert resolve("dual Xeon 6138").count == 2


def test_unknown_device_words_are_quoted_with_the_closest_entries():
    found = unrecognised("Tesla p40 24G with quadro M6000 24G can not work together")
    assert [u.text for u in found] == ["quadro M6000"]
    assert found[0].memory_gb == 24 and found[0].suggestions[0] == "quadro_rtx6000"
    assert unrecognised("GTX 1060 6GB")[0].suggestions[0] == "rtx2060"
    assert unrecognised("8x H100 SXM") == [] and unrecognised("") == []
    assert all(not catalog.hardware(i).approximate for i in closest("MI400X"))
    assert closest("MI400X")[0].startswith("mi3")


def test_every_shared_name_has_exactly_one_default(tmp_path, monkeypatch):
    """Two entries answering to one name with no default is a catalog error naming the file and entries."""
    import shutil

    import yaml

    from rules import hardware_index
    shutil.copytree(catalog.CATALOG_DIR / catalog.HARDWARE_DIR, tmp_path / catalog.HARDWARE_DIR)
    target = tmp_path / catalog.HARDWARE_DIR / "nvidia_geforce.yaml"
    data = yaml.safe_load(target.read_text())
    for entry in data["hardware"]:
        if entry["id"] == "rtx3060_12g":
            entry["default_variant"] = False
    target.write_text(yaml.safe_dump(data))
    monkeypatch.setattr(catalog, "CATALOG_DIR", tmp_path)
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    catalog.all_hardware.cache_clear()
    hardware_index._index.cache_clear()
    try:
        with pytest.raises(DataError) as err:
            hardware_index._index()
        assert "nvidia_geforce.yaml" in str(err.value) and "rtx3060_12g" in str(err.value)
    finally:
        catalog.all_hardware.cache_clear()
        hardware_index._index.cache_clear()


def test_the_cached_catalog_is_the_built_one(tmp_path, monkeypatch):
    from rules import catalog_cache
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path))
    catalog.all_hardware.cache_clear()
    try:
        first = catalog.all_hardware()
        assert list(tmp_path.glob("hardware-catalog-*.pickle"))
        catalog.all_hardware.cache_clear()
        assert catalog.all_hardware() == first            # read back from the pickle
        for path in tmp_path.glob("hardware-catalog-*.pickle"):
            path.write_bytes(b"not a pickle")
        catalog.all_hardware.cache_clear()
        assert catalog.all_hardware() == first            # a broken copy is rebuilt, not trusted
        assert catalog_cache.cached("x", [], lambda: 41) == 41
    finally:
        catalog.all_hardware.cache_clear()
