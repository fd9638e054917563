"""Invariants an expert would never see violated, checked over a grid of setups (issue 15).

`grid()` yields every catalog device × a few models of different sizes × device counts that make
sense for its class × the article's serving tiers, as raw profiles. `violations(raw)` runs the
deterministic decision (`rules.decide` on the profile with its documented defaults, as the agent
does) and returns (invariant, message) pairs. Used by test_invariants.py, and runnable on its own
(`PYTHONPATH=. python tests/rules/invariants.py`) to print the count per invariant.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any, Iterator

from rules import catalog, checks, engines
from rules.decide import decide
from rules.defaults import apply_defaults, quant_ladder
from rules.profile import build_profile

MODELS = ("llama-3.1-8b", "qwen3-32b", "llama-3.1-70b", "qwen3-30b-a3b", "deepseek-v3")
"""An 8B dense, a 32B dense, a 70B dense, a 30B-A3B MoE and a 671B MoE."""
TIERS = {"one person": 1, "6-person team": 6, "40 users": 40, "300 users": 300}
COUNTS_BY_CLASS = {"datacenter": (1, 2, 4, 8), "workstation": (1, 2, 4), "consumer": (1, 2, 4)}
"""Device counts people buy in each class; Macs, CPUs and edge boards come one at a time."""
MAC_SERVERS = frozenset({"vllm", "sglang", "tensorrt-llm"})
CPU_ENGINES = frozenset({"llama.cpp", "ollama", "openvino-genai"})
SMALL_GROUP_SERVERS = ("ollama", "llama.cpp")
CHECKS = ("no_engine", "primary_cannot_run", "primary_no_kernel", "primary_does_not_fit", "fit_contradiction",
          "platform_rule", "small_group_told_to_avoid", "crowd_gets_ollama", "reason_names_other_setup")


def counts_for(hw: Any) -> tuple[int, ...]:
    return COUNTS_BY_CLASS.get(hw.hw_class, (1,))


def grid() -> Iterator[dict[str, Any]]:
    """Every device × model × tier at one device, plus one multi-device count per model that rotates
    through the class's counts (deterministic, so every count meets every model across devices)."""
    for d, hw_id in enumerate(sorted(catalog.all_hardware())):
        hw = catalog.hardware(hw_id)
        more = counts_for(hw)[1:]
        for m, model in enumerate(MODELS):
            for count in (1, *([more[(d + m) % len(more)]] if more else [])):
                for users in TIERS.values():
                    yield dict(hardware=hw_id, count=count, model=model, users=users)


@lru_cache(maxsize=None)
def nvidia_only() -> frozenset[str]:
    """Engines whose catalog lists no platform but CUDA (TensorRT-LLM, ExLlama)."""
    return frozenset(e for e, s in engines.all_engines().items() if set(s.platforms) <= {"nvidia-cuda"})


_ORDINAL = re.compile(r"\d+(st|nd|rd|th|gen)", re.I)


@lru_cache(maxsize=None)
def _device_tokens() -> dict[str, frozenset[str]]:
    """Distinctive tokens of each device's name (H100, 4090, MI300X): how a reason names a device."""
    out = {}
    for hw_id in catalog.all_hardware():
        hw = catalog.hardware(hw_id)
        words = re.findall(r"[A-Za-z]*\d+[A-Za-z0-9]*", hw.name.split(" (")[0])
        out[hw_id] = frozenset(w.lower() for w in words
                               if (len(w) >= 3 and not w.isdigit() or len(w) >= 4) and not _ORDINAL.fullmatch(w))
    return out


def _other_devices_named(text: str, hw: Any) -> list[str]:
    """Device tokens in `text` that belong to a device other than `hw` (and not to `hw` itself)."""
    own = _device_tokens()[hw.id] | {hw.id.lower()}
    own_text = f"{hw.id} {hw.name}".lower()
    found = set(re.findall(r"\b(?:\d+\s*[x×]\s*)?([a-z]*\d+[a-z0-9]*)\b", text.lower()))
    named = set()
    for tok in found - own:
        if tok in own_text:
            continue
        if any(tok in toks for toks in _device_tokens().values()) and re.search(r"[a-z]", tok):
            named.add(tok)
    return sorted(named)


def _tier_words(users: int) -> list[str]:
    """Phrases that describe another tier than `users` people."""
    if users >= 30:
        return ["five to ten people", "5-10 people", "one person"]
    if users <= 1:
        return ["five to ten people", "50-500", "hundreds of users"]
    return []


def _smallest_fits(profile, hw, runners: list[str]) -> bool:
    """Does the model fit (or run with the rest in system RAM) for some engine that runs here, at the
    smallest format the defaults step down to on this hardware?"""
    from rules import fit
    from rules.facts import derive_facts
    native = catalog.model(profile.model).native_dtype if profile.model else None
    for quant in quant_ladder(hw, native)[-1:]:   # the policy's floor: server GPUs keep a natively quantized format
        probe = profile.model_copy(update={"quantization": quant})
        facts, _ = derive_facts(probe)
        for engine, f in fit.fits(probe, facts).items():
            if ((f.fits or f.offload) and engine in runners
                    and engines.quant_kernel(engine, quant, hw.platform, hw.cuda_cc) is not None):
                return True
    return False


def decision_for(raw: dict[str, Any]):
    profile = apply_defaults(build_profile(raw))
    return profile, decide(profile)


def violations(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """The invariants this setup's answer breaks, each with a message naming the setup."""
    profile, d = decision_for(raw)
    hw = catalog.hardware(profile.hardware)
    users = profile.users or 1
    where = f"{raw['count']}x {hw.id}, {profile.model}, {users} users, {profile.quantization}"
    out: list[tuple[str, str]] = []
    found = {f.engine: f for f in _fits(profile, d)}
    ruled_out = {a.engine for a in d.avoid if _hardware_rule(a.rule)}
    runners = [e for e in engines.all_engines() if engines.engine(e).kind != "orchestrator"
               and engines.verdict(e, hw).ok and e not in ruled_out]
    if d.primary is None:
        if runners and _smallest_fits(profile, hw, runners):
            avoid = "; ".join(f"{a.engine}: {a.reason[:90]}" for a in d.avoid if a.engine in runners)
            out.append(("no_engine", f"{where}: no primary though {runners} run here [{avoid}]"))
        elif not any(re.search(r"do(es)? not fit|has a kernel for it", w) for w in d.warnings + d.assumptions):
            out.append(("no_engine", f"{where}: no primary and the answer does not say the model does not fit"))
        if any(re.search(r"; it fits,", a) for a in d.assumptions) and not any(
                e not in ruled_out and ff.fits for e, ff in found.items()):
            out.append(("fit_contradiction", f"{where}: no engine here fits, yet the assumption says it fits"))
        return out
    p = d.primary
    v = engines.verdict(p, hw, bool(d.facts.get("slow_fp16")))
    if not v.ok:
        out.append(("primary_cannot_run", f"{where}: {p}: {v.en}"))
    if checks.kernel_for(p, profile.quantization, hw.platform, hw.cuda_cc, "quantization" in profile.assumed) is None:
        out.append(("primary_no_kernel", f"{where}: {p} has no kernel for {profile.quantization} on {hw.platform}"))
    f = found.get(p)
    if f is not None and not f.fits and not f.offload:
        out.append(("primary_does_not_fit", f"{where}: {p} at {f.quant}: {f.weights_gb} GB > {f.room_gb} GB"))
    said_no = [a for a in d.assumptions if re.search(r"do(es)? not fit|has a kernel for it", a)]
    if f is not None and f.fits and said_no:
        out.append(("fit_contradiction",
                    f"{where}: {p} fits ({f.weights_gb} GB in {f.room_gb} GB) but: {said_no[0][:120]}"))
    if hw.platform == "apple-silicon" and p in MAC_SERVERS:
        out.append(("platform_rule", f"{where}: {p} primary on a Mac"))
    if hw.hw_class == "cpu" and (p not in CPU_ENGINES or (p == "openvino-genai" and "intel" not in hw.vendor.lower())):
        out.append(("platform_rule", f"{where}: {p} primary on a CPU-only machine"))
    if hw.platform != "nvidia-cuda" and p in nvidia_only():
        out.append(("platform_rule", f"{where}: NVIDIA-only {p} on {hw.platform}"))
    if users == 6:
        for a in d.avoid:
            # An assumed 16-bit format must not rule them out either where they run a 16-bit GGUF. (An
            # assumed FP8 on a server GPU does, by design: the format filters as a stated one would.)
            assumed_16 = (a.rule == "quant-kernel-check" and "quantization" in profile.assumed
                          and profile.quantization in checks.SIXTEEN_BIT
                          and any(engines.quant_kernel(a.engine, q, hw.platform, hw.cuda_cc)
                                  for q in checks.SIXTEEN_BIT))
            if a.engine in SMALL_GROUP_SERVERS and engines.verdict(a.engine, hw).ok and (
                    _serving_rule(a.rule) or assumed_16):
                out.append(("small_group_told_to_avoid", f"{where}: {a.engine} avoided by {a.rule}: {a.reason[:120]}"))
    if users >= 30 and p == "ollama":
        out.append(("crowd_gets_ollama", f"{where}: ollama primary for {users} users"))
    said = [(f"{a.engine} ({a.rule})", a.reason) for a in d.avoid] + [("warning", w) for w in d.warnings]
    for who, text in said:
        others = _other_devices_named(text, hw)
        tier = [w for w in _tier_words(users) if w in text.lower()]
        if others or tier:
            out.append(("reason_names_other_setup", f"{where}: {who} names {others + tier}: {text[:160]}"))
    return out


def _serving_rule(rule_id: str) -> bool:
    """A rule that avoids an engine for the audience, not for what the hardware or model allow."""
    from rules.ruleset import rule_index
    rule = rule_index().get(rule_id)
    return rule is not None and not rule.effects.check


def _hardware_rule(rule_id: str) -> bool:
    """A constraint rule that says an engine does not run on this hardware (not the fit or kernel checks)."""
    from rules.ruleset import rule_index
    rule = rule_index().get(rule_id)
    return rule is not None and rule.group == "constraints" and rule.effects.check in (None, "hardware_support")


def _fits(profile, d) -> list:
    from rules import fit
    return list(fit.fits(profile, d.facts).values())


def sweep(rows: list[dict[str, Any]]) -> tuple[Counter, dict[str, list[str]]]:
    counts: Counter = Counter()
    examples: dict[str, list[str]] = {}
    for raw in rows:
        for name, msg in violations(raw):
            counts[name] += 1
            examples.setdefault(name, []).append(msg)
    return counts, examples


if __name__ == "__main__":
    import sys
    import time
    t0 = time.time()
    rows = list(grid())
    counts, examples = sweep(rows)
    print(f"{len(rows)} setups in {time.time() - t0:.1f} s")
    for name in CHECKS:
        print(f"{name}: {counts[name]}")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for name, msgs in examples.items():
        print(f"\n## {name}")
        for m in msgs[:n]:
            print("  ", m)
