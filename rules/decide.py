"""`decide(profile) -> Decision`: run every rule over the profile's facts and assemble the answer.

Rules are evaluated in the article's order (constraints, hardware, workload, serving, then the
cross-cutting groups). A fired rule adds engine scores, exclusions, bottleneck weights,
parallelism advice, a warning and its citations; the trace keeps the facts that made it fire.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from rules import checks, engines
from rules.conditions import evaluate
from rules.decision import Avoid, Decision, RankedEngine, TraceEntry
from rules.facts import derive_facts, fill
from rules.ids import ENGINES
from rules.parallelism import plan
from rules.profile import Profile
from rules.ruleset import Rule, load_rules

GROUP_ORDER = ("constraints", "hardware", "workload", "serving", "bottlenecks", "parallelism",
               "pitfalls", "faq", "quantization", "features", "priorities")
"""Hardware strategy first, then workload shape, then serving mode: the article's order."""
MAX_ALTERNATIVES = 3
"""Engines listed after the primary (an orchestrator riding on them comes on top)."""


class _Tally:
    """Mutable accumulator of the effects of fired rules."""

    def __init__(self) -> None:
        self.score: dict[str, int] = dict.fromkeys(ENGINES, 0)
        self.first_seen: dict[str, int] = {}
        self.plus: dict[str, list[tuple[int, str]]] = {e: [] for e in ENGINES}
        self.minus: dict[str, list[str]] = {e: [] for e in ENGINES}
        self.avoid: dict[str, Avoid] = {}
        self.cannot_run: set[str] = set()
        self.held: set[str] = set()
        """Engines tied to hardware that is not known yet: neither ranked nor avoided."""
        self.bottleneck: Counter[str] = Counter()
        self.bottleneck_rules: dict[str, list[str]] = {}
        self.parallel: list[tuple[int, Rule]] = []
        self.warnings: list[str] = []
        self.citations: list[str] = []
        self.trace: list[TraceEntry] = []

    def add_score(self, engine: str, points: int, rule_id: str) -> None:
        """Add points; remember who promoted the engine first (the tie-break)."""
        self.score[engine] += points
        if points > 0:
            self.first_seen.setdefault(engine, len(self.first_seen))
            self.plus[engine].append((points, rule_id))
        elif points < 0:
            self.minus[engine].append(rule_id)

    def add_avoid(self, engine: str, reason: str, rule_id: str) -> None:
        """Exclude an engine; the first reason given is kept."""
        self.avoid.setdefault(engine, Avoid(engine=engine, reason=reason, rule=rule_id))

    def warn(self, text: str) -> None:
        """Add a warning once."""
        if text not in self.warnings:
            self.warnings.append(text)


@lru_cache(maxsize=1)
def _ordered_rules() -> tuple[Rule, ...]:
    rank = {g: i for i, g in enumerate(GROUP_ORDER)}
    return tuple(sorted(load_rules(), key=lambda r: rank.get(r.group, len(rank))))


PORTABLE_PLATFORMS = ("nvidia-cuda", "amd-rocm", "apple-silicon", "x86-cpu", "arm-cpu")
"""What an unnamed machine most likely is. An engine native on all of them runs on whatever turns up
(llama.cpp, and Ollama as its wrapper); server engines that reach Macs or CPUs only through plugins
(vLLM, SGLang) and vendor-tied ones (MLX-LM, ExLlama, TensorRT-LLM) wait until the hardware is known."""


GENERIC_QUANTS = frozenset({"int4", "int8"})
"""Bit widths rather than file formats: an engine without this exact entry still has a 4- or 8-bit
format of its own, so it is ranked down, not ruled out."""


def hardware_specific_engines() -> list[str]:
    """Engines not native on every PORTABLE_PLATFORMS platform (catalog data): held back until the
    hardware is known, so the provisional answer never offers a datacenter engine as the portable choice."""
    out = []
    for engine_id in ENGINES:
        spec = engines.engine(engine_id)
        native = {p for p, s in spec.platforms.items() if s.status == "native"}
        if not set(PORTABLE_PLATFORMS) <= native:
            out.append(engine_id)
    return out


def _hardware_check(facts: dict[str, Any], t: _Tally, rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """Exclude what the hardware cannot run; with no hardware, hold back vendor-tied engines."""
    if not facts.get("hardware"):
        held = hardware_specific_engines()
        t.held.update(held)
        values["held_back"] = held
        return {"held_back": held}
    unsupported = checks.hardware_support(facts)
    for engine, reason in unsupported.items():
        t.add_avoid(engine, reason, rule.id)
        t.cannot_run.add(engine)
    values["unsupported"] = sorted(unsupported)
    return {"exclude": sorted(unsupported)}


def _quant_check(facts: dict[str, Any], t: _Tally, rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """Rank down engines without an optimized kernel; rule out those that cannot run the format at all."""
    quant, platform = facts["quantization"], facts.get("platform")
    where = f" on {platform}" if platform else ""
    found = {e: v for e, v in checks.quant_kernels(facts).items() if e not in t.avoid}
    slow = {e: v for e, v in found.items() if v[0] == checks.QUANT_PENALTY}
    missing = sorted(e for e in found if e not in slow)
    if quant in GENERIC_QUANTS:  # a bit width, not a file format: other engines have their own 4/8-bit formats
        slow, missing = found, []
    for engine, (points, _) in slow.items():
        t.add_score(engine, points, rule.id)
    for engine in missing:
        t.add_avoid(engine, f"it has no kernel for {quant}{where}; the model would have to be re-quantized", rule.id)
    values["no_optimized_kernel"] = sorted(found)
    if slow:
        t.warn(checks.quant_warning(quant, slow, platform))
    if missing:
        t.warn(f"Quantization {quant}: {', '.join(missing)} cannot run it{where}, so they were ruled out; "
               f"re-quantize to a format they support to use them.")
    return {"score": {e: p for e, (p, _) in slow.items()}, "exclude": missing}


def _run_check(rule: Rule, facts: dict[str, Any], t: _Tally, values: dict[str, Any]) -> dict[str, Any]:
    """Apply a built-in check; returns what it did for the trace."""
    if rule.effects.check == "hardware_support":
        return _hardware_check(facts, t, rule, values)
    return _quant_check(facts, t, rule, values)


def _apply(rule: Rule, facts: dict[str, Any], values: dict[str, Any], t: _Tally) -> None:
    eff = rule.effects
    done: dict[str, Any] = {}
    for engine, points in eff.score.items():
        t.add_score(engine, points, rule.id)
    if eff.score:
        done["score"] = dict(eff.score)
    for ex in eff.exclude:
        t.add_avoid(ex.engine, ex.reason.en, rule.id)
    if eff.exclude:
        done["exclude"] = [ex.engine for ex in eff.exclude]
    for name, weight in eff.bottleneck.items():
        t.bottleneck[name] += weight
        t.bottleneck_rules.setdefault(name, []).append(rule.id)
    if eff.bottleneck:
        done["bottleneck"] = dict(eff.bottleneck)
    if eff.parallelism:
        t.parallel.append((eff.parallelism.weight, rule))
        done["parallelism"] = eff.parallelism.strategy
    if eff.check:
        done.update(_run_check(rule, facts, t, values))
    if eff.warning:
        text = fill(eff.warning.en, facts)
        t.warn(text)
        done["warning"] = text
    for cid in rule.citations:
        if cid not in t.citations:
            t.citations.append(cid)
    t.trace.append(TraceEntry(rule=rule.id, name=rule.name, rationale=rule.rationale.en, values=values,
                              citations=list(rule.citations), effects=done))


def _ranking(t: _Tally) -> list[RankedEngine]:
    """Engines not excluded nor held back, best score first; ties go to the engine the earlier rules named."""
    free = [e for e in ENGINES if e not in t.avoid and e not in t.held]
    free.sort(key=lambda e: (-t.score[e], t.first_seen.get(e, len(ENGINES))))
    return [RankedEngine(engine=e, score=t.score[e],
                         reasons=[r for _, r in sorted(t.plus[e], key=lambda x: -x[0])],
                         penalties=t.minus[e]) for e in free]


def _avoid_order(t: _Tally) -> list[Avoid]:
    """Rule-based exclusions first (the tempting choices), then engines the hardware cannot run."""
    avoid = list(t.avoid.values())
    return [a for a in avoid if a.engine not in t.cannot_run] + [a for a in avoid if a.engine in t.cannot_run]


def _pick(ranking: list[RankedEngine]) -> tuple[str | None, list[str]]:
    """Primary = best positive engine that runs a model; an orchestrator only rides on top."""
    positive = [r.engine for r in ranking if r.score > 0]
    runners = [e for e in positive if not checks.is_orchestrator(e)]
    if not runners:
        return None, []
    alts = runners[1:1 + MAX_ALTERNATIVES]
    alts += [e for e in positive if checks.is_orchestrator(e)]
    return runners[0], alts


def _provisional(ranking: list[RankedEngine], t: _Tally) -> tuple[str | None, list[str]]:
    """The stand-in while the hardware is unknown: the run-anywhere engines; if what the user stated rules
    them out (several machines, a format only some engines read), the held-back engines that still can."""
    runners = [r.engine for r in ranking if not checks.is_orchestrator(r.engine)]
    if not runners:
        held = [e for e in ENGINES if e in t.held and e not in t.avoid and not checks.is_orchestrator(e)]
        runners = sorted(held, key=lambda e: (-t.score[e], t.first_seen.get(e, len(ENGINES))))
    return (runners[0], runners[1:1 + MAX_ALTERNATIVES]) if runners else (None, [])


def _runnable_note(ranking: list[RankedEngine], t: _Tally) -> None:
    """No engine suits the workload: say which ones at least run here, so the user is not left empty-handed."""
    runners = [r.engine for r in ranking if not checks.is_orchestrator(r.engine)]
    if runners:
        t.warnings.append(f"No engine suits this workload on this hardware. Engines that do run here: "
                          f"{', '.join(runners)} — each with the limits named in the reasons above; "
                          f"consider hardware the serving engines support.")


def _assumptions(profile: Profile, notes: list[str]) -> list[str]:
    out = []
    for field in profile.assumed:
        note = profile.provenance[field].note
        value = getattr(profile, field)
        out.append(f"{field} = {value}" + (f": {note}" if note else " (default)"))
    return out + notes


def decide(profile: Profile) -> Decision:
    """Run the rules on `profile`: ranked engines, avoid list, bottleneck, parallelism, trace."""
    facts, notes = derive_facts(profile)
    t = _Tally()
    for rule in _ordered_rules():
        values: dict[str, Any] = {}
        if evaluate(rule.when, facts, values):
            _apply(rule, facts, values, t)
    ranking = _ranking(t)
    primary, alternatives = _pick(ranking)
    if primary is None and profile.hardware:
        _runnable_note(ranking, t)
    elif primary is None:   # hardware unknown: never "no engine"; what runs almost anywhere stands in
        primary, alternatives = _provisional(ranking, t)
    bottleneck = max(t.bottleneck, key=lambda b: t.bottleneck[b]) if t.bottleneck else None
    parallelism = None
    if t.parallel:
        _, rule = max(t.parallel, key=lambda x: x[0])  # first of the heaviest wins
        advice = rule.effects.parallelism
        parallelism = plan(advice.strategy, facts, advice.reason.en, rule.id, advice.span)
    return Decision(
        primary=primary, alternatives=alternatives, ranking=ranking, avoid=_avoid_order(t),
        bottleneck=bottleneck, bottleneck_scores=dict(t.bottleneck),
        bottleneck_rules=t.bottleneck_rules.get(bottleneck, []) if bottleneck else [],
        parallelism=parallelism, warnings=t.warnings, assumptions=_assumptions(profile, notes),
        trace=t.trace, rules=[e.rule for e in t.trace], citations=t.citations, facts=facts,
    )
