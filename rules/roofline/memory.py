"""Memory: weight bytes by quantization, KV-cache bytes per token, runtime reserve, fit per device.

Conventions: every figure is in GB = 10^9 bytes. Device memory is sold in binary units (an "80 GB"
H100 has 81,559 MiB, a "192 GB" Mac 192 GiB), so a catalog or stated capacity of N GB is N x 2^30
bytes. Weights are split evenly over the devices that hold them (TP x PP, or EP for routed experts).
The input embedding table is stored but only one row is read per token.
"""
from __future__ import annotations

from rules.catalog_schema import Hardware, ModelSpec
from rules.quant import bits_per_weight, bytes_per_value
from rules.roofline.figure import Figure, fmt, gb

SERVER_ENGINES = frozenset({"vllm", "sglang", "tensorrt-llm", "dynamo"})
SERVER_RESERVE = 0.10  # vLLM's default gpu_memory_utilization is 0.9 (vLLM engine arguments docs)
LOCAL_RESERVE = 0.05   # assumption: CUDA/Metal context + compute buffers of local engines,
LOCAL_RESERVE_MIN_GB, LOCAL_RESERVE_MAX_GB = 0.5, 4.0  # at least 0.5 GB, at most 4 GB


GGUF_ENGINES = frozenset({"llama.cpp", "ollama"})
# ggml-org's MXFP4 GGUF of gpt-oss-20b is 12.1 GB: 19.1B expert params x 4.25 bits leaves ~8.5 bits
# (Q8_0) for the 1.8B non-expert params; the Hugging Face checkpoint keeps those in BF16.
GGUF_NONEXPERT_BITS = 8.5


def expert_bits(model: ModelSpec, quant: str, engine: str | None = None) -> tuple[float, float]:
    """(bits of non-expert weights, bits of routed-expert weights) for a quantization id.

    Natively mixed checkpoints (gpt-oss: MXFP4 experts) keep non-expert weights at 16 bits
    (Q8_0 in the GGUF files llama.cpp and Ollama load)."""
    bits = bits_per_weight(quant)
    if model.architecture == "moe" and quant == model.native_dtype and bits < 8:
        return (GGUF_NONEXPERT_BITS if engine in GGUF_ENGINES else 16.0), bits
    return bits, bits


def weight_bytes(model: ModelSpec, quant: str, engine: str | None = None) -> Figure:
    """Bytes of all weights: params x bits / 8 (experts and the rest at their own bits)."""
    b_ne, b_e = expert_bits(model, quant, engine)
    routed = model.routed_expert_params_b * 1e9
    rest = model.params_b * 1e9 - routed
    total = (rest * b_ne + routed * b_e) / 8
    if b_ne == b_e:
        why = f"{fmt(model.params_b)}B params x {b_ne:g} bits / 8 = {gb(total):.1f} GB"
    else:
        why = (f"{fmt(rest / 1e9)}B non-expert x {b_ne:g} bits + {fmt(routed / 1e9)}B expert x {b_e:g} bits, "
               f"/ 8 = {gb(total):.1f} GB")
    return Figure(total, why)


def attention_params(model: ModelSpec) -> float:
    """Attention projection parameters (q/k/v/o, MLA down- and up-projections): what is left of the dense
    weights after embeddings, dense MLPs and shared experts (gated MLPs: 3 x hidden x intermediate)."""
    emb = model.embedding_params_b * 1e9
    tables = emb if model.tied_embeddings else 2 * emb
    dense = model.params_b * 1e9 - model.routed_expert_params_b * 1e9 - tables
    moe_layers = (model.moe_layers or 0) if model.architecture == "moe" else 0
    mlp = (model.layers - moe_layers) * 3 * model.hidden * (model.intermediate or 0)
    if moe_layers and model.moe_intermediate:
        mlp += moe_layers * (model.shared_experts or 0) * 3 * model.hidden * model.moe_intermediate
    return max(0.0, dense - mlp)


def attention_weight_bytes(model: ModelSpec, quant: str, engine: str | None = None) -> float:
    """Bytes of the attention projections (stored at the non-expert bits)."""
    return attention_params(model) * expert_bits(model, quant, engine)[0] / 8


def experts_touched(model: ModelSpec, batch: int) -> Figure:
    """Expected share of routed experts a decode step reads: 1 - (1 - k/E)^batch (uniform routing)."""
    if model.architecture != "moe":
        return Figure(1.0, "dense model: every weight is read each step")
    p = model.experts_per_tok / model.experts
    share = 1 - (1 - p) ** max(1, batch)
    return Figure(share, f"1 - (1 - {model.experts_per_tok}/{model.experts})^{batch} = {share:.3f} of experts per step")


def step_weight_bytes(model: ModelSpec, quant: str, batch: int = 1, engine: str | None = None) -> Figure:
    """Weight bytes one decode step reads: non-expert weights + lm_head + touched experts
    (the input embedding table is not streamed: one row per token)."""
    b_ne, b_e = expert_bits(model, quant, engine)
    emb = model.embedding_params_b * 1e9
    routed = model.routed_expert_params_b * 1e9
    tables = emb if model.tied_embeddings else 2 * emb
    dense_part = model.params_b * 1e9 - routed - tables + emb  # everything but the input table
    share = experts_touched(model, batch).value
    total = (dense_part * b_ne + routed * share * b_e) / 8
    why = f"({fmt(dense_part / 1e9)}B dense incl. lm_head x {b_ne:g} bits"
    if routed:
        why += f" + {fmt(routed / 1e9)}B experts x {share:.3f} touched x {b_e:g} bits"
    return Figure(total, why + f") / 8 = {gb(total):.2f} GB per step")


def kv_bytes_per_token(model: ModelSpec, kv_dtype: str | None = None) -> Figure:
    """KV bytes each new token adds once past any sliding window: GQA 2*L*kv_heads*head_dim*bytes,
    MLA L*(latent + rope)*bytes."""
    b = bytes_per_value(kv_dtype)
    att = model.attention
    if att.kind == "mla":
        per = model.layers * (att.kv_lora_rank + att.qk_rope_head_dim) * b
        why = f"MLA {model.layers} layers x ({att.kv_lora_rank} + {att.qk_rope_head_dim}) x {b:g} B"
    else:
        full = model.layers - att.sliding_layers - att.linear_layers
        per = 2 * full * model.kv_heads * model.head_dim * b
        why = f"2 x {full} layers x {model.kv_heads} KV heads x {model.head_dim} dims x {b:g} B"
        if att.sliding_layers:
            why += f" (the {att.sliding_layers} sliding-window layers stop at {att.sliding_window} tokens)"
        if att.linear_layers:
            why += f" (the {att.linear_layers} linear-attention layers keep a fixed state instead)"
    return Figure(per, f"{why} = {per:,.0f} B/token")


STATE_BYTES = 2  # linear-attention state in the model's 16-bit dtype (vLLM's mamba_ssm_cache_dtype 'auto')


def linear_state_bytes(model: ModelSpec) -> float:
    """Fixed bytes one sequence keeps in the linear-attention layers, whatever its length (0 if unknown)."""
    att = model.attention
    return float(att.linear_layers * (att.linear_state_values or 0) * STATE_BYTES)


def kv_bytes(model: ModelSpec, tokens: int, kv_dtype: str | None = None) -> Figure:
    """KV-cache bytes of one sequence at `tokens` of context (sliding layers capped at the window)."""
    b = bytes_per_value(kv_dtype)
    att = model.attention
    growing = kv_bytes_per_token(model, kv_dtype).value * tokens
    capped = 0.0
    if att.sliding_layers and att.kind != "mla":
        capped = 2 * att.sliding_layers * model.kv_heads * model.head_dim * b * min(tokens, att.sliding_window)
    state = linear_state_bytes(model)
    total = growing + capped + state
    why = f"{tokens:,} tokens -> {gb(total):.3f} GB of KV cache per sequence"
    if state:
        why += f" (incl. {gb(state):.3f} GB of fixed linear-attention state)"
    return Figure(total, why)


def reserve_bytes(hw: Hardware, engine: str | None, capacity: float) -> Figure:
    """Memory kept back per device for the runtime (activations, CUDA graphs, context)."""
    if engine in SERVER_ENGINES or (engine is None and hw.hw_class == "datacenter"):
        r = SERVER_RESERVE * capacity
        return Figure(r, f"{SERVER_RESERVE:.0%} of {gb(capacity):.0f} GB kept back (vLLM-style gpu_memory_utilization 0.9)")
    r = min(LOCAL_RESERVE_MAX_GB * 1e9, max(LOCAL_RESERVE_MIN_GB * 1e9, LOCAL_RESERVE * capacity))
    return Figure(r, f"{gb(r):.1f} GB kept back for runtime buffers (assumed {LOCAL_RESERVE:.0%}, "
                     f"between {LOCAL_RESERVE_MIN_GB} and {LOCAL_RESERVE_MAX_GB} GB)")


GIB = 2**30


def capacity_bytes(hw: Hardware, memory_gb: float | None = None) -> Figure:
    """Bytes of one device's memory: its nominal size (catalog or stated) in binary units."""
    mem = memory_gb or hw.memory_gb
    return Figure(mem * GIB, f"{mem:g} GB as sold (binary units: {mem:g} GiB) = {mem * GIB / 1e9:.1f} GB")


def usable_bytes(hw: Hardware, memory_gb: float | None = None) -> Figure:
    """Bytes one device can use: memory x usable fraction (Apple GPUs wire only part of unified memory)."""
    cap = capacity_bytes(hw, memory_gb)
    usable = cap.value * hw.usable_memory_fraction
    why = cap.why
    if hw.usable_memory_fraction < 1:
        why += f" x {hw.usable_memory_fraction:.2f} GPU-wirable by default"
    return Figure(usable, f"{why} = {gb(usable):.1f} GB usable per device")


KV_BLOCK_TOKENS = 16  # vLLM's default PagedAttention block size; TensorRT-LLM's tokens_per_block is larger (32/64)


def kv_tokens_held(policy: str, context: int, output_tokens: int, input_tokens: int | None = None) -> Figure:
    """KV tokens one sequence in service holds, by the engine's allocation policy (rules.roofline.runtime):
    'peak' reserves the whole context at admission, 'mean' grows blocks with the output (a sequence is
    halfway through it on average), 'slot' gives every parallel slot a full context. Paged policies round
    up to whole blocks. With `input_tokens` given, a paged sequence holds its own prompt and output, not the
    window it may grow to (an 8K request in an 80K window holds ~8K: r6-zh-01)."""
    if policy == "mean":
        whole = context if input_tokens is None else min(context, input_tokens + output_tokens)
        tokens = max(1, whole - output_tokens // 2)
        why = (f"context {context:,} - half the output ({output_tokens // 2:,})" if whole == context else
               f"prompt {input_tokens:,} + half the output ({output_tokens // 2:,})")
    elif policy == "peak" and input_tokens is not None and input_tokens + output_tokens < context:
        tokens = input_tokens + output_tokens
        why = f"prompt {input_tokens:,} + the whole output ({output_tokens:,}) reserved at admission"
    else:
        tokens = context
        why = f"the full context ({context:,})" + (" per slot" if policy == "slot" else " reserved at admission")
    if policy != "slot":
        tokens = -(-tokens // KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS
    return Figure(float(tokens), f"KV held per sequence: {why} = {tokens:,} tokens")


APPLE_RAISED_FRACTION = 0.9  # assumption: what people commonly set iogpu.wired_limit_mb to (leave ~10 % to macOS)


def raised_usable_bytes(hw: Hardware, memory_gb: float | None = None) -> Figure | None:
    """Bytes the GPU may wire once macOS's limit is raised (sudo sysctl iogpu.wired_limit_mb=...);
    None where the device has no such limit."""
    if hw.platform != "apple-silicon" or hw.usable_memory_fraction >= APPLE_RAISED_FRACTION:
        return None
    cap = capacity_bytes(hw, memory_gb)
    usable = cap.value * APPLE_RAISED_FRACTION
    return Figure(usable, f"{cap.why} x {APPLE_RAISED_FRACTION:.2f} with iogpu.wired_limit_mb raised = "
                          f"{gb(usable):.1f} GB usable")
