"""A model the catalog does not know, from its config.json: parsing, computed params, clear errors."""
from __future__ import annotations

import json

import pytest

from rules import catalog
from rules.errors import InputError
from rules.model_config import load_model_config, spec_from_config
from rules.roofline.memory import kv_bytes

LLAMA_70B = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 8192, "intermediate_size": 28672,
             "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 128256,
             "max_position_embeddings": 131072, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}
DEEPSEEK_V3 = {"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432, "num_hidden_layers": 61,
               "num_attention_heads": 128, "num_key_value_heads": 128, "q_lora_rank": 1536, "kv_lora_rank": 512,
               "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "n_routed_experts": 256,
               "n_shared_experts": 1, "num_experts_per_tok": 8, "moe_intermediate_size": 2048, "first_k_dense_replace": 3,
               "moe_layer_freq": 1, "vocab_size": 129280, "max_position_embeddings": 163840,
               "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
GEMMA3_27B_VL = {"model_type": "gemma3", "torch_dtype": "bfloat16", "text_config": {
    "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504, "num_hidden_layers": 62,
    "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128, "sliding_window": 1024,
    "sliding_window_pattern": 6, "vocab_size": 262208, "max_position_embeddings": 131072}}
GPT_OSS_20B = {"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880, "num_hidden_layers": 24,
               "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "num_local_experts": 32,
               "num_experts_per_tok": 4, "vocab_size": 201088, "max_position_embeddings": 131072, "sliding_window": 128,
               "layer_types": ["sliding_attention", "full_attention"] * 12, "quantization_config": {"quant_method": "mxfp4"}}
QWEN3_MOE = {"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 48,
             "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128,
             "num_experts_per_tok": 8, "moe_intermediate_size": 768, "decoder_sparse_step": 1, "mlp_only_layers": [],
             "vocab_size": 151936, "max_position_embeddings": 40960, "tie_word_embeddings": False}
HYBRID = {"model_type": "qwen3_next", "hidden_size": 2048, "intermediate_size": 5120, "num_hidden_layers": 48,
          "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256, "num_experts": 512, "num_experts_per_tok": 10,
          "moe_intermediate_size": 512, "full_attention_interval": 4, "vocab_size": 151936, "max_position_embeddings": 262144}


def test_dense_llama_matches_the_catalog_entry():
    spec = spec_from_config(LLAMA_70B)
    ref = catalog.model("llama-3.1-70b")
    assert spec.params_b == pytest.approx(ref.params_b, rel=0.01)
    assert spec.kv_bytes_per_token_bf16 == ref.kv_bytes_per_token_bf16 and spec.attention.kind == "gqa"
    assert spec.native_dtype == "bf16" and spec.assumptions


def test_mla_moe_reads_latent_rank_and_fp8():
    spec = spec_from_config(DEEPSEEK_V3)
    assert spec.attention.kind == "mla" and spec.kv_heads is None
    assert spec.kv_bytes_per_token_bf16 == 61 * (512 + 64) * 2
    assert spec.moe_layers == 58 and spec.experts == 256 and spec.native_dtype == "fp8"
    assert spec.params_b == pytest.approx(671, rel=0.02) and spec.active_params_b == pytest.approx(37, rel=0.05)


def test_vl_config_reads_text_config_and_sliding_pattern():
    spec = spec_from_config(GEMMA3_27B_VL)
    assert spec.layers == 62 and spec.attention.sliding_layers == 52 and spec.attention.sliding_window == 1024
    assert "52 sliding (1024)" in spec.attention.layer_pattern
    short, long = kv_bytes(spec, 1024).value, kv_bytes(spec, 32768).value
    assert long < 32 * short  # sliding layers stop growing past the window


def test_gpt_oss_layer_types_and_mxfp4():
    spec = spec_from_config(GPT_OSS_20B)
    ref = catalog.model("gpt-oss-20b")
    assert spec.attention.sliding_layers == 12 and spec.native_dtype == "mxfp4"
    assert spec.kv_bytes_per_token_bf16 == ref.kv_bytes_per_token_bf16
    assert spec.params_b == pytest.approx(ref.params_b, rel=0.03)


def test_qwen3_moe_active_params():
    spec = spec_from_config(QWEN3_MOE)
    assert spec.architecture == "moe" and spec.moe_layers == 48
    assert spec.params_b == pytest.approx(30.5, rel=0.02) and spec.active_params_b == pytest.approx(3.3, rel=0.1)


def test_hybrid_linear_layers_keep_no_kv_cache():
    spec = spec_from_config(HYBRID)
    assert spec.attention.linear_layers == 36
    assert spec.kv_bytes_per_token_bf16 == 2 * 12 * 2 * 256 * 2


@pytest.mark.parametrize("content, words", [
    ("{not json", "not valid JSON"),
    ('{"hidden_size": 4096}', "num_hidden_layers"),
    ('[1, 2]', "JSON object"),
    (json.dumps({**LLAMA_70B, "num_key_value_heads": 7}), "kv_heads 7 must divide q_heads 64"),
    (json.dumps({k: v for k, v in LLAMA_70B.items() if k != "max_position_embeddings"}), "max_position_embeddings"),
])
def test_bad_configs_give_one_clear_line(tmp_path, content, words):
    path = tmp_path / "config.json"
    path.write_text(content)
    with pytest.raises(InputError) as err:
        load_model_config(path)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_missing_file_and_json_text():
    with pytest.raises(InputError, match="does not exist"):
        load_model_config("/nonexistent/config.json")
    assert load_model_config(json.dumps(LLAMA_70B)).layers == 80


def test_cli_estimate_from_a_config(tmp_path, capsys):
    from ui.cli import main
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA_70B))
    assert main(["estimate", "--model-config", str(path), "--hardware", "h100_sxm", "--count", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fits"] is True and out["kv_bytes_per_token"] == 327680
    path.write_text("{broken")
    assert main(["estimate", "--model-config", str(path), "--hardware", "h100_sxm"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_profile_field_model_config(tmp_path):
    from agent.profiles import profile_from_mapping
    from rules.roofline import estimate_for_profile
    path = tmp_path / "config.json"
    path.write_text(json.dumps(DEEPSEEK_V3))
    profile = profile_from_mapping({"hardware": "h200_sxm", "count": 8, "model_config": str(path)})
    assert profile.params_b == pytest.approx(671, rel=0.02) and profile.architecture == "moe"
    est = estimate_for_profile(profile)
    assert est.kv_bytes_per_token == 61 * 576 * 2
    inline = profile_from_mapping({"hardware": "h100_sxm", "model_config": LLAMA_70B})
    assert inline.params_b == pytest.approx(70.55, rel=0.01)


def test_mcp_estimate_takes_a_config_text():
    from ui.mcp_tools import make_tools
    tools = make_tools(None)
    out = json.loads(tools["estimate"]("", "h200", 8, "", 0, 0, 1, 0, "nvlink", 1, False, json.dumps(DEEPSEEK_V3)))
    assert out["fits"] is True and out["kv_bytes_per_token"] == 61 * 576 * 2
    with pytest.raises(Exception, match="not valid JSON"):   # gradio.Error carries the one-line message
        tools["estimate"]("", "h200", 8, "", 0, 0, 1, 0, "", 1, False, "{oops")
