"""The engine catalog: complete, every fact sourced from the engine's own docs, loader errors named."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from pydantic import BaseModel

from rules import engines as eng
from rules.errors import DataError, UnknownIdError
from rules.ids import ENGINES, PLATFORMS

# Where each engine's own documentation lives; a source outside these is a copy-paste slip.
OFFICIAL = {
    "llama.cpp": ("github.com/ggml-org/llama.cpp",),
    "mlx-lm": ("github.com/ml-explore/mlx-lm",),
    "ollama": ("docs.ollama.com", "github.com/ollama/ollama"),
    "exllamav2": ("github.com/turboderp-org/exllamav2",),
    "exllamav3": ("github.com/turboderp-org/exllamav3",),
    # vLLM's hardware plugins live in the vllm-project org (tpu-inference, vllm-ascend) or in the vendor's
    # own docs (AWS Neuron): those are the official sources for the platforms they add.
    "vllm": ("docs.vllm.ai", "github.com/vllm-project/", "awsdocs-neuron.readthedocs-hosted.com"),
    "sglang": ("docs.sglang.io", "github.com/sgl-project/sglang"),
    # Serving TensorRT-LLM behind Triton is documented in NVIDIA's Triton backend for it (its config.pbtxt knobs).
    "tensorrt-llm": ("nvidia.github.io/TensorRT-LLM", "github.com/NVIDIA/TensorRT-LLM",
                     "github.com/triton-inference-server/tensorrtllm_backend"),
    "dynamo": ("github.com/ai-dynamo/dynamo",),
    "openvino-genai": ("github.com/openvinotoolkit/openvino.genai", "openvinotoolkit.github.io/openvino.genai",
                       "docs.openvino.ai"),
}


def _sources(node, path=""):
    """Every (dotted path, source URL) pair in a spec."""
    if isinstance(node, eng.Sourced):
        yield path, node.source
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _sources(getattr(node, name), f"{path}.{name}")
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _sources(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _sources(value, f"{path}[{i}]")


def test_every_engine_id_is_present_once():
    assert sorted(eng.all_engines()) == sorted(ENGINES)


@pytest.mark.parametrize("engine_id", ENGINES)
def test_every_fact_has_an_official_source(engine_id):
    spec = eng.engine(engine_id)
    found = list(_sources(spec, engine_id)) + [("hardware_source", spec.hardware_source)]
    assert len(found) > 20
    for where, url in found:
        parsed = urlparse(url)
        assert parsed.scheme == "https" and parsed.netloc, where
        assert (parsed.netloc + parsed.path).startswith(OFFICIAL[engine_id]), f"{where}: {url}"


@pytest.mark.parametrize("engine_id", ENGINES)
def test_every_feature_answered_and_platforms_known(engine_id):
    spec = eng.engine(engine_id)
    for name in eng.FEATURES:
        assert isinstance(spec.feature(name).value, bool)
    assert set(spec.platforms) <= set(PLATFORMS)
    assert spec.platforms, "an engine must run somewhere"
    assert spec.production.summary.strip() and spec.limits


def test_unverified_notes_are_reported():
    flagged = eng.unverified_facts()
    assert flagged, "the catalog records what the docs did not confirm"
    for path in flagged:
        engine_id = next(e for e in sorted(ENGINES, key=len, reverse=True) if path.startswith(e + "."))
        assert engine_id in ENGINES


def test_orchestrator_names_its_backends():
    dynamo = eng.engine("dynamo")
    assert dynamo.kind == "orchestrator"
    assert set(dynamo.backends.engines) == {"vllm", "sglang", "tensorrt-llm"}
    assert all(eng.engine(e).kind == "engine" for e in ENGINES if e != "dynamo")


def test_production_stances_follow_the_docs():
    stance = {e: eng.engine(e).production.stance for e in ENGINES}
    assert stance["mlx-lm"] == stance["ollama"] == stance["llama.cpp"] == "personal-demo"
    assert {stance[e] for e in ("vllm", "sglang", "tensorrt-llm", "dynamo")} == {"production"}
    assert "production" in eng.engine("mlx-lm").production.summary
    assert any("RPC" in limit.text for limit in eng.engine("llama.cpp").limits)
    assert eng.engine("llama.cpp").feature("multi_node").source.endswith("tools/rpc/README.md")


def test_vllm_cites_the_no_nvlink_pipeline_advice():
    pp = eng.engine("vllm").parallelism["pp"]
    assert pp.source.endswith("serving/parallelism_scaling.html")
    assert "NVLink" in eng.engine("vllm").parallelism["tp"].note


def test_unknown_engine_lists_closest_ids():
    with pytest.raises(UnknownIdError) as err:
        eng.engine("vlm")
    assert "vllm" in err.value.suggestions


# ---- loader errors ------------------------------------------------------------------------

def _write(tmp_path: Path, entries) -> Path:
    path = tmp_path / "engines.yaml"
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    path.write_text(yaml.dump({"engines": entries}, Dumper=dumper, sort_keys=False), encoding="utf-8")
    return path


def _raw_entries():
    return yaml.load(eng.CATALOG_FILE.read_text(encoding="utf-8"), Loader=eng._SAFE_LOADER)["engines"]


def test_loader_names_file_entry_and_field_for_an_extra_key(tmp_path):
    entries = _raw_entries()
    entries[5]["features"]["paged_kv"]["colour"] = "blue"
    with pytest.raises(DataError) as err:
        eng.load_engines(_write(tmp_path, entries))
    assert (err.value.file, err.value.entry) == ("engines.yaml", entries[5]["id"])
    assert err.value.field == "features.paged_kv.colour"


def test_loader_rejects_a_source_that_is_not_a_url(tmp_path):
    entries = _raw_entries()
    entries[0]["platforms"]["x86-cpu"]["source"] = "the README"
    with pytest.raises(DataError) as err:
        eng.load_engines(_write(tmp_path, entries))
    assert err.value.field == "platforms.x86-cpu.source"


def test_loader_rejects_unknown_quant_and_platform_ids(tmp_path):
    entries = _raw_entries()
    entries[0]["quantizations"]["q3_k"] = {"kernel": "optimized", "source": "https://example.org/x"}
    with pytest.raises(DataError, match="q3_k"):
        eng.load_engines(_write(tmp_path, entries))
    entries = _raw_entries()
    entries[0]["platforms"]["risc-v"] = {"status": "native", "source": "https://example.org/x"}
    with pytest.raises(DataError) as err:
        eng.load_engines(_write(tmp_path, entries))
    assert err.value.field.startswith("platforms")


def test_loader_requires_every_engine_and_no_duplicates(tmp_path):
    entries = _raw_entries()
    with pytest.raises(DataError, match="missing engine ids"):
        eng.load_engines(_write(tmp_path, entries[:-1]))
    with pytest.raises(DataError, match="duplicate"):
        eng.load_engines(_write(tmp_path, entries + [entries[0]]))


def test_loader_rejects_a_feature_left_out(tmp_path):
    entries = _raw_entries()
    del entries[3]["features"]["anthropic_api"]
    with pytest.raises(DataError) as err:
        eng.load_engines(_write(tmp_path, entries))
    assert err.value.field == "features.anthropic_api"


def test_loader_rejects_unreadable_yaml(tmp_path):
    path = tmp_path / "engines.yaml"
    path.write_text("engines: [\n", encoding="utf-8")
    with pytest.raises(DataError, match="cannot read"):
        eng.load_engines(path)
