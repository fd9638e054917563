"""Documented defaults for what the user does not know, each with the reason shown as an assumption.

`default_for(field, profile)` proposes one value (or None when no honest default exists: the
hardware and the model must come from the user); `apply_defaults(profile, fields)` fills the
missing ones in dependency order and marks them `assumed` with the reason as the note.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from pydantic import BaseModel, ConfigDict

from rules import catalog
from rules.facts import derive_facts
from rules.profile import Profile

CONTEXT_BY_WORKLOAD = {"chat": 8192, "batch": 8192, "rag": 16384, "summarization": 32768,
                       "agent": 32768, "coding": 32768}
"""Chat turns stay within common 8K defaults; RAG prompts hold a handful of retrieved passages plus
the question (16K); summaries, agents and coding carry whole documents, tool output or repository
files, so 32K (the long-context threshold) is the honest starting point."""
LENGTHS_BY_WORKLOAD = {"chat": (1024, 512), "batch": (2048, 512), "rag": (6000, 300),
                       "summarization": (8000, 500), "agent": (16000, 800), "coding": (8000, 600)}
"""(prompt, answer) tokens: chat answers are as long as the question; RAG and summaries read far
more than they write (the article's long-prompt, short-answer shape); agents carry history."""
CONCURRENCY_BY_MODE = {"personal": 1, "demo": 5, "team": 32, "production": 128, "fleet": 512}
"""Requests in flight at the busy hour: one person; the article's 5-10 demo users; a 50-500
person team of whom a few dozen are active at once; external traffic in the hundreds."""
WEIGHT_SHARE = 0.75
"""A default quantization must leave a quarter of usable memory for the KV cache and batching."""
ACTIVE_SHARE = 0.1
"""Share of a user base with a request in flight at the same moment (busy-hour rule of thumb)."""
PRIORITY_BY_MODE = {"personal": "privacy", "demo": "dev-speed", "team": "throughput",
                    "production": "throughput", "fleet": "cost"}
"""What each serving mode usually optimises: a local setup keeps data private, a demo wants quick
iteration, shared services want throughput, fleets want cost per token."""
_LOCAL_CLASSES = {"consumer", "workstation", "apple", "edge", "cpu"}


class Default(BaseModel):
    """A proposed value for a field the user did not give, and why."""

    model_config = ConfigDict(extra="forbid")
    field: str
    value: Any
    note: str


def _hw(p: Profile):
    return catalog.hardware(p.hardware) if p.hardware else None


def _workload(p: Profile) -> Default:
    return Default(field="workload", value="chat", note="assumed chat, the most common shape (short prompt, longer answer)")


def _serving_mode(p: Profile) -> Default:
    users, conc = p.users or 0, p.concurrency or 0
    if p.nodes > 1:
        return Default(field="serving_mode", value="production", note="several nodes point to a production service")
    if users >= 500 or conc >= 200:
        return Default(field="serving_mode", value="production", note="hundreds of users at once is production scale")
    if users >= 50 or conc >= 16:
        return Default(field="serving_mode", value="team", note="dozens of users is a team service (50-500 people)")
    if users > 1 or conc > 1:
        return Default(field="serving_mode", value="demo", note="a handful of users is a demo or small trial")
    hw = _hw(p)
    if hw is not None and hw.hw_class == "datacenter":
        return Default(field="serving_mode", value="team", note="datacenter GPUs with no user count: assumed a shared internal service")
    return Default(field="serving_mode", value="personal", note="no user count on local hardware: assumed one person")


def _concurrency(p: Profile) -> Default:
    if p.users:
        value = max(1, math.ceil(p.users * ACTIVE_SHARE))
        return Default(field="concurrency", value=value, note=f"about {ACTIVE_SHARE:.0%} of {p.users} users active at once")
    mode = p.serving_mode or _serving_mode(p).value
    return Default(field="concurrency", value=CONCURRENCY_BY_MODE[mode], note=f"typical requests in flight for a {mode} setup")


def _max_context(p: Profile) -> int | None:
    return catalog.model(p.model).max_context if p.model else None


def _context_length(p: Profile) -> Default:
    workload = p.workload or "chat"
    value = CONTEXT_BY_WORKLOAD[workload]
    cap = _max_context(p)
    if p.input_tokens:
        value = max(value, p.input_tokens + (p.output_tokens or 0))
    if cap:
        value = min(value, cap)
    return Default(field="context_length", value=value, note=f"a typical window for {workload}")


def _lengths(p: Profile, index: int, field: str) -> Default:
    workload = p.workload or "chat"
    value = LENGTHS_BY_WORKLOAD[workload][index]
    if index == 0 and p.context_length:  # the prompt must leave room for the answer
        value = max(1, min(value, p.context_length - (p.output_tokens or 0)))
    kind = "prompt" if index == 0 else "answer"
    return Default(field=field, value=value, note=f"a typical {kind} length for {workload}")


def _interconnect(p: Profile) -> Default | None:
    hw = _hw(p)
    if hw is None:
        return None
    if p.device_count == 1:
        value = "unified" if hw.hw_class == "apple" else "none"
        return Default(field="interconnect", value=value, note="one device: nothing to connect")
    return Default(field="interconnect", value=hw.interconnect, note=f"the usual link between {hw.name} devices")


def _quant_ladder(hw) -> list[str]:
    """Highest precision first, in the formats this platform has fast kernels for."""
    if hw.platform == "nvidia-cuda":
        return ["bf16", "fp8" if hw.tflops.fp8 else "int8", "awq"]
    if hw.platform == "amd-rocm":
        return ["bf16", "fp8", "gptq-4bit"] if hw.hw_class == "datacenter" else ["q8_0", "q4_k_m"]
    if hw.platform == "apple-silicon":
        return ["int8", "int4"]
    if hw.platform in ("x86-cpu", "intel-gpu"):
        return ["int8", "int4"]
    if hw.platform in ("intel-gaudi", "google-tpu", "aws-neuron", "huawei-ascend"):
        return ["bf16"]   # plugin platforms: BF16 is the one format every plugin runs; no GGUF there
    return ["q8_0", "q4_k_m"]


def _quantization(p: Profile) -> Default | None:
    hw = _hw(p)
    if hw is None:
        return None
    ladder = _quant_ladder(hw)
    if not (p.model or p.params_b):
        value = ladder[0] if hw.hw_class == "datacenter" else ladder[-1]
        return Default(field="quantization", value=value, note="model unknown: the usual format for this hardware")
    for quant in ladder:
        facts, _ = derive_facts(p.model_copy(update={"quantization": quant}))
        room = (facts["usable_memory_gb"] or 0) * facts["device_count"] * WEIGHT_SHARE
        if facts["weights_gb"] is not None and facts["weights_gb"] <= room:
            return Default(field="quantization", value=quant,
                           note="the highest precision whose weights leave a quarter of memory for the KV cache")
    return Default(field="quantization", value=ladder[-1], note="even the smallest common format does not fit; shown as is")


def _shared_prefix(p: Profile) -> Default:
    value = p.workload in ("rag", "agent", "coding")
    why = "retrieved chunks, system prompts and histories repeat" if value else "chat prompts rarely share long prefixes"
    return Default(field="shared_prefix", value=value, note=why)


def _priority(p: Profile) -> Default:
    mode = p.serving_mode or _serving_mode(p).value
    return Default(field="priority", value=PRIORITY_BY_MODE[mode], note=f"what a {mode} setup usually optimises")


PROPOSERS: dict[str, Callable[[Profile], Default | None]] = {
    "workload": _workload,
    "serving_mode": _serving_mode,
    "concurrency": _concurrency,
    "context_length": _context_length,
    "output_tokens": lambda p: _lengths(p, 1, "output_tokens"),
    "input_tokens": lambda p: _lengths(p, 0, "input_tokens"),
    "interconnect": _interconnect,
    "quantization": _quantization,
    "shared_prefix": _shared_prefix,
    "priority": _priority,
}
"""Fields with a default, in the order they are filled (later ones read earlier ones)."""
NO_DEFAULT = ("hardware", "model")
"""The engine follows from these; guessing them would make the whole answer a guess."""


def default_for(field: str, profile: Profile) -> Default | None:
    """The documented default for `field` given what is known, or None when there is none."""
    propose = PROPOSERS.get(field)
    return propose(profile) if propose else None


def apply_defaults(profile: Profile, fields: Iterable[str] | None = None) -> Profile:
    """Fill the missing `fields` (all defaultable ones when None), each marked assumed with its reason."""
    wanted = set(PROPOSERS if fields is None else fields)
    for field in PROPOSERS:
        if field not in wanted or getattr(profile, field) is not None:
            continue
        proposal = default_for(field, profile)
        if proposal is not None:
            profile = profile.with_value(field, proposal.value, assumed=True, note=proposal.note)
    return profile
