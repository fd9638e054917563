"""The model catalog: broad, sourced, validated when loaded, and listed by `advisor catalog`."""
from __future__ import annotations

import json
import re

import pytest
import yaml

from rules import catalog
from rules.errors import DataError

FAMILIES = {"llama", "qwen", "deepseek", "openai", "gemma", "phi", "mistral", "glm", "kimi", "cohere", "granite",
            "olmo", "smollm", "yi", "internlm", "minimax"}


def test_catalog_is_broad_and_one_file_per_family():
    models = catalog.all_models()
    assert len(models) >= 120
    assert FAMILIES <= {m.family for m in models.values()}
    files = {p.stem for p in (catalog.CATALOG_DIR / "models").glob("*.yaml")}
    assert {m.family for m in models.values()} == files


@pytest.mark.parametrize("mid", sorted(catalog.all_models()))
def test_every_entry_names_its_config_and_sources(mid):
    m = catalog.model(mid)
    assert re.search(r"https?://", m.source), "source must carry a URL"
    assert "config.json" in m.source or "models.csv" in m.source
    assert m.confidence.split()[0] in ("high", "medium", "medium-high", "low")
    for field in ("max_context", "native_dtype"):
        assert field in m.sources


def _dense_params(m) -> float:
    attn = m.layers * (m.hidden * m.q_heads * m.head_dim * 2 + m.hidden * m.kv_heads * m.head_dim * 2)
    mlp = m.layers * 3 * m.hidden * m.intermediate
    return (attn + mlp + m.vocab * m.hidden * (1 if m.tied_embeddings else 2)) / 1e9


@pytest.mark.parametrize("mid", sorted(k for k, m in catalog.all_models().items()
                                       if m.architecture == "dense" and m.attention.kind != "mla"))
def test_dense_params_follow_from_the_shapes(mid):
    m = catalog.model(mid)
    assert _dense_params(m) == pytest.approx(m.params_b, rel=0.03)


def test_native_formats():
    assert catalog.model("gpt-oss-120b").native_dtype == "mxfp4"
    assert catalog.model("deepseek-v3").native_dtype == "fp8" and catalog.model("deepseek-r1").native_dtype == "fp8"
    assert catalog.model("kimi-k2").native_dtype == "fp8" and catalog.model("kimi-k2-thinking").native_dtype == "int4"
    assert catalog.model("llama-3.1-8b").native_dtype == "bf16"


def test_attention_layouts():
    assert catalog.model("gemma-3-27b").attention.sliding_layers == 52
    assert catalog.model("gemma-2-9b").attention.sliding_window == 4096
    assert catalog.model("llama-4-scout").attention.sliding_window == 8192
    assert catalog.model("qwen3-next-80b-a3b").attention.linear_layers == 36
    assert catalog.model("kimi-k2").attention.kind == "mla"


@pytest.mark.parametrize("mutate, field", [
    (lambda e: e.update(kv_heads=7), "kv_heads"),
    (lambda e: e.update(active_params_b=e["params_b"] * 2), "active_params_b"),
    (lambda e: e.update(kv_bytes_per_token_bf16=1), "kv_bytes_per_token_bf16"),
    (lambda e: e.update(native_dtype="fp3"), "native_dtype"),
    (lambda e: e.update(layers=-1), "layers"),
])
def test_bad_model_entry_names_file_entry_and_field(tmp_path, monkeypatch, mutate, field):
    src = catalog.CATALOG_DIR / "models" / "qwen.yaml"
    data = yaml.safe_load(src.read_text())
    mutate(data["models"][2])
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "qwen.yaml").write_text(yaml.safe_dump(data))
    monkeypatch.setattr(catalog, "CATALOG_DIR", tmp_path)
    catalog.all_models.cache_clear()
    try:
        with pytest.raises(DataError) as err:
            catalog.all_models()
        msg = str(err.value)
        assert "models/qwen.yaml" in msg and data["models"][2]["id"] in msg
        assert field in msg or "kv_heads" in msg or "active_params_b" in msg
    finally:
        catalog.all_models.cache_clear()


def test_catalog_command_lists_and_exports(capsys):
    from ui.cli import main
    assert main(["catalog"]) == 0
    assert "models" in capsys.readouterr().out
    assert main(["catalog", "models"]) == 0
    out = capsys.readouterr().out
    assert "llama-3.1-70b" in out and "https://huggingface.co/" in out
    assert main(["catalog", "hardware", "--json"]) == 0
    hw = json.loads(capsys.readouterr().out)
    assert len(hw) == len(catalog.all_hardware()) and all(h["source"] for h in hw)
    assert main(["catalog", "engines", "--json"]) == 0
    assert {e["id"] for e in json.loads(capsys.readouterr().out)} == set(catalog.all_engines())
    with pytest.raises(SystemExit) as err:
        main(["catalog", "gpus"])
    assert err.value.code == 2
