"""`plan(request)`: enumerate legal layouts, score them with the roofline, choose one, explain it.

Precision tiers are tried in order (as given, then an 8-bit KV cache, then lower-bit weights when
the user left the format open) and the first tier with a feasible candidate is ranked. A repeated
request returns its cached plan: warm answers never search twice.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rules import engines as engine_catalog
from rules.plan import candidates, capacity, disagg, explain, flags, legality, precision, ranking
from rules.plan.request import Request
from rules.plan.schema import Candidate, Lang, Layout, Plan, Scale
from rules.errors import AdvisorError
from rules.plan.scoring import run_estimate, score
from rules.plan.topology import Topology, topology
from rules.roofline import Estimate, weight_bytes

ALL_MODES = frozenset({"tp", "pp", "dp", "ep"})
LANGS: tuple[Lang, ...] = ("en", "zh")
MOE_DP_ATTENTION_ENGINES = frozenset({"vllm", "sglang", "tensorrt-llm", "dynamo"})


def modes_of(engine: str | None) -> tuple[frozenset[str], bool]:
    """(parallel modes the engine offers, whether it runs one model across machines)."""
    if engine is None:
        return ALL_MODES, True
    spec = engine_catalog.engine(engine)
    return frozenset(spec.parallelism), spec.features.multi_node.value


def _topology(req: Request) -> Topology:
    hw = req.hw()
    link = req.link or hw.interconnect
    fast = req.fast if req.fast is not None else link in ("nvlink", "infinity-fabric")
    return topology(hw, req.per_node, req.nodes, link, req.network, bool(fast))


def legal_layouts(req: Request, topo: Topology, quant: str, prune: bool = True) -> list[Layout]:
    """Layouts the model, the engine and the wiring all allow (`prune`: drop those whose weights
    cannot fit the devices' raw memory)."""
    spec, hw = req.spec(), req.hw()
    modes, multi_node = modes_of(req.engine)
    if hw.platform in legality.CPU_PLATFORMS:   # one process spreads over every socket's cores and memory
        modes = modes | {"tp"}                  # by itself (the engines' NUMA threading, not a parallel mode)
    device_bytes = (req.memory_gb or hw.memory_gb) * 1e9 if prune else float("inf")
    wb = weight_bytes(spec, quant, req.engine).value
    out = []
    adp = req.engine in MOE_DP_ATTENTION_ENGINES
    layouts = candidates.layouts(topo, spec, wb, device_bytes, "ep" in modes, adp)
    if legality.one_server(req.engine):   # one instance: the model on one GPU or split over some, never replicas
        one = {(lay.tp, lay.pp, lay.ep): lay.model_copy(update={"dp": 1}) for lay in layouts}
        layouts = list(one.values())
    for lay in layouts:
        if (legality.model_reason(lay, spec) or legality.wiring_reason(lay, topo) or legality.stage_reason(lay, topo, spec)
                or legality.engine_reason(lay, req.engine, modes, multi_node, legality.spans_nodes(lay, topo))):
            continue
        out.append(lay)
    return out


def _score_tiers(req: Request, topo: Topology) -> tuple[list[Candidate], dict[int, Estimate], int | None]:
    """Every scored candidate, their estimates (by id), and the first tier with a feasible one."""
    hw = req.hw()
    quant = req.quant or req.spec().native_dtype
    scored: list[Candidate] = []
    ests: dict[int, Estimate] = {}
    from rules.defaults import quant_ladder   # the decision's own ladder: both assume the same formats
    allowed = tuple(quant_ladder(hw, req.spec().native_dtype))
    for tier, q, kv in precision.tiers(req.engine, hw, quant, req.kv_dtype, req.quant_stated, allowed):
        found = False
        layouts = legal_layouts(req, topo, q)
        if tier == 0 and not layouts:   # nothing can hold the weights: score what comes closest, to say why
            layouts = legal_layouts(req, topo, q, prune=False) or [Layout(dp=topo.devices)]
        for lay in layouts:
            cand, est = score(req, topo, lay, tier, q, kv)
            scored.append(cand)
            if est is not None:
                ests[id(cand)] = est
            found = found or cand.rejected is None
        if found and tier == 0 and precision.native_fp8(req.engine, hw, q, req.quant_stated, allowed) \
                and _cramped(req, topo, q):
            scored = _with_native_fp8(req, topo, scored, ests, kv)
        if found:
            return scored, ests, tier
    return scored, ests, None


def _cramped(req: Request, topo: Topology, quant: str) -> bool:
    """The weights at `quant` take more than their share of every device's memory after the runtime
    reserve (rules.defaults WEIGHT_SHARE): the KV cache, which holds the requests in flight, gets
    less than the quarter a deployment leaves it."""
    from rules.defaults import WEIGHT_SHARE
    from rules.quant import concrete
    from rules.roofline.memory import reserve_bytes, usable_bytes
    hw = req.hw()
    usable = usable_bytes(hw, req.memory_gb).value
    room = (usable - reserve_bytes(hw, req.engine, usable).value) * topo.devices
    wb = weight_bytes(req.spec(), concrete(quant, req.engine, hw.platform, hw.cuda_cc), req.engine).value
    return wb > WEIGHT_SHARE * room


def _with_native_fp8(req: Request, topo: Topology, scored: list[Candidate], ests: dict[int, Estimate],
                     kv: str | None) -> list[Candidate]:
    """Tier 0 scored again with FP8 weights on a device that computes FP8; FP8 replaces the assumed
    16-bit weights only when it serves the objective precision.FP8_WIN better (the 16-bit candidates
    then stay in the count, marked why), else the 16-bit plan stands as it was."""
    wide = [c for c in scored if c.rejected is None]
    fp8: list[Candidate] = []
    for lay in legal_layouts(req, topo, "fp8"):
        cand, est = score(req, topo, lay, 0, "fp8", kv)
        fp8.append(cand)
        if est is not None:
            ests[id(cand)] = est
    ok = [c for c in fp8 if c.rejected is None]
    if not ok:
        return scored
    best8, best16 = ranking.ranked(ok, req.objective)[0], ranking.ranked(wide, req.objective)[0]
    gain = ranking.advantage(best8, best16, req.objective)
    if gain < precision.FP8_WIN:
        return scored
    why = f"fp8 weights serve this {gain:.0%} better on a device that computes FP8"
    return [c if c.rejected else c.model_copy(update={"rejected": why}) for c in scored] + fp8


def _closest(scored: list[Candidate], objective: str) -> Candidate:
    """When nothing serves the load: the best candidate that at least fits, over every precision
    tier tried (its figures include the queueing of what it cannot hold, so an 8-bit KV cache that
    holds twice the requests ranks ahead of a 16-bit one that makes half of them wait), else the
    as-given candidate nearest to fitting."""
    fitting = [c for c in scored if c.figures.fits]
    if fitting:
        return ranking.ranked(fitting, objective)[0]
    pool = [c for c in scored if c.tier == 0] or scored
    return max(pool, key=lambda c: c.layout.replica_devices)


def _changes(c: Candidate, req: Request, quant: str, scored: list[Candidate] = ()) -> dict[Lang, list[str]]:
    out: dict[Lang, list[str]] = {"en": [], "zh": []}
    if c.tier == 0 and c.quantization != quant:   # FP8 chosen over assumed 16-bit weights: said in `why`, not
        return out                                 # as a change made to make the plan work
    if c.kv_cache_dtype and c.kv_cache_dtype != req.kv_dtype:
        out["en"].append(f"the KV cache is stored in {c.kv_cache_dtype}: at 16 bits no layout holds the load")
        out["zh"].append(f"KV cache 改存 {c.kv_cache_dtype}：16 位元時沒有任何配置撐得住這個負載")
    if c.quantization != quant:
        out["en"].append(f"weights in {c.quantization} instead of {quant}: no layout serves the load at {quant} "
                         "(check the quality of the lower-bit checkpoint)")
        out["zh"].append(f"權重改用 {c.quantization}（原為 {quant}）：{quant} 下沒有配置撐得住這個負載（請確認低位元模型的品質）")
    return out


def _native_fp8_why(c: Candidate, req: Request, quant: str, scored) -> dict[Lang, str]:
    """Why the plan runs FP8 where the assumed format was 16-bit, and what the best 16-bit layout gives."""
    sixteen = [x for x in scored if x.tier == 0 and x.quantization == quant and x.figures.fits
               and x.figures.max_concurrency >= 1]
    hw = req.hw().name
    en = (f"FP8 weights instead of the assumed {quant}: the {hw} computes FP8 natively, and in {quant} the weights "
          "take most of the memory and leave the KV cache little room (vLLM's FP8 W8A8: half the weight memory, "
          "up to 1.6x throughput, minimal accuracy loss)")
    zh = (f"權重用 FP8（原假設為 {quant}）：{hw} 原生支援 FP8 運算；{quant} 權重會吃掉大部分記憶體，留給 KV cache 的空間很少"
          "（vLLM 的 FP8 W8A8：權重記憶體減半、吞吐最多約 1.6 倍，準確度影響很小）")
    if sixteen:
        best = ranking.ranked(sixteen, req.objective)[0]
        d = ranking.advantage(c, best, req.objective)
        what_en = "more tokens/s per device" if req.objective == "throughput" else "faster to a whole answer"
        what_zh = "每裝置吞吐多" if req.objective == "throughput" else "完整回答快"
        en += f"; fp8 is estimated {d:.0%} {what_en} than the best {quant} layout ({best.layout.describe()})"
        zh += f"；估計 fp8 比最好的 {quant} 配置（{best.layout.describe()}）{what_zh} {d:.0%}"
    return {"en": en + ".", "zh": zh + "。"}


def _note_codes(req: Request, topo: Topology, chosen: Candidate) -> list[str]:
    codes = list(topo.notes)
    lay = chosen.layout
    if legality.spans_nodes(lay, topo) and lay.tp * lay.ep > 1 and lay.pp > 1:
        codes.append("pp-link")
    return codes


def _flags(req: Request, chosen: Candidate, ctx: int) -> tuple[dict[str, str], dict]:
    """Launch commands for the shortlisted engines that offer every split of the chosen layout, with
    the request window (`req.window`, at least the estimated context `ctx`)."""
    topo_nodes = req.nodes
    usable = []
    for e in req.engines or ((req.engine,) if req.engine else ()):
        modes, _ = modes_of(e)
        if legality.engine_reason(chosen.layout, e, modes, True, False) is None and (
                not chosen.layout.attention_dp or e in MOE_DP_ATTENTION_ENGINES):
            usable.append(e)
    admit = max(req.load, req.users or 0)   # each person may have a request open: the cap admits them all
    window = max(req.window or 0, ctx)
    from rules.defaults import REASONING_CONTEXT, is_reasoning
    if is_reasoning(req.model) and not req.context_stated:   # a short cap cuts a reasoning trace off mid-thought,
        wide = min(REASONING_CONTEXT, req.spec().max_context)   # whatever a benchmark's lengths; only when the
        if (chosen.figures.max_concurrency or 0) * ctx >= wide:   # KV cache holds one sequence that long
            window = max(window, wide)
    # engines that give every slot a whole window up front hold fewer slots than the estimate's lengths allow
    slots = max(1, chosen.figures.max_concurrency * ctx // window) if chosen.figures.max_concurrency else None
    from rules import catalog
    hw = catalog.hardware(req.hardware)
    cpu_only = hw.platform in ("x86-cpu", "arm-cpu")
    from rules.model_resolve import serving_repo
    spec = req.spec()
    spec = spec.model_copy(update={"hf_id": serving_repo(spec, req.model_words)})
    return flags.commands(tuple(usable), chosen, spec, window, admit, topo_nodes, req.per_node, slots,
                          cpu_only, hw.gcds, hw.name, req.lora_adapters,
                          chosen.figures.in_service or None if req.tpot_target_ms else None)


def _why(req: Request, chosen: Candidate, runner: Candidate | None, favoured: Candidate | None, best: Candidate,
         overrode: bool, ctx: int, cap=None) -> dict[Lang, list[str]]:
    out: dict[Lang, list[str]] = {}
    for lang in LANGS:
        lines = [explain.chosen_line(chosen, req.load, ctx, lang)]
        if cap is not None:   # the load is beyond the devices: the replicas it needs say why nothing serves it
            lines.append(explain.capacity_line(cap, chosen.layout, req.load, req.hw().name, lang))
        elif chosen.rejected:
            lines.append(explain.unserved_line(chosen, req.load, lang))
        if runner is not None:
            lines.append(explain.runner_line(runner, chosen, req.objective, req.load, ctx, lang))
        rule = explain.rule_line(req.rule, req.rule_strategy, chosen, favoured, best, overrode, req.objective, lang)
        if rule:
            lines.append(rule)
        out[lang] = lines
    return out


def targets(req: Request) -> tuple[float, float]:
    """(TTFT, TPOT) targets in ms: the user's own where stated, else the benchmark spec's defaults for
    this use case and priority."""
    from rules.benchspec.slos import slos_for   # lazy: benchspec imports the planner
    slo = slos_for(req.workload or "chat", req.load, req.priority, [])[0]
    return req.ttft_target_ms or slo.ttft_p99_ms, req.tpot_target_ms or slo.tpot_p99_ms


def _disaggregation(req: Request, topo: Topology, chosen: Candidate, output_tokens: int):
    if topo.devices < disagg.MIN_DEVICES or not req.disaggregation:
        return None
    ttft, tpot = targets(req)
    return disagg.disaggregate(req, topo, chosen, ttft, tpot, output_tokens)


def _networked(topo: Topology) -> Topology:
    """The nodes joined by an assumed Ethernet network (nodes bought together are networked somehow)."""
    notes = tuple(n for n in topo.notes if n != "no-network") + ("network-assumed",)
    return replace(topo, network="ethernet", replica_limit=topo.devices, notes=notes)


def _hybrid_fallback(scored: list[Candidate], ests: dict[int, Estimate]) -> tuple[list[Candidate], dict[int, Estimate], int | None]:
    """When nothing fits the GPUs at any precision tried, a hybrid engine that runs the rest from system RAM
    (llama.cpp --n-cpu-moe / -ngl) still serves its sequences: those candidates become the plan (what users
    of 12 GB cards do with a MoE), at the first tier that has one."""
    hybrid = [c for c in scored if c.figures.offload_flag and c.figures.max_concurrency >= 1]
    if not hybrid:
        return scored, ests, None
    first = min(c.tier for c in hybrid)
    out: list[Candidate] = []
    for c in scored:
        if c.tier == first and c in hybrid:
            new = c.model_copy(update={"rejected": None})
            if id(c) in ests:
                ests[id(new)] = ests[id(c)]
            c = new
        out.append(c)
    return out, ests, first


def _search(req: Request) -> tuple[Plan, Estimate | None]:
    topo = _topology(req)
    quant = req.quant or req.spec().native_dtype
    scored, ests, tier = _score_tiers(req, topo)
    if tier is None and "no-network" in topo.notes:   # nothing inside one node serves it: span the nodes
        wide = _networked(topo)
        found = _score_tiers(req, wide)
        # across the nodes when that serves the load, or at least holds the model where one node cannot
        # (DeepSeek-R1 at 128K on 2x8 H100: no layout serves 128 requests, but TP8 x PP2 fits)
        if found[2] is not None or (any(c.figures.fits for c in found[0]) and not any(c.figures.fits for c in scored)):
            topo, (scored, ests, tier) = wide, found
    if not scored:
        raise LookupError("no legal layout")
    if tier is None:
        scored, ests, tier = _hybrid_fallback(scored, ests)
    pool = [c for c in scored if c.tier == tier and c.rejected is None] if tier is not None else []
    split_runner = None
    if pool and legality.replicas_first(topo.fast, req.hw().platform, req.priority, pool,
                                        copy_has_room(req, pool[0].quantization), req.load,
                                        topo.fast and _replicas_meet_targets(req, pool)):
        split_runner = ranking.ranked([c for c in pool if c.layout.replica_devices > 1], req.objective)[0]
        pool = [c for c in pool if c.layout.replica_devices == 1]
    if pool and legality.one_copy_over_sockets(req.hw().platform, pool):
        pool = [c for c in pool if c.layout.dp == 1]
    if pool:
        chosen, runner, overrode = ranking.choose(pool, req.objective, req.rule_strategy)
        order = ranking.ranked(pool, req.objective)
        favoured = next((c for c in order if ranking.in_family(c.layout, req.rule_strategy)), None)
        best = order[0]
        if split_runner is not None:
            runner, overrode = split_runner, False
    else:
        chosen = _closest(scored, req.objective)
        runner, overrode, favoured, best = None, False, chosen, chosen
    ctx = req.context_length or ((req.input_tokens or 0) + (req.output_tokens or 0)) or 0
    est = ests.get(id(chosen))
    if req.fill and est is not None:   # the job runs at what the chosen layout holds
        req = replace(req, load=est.concurrency)
    ctx = est.context_length if est is not None else ctx
    lay = chosen.layout
    scale = Scale(devices=topo.devices, nodes=topo.nodes, domain=topo.domain, domain_source=topo.domain_source,
                  network=topo.network, replicas=lay.dp, replica_devices=lay.replica_devices,
                  replica_spans_nodes=legality.spans_nodes(lay, topo))
    codes = _note_codes(req, topo, chosen)
    cmds, remarks = _flags(req, chosen, ctx)
    split = _disaggregation(req, topo, chosen, est.output_tokens if est else (req.output_tokens or 1))
    cap, est = _capacity(req, topo, chosen, est)
    if cap is not None or not (chosen.figures.fits or chosen.figures.offload_flag):   # no queueing TTFT either
        chosen = chosen.model_copy(update={"figures": chosen.figures.model_copy(update={"ttft_s": None,
                                                                                          "latency_s": None})})
    why = _why(req, chosen, runner, favoured if pool else None, best, overrode, ctx, cap)
    if chosen.tier == 0 and chosen.quantization != quant:   # FP8 chosen over the assumed 16-bit weights
        fp8_why = _native_fp8_why(chosen, req, quant, scored)
        for lang in LANGS:
            why[lang].insert(1, fp8_why[lang])
    if split_runner is not None:
        for lang in LANGS:
            why[lang].insert(1, explain.one_server_line(req.engine, topo.devices, req.hw().name, lang)
                             if legality.one_server(req.engine) and lay.dp == 1 else
                             explain.replicas_line(chosen, split_runner, req.objective, req.hw().name, lang,
                                                   topo.fast))
    if req.shared_prefix:
        from rules.plan.request import PREFIX_CACHE
        for lang in LANGS:
            names = PREFIX_CACHE.get(req.engine or "")
            why[lang].append(explain.prefix_line(req.engine, names[lang == "zh"] if names else None, req.cached_prefix,
                                                 req.input_tokens or 0, lang))
    if split is not None and split.recommended:
        for lang in LANGS:
            why[lang].append(explain.disagg_line(split, lang))
    notes = {lang: explain.load_lines(req.load, req.load_assumed, lang, req.fill, req.users) + explain.note_lines(codes, lang)
             for lang in LANGS}
    plan = Plan(
        engine=req.engine, objective=req.objective, objective_basis=req.objective_basis, load=req.load,
        context_length=ctx, input_tokens=est.input_tokens if est else (req.input_tokens or 0),
        output_tokens=est.output_tokens if est else (req.output_tokens or 0), chosen=chosen, runner_up=runner,
        feasible=chosen.rejected is None, rule=req.rule, rule_strategy=req.rule_strategy, overrode_rule=overrode,
        measure_both=overrode, why=why, disaggregation=split,
        changes=_changes(chosen, req, quant, scored), flags=cmds, launch_notes=remarks, notes=notes,
        considered=len(scored), feasible_count=sum(1 for c in scored if c.rejected is None), scale=scale,
        capacity=cap)
    return plan, est


def _replicas_meet_targets(req: Request, pool: list[Candidate]) -> bool:
    """The best one-device-per-replica candidate meets the TTFT and TPOT targets at the load (the
    user's own targets, else the benchmark spec's for this use case)."""
    ones = [c for c in pool if c.layout.replica_devices == 1]
    if not ones:
        return False
    best = ranking.ranked(ones, req.objective)[0].figures
    ttft, tpot = targets(req)
    return (best.ttft_s is not None and best.tpot_ms is not None
            and best.ttft_s * 1000 <= ttft and best.tpot_ms <= tpot)


def copy_has_room(req: Request, quant: str) -> bool:
    """One device holds the weights within the share a default format may take (rules.defaults
    WEIGHT_SHARE: a quarter of usable memory stays for the KV cache and batching)."""
    from rules.defaults import WEIGHT_SHARE
    from rules.quant import concrete
    from rules.roofline.memory import reserve_bytes, usable_bytes
    hw = req.hw()
    usable = usable_bytes(hw, req.memory_gb).value
    room = usable - reserve_bytes(hw, req.engine, usable).value
    wb = weight_bytes(req.spec(), concrete(quant, req.engine, hw.platform, hw.cuda_cc), req.engine).value
    return wb <= WEIGHT_SHARE * room


def _capacity(req: Request, topo: Topology, chosen: Candidate, est: Estimate | None):
    """(Capacity, estimate) when the load queues beyond the devices: the replicas it needs, and the
    estimate without a queueing TTFT (an unbounded queue's wait is not a latency to plan with)."""
    if est is not None and not est.fits and est.offload is None:   # nothing is served: a TTFT would only measure an endless queue
        return None, est.model_copy(update={"ttft_s": None})
    if req.fill or est is None or not capacity.queued(est, req.load):
        return None, est
    ttft, tpot = targets(req)

    def probe(lay: Layout, n: int) -> Estimate:
        return run_estimate(req, topo, lay, chosen.quantization, chosen.kv_cache_dtype, concurrency=n)
    cap = capacity.size(chosen, req.load, probe, ttft, tpot)
    if cap is None:
        return None, est
    cap = _levers(req, topo, chosen, cap, ttft, tpot)
    if est.in_service > cap.serves_now:   # memory holds more than the speed targets allow
        cap = cap.model_copy(update={"holds_now": est.in_service})
    en = explain.capacity_line(cap, chosen.layout, req.load, req.hw().name, "en")
    zh = explain.capacity_line(cap, chosen.layout, req.load, req.hw().name, "zh")
    return cap, est.model_copy(update={"ttft_s": None, "binding_constraint": en, "binding_constraint_zh": zh})


SMALLER_FORMAT = "int4"
"""The format the over-capacity lever offers: 4-bit weights (AWQ/GPTQ on the server engines) free most
of a 16- or 8-bit model's memory for KV cache, which is what holds requests in flight."""


def _levers(req: Request, topo: Topology, chosen: Candidate, cap, ttft: float, tpot: float):
    """What else than buying replicas brings the load within the devices: fewer requests at once (what
    today's devices serve) and a smaller weight format (what one replica then serves)."""
    from rules.quant import bits_per_weight
    update = {"serves_now": cap.per_replica * cap.replicas_have}
    try:
        smaller = bits_per_weight(chosen.quantization) > bits_per_weight(SMALLER_FORMAT) + 1
    except AdvisorError:
        smaller = False
    if smaller:
        one = chosen.layout.model_copy(update={"dp": 1})

        def probe(lay: Layout, n: int) -> Estimate:
            return run_estimate(req, topo, lay, SMALLER_FORMAT, chosen.kv_cache_dtype, concurrency=n)
        serves = capacity.per_replica(lambda n: probe(one, n), ttft, tpot, req.load)
        if serves > cap.per_replica:
            update.update(smaller_format=SMALLER_FORMAT, per_replica_smaller=serves)
    return cap.model_copy(update=update)


@lru_cache(maxsize=256)
def engine_options(req: Request) -> tuple[tuple[str, Estimate], ...]:
    """The other shortlisted engines at the chosen layout, precision and load (the alternatives table)."""
    p, _ = _cached(req)
    topo = _topology(req)
    out = []
    for e in req.engines:
        if e == req.engine:
            continue
        modes, multi = modes_of(e)
        lay = p.chosen.layout
        if legality.engine_reason(lay, e, modes, multi, legality.spans_nodes(lay, topo)) or (
                lay.attention_dp and e not in MOE_DP_ATTENTION_ENGINES):
            continue
        try:
            est = run_estimate(replace(req, engine=e), topo, lay, p.chosen.quantization, p.chosen.kv_cache_dtype)
        except AdvisorError:
            continue
        out.append((e, est))
    return tuple(out)


@lru_cache(maxsize=512)
def _cached(req: Request) -> tuple[Plan, Estimate | None]:
    return _search(req)


def plan(req: Request) -> tuple[Plan, Estimate | None]:
    """The plan for a request and the estimate of its chosen layout.

    Shared with the cache: treat them as read-only (`model_copy(update=...)` to change a field)."""
    return _cached(req)
