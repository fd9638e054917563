"""How an engine runs a batch: scheduler limits, KV-cache allocation, prefill mixing, kernel family.

The roofline needs only a few facts about each engine, each from its documentation or source:
how many sequences its scheduler admits, how many tokens one step may carry (chunked prefill),
whether prompt tokens ride in the same step as decodes, how KV blocks are held per request, and
whether its kernels are the local (GGUF-style) or the server family. An engine id the catalog
does not know runs as `generic` (no engine-specific limits), with a note; it never fails.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.catalog_schema import Hardware

BIG_GPU_GB = 70  # vLLM picks its larger batch defaults on GPUs with >= 70 GiB that are not A100s


@dataclass(frozen=True)
class Runtime:
    """Scheduling facts of one engine (None = no limit of its own: the KV cache decides)."""

    id: str
    family: str
    """'server' (fused GEMM/attention kernels, CUDA graphs), 'local' (llama.cpp-style kernels) or
    'generic' (an engine the catalog does not know: server-style, no platform-specific factors)."""
    kv_hold: str
    """'peak': KV blocks for prompt + all output reserved at admission (no eviction);
    'mean': blocks allocated as tokens arrive, so a sequence holds prompt + half its output on average;
    'slot': every parallel slot owns a full context (llama.cpp / Ollama split n_ctx over slots)."""
    max_seqs: tuple[tuple[float, int | None], ...]
    """(minimum device GiB, sequence limit) tiers, largest first; None = the KV cache decides."""
    step_tokens: tuple[tuple[float, int | None], ...]
    """(minimum device GiB, tokens one step may carry) tiers; None = a whole prompt in one step."""
    mixed: bool
    """Prompt tokens ride in the same forward pass as decodes (else prefill batches run separately)."""
    source: str
    tp_all_reduce: bool = False
    """A local-family engine whose tensor parallelism all-reduces each layer's output on the GPUs
    (ExLlamaV2/V3), instead of llama.cpp's host-synchronised row split (calibration.LOCAL_ROW_SPLIT_SYNC_S)."""

    def seq_cap(self, hw: Hardware) -> int | None:
        """The scheduler's sequence limit on this device."""
        return _tier(self.max_seqs, hw)

    def token_budget(self, hw: Hardware) -> int | None:
        """Tokens per step on this device."""
        return _tier(self.step_tokens, hw)


def _tier(tiers: tuple[tuple[float, int | None], ...], hw: Hardware) -> int | None:
    gib = hw.memory_gb  # sold in binary units: "80 GB" = 80 GiB
    if "A100" in hw.name:  # vLLM keeps its small defaults on A100s (larger budgets measured slower there)
        gib = min(gib, BIG_GPU_GB - 1)
    return next((v for low, v in tiers if gib >= low), None)


def _one(v: int | None) -> tuple[tuple[float, int | None], ...]:
    return ((0.0, v),)


_VLLM_SEQS, _VLLM_TOKENS = ((BIG_GPU_GB, 1024), (0.0, 256)), ((BIG_GPU_GB, 8192), (0.0, 2048))
_VLLM = Runtime("vllm", "server", "mean", _VLLM_SEQS, _VLLM_TOKENS, True,
                "vLLM engine/arg_utils.py get_batch_defaults (serve: max_num_seqs 1024 and max_num_batched_tokens "
                "8192 on >= 70 GiB non-A100 GPUs, else 256 / 2048); V1 chunked prefill on; PagedAttention blocks on demand")
_PROFILES = {
    "vllm": _VLLM,
    "dynamo": Runtime("dynamo", "server", "mean", _VLLM_SEQS, _VLLM_TOKENS, True,
                      "NVIDIA Dynamo serves through a backend engine; its vLLM backend's defaults are used"),
    "sglang": Runtime("sglang", "server", "mean", _one(None), ((160.0, 16384), (35.0, 8192), (0.0, 2048)),
                      False, "SGLang server_args.py: max running requests sized from the KV pool; chunked_prefill_size "
                      "2048 below 35 GiB, 8192 below 160 GiB, 16384 above; prefill and decode batches alternate unless "
                      "--enable-mixed-chunk"),
    "tensorrt-llm": Runtime("tensorrt-llm", "server", "peak", _one(2048), _one(8192), True,
                            "TensorRT-LLM LLM API defaults: max_batch_size 2048, max_num_tokens 8192, capacity "
                            "scheduler GUARANTEED_NO_EVICT (reserves KV for prompt + max output), in-flight batching "
                            "runs context and generation requests in one step"),
    "llama.cpp": Runtime("llama.cpp", "local", "slot", _one(None), _one(2048), True,
                         "llama-server: n_ctx split over --parallel slots, continuous batching of slots, n_batch 2048 "
                         "(ubatch 512) per step"),
    "ollama": Runtime("ollama", "local", "slot", _one(None), _one(2048), True,
                      "Ollama runs llama.cpp's runner: OLLAMA_NUM_PARALLEL slots share one context"),
    "mlx-lm": Runtime("mlx-lm", "local", "slot", _one(None), _one(2048), True,
                      "mlx_lm.server: prompt processed in 2048-token chunks (prefill_step_size)"),
    "exllamav2": Runtime("exllamav2", "local", "mean", _one(None), _one(2048), True,
                         "ExLlamaV2 dynamic generator: paged cache, 2048-token prefill chunks; tensor-parallel "
                         "loading splits each layer over the GPUs (README: tensor-parallel inference)", True),
    "exllamav3": Runtime("exllamav3", "local", "mean", _one(None), _one(2048), True,
                         "ExLlamaV3 generator: paged cache, chunked prefill; tensor and expert parallelism on "
                         "consumer GPUs (README)", True),
    "openvino-genai": Runtime("openvino-genai", "local", "mean", _one(256), _one(256), True,
                              "OpenVINO GenAI continuous-batching pipeline: SchedulerConfig max_num_seqs 256, "
                              "max_num_batched_tokens 256, paged KV blocks"),
}
GENERIC = Runtime("generic", "generic", "mean", _one(None), _one(None), True,
                  "engine unknown to the catalog: no engine-specific limits or overheads")


@lru_cache(maxsize=256)
def runtime(engine: str | None, hw_class: str) -> tuple[Runtime, str | None]:
    """The engine's profile and, for an id the catalog does not know, the note saying how it was treated.

    No engine named: datacenter devices run as a server engine would, the rest as llama.cpp does."""
    if engine is None:
        return (_VLLM if hw_class == "datacenter" else _PROFILES["llama.cpp"]), None
    if engine in _PROFILES:
        return _PROFILES[engine], None
    return GENERIC, (f"engine '{engine}' is not in the catalog: estimated as a generic continuous-batching engine "
                     "(no engine-specific limits, kernels or overheads)")
