"""A model the catalog does not know, from its Hugging Face config.json.

    spec_from_config(cfg, *, name=None, model_id="custom") -> ModelSpec (params computed, assumptions listed)
    load_model_config(path | JSON text | dict)              -> ModelSpec, or InputError with one clear line

Handles the config shapes people deploy: llama / qwen2 / qwen3 / mistral / mixtral / gemma 1-3 (sliding
window patterns) / phi3 / cohere / granite / olmo2 / deepseek_v2 / deepseek_v3 (MLA: kv_lora_rank,
qk_rope_head_dim) / kimi_k2 / glm4_moe / gpt_oss / qwen3_moe / llama4 (chunked attention, interleaved
MoE) / minimax (lightning attention) / qwen3_next and other hybrids with `layer_types`; a VL config's
`text_config` is read for the language model. Parameter counts are computed from the shapes
(gated MLPs, untied embeddings as configured); the few pieces a config does not spell out are in
`.assumptions`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rules.catalog_schema import Attention, ModelSpec, kv_bytes_formula
from rules.errors import InputError

_NESTED = ("text_config", "llm_config", "language_config", "thinker_config")
_DTYPES = {"bfloat16": "bf16", "float16": "f16", "half": "f16", "float32": "fp32", "float": "fp32"}


def _text_config(cfg: dict) -> dict:
    """The language-model part of a config (VL / omni models nest it)."""
    for key in _NESTED:
        inner = cfg.get(key)
        if isinstance(inner, dict) and ("hidden_size" in inner or any(k in inner for k in _NESTED)):
            merged = {**{k: v for k, v in cfg.items() if k not in _NESTED}, **_text_config(inner)}
            merged.setdefault("quantization_config", cfg.get("quantization_config"))
            return merged
    return cfg


def _get(cfg: dict, *keys: str, default: Any = None) -> Any:
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    return default


def _need(cfg: dict, *keys: str) -> int:
    value = _get(cfg, *keys)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
        raise InputError(f"config.json has no usable '{keys[0]}' (a positive number is needed)")
    return int(value)


def native_dtype(cfg: dict) -> str:
    """Precision the weights ship in: quantization_config first, then torch_dtype / dtype."""
    q = cfg.get("quantization_config") or _text_config(cfg).get("quantization_config") or {}
    method = str(q.get("quant_method", "")).lower()
    if method in ("fp8", "mxfp4"):
        return method
    if method == "modelopt" or "nvfp4" in json.dumps(q).lower():
        return "nvfp4"
    if method == "compressed-tensors":
        groups = json.dumps(q.get("config_groups", {})).lower()
        if '"num_bits": 4' in groups:
            return "int4"
        if '"num_bits": 8' in groups:
            return "fp8" if '"type": "float"' in groups else "int8"
    if method in ("awq", "gptq"):
        return "int4" if q.get("bits", 4) == 4 else "int8"
    return _DTYPES.get(str(_get(cfg, "torch_dtype", "dtype", default="bfloat16")).lower(), "bf16")


def _moe_layer_count(cfg: dict, layers: int) -> int:
    """Layers whose MLP is a routed-expert block."""
    if cfg.get("first_k_dense_replace") is not None:  # DeepSeek V2/V3, Kimi K2, GLM-4.5
        freq = int(cfg.get("moe_layer_freq", 1) or 1)
        return len([i for i in range(int(cfg["first_k_dense_replace"]), layers) if i % freq == 0])
    if cfg.get("interleave_moe_layer_step"):  # Llama 4
        return layers // int(cfg["interleave_moe_layer_step"])
    if cfg.get("mlp_only_layers") or cfg.get("decoder_sparse_step", 1) not in (None, 1):
        step = int(cfg.get("decoder_sparse_step") or 1)
        dense = set(cfg.get("mlp_only_layers") or [])
        return len([i for i in range(layers) if i not in dense and (i + 1) % step == 0])
    return layers


def _layer_kinds(cfg: dict, layers: int) -> list[str]:
    """Per-layer attention kind: 'full', 'sliding' or 'linear'."""
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == layers:
        return ["linear" if any(w in t for w in ("linear", "mamba", "deltanet", "conv")) else
                "sliding" if ("sliding" in t or "chunk" in t) else "full" for t in map(str.lower, types)]
    if isinstance(cfg.get("attn_type_list"), list):  # MiniMax-Text-01 / M1: 0 = lightning (linear)
        return ["full" if t else "linear" for t in cfg["attn_type_list"]][:layers]
    if isinstance(cfg.get("hybrid_override_pattern"), str):  # Nemotron-H: M = Mamba, * = attention
        return ["full" if c == "*" else "linear" for c in cfg["hybrid_override_pattern"] if c in "M*"]
    if cfg.get("full_attention_interval"):  # Qwen3-Next
        k = int(cfg["full_attention_interval"])
        return ["full" if (i + 1) % k == 0 else "linear" for i in range(layers)]
    return _sliding_kinds(cfg, layers)


def _sliding_kinds(cfg: dict, layers: int) -> list[str]:
    window = cfg.get("sliding_window") or cfg.get("attention_chunk_size")
    max_pos = cfg.get("max_position_embeddings") or 0
    if not window or cfg.get("use_sliding_window") is False or (max_pos and window >= max_pos):
        return ["full"] * layers
    pattern = cfg.get("sliding_window_pattern") or cfg.get("_sliding_window_pattern")
    if cfg.get("attention_chunk_size"):  # Llama 4: every 4th layer is global (NoPE)
        pattern = 4
    elif cfg.get("model_type") == "gemma2":
        pattern = 2
    if pattern:
        return ["full" if (i + 1) % int(pattern) == 0 else "sliding" for i in range(layers)]
    return ["sliding"] * layers


def _attention(cfg: dict, layers: int) -> Attention:
    kinds = _layer_kinds(cfg, layers)
    sliding, linear = kinds.count("sliding"), kinds.count("linear")
    window = (cfg.get("sliding_window") or cfg.get("attention_chunk_size")) if sliding else None
    parts = [f"{sliding} sliding ({window})" if sliding else "", f"{linear} linear-state" if linear else "",
             f"{kinds.count('full')} full"]
    pattern = " : ".join(p for p in parts if p) if (sliding or linear) else None
    if cfg.get("kv_lora_rank"):
        return Attention(kind="mla", kv_lora_rank=cfg["kv_lora_rank"], qk_rope_head_dim=cfg["qk_rope_head_dim"],
                         sliding_window=window, sliding_layers=sliding, linear_layers=linear,
                         layer_pattern=pattern)
    heads, kv = _need(cfg, "num_attention_heads", "n_head"), _get(cfg, "num_key_value_heads", "multi_query_group_num")
    kind = "mha" if (kv or heads) == heads else "gqa"
    return Attention(kind=kind, sliding_window=window, sliding_layers=sliding, linear_layers=linear,
                     layer_pattern=pattern, linear_state_values=_linear_state(cfg) if linear else None)


def _linear_state(cfg: dict) -> int | None:
    """Gated DeltaNet state per layer (Qwen3-Next / Qwen3.5): value heads x key dim x value dim, plus the
    short convolution's window over the q, k and v channels; None for other linear-state layouts."""
    keys = ("linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim", "linear_num_key_heads",
            "linear_conv_kernel_dim")
    if not all(isinstance(cfg.get(k), int) for k in keys):
        return None
    hv, dk, dv, hk, conv = (cfg[k] for k in keys)
    return hv * dk * dv + (2 * hk * dk + hv * dv) * (conv - 1)


def _attention_params(cfg: dict, hidden: int, heads: int, kv: int, hd: int) -> float:
    if cfg.get("kv_lora_rank"):  # MLA (DeepSeek V2/V3, Kimi K2)
        nope, rope, v = cfg["qk_nope_head_dim"], cfg["qk_rope_head_dim"], cfg.get("v_head_dim", cfg["qk_nope_head_dim"])
        ql = cfg.get("q_lora_rank")
        q = hidden * ql + ql * heads * (nope + rope) if ql else hidden * heads * (nope + rope)
        kv_p = hidden * (cfg["kv_lora_rank"] + rope) + cfg["kv_lora_rank"] * heads * (nope + v)
        return q + kv_p + heads * v * hidden
    return hidden * heads * hd * 2 + hidden * kv * hd * 2


def _mlp_params(cfg: dict, hidden: int, layers: int, moe_layers: int) -> tuple[float, float, dict]:
    """(all MLP params, routed-expert params, MoE facts)."""
    inter = _get(cfg, "intermediate_size", "ffn_hidden_size", "n_inner")
    experts = _get(cfg, "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts")
    if not experts:
        return 3 * hidden * _need(cfg, "intermediate_size", "ffn_hidden_size") * layers, 0.0, {}
    moe_inter = _get(cfg, "moe_intermediate_size", "expert_intermediate_size", default=inter)
    shared_n = _get(cfg, "n_shared_experts", "num_shared_experts", default=0) or 0
    shared_inter = _get(cfg, "shared_expert_intermediate_size", default=shared_n * moe_inter)
    if cfg.get("model_type", "").startswith("llama4"):
        shared_n, shared_inter = 1, inter
    dense_inter = _get(cfg, "intermediate_size_mlp", "intermediate_size", default=moe_inter)
    routed = moe_layers * experts * 3 * hidden * moe_inter
    rest = moe_layers * (3 * hidden * shared_inter + hidden * experts) + (layers - moe_layers) * 3 * hidden * dense_inter
    facts = dict(experts=int(experts), experts_per_tok=int(_need(cfg, "num_experts_per_tok", "top_k_experts", "moe_topk")),
                 moe_intermediate=int(moe_inter), moe_layers=moe_layers, shared_experts=int(shared_n) or None)
    return routed + rest, routed, facts


def spec_from_config(raw: dict, *, name: str | None = None, model_id: str = "custom",
                     source: str = "a config.json the user supplied") -> ModelSpec:
    """A ModelSpec computed from a Hugging Face config.json (dict). Raises InputError on unusable configs."""
    if not isinstance(raw, dict):
        raise InputError("config.json must be a JSON object")
    cfg = _text_config(raw)
    layers, hidden = _need(cfg, "num_hidden_layers", "n_layer", "num_layers"), _need(cfg, "hidden_size", "n_embd", "d_model")
    heads = _need(cfg, "num_attention_heads", "n_head")
    kv = int(_get(cfg, "num_key_value_heads", "multi_query_group_num", default=heads) or heads)
    hd = int(_get(cfg, "head_dim", default=0) or (cfg.get("qk_nope_head_dim", 0) + cfg.get("qk_rope_head_dim", 0))
             or hidden // heads)
    vocab = _need(cfg, "vocab_size", "padded_vocab_size")
    tied = bool(cfg.get("tie_word_embeddings", False))
    attention = _attention(cfg, layers)
    moe_layers = _moe_layer_count(cfg, layers)
    mlp, routed, moe = _mlp_params(cfg, hidden, layers, moe_layers)
    attn = _attention_params(cfg, hidden, heads, kv, hd) * layers
    total = attn + mlp + vocab * hidden * (1 if tied else 2)
    active = total - routed * (1 - moe["experts_per_tok"] / moe["experts"]) if moe else total
    notes = ["parameters computed from the config's shapes (gated MLP; norms and biases left out)"]
    if attention.linear_layers:
        notes.append("linear-attention / SSM layers counted as ordinary attention layers for parameters")
    spec = dict(
        id=model_id, name=name or str(cfg.get("_name_or_path") or cfg.get("model_type") or "custom model"),
        architecture="moe" if moe else ("hybrid" if attention.linear_layers else "dense"),
        params_b=_billions(total), active_params_b=_billions(active), layers=layers, hidden=hidden,
        q_heads=heads, kv_heads=None if attention.kind == "mla" else kv, head_dim=hd,
        v_head_dim=cfg.get("v_head_dim"), intermediate=_get(cfg, "intermediate_size", "ffn_hidden_size"),
        vocab=vocab, tied_embeddings=tied, attention=attention, max_context=_max_context(cfg),
        native_dtype=native_dtype(raw), confidence="medium", source=source, assumptions=notes, **moe)
    spec["kv_bytes_per_token_bf16"] = kv_bytes_formula(ModelSpec.model_construct(**spec))
    try:
        return ModelSpec.model_validate(spec)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "config"
        raise InputError(f"config.json describes an impossible model ({where}: {err['msg']})") from None


def _billions(n: float) -> float:
    """Parameters in billions: three decimals below 10B (a 135M model is 0.134), two above."""
    return round(n / 1e9, 3 if n < 1e10 else 2)


def _max_context(cfg: dict) -> int:
    value = _get(cfg, "max_position_embeddings", "max_sequence_length", "seq_length", "n_positions", default=None)
    if value is None:
        raise InputError("config.json has no 'max_position_embeddings' (the model's context length)")
    return int(value)


def load_model_config(src: str | Path | dict, name: str | None = None) -> ModelSpec:
    """A ModelSpec from a config.json path (or an already-parsed dict); one-line InputError when unusable."""
    from rules.inputs import check_depth, clean_text, read_text
    if isinstance(src, dict):
        return spec_from_config(check_depth(src, "model config"), name=name)
    if not isinstance(src, (str, Path)):
        raise InputError(f"model config must be a config.json path or its JSON text (got {type(src).__name__})")
    if isinstance(src, str) and src.lstrip().startswith("{"):  # the JSON text itself (MCP, web upload)
        return spec_from_config(_parse_json(clean_text(src, "model config", 1_000_000), "model config"), name=name)
    shown = clean_text(str(src), "model config path", 10_000)
    path = Path(src).expanduser()
    if not path.exists():
        raise InputError(f"model config '{shown}' does not exist; give the path of a Hugging Face config.json")
    raw = _parse_json(read_text(path, "model config", limit=10 * 1024 * 1024), f"model config '{shown}'")
    return spec_from_config(raw, name=name or path.parent.name or path.stem, source=f"config.json at {shown}")


def _parse_json(text: str, what: str) -> Any:
    """JSON text → data; InputError for bad JSON, non-finite numbers, over-deep nesting or a non-object."""
    from rules.inputs import check_depth

    def no_constant(word: str):
        raise InputError(f"{what} is not valid JSON ({word} is not a JSON number)")
    try:
        data = json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply") from None
    check_depth(data, what)
    if not isinstance(data, dict):
        raise InputError(f"{what} must be a JSON object (a Hugging Face config.json)")
    return data
