"""What the planner is asked: a model on devices under a load, with the engine and priority.

A `Request` is frozen and hashable, so a repeated question reuses its plan (see search.py).
`request_from_profile` reads a profile and the rule engine's decision; everything it assumes
(load from a head count, objective from the workload) is stated in the plan's notes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules import catalog
from rules.catalog_schema import Hardware, ModelSpec
from rules.profile import Profile

THROUGHPUT_PRIORITIES = ("throughput", "cost")
PREFIX_CACHE = {
    "vllm": ("automatic prefix caching (on by default; --enable-prefix-caching)",
             "automatic prefix caching（預設開啟；--enable-prefix-caching）"),
    "sglang": ("RadixAttention (on by default; --disable-radix-cache turns it off)",
               "RadixAttention（預設開啟；--disable-radix-cache 可關閉）"),
    "llama.cpp": ("cache_prompt: each slot reuses the KV of the prompt it last saw",
                  "cache_prompt：每個 slot 重用上一個 prompt 的 KV"),
    "ollama": ("its llama.cpp runner, which reuses each slot's cached prompt",
               "內建的 llama.cpp runner，每個 slot 重用快取的 prompt"),
    "tensorrt-llm": ("KV cache block reuse (kv_cache_config enable_block_reuse)",
                     "KV cache 區塊重用（kv_cache_config 的 enable_block_reuse）"),
    "dynamo": ("its backend's prefix cache plus KV-aware routing to the worker that holds the prefix",
               "後端引擎的前綴快取，加上把請求導向持有該前綴之 worker 的 KV 感知路由"),
    "exllamav2": ("the dynamic generator's deduplication of shared prompt pages",
                  "dynamic generator 對共用 prompt 分頁的去重"),
    "exllamav3": ("the generator's reuse of cached prompt pages", "generator 對已快取 prompt 分頁的重用"),
    "mlx-lm": ("the server's prompt cache", "伺服器的 prompt 快取"),
}
"""How each engine reuses the KV cache of a prompt prefix already computed (en, zh; its documentation's names)."""
BATCH_WORKLOADS = ("batch",)


@dataclass(frozen=True)
class Request:
    """One planning question (ids and numbers only, so it can key a cache)."""

    model: str | None
    """Catalog model id; None with `params_b` for a model described by its size."""
    hardware: str
    per_node: int = 1
    nodes: int = 1
    link: str | None = None
    """The link between the devices of one node (None = the device's usual one)."""
    link_stated: bool = False
    network: str | None = None
    fast: bool | None = None
    quant: str | None = None
    quant_stated: bool = False
    kv_dtype: str | None = None
    engine: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    context_length: int | None = None
    load: int = 1
    objective: str = "latency"
    objective_basis: str = ""
    rule: str | None = None
    rule_strategy: str | None = None
    price: float | None = None
    memory_gb: float | None = None
    params_b: float | None = None
    active_params_b: float | None = None
    hf_config: str | None = None
    """A model the catalog lacks, from its config.json: a path, or the JSON text itself."""
    engines: tuple[str, ...] = ()
    """Engines to write launch flags for (the primary first)."""
    disaggregation: bool = True
    """Also size a prefill/decode split (off when sizing many hardware options)."""
    workload: str | None = None
    priority: str | None = None
    ttft_target_ms: float | None = None
    """The user's own TTFT target (ms), when stated: capacity is sized against it, not the default."""
    tpot_target_ms: float | None = None
    """The user's own TPOT target (ms), when stated."""
    load_assumed: bool = False
    context_stated: bool = False
    """The user gave the context length: the launch window is theirs, never widened."""
    """The load is a documented default (a share of the users, the serving mode's typical load)."""
    window: int | None = None
    """The context each request may use, as the launch flags set it (the stated one, else a window
    that holds the workload's typical prompt and answer). The estimate holds every sequence's KV
    cache at this window too: vLLM refuses to start when one max-model-len sequence does not fit."""
    users: int | None = None
    """People who may each have a request open: the engines admit that many (within memory)."""
    shared_prefix: bool = False
    """The user said requests share a prefix (system prompt, same documents)."""
    cached_prefix: int = 0
    """Prompt tokens every request shares and the engine serves from its prefix cache (0 = none known):
    TTFT and the per-request KV count only the rest."""
    lora_adapters: int | None = None
    """Adapters the user serves on the base model: the launch line enables LoRA (rules.plan.flags)."""
    host_ram: tuple[float, str] | None = None
    """The host RAM the user described (GB/s, how): offloaded weights stream from it (roofline.offload.stated_host)."""
    prompt_stated: bool = False
    """The user gave the prompt length, or the size of the prefix every request shares (the prompt is then that
    prefix plus each request's own part): a paged engine's sequences hold their own prompt and answer, not the
    whole window (without it requests are taken to fill the window)."""
    model_words: str | None = None
    """The user's own words for the model ("Llama 3.3 70B", an HF repo): which checkpoint to launch."""
    fill: bool = False
    """Offline or max-throughput work with no load stated: each layout runs as many requests as its
    KV cache holds (the whole job is queued at once), not a service's typical load."""

    @property
    def devices(self) -> int:
        """All devices."""
        return self.per_node * self.nodes

    def spec(self) -> ModelSpec:
        """The model's architecture facts."""
        return catalog.named_spec(_spec(self.model, self.hf_config, self.params_b, self.active_params_b), self.model_words)

    def hw(self) -> Hardware:
        """The device's catalog entry."""
        return catalog.hardware(self.hardware)


@lru_cache(maxsize=64)
def _spec(model: str | None, hf_config: str | None, params_b: float | None, active: float | None) -> ModelSpec:
    """A catalog model, a config.json model, or a generic one from its size (loaded once per key)."""
    if model:
        return catalog.model(model)
    if hf_config:
        from rules.model_config import load_model_config
        return load_model_config(hf_config)
    return catalog.describe_model(params_b, active)


def _config_key(cfg: Any) -> str | None:
    """A profile's config.json (path, JSON text or dict) as a hashable string."""
    if cfg is None:
        return None
    return json.dumps(cfg, sort_keys=True) if isinstance(cfg, dict) else str(cfg)


def objective_for(priority: str | None, workload: str | None) -> tuple[str, str]:
    """(latency | throughput, why): the user's priority, else the workload's nature."""
    if priority in THROUGHPUT_PRIORITIES:
        return "throughput", f"your priority is {priority}: ranked by output tokens/s per device"
    if priority == "latency":
        return "latency", "your priority is latency: ranked by the time to a whole answer at your load"
    if workload in BATCH_WORKLOADS:
        return "throughput", "batch work: ranked by output tokens/s per device (nobody waits on one request)"
    return "latency", ("interactive use: ranked by the time to a whole answer (TTFT + answer length x TPOT) "
                       "at your load")


def _rule(decision: Any) -> tuple[str | None, str | None]:
    """(rule id, strategy) of the rule engine's parallelism advice, if any."""
    par = (decision.get("parallelism") if isinstance(decision, dict) else getattr(decision, "parallelism", None))
    if not par:
        return None, None
    get = par.get if isinstance(par, dict) else (lambda k: getattr(par, k, None))
    return get("rule"), get("strategy")


def _engines(decision: Any) -> tuple[str | None, tuple[str, ...]]:
    get = decision.get if isinstance(decision, dict) else (lambda k, d=None: getattr(decision, k, d))
    primary = get("primary") if decision is not None else None
    alts = tuple(get("alternatives") or ()) if decision is not None else ()
    return primary, tuple(e for e in (primary, *alts) if e)


CPU_PLATFORMS = ("x86-cpu", "arm-cpu")


def _card_memory(profile: Profile) -> float | None:
    """The stated memory when it can be the card's; system RAM stated next to a GPU is not (rules.fit).
    On a CPU server the devices are its sockets and the stated RAM is the machine's, shared by them."""
    from rules.fit import device_memory
    hw = catalog.hardware(profile.hardware)
    mem = device_memory(hw, profile.memory_gb)[0]
    sockets = (profile.count or 1) * (profile.nodes or 1)
    if mem is not None and hw.platform in CPU_PLATFORMS and sockets > 1:
        return mem / sockets
    return mem


def _model_words(profile: Profile) -> str | None:
    """What the user called the model (its evidence), when they named it."""
    prov = profile.provenance.get("model")
    return prov.evidence if prov is not None and not prov.assumed else None


def request_from_profile(profile: Profile, decision: Any = None, facts: dict | None = None,
                         slo: dict | None = None) -> Request | None:
    """The planning question behind a profile (None when hardware or model size is unknown); `slo`: the
    latency targets the user stated ({ttft_ms, tpot_ms}), which replace the use case's defaults."""
    if not profile.hardware or not (profile.model or profile.params_b or profile.hf_config is not None):
        return None
    if facts is None:
        from rules.facts import derive_facts
        facts, _ = derive_facts(profile)
    hf = _config_key(profile.hf_config) if not profile.model else None
    spec = catalog.named_spec(_spec(profile.model, hf, profile.params_b, profile.active_params_b), _model_words(profile))
    ctx = profile.context_length
    from rules.context_window import limit
    if ctx and ctx > limit(spec):   # beyond what the model card documents: planned at that (the decision says so)
        ctx = limit(spec)
    io = (profile.input_tokens or 0) + (profile.output_tokens or 0)
    from rules.defaults import serving_lengths
    inp, out, window = serving_lengths(profile.workload, spec.id if profile.model else None, profile.input_tokens,
                                       profile.output_tokens, ctx if ctx and ctx >= io else None, limit(spec))
    objective, basis = objective_for(profile.priority, profile.workload)
    rule, strategy = _rule(decision)
    primary, engines = _engines(decision)
    load = facts.get("load") or profile.concurrency or 1
    assumed = profile.concurrency is None or "concurrency" in profile.assumed
    # an offline job, or "max throughput" said with no audience: not a service's priority by default
    said = lambda f: getattr(profile, f) is not None and f not in profile.assumed   # noqa: E731
    fill = assumed and profile.users is None and (profile.workload in BATCH_WORKLOADS and said("workload") or (
        profile.priority in THROUGHPUT_PRIORITIES and said("priority") and not said("serving_mode")))
    shared = bool(profile.shared_prefix) and "shared_prefix" not in profile.assumed
    prefix = getattr(profile, "prefix_tokens", None) or 0
    cached = prefix if shared and primary in PREFIX_CACHE and inp and 0 < prefix < inp else 0
    return Request(
        model=profile.model, hardware=profile.hardware, per_node=profile.count or 1, nodes=profile.nodes,
        link=facts.get("interconnect"), link_stated=bool(profile.interconnect) and not facts.get("interconnect_inferred"),
        network=facts.get("inter_node_link"), fast=facts.get("fast_interconnect"),
        quant=facts.get("quantization") or profile.quantization,   # "Q4" alone is a width (rules.quant.as_said)
        quant_stated=bool(profile.quantization) and "quantization" not in profile.assumed,
        kv_dtype=profile.kv_cache_dtype, engine=primary, input_tokens=inp, output_tokens=out,
        context_length=window, window=window,
        load=int(load), objective=objective, objective_basis=basis, rule=rule, rule_strategy=strategy,
        price=profile.device_hour_usd, memory_gb=_card_memory(profile), params_b=profile.params_b,
        active_params_b=profile.active_params_b, hf_config=hf, engines=engines, workload=profile.workload,
        priority=profile.priority,
        load_assumed=assumed, context_stated=bool(ctx) and "context_length" not in profile.assumed, users=profile.users, fill=fill, shared_prefix=shared, cached_prefix=cached,
        model_words=_model_words(profile), prompt_stated=profile.input_tokens is not None or cached > 0,
        lora_adapters=profile.lora_adapters or None, host_ram=_host_ram(profile),
        ttft_target_ms=(slo or {}).get("ttft_ms"), tpot_target_ms=(slo or {}).get("tpot_ms"))


def _host_ram(profile: Profile) -> tuple[float, str] | None:
    from rules.roofline.estimate import host_ram_of   # lazy: the estimator imports the plan's neighbours
    return host_ram_of(profile)
