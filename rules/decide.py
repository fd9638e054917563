"""`decide(profile) -> Decision`: run every rule over the profile's facts and assemble the answer.

Rules are evaluated in the article's order (constraints, hardware, workload, serving, then the
cross-cutting groups). A fired rule adds engine scores, exclusions, bottleneck weights,
parallelism advice, a warning and its citations; the trace keeps the facts that made it fire.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from rules import catalog, checks, display, engines, fit
from rules.conditions import compile_condition, evaluate
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

    def __init__(self, brief: bool = False) -> None:
        self.brief = brief
        """Only what the outcome needs (engines, avoid list, bottleneck, layout): no texts, no trace."""
        self.score: dict[str, int] = dict.fromkeys(ENGINES, 0)
        self.first_seen: dict[str, int] = {}
        self.plus: dict[str, list[tuple[int, str]]] = {e: [] for e in ENGINES}
        self.minus: dict[str, list[str]] = {e: [] for e in ENGINES}
        self.avoid: dict[str, Avoid] = {}
        self.cannot_run: set[str] = set()
        self.held: set[str] = set()
        """Engines tied to hardware that is not known yet: neither ranked nor avoided."""
        self.too_slow: set[str] = set()
        """Engines that run the format only from system RAM, too slowly for the planned load: neither ranked
        (no engine is primary for that format) nor avoided (another format serves the load on them)."""
        self.bottleneck: Counter[str] = Counter()
        self.bottleneck_rules: dict[str, list[str]] = {}
        self.parallel: list[tuple[int, Rule]] = []
        self.warnings: list[str] = []
        self.warnings_zh: list[str] = []
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

    def add_avoid(self, engine: str, reason: str, rule_id: str, reason_zh: str = "") -> None:
        """Exclude an engine; the first reason given is kept."""
        if engine not in self.avoid:
            self.avoid[engine] = Avoid(engine=engine, reason=reason, rule=rule_id, reason_zh=reason_zh or reason)

    def warn(self, text: str, text_zh: str = "") -> None:
        """Add a warning once (English, and its zh-Hant twin)."""
        if text not in self.warnings:
            self.warnings.append(text)
            self.warnings_zh.append(text_zh or text)


@lru_cache(maxsize=1)
def _ordered_rules() -> tuple[Rule, ...]:
    rank = {g: i for i, g in enumerate(GROUP_ORDER)}
    return tuple(sorted(load_rules(), key=lambda r: rank.get(r.group, len(rank))))


@lru_cache(maxsize=1)
def _tested_rules() -> tuple[tuple[Rule, Any], ...]:
    """Each rule with its condition compiled (rules.conditions.compile_condition), in order."""
    return tuple((rule, compile_condition(rule.when)) for rule in _ordered_rules())


PORTABLE_PLATFORMS = ("nvidia-cuda", "amd-rocm", "apple-silicon", "x86-cpu", "arm-cpu")
"""What an unnamed machine most likely is. An engine native on all of them runs on whatever turns up
(llama.cpp, and Ollama as its wrapper); server engines that reach Macs or CPUs only through plugins
(vLLM, SGLang) and vendor-tied ones (MLX-LM, ExLlama, TensorRT-LLM) wait until the hardware is known."""
SERVER_PLATFORMS = ("nvidia-cuda", "amd-rocm")
"""What an unnamed machine most likely is when the stated workload is a shared service (dozens of users,
many LoRA adapters, a high-throughput pipeline): a GPU server, NVIDIA or AMD. Engines native on both (vLLM,
SGLang, llama.cpp) stay in the running, so the workload rules, not the one-person fallback, pick among them."""
_SHARED_MODES = ("team", "production", "fleet")


def likely_platforms(facts: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The platforms an unnamed machine probably is, from what the user said about the workload."""
    f = facts or {}
    # several people each holding 80K+ tokens need paged KV on GPU memory (the article's FAQ on long-context
    # agents): that machine is a GPU server too, whatever the headcount
    shared_long = bool(f.get("very_long_context")) and (f.get("load") or 0) >= 2
    return SERVER_PLATFORMS if f.get("serving_mode") in _SHARED_MODES or shared_long else PORTABLE_PLATFORMS


def hardware_specific_engines(platforms: tuple[str, ...] = PORTABLE_PLATFORMS) -> list[str]:
    """Engines not native on every one of `platforms` (catalog data): held back until the hardware is
    known, so the provisional answer never offers a vendor-tied engine as the stand-in."""
    out = []
    for engine_id in ENGINES:
        spec = engines.engine(engine_id)
        native = {p for p, s in spec.platforms.items() if s.status == "native"}
        if not set(platforms) <= native:
            out.append(engine_id)
    return out


def _hardware_check(facts: dict[str, Any], t: _Tally, rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """Exclude what the hardware cannot run; with no hardware, hold back vendor-tied engines."""
    if not facts.get("hardware"):
        held = hardware_specific_engines(likely_platforms(facts))
        t.held.update(held)
        values["held_back"] = held
        return {"held_back": held}
    verdicts = checks.hardware_verdicts(facts)
    refused = sorted(e for e, v in verdicts.items() if not v.ok)
    for engine in refused:
        v = verdicts[engine]
        t.add_avoid(engine, f"{v.en} ({v.source})", rule.id, f"{v.zh}（來源：{v.source}）")
        t.cannot_run.add(engine)
    for engine in ENGINES:   # the OS the user runs: no native build, no recommendation
        gate = engines.os_gate(engine, facts.get("os")) if engine not in t.avoid else None
        if gate:
            t.add_avoid(engine, f"{gate[0]} ({gate[2]})", rule.id, f"{gate[1]}（來源：{gate[2]}）")
            t.cannot_run.add(engine)
            refused.append(engine)
    for engine, v in verdicts.items():
        if v.ok and v.caveat:
            t.warn(f"{v.en} ({v.source}).", f"{v.zh}（來源：{v.source}）。")
    values["unsupported"] = refused
    return {"exclude": refused}


def _quant_check(facts: dict[str, Any], t: _Tally, rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """Rank down engines that only load the format; rule out those that cannot run it at all.

    A bare bit width ("int4") is each engine's own format of that width, so it rules nobody out
    for lacking a file format; an assumed format filters exactly as a stated one does."""
    quant, platform = facts["quantization"], facts.get("platform")
    found = {e: v for e, v in checks.quant_kernels(facts).items() if e not in t.avoid}
    slow = {e: v for e, v in found.items() if v[0] == checks.QUANT_PENALTY}
    missing = sorted(e for e in found if e not in slow)
    for engine, (points, _) in slow.items():
        t.add_score(engine, points, rule.id)
    en_where, zh_where = (f" on {platform}", f"在 {platform} 上") if platform else ("", "")
    for engine in missing:
        gate = checks.gate_reason(facts, engine)
        if gate:   # the kernel exists; this GPU is too old for it
            t.add_avoid(engine, gate[0], rule.id, gate[1])
            continue
        t.add_avoid(engine, f"it has no kernel for {quant}{en_where}; the model would have to be re-quantized", rule.id,
                    f"它{zh_where}沒有 {quant} 的 kernel，模型得重新量化成它支援的格式才能用")
    values["no_optimized_kernel"] = sorted(found)
    if slow:
        wo = checks.weight_only_engines(facts, slow)
        names = sorted(e for e in slow if e not in wo)
        zh = ([f"量化格式 {quant}：{'、'.join(wo)} {zh_where}以 weight-only 方式執行（{checks.WEIGHT_ONLY_ZH}；"
               f"{checks.WEIGHT_ONLY_SOURCE}），排名略降。"] if wo else []) + \
             ([f"量化格式 {quant}：{'、'.join(names)} {zh_where}能載入但沒有最佳化 kernel，已降低排名。"] if names else [])
        t.warn(checks.quant_warning(quant, slow, platform, wo), "".join(zh))
    if missing:
        t.warn(f"Quantization {quant}: {', '.join(missing)} cannot run it{en_where}, so they were ruled out; "
               f"re-quantize to a format they support to use them.",
               f"量化格式 {quant}：{'、'.join(missing)} {zh_where}無法執行，已排除；要用它們得先重新量化成它們支援的格式。")
    return {"score": {e: p for e, (p, _) in slow.items()}, "exclude": missing}


def _no_fit_reason(facts: dict[str, Any], f: fit.Fit) -> tuple[str, str]:
    """Why an engine whose weights do not fit is ruled out. A hybrid CPU engine (llama.cpp, Ollama) can
    keep what does not fit in system RAM (-ngl / --n-cpu-moe); it is ruled out only because decode then
    runs at system-RAM speed for more than a small audience, or because the stated RAM is too small."""
    need = display.number(round(f.weights_gb + f.kv_gb, 1))
    en = (f"at {f.quant} its weights ({display.number(f.weights_gb)} GB) plus one sequence's KV cache "
          f"({display.number(f.kv_gb)} GB) need about {need} GB, more than the "
          f"{display.number(f.room_gb)} GB that {facts['setup']} leave it after its runtime reserve")
    zh = (f"以 {f.quant} 計，權重（{display.number(f.weights_gb)} GB）加上一個序列的 KV cache"
          f"（{display.number(f.kv_gb)} GB）約需 {need} GB，超過 {facts['setup_zh']} 扣掉執行期保留後"
          f"留給它的 {display.number(f.room_gb)} GB")
    if not engines.engine(f.engine).hybrid_cpu.value:
        return (en + ", and it cannot run layers from system RAM",
                zh + "，而它無法把放不下的層放到系統記憶體上跑")
    host = facts.get("host_memory_gb")
    if host is not None and f.weights_gb > f.room_gb + fit.host_room_gb(host):
        return (en + f"; it can keep the rest in system RAM, but the {display.number(host)} GB stated is not enough "
                "for the rest either",
                zh + f"；它能把其餘放在系統記憶體，但所說的 {display.number(host)} GB 也放不下其餘部分")
    return (en + "; it can keep the rest in system RAM (-ngl / --n-cpu-moe), but decode then runs at system-RAM "
            "speed, too slow to serve more than a small group",
            zh + "；它能把其餘放在系統記憶體（-ngl / --n-cpu-moe），但 decode 會降到系統記憶體的速度，"
            "無法服務多於一小群人")


def _fit_check(facts: dict[str, Any], t: _Tally, rule: Rule, values: dict[str, Any],
               found: dict[str, fit.Fit]) -> dict[str, Any]:
    """Rule out engines whose weights do not fit here; keep hybrid-CPU engines for small audiences."""
    out, offload = [], []
    for engine, f in found.items():
        if f.fits or engine in t.avoid:
            continue
        if f.offload:
            offload.append(engine)
            continue
        if f.ram_tok_s is not None:
            t.too_slow.add(engine)
            continue
        en, zh = _no_fit_reason(facts, f)
        t.add_avoid(engine, en, rule.id, zh)
        out.append(engine)
    raise_mb = next((f.wired_limit_mb for f in found.values() if f.fits and f.wired_limit_mb), None)
    if raise_mb:
        t.warn(f"This fits only once macOS lets the GPU use more of the unified memory than its default: run "
               f"`sudo sysctl iogpu.wired_limit_mb={raise_mb}` (resets at reboot) and leave the rest to the system.",
               f"這要先放寬 macOS 預設的 GPU 可用記憶體上限才放得下：執行 `sudo sysctl iogpu.wired_limit_mb={raise_mb}`"
               f"（重開機後會還原），其餘留給系統。")
    slow = sorted(t.too_slow & set(found))
    if slow:
        _warn_too_slow(facts, t, [found[e] for e in slow])
    values["does_not_fit"], values["offload"], values["offload_too_slow"] = sorted(out), sorted(offload), slow
    return {"exclude": sorted(out), "offload": sorted(offload), "offload_too_slow": slow}


def _warn_too_slow(facts: dict[str, Any], t: _Tally, slow: list[fit.Fit]) -> None:
    """Say why the engines that could run the rest from system RAM are not recommended at this format."""
    names = " and ".join(engines.engine(f.engine).name for f in slow)
    names_zh = "和".join(engines.engine(f.engine).name for f in slow)
    f, load = slow[0], facts.get("load") or 1
    rate, spill = display.number(min(x.ram_tok_s for x in slow)), display.number(max(0.0, f.weights_gb - f.room_gb))
    floor = display.number(fit.READING_TOK_S)
    t.warn(f"At {f.quant}, {names} could keep about {spill} GB of the weights in system RAM, but each of the {load} "
           f"requests planned at once would get about {rate} tok/s, below the ~{floor} tok/s a person reads at: a plan "
           f"from system RAM serves one or two people, not this load. No engine is recommended at {f.quant} on "
           f"{facts['setup']}; a smaller format, a smaller model or more memory serves it.",
           f"以 {f.quant} 計，{names_zh} 可以把約 {spill} GB 的權重放在系統記憶體，但規劃的 {load} 個同時請求每個只會有"
           f"約 {rate} tok/s，低於一般人閱讀的約 {floor} tok/s：從系統記憶體跑的方案只適合一兩個人，撐不起這個負載。"
           f"在 {facts['setup_zh']} 上，{f.quant} 沒有推薦的引擎；改用更小的格式、更小的模型或更多記憶體才撐得住。")


def _run_check(rule: Rule, facts: dict[str, Any], t: _Tally, values: dict[str, Any],
               found: dict[str, fit.Fit]) -> dict[str, Any]:
    """Apply a built-in check; returns what it did for the trace."""
    if rule.effects.check == "hardware_support":
        return _hardware_check(facts, t, rule, values)
    if rule.effects.check == "fit":
        return _fit_check(facts, t, rule, values, found)
    return _quant_check(facts, t, rule, values)


def _apply(rule: Rule, facts: dict[str, Any], values: dict[str, Any], t: _Tally, found: dict[str, fit.Fit]) -> None:
    eff = rule.effects
    done: dict[str, Any] = {}
    for engine, points in eff.score.items():
        t.add_score(engine, points, rule.id)
    if eff.score:
        done["score"] = dict(eff.score)
    for ex in eff.exclude:
        if t.brief:
            t.add_avoid(ex.engine, "", rule.id)
            continue
        t.add_avoid(ex.engine, fill(ex.reason.en, facts), rule.id, fill(ex.reason.zh, facts, "zh"))
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
        done.update(_run_check(rule, facts, t, values, found))
    if t.brief:
        return
    if eff.warning:
        text = fill(eff.warning.en, facts)
        t.warn(text, fill(eff.warning.zh, facts, "zh"))
        done["warning"] = text
    for cid in rule.citations:
        if cid not in t.citations:
            t.citations.append(cid)
    t.trace.append(TraceEntry(rule=rule.id, name=rule.name, rationale=fill(rule.rationale.en, facts), values=values,
                              citations=list(rule.citations), effects=done,
                              rationale_zh=fill(rule.rationale.zh, facts, "zh")))


def _ranking(t: _Tally) -> list[RankedEngine]:
    """Engines not excluded nor held back, best score first; ties go to the engine the earlier rules named."""
    free = [e for e in ENGINES if e not in t.avoid and e not in t.held and e not in t.too_slow]
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


def _best_that_runs(ranking: list[RankedEngine], t: _Tally, facts: dict[str, Any]) -> tuple[str | None, list[str]]:
    """No engine suits the workload, yet some run the model here (the hardware, format and fit checks let
    them through; only the workload and tier rules scored them down): the best of those is the answer,
    with its limit said plainly, never "no engine" (a Mac or a CPU server asked to serve hundreds, an old
    GPU the serving engines dropped). The user gets what this hardware can do, and what it cannot."""
    runners = [r.engine for r in ranking if not checks.is_orchestrator(r.engine)]
    if not runners:
        return None, []
    names = ", ".join(engines.engine(e).name for e in runners)
    model = facts.get("model_name") or facts.get("model") or "this model"
    model_zh = facts.get("model_name") or facts.get("model") or "這個模型"
    who, who_zh = facts.get("audience") or "this load", facts.get("audience_zh") or "這個負載"
    t.warn(f"No engine built for {who} runs {model} on {facts['setup']}; "
           f"{engines.engine(runners[0]).name} is the best of those that do ({names}), within the limits named above. "
           f"Measure it at the real load, and plan hardware the serving engines support if it falls short.",
           f"在 {facts['setup_zh']} 上，沒有為{who_zh}設計的引擎能跑 {model_zh}；"
           f"能跑的（{'、'.join(engines.engine(e).name for e in runners)}）之中以 {engines.engine(runners[0]).name} 最合適，"
           f"限制見上面的理由。請用實際負載量測，撐不住時改用 serving 引擎支援的硬體。")
    return runners[0], runners[1:1 + MAX_ALTERNATIVES]


def _assumptions(profile: Profile, notes: list[str]) -> tuple[list[str], list[str]]:
    """The assumption lines (en, zh): the profile's defaults with their reasons, then inferred facts."""
    out, out_zh = [], []
    for field in profile.assumed:
        prov = profile.provenance[field]
        value = getattr(profile, field)
        out.append(f"{field} = {value}" + (f": {prov.note}" if prov.note else " (default)"))
        zh = prov.note_zh or prov.note
        out_zh.append(f"{field} = {value}" + (f"：{zh}" if zh else "（預設值）"))
    return out + list(notes), out_zh + [getattr(n, "zh", n) for n in notes]


def _run_rules(profile: Profile, facts: dict[str, Any], brief: bool = False) -> tuple[_Tally, list[RankedEngine],
                                                                                 str | None, list[str], str | None]:
    """Every rule over the facts: (tally, ranking, primary, alternatives, bottleneck)."""
    found = fit.fits(profile, facts)
    t = _Tally(brief)
    for rule, fires in _tested_rules():
        if not fires(facts):
            continue
        values: dict[str, Any] = {}
        if not brief:   # the facts that made it fire, for the trace
            evaluate(rule.when, facts, values)
        _apply(rule, facts, values, t, found)
    ranking = _ranking(t)
    primary, alternatives = _pick(ranking)
    if primary is None and profile.hardware:
        primary, alternatives = _best_that_runs(ranking, t, facts)
    elif primary is None:   # hardware unknown: never "no engine"; what runs almost anywhere stands in
        primary, alternatives = _provisional(ranking, t)
    bottleneck = max(t.bottleneck, key=lambda b: t.bottleneck[b]) if t.bottleneck else None
    return t, ranking, primary, alternatives, bottleneck


def _heaviest_parallel(t: _Tally) -> Rule | None:
    """The parallelism advice that wins: the first of the heaviest."""
    return max(t.parallel, key=lambda x: x[0])[1] if t.parallel else None


def outcome(decision: Decision) -> tuple:
    """What a user would notice changing in a decision: the primary, the first two alternatives,
    the engines to avoid, the bottleneck and the parallelism strategy."""
    strategy = decision.parallelism.strategy if decision.parallelism is not None else None
    return (decision.primary, tuple(decision.alternatives)[:2], frozenset(a.engine for a in decision.avoid),
            decision.bottleneck, strategy)


def decide_outcome(profile: Profile) -> tuple:
    """`outcome(decide(profile))` without the texts and the trace: what the interview's probes compare
    (it runs the same rules, in brief)."""
    facts, _ = derive_facts(profile)
    t, _, primary, alternatives, bottleneck = _run_rules(profile, facts, brief=True)
    rule = _heaviest_parallel(t)
    strategy = None
    if rule is not None:
        advice = rule.effects.parallelism
        strategy = plan(advice.strategy, facts, "", rule.id, advice.span).strategy
    return primary, tuple(alternatives)[:2], frozenset(t.avoid), bottleneck, strategy


def _window_note(profile: Profile, t: _Tally, primary: str | None) -> None:
    """A context beyond the model's own window: the window, the extension its card documents and the launch
    flag for the primary, and the window planned (rules.context_window), first among the warnings."""
    from rules import context_window
    from rules.errors import AdvisorError
    if not profile.context_length or "context_length" in profile.assumed:
        return
    try:
        spec = catalog.spec_for_profile(profile)
    except AdvisorError:
        return
    w = context_window.window(spec, profile.context_length) if spec is not None else None
    if w is not None:
        en, zh = context_window.note(spec, w, primary)
        t.warnings.insert(0, en)
        t.warnings_zh.insert(0, zh)


def decide(profile: Profile) -> Decision:
    """Run the rules on `profile`: ranked engines, avoid list, bottleneck, parallelism, trace."""
    facts, notes = derive_facts(profile)
    assumed, assumed_zh = _assumptions(profile, notes)
    t, ranking, primary, alternatives, bottleneck = _run_rules(profile, facts)
    _window_note(profile, t, primary)
    parallelism = None
    rule = _heaviest_parallel(t)
    if rule is not None:
        advice = rule.effects.parallelism
        parallelism = plan(advice.strategy, facts, fill(advice.reason.en, facts), rule.id, advice.span)
        parallelism.reason_zh = fill(advice.reason.zh, facts, "zh")
    return Decision(
        primary=primary, alternatives=alternatives, ranking=ranking, avoid=_avoid_order(t),
        bottleneck=bottleneck, bottleneck_scores=dict(t.bottleneck),
        bottleneck_rules=t.bottleneck_rules.get(bottleneck, []) if bottleneck else [],
        parallelism=parallelism, warnings=t.warnings, warnings_zh=t.warnings_zh,
        assumptions=assumed, assumptions_zh=assumed_zh,
        trace=t.trace, rules=[e.rule for e in t.trace], citations=t.citations, facts=facts,
    )
