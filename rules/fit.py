"""Does the model fit each engine here? The same memory model as the roofline estimate, per engine.

An engine is never recommended for a setup its own estimate says does not fit: the weights in the
engine's own format (a bare "4-bit" is Q4_K_M on llama.cpp, AWQ on vLLM), plus one sequence's KV
cache, must fit the devices' usable memory after that engine's runtime reserve. Engines that run the
layers or experts that do not fit on the CPU from system RAM (llama.cpp, Ollama) still run a model
larger than the GPUs for one person or a small group, at system-memory speed. On Apple silicon a model
that exceeds the GPU's default wired-memory share but fits the raised one (sudo sysctl
iogpu.wired_limit_mb=...) fits, and says the limit must be raised.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import catalog, engines
from rules.errors import AdvisorError
from rules.ids import ENGINES
from rules.profile import Profile
from rules.quant import concrete
from rules.roofline import memory
from rules.roofline.estimate import DEFAULT_INPUT, DEFAULT_OUTPUT

FIT_CONTEXT_DEFAULT = DEFAULT_INPUT + DEFAULT_OUTPUT
"""Context of the one sequence that must fit when none is known: the estimate's own default."""
OFFLOAD_MODES = frozenset({"personal", "demo"})
"""Tiers that decode at system-memory speed is acceptable for: one person or a small group."""
PERSONAL_STREAMS = 2
"""Streams up to which a plan that reads weights from system RAM is offered whatever its speed: one or two
people who choose a large model over speed. Beyond that the plan must reach READING_TOK_S per stream."""
READING_TOK_S = 5.0
"""Per-stream decode rate below which streamed text arrives slower than a person reads it: adults read
English non-fiction silently at 238 words/min on average (Brysbaert 2019, "How many words do we read per
minute?", Journal of Memory and Language 109:104047, https://doi.org/10.1016/j.jml.2019.104047, a meta-analysis
of 190 studies) = 4.0 words/s, and a token is about 0.75 English words (OpenAI, "What are tokens and how to
count them", https://help.openai.com/en/articles/4936856), so ~5.3 tokens/s; rounded down to 5."""
HOST_RAM_RESERVE_GB = 8.0
"""System RAM left to the OS and the engine process itself: an idle Linux server uses 1-2 GB, a desktop session
a few more; 8 GB covers both (5 % on hosts so large that their kernel tables and buffers outgrow it). A share
(90 %) held back 13 GB of a 128 GB desktop and turned 'Qwen3-235B Q4_K_M on a 3090 + 128 GB' into 'no room'."""


def host_room_gb(host_gb: float) -> float:
    """System RAM the offloaded weights may take, in GB."""
    return max(0.0, host_gb - max(HOST_RAM_RESERVE_GB, 0.05 * host_gb))
_OWN_MEMORY = frozenset({"apple", "cpu", "edge"})
"""Device classes whose memory is the machine's memory: any stated size is theirs."""


def device_memory(hw: Any, stated_gb: float | None) -> tuple[float | None, float | None]:
    """(memory override for the device, system RAM) from a stated size. A discrete GPU is sold with
    fixed memory: a size above its largest configuration ("a 4090 and 512 GB") is the machine's RAM,
    not the card's, and must not make the card look larger."""
    if stated_gb is None:
        return None, None
    unified = hw.hw_class in _OWN_MEMORY or "unified" in (hw.memory_type or "").lower()
    largest = max([hw.memory_gb, *getattr(hw, "memory_options_gb", [])])
    if unified or stated_gb <= largest:
        return stated_gb, None
    return None, stated_gb


@dataclass(frozen=True)
class Fit:
    """One engine's fit: weights and room in GB, the format it would run, and whether it fits."""

    engine: str
    quant: str
    weights_gb: float
    room_gb: float
    fits: bool
    offload: bool
    """Does not fit the devices but runs with the rest in system RAM (hybrid CPU engines)."""
    kv_gb: float = 0.0
    """The KV cache of the one sequence that must fit beside the weights."""
    wired_limit_mb: int | None = None
    """Fits only once macOS lets the GPU wire more memory: the iogpu.wired_limit_mb to set (Apple)."""
    ram_tok_s: float | None = None
    """Runs from system RAM, but each of the planned streams gets only this many tokens/s, below
    READING_TOK_S: too slow for the load (None when it is not judged or is fast enough)."""


def _room(hw, profile: Profile, engine: str, devices: int, raised: bool = False) -> float:
    stated = device_memory(hw, profile.memory_gb)[0]
    fig = memory.raised_usable_bytes(hw, stated) if raised else memory.usable_bytes(hw, stated)
    if fig is None:
        return 0.0
    return (fig.value - memory.reserve_bytes(hw, engine, fig.value).value) * devices


def wired_limit_mb(hw, profile: Profile) -> int | None:
    """The iogpu.wired_limit_mb that lets an Apple GPU wire the raised share of memory (None elsewhere)."""
    fig = memory.raised_usable_bytes(hw, device_memory(hw, profile.memory_gb)[0])
    return int(fig.value / 2**20) if fig else None


def _small_audience(facts: dict[str, Any]) -> bool:
    """One person or a small group: stated, or implied by local hardware when nothing is said."""
    mode = facts.get("serving_mode")
    return mode in OFFLOAD_MODES or (mode is None and facts.get("hw_class") != "datacenter")


def fits(profile: Profile, facts: dict[str, Any]) -> dict[str, Fit]:
    """Every model-running engine's fit on the profile's devices (empty when hardware or model is unknown)."""
    spec = catalog.spec_for_profile(profile) if profile.hardware else None
    if spec is None or not facts.get("weights_format"):
        return {}
    if profile.count is None and facts.get("hw_class") == "datacenter":
        return {}   # how many server GPUs is not known yet: no verdict on a guessed count
    hw = catalog.hardware(profile.hardware)
    quant, platform, cc = facts["weights_format"], facts.get("platform"), facts.get("cuda_cc")
    from rules.context_window import limit as window_limit
    ctx = min(facts.get("context_length") or FIT_CONTEXT_DEFAULT, window_limit(spec))
    if "context_length" in profile.assumed:   # a default window is not a requirement: the KV warning says
        ctx = min(ctx, FIT_CONTEXT_DEFAULT)   # how many sequences it leaves room for, the fit needs one short one
    kv_one = memory.kv_bytes(spec, ctx, profile.kv_cache_dtype).value
    out: dict[str, Fit] = {}
    for engine in ENGINES:
        spec_e = engines.engine(engine)
        if spec_e.kind == "orchestrator":
            continue
        q = concrete(quant, engine, platform, cc)
        try:
            weights = memory.weight_bytes(spec, q, engine).value
        except AdvisorError:  # a format the memory model cannot size: the kernel check judges it
            continue
        room = _room(hw, profile, engine, facts["device_count"])
        ok = weights + kv_one <= room
        limit = None
        if not ok and weights + kv_one <= _room(hw, profile, engine, facts["device_count"], raised=True):
            ok, limit = True, wired_limit_mb(hw, profile)   # Apple: runs once the wired limit is raised
            room = _room(hw, profile, engine, facts["device_count"], raised=True)
        host = facts.get("host_memory_gb")
        spills = host is None or weights + kv_one <= room + host_room_gb(host) * 1e9
        offload = not ok and spec_e.hybrid_cpu.value and _small_audience(facts) and spills
        slow = _too_slow(profile, facts, engine, q) if offload else None
        out[engine] = Fit(engine, q, round(weights / 1e9, 1), round(room / 1e9, 1), ok, offload and slow is None,
                          round(kv_one / 1e9, 1), limit, slow)
    return out


def offload_rate(profile: Profile, engine: str, quant: str, load: int) -> float | None:
    """Tokens/s each of `load` streams gets from the engine's own offload estimate: the decode rate while
    in service, or less when the few slots the GPU keeps make the streams wait their turn (whole output
    over whole request time, queueing and prefill included). None when the estimate cannot be made."""
    from rules.roofline.estimate import estimate_for_profile   # lazy: the estimate reads the catalog and defaults
    card = device_memory(catalog.hardware(profile.hardware), profile.memory_gb)[0]   # a stated RAM size is not the card's
    try:
        est = estimate_for_profile(profile.model_copy(update={"quantization": quant, "concurrency": load, "memory_gb": card}),
                                   engine=engine)
    except AdvisorError:
        return None
    if est is None or est.offload is None:
        return None
    return min(est.decode_tokens_per_s, est.aggregate_tokens_per_s / max(1, load))


def _too_slow(profile: Profile, facts: dict[str, Any], engine: str, quant: str) -> float | None:
    """The per-stream rate when an offload plan is too slow for the planned load (None when it serves it):
    one or two streams take what RAM gives; more need at least reading speed each."""
    load = facts.get("load") or 1
    if load <= PERSONAL_STREAMS:
        return None
    rate = offload_rate(profile, engine, quant, load)
    return round(rate, 2) if rate is not None and rate < READING_TOK_S else None
