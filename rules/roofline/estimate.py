"""`estimate(...)`: one model on one hardware setup -> fit, memory, decode, prefill, load, cost.

Assembles the pure formulas of memory / decode / prefill / comm / serving; every default it takes
is written into `assumptions`, every figure's arithmetic into `formulas`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rules import catalog
from rules.catalog_schema import Hardware, ModelSpec
from rules.errors import InputError, MissingFactError, ProfileError
from rules.quant import quant_info
from rules.roofline import advice, calibration as cal, comm, offload as hybrid
from rules.roofline.decode import compute_tflops, decode_step, kv_read_split, step_flops
from rules.roofline.figure import gb
from rules.roofline.layout import Layout, build_layout, layout_from_plan
from rules.roofline.memory import (attention_weight_bytes, capacity_bytes, kv_bytes, kv_bytes_per_token,
                                   kv_tokens_held, raised_usable_bytes, reserve_bytes, usable_bytes, weight_bytes)
from rules.roofline.prefill import attention_dp_extra_s, prefill_seconds
from rules.roofline.result import Estimate, MemoryBreakdown, Offload, StepBreakdown
from rules.roofline.runtime import Runtime, runtime
from rules.roofline.serving import benchmark_run, cost_per_1m_tokens, max_concurrency, static_batch, under_load, wave

DEFAULT_INPUT, DEFAULT_OUTPUT = 1024, 256
LOADS = ("closed", "static")
# TensorRT-LLM deploys NVIDIA's ModelOpt checkpoints, whose hf_quant_config.json sets kv_cache_quant_algo FP8
FP8_KV_ENGINES = frozenset({"tensorrt-llm"})
FP8_KV_QUANTS = frozenset({"fp8", "nvfp4"})


@dataclass(frozen=True)
class Setup:
    """Resolved inputs of one estimate."""

    spec: ModelSpec
    hw: Hardware
    layout: Layout
    quant: str
    kv_dtype: str | None
    engine: str | None
    input_tokens: int
    output_tokens: int
    context: int
    concurrency: int
    memory_gb: float | None
    interconnect: str | None
    runtime: Runtime
    engine_label: str | None
    """The engine id as asked (an id the catalog does not know runs as generic; `engine` is then None)."""
    load: str = "closed"
    attention_dp: bool = False
    """Attention data-parallel over the TP/EP group (SGLang --enable-dp-attention, TensorRT-LLM
    enable_attention_dp): each device runs attention for its own requests; experts stay sharded."""
    fill_window: bool = False
    """Requests may grow to the whole window (no prompt length given): a paged engine's sequence is sized at the
    window; with the prompt length known it holds its own prompt and output (memory.kv_tokens_held)."""
    early: bool = False
    """A block-FP8 MoE checkpoint on an engine build older than DeepGEMM-class kernels (calibration.early_block_fp8)."""
    host_ram: tuple[float, str] | None = None
    """The host RAM the user described (GB/s, how it was worked out); None = the host assumed for the GPU."""
    shared_prefix: int = 0
    """Prompt tokens every request shares from the prefix cache (not part of `input_tokens`): a paged engine holds
    their KV blocks once for all sequences."""


def _spec(model: str | ModelSpec) -> ModelSpec:
    return model if isinstance(model, ModelSpec) else catalog.model(model)


def _hw(hardware: str | Hardware) -> Hardware:
    return hardware if isinstance(hardware, Hardware) else catalog.hardware(hardware)


def _check_numbers(count: int, nodes: int, inp: int, out: int, ctx: int | None, conc: int, price: float | None) -> None:
    """Impossible numbers -> InputError naming the option."""
    for name, value, low in (("count", count, 1), ("nodes", nodes, 1), ("input", inp, 0), ("output", out, 0),
                             ("concurrency", conc, 1)):
        if value is None or value < low:
            raise InputError(f"--{name} must be at least {low}, got {value}")
    if ctx is not None and ctx < 1:
        raise InputError(f"--context must be at least 1, got {ctx}")
    if price is not None and price <= 0:
        raise InputError(f"--price-per-hour must be positive, got {price}")


def resolve_setup(model, hardware, count=1, nodes=1, quant=None, engine=None, parallelism=None,
                  input_tokens=None, output_tokens=None, context_length=None, concurrency=1,
                  kv_cache_dtype=None, memory_gb=None, interconnect=None, price_per_hour=None, load="closed",
                  attention_dp=False, chunked_prefill=None, engine_build=None, window_filled=None, host_ram=None,
                  shared_prefix=0):
    """Validate and default the inputs; returns (Setup, assumptions).

    `chunked_prefill` False: the engine runs prompts as separate prefill passes between decode steps
    (e.g. vLLM 0.7's V0 engine turns chunked prefill off for MLA models); None = the engine's default.
    `engine_build`: the engine build's date (YYYY-MM or YYYY-MM-DD; a month reads as its first day) when it
    matters (block-FP8 MoE kernels)."""
    notes: list[str] = []
    fill = input_tokens is None if window_filled is None else bool(window_filled)
    spec, hw = _spec(model), _hw(hardware)
    if host_ram is not None and hw.hw_class == "cpu":   # CPU inference: the stated RAM is the device's own memory
        hw = hw.model_copy(update={"mem_bw_gbs": host_ram[0]})
        notes.append(f"memory bandwidth from the RAM described: {host_ram[1]}")
    room = context_length if context_length and context_length > 1 else DEFAULT_INPUT + DEFAULT_OUTPUT
    out = min(DEFAULT_OUTPUT, max(1, room // 4)) if output_tokens is None else output_tokens
    inp = min(DEFAULT_INPUT, max(0, room - out)) if input_tokens is None else input_tokens
    if input_tokens is None or output_tokens is None:
        notes.append(f"prompt {inp} / output {out} tokens assumed where not given")
    _check_numbers(count, nodes, inp, out, context_length, concurrency, price_per_hour)
    ctx = context_length or max(1, inp + out)
    if inp + out > ctx:
        raise InputError(f"--input + --output ({inp + out}) exceed --context ({ctx})")
    from rules.context_window import limit   # the config's window, or the longer one the model card documents
    if ctx > limit(spec):
        raise ProfileError("context_length", f"{ctx} tokens exceeds {spec.id}'s maximum context of {limit(spec)}",
                           zh=f"{ctx:,} tokens 超過 {spec.id} 的最大 context（{limit(spec):,}）")
    if load not in LOADS:
        raise InputError(f"unknown load model '{load}' (known: {', '.join(LOADS)})")
    label = engine
    rt, unknown_note = runtime(engine, hw.hw_class)
    if unknown_note:
        notes.append(unknown_note)
        engine = None
    if chunked_prefill is False and (rt.mixed or rt.token_budget(hw)):
        rt = replace(rt, mixed=False, step_tokens=((0.0, None),))
        notes.append("chunked prefill off: each prompt runs as its own prefill pass between decode steps")
    q = quant or spec.native_dtype
    if quant is None:
        notes.append(f"weights in the model's native format ({q}) assumed")
    quant_info(q)
    if kv_cache_dtype is not None:
        quant_info(kv_cache_dtype)
    elif engine in FP8_KV_ENGINES and q in FP8_KV_QUANTS:
        kv_cache_dtype = "fp8"
        notes.append(f"KV cache in FP8: {engine} deploys {q} checkpoints (NVIDIA ModelOpt) with an FP8 KV cache; "
                     "pass kv_cache_dtype to override")
    if interconnect is not None:
        try:
            comm.link(hw, interconnect)
        except MissingFactError:
            notes.append(f"the catalog has no {interconnect} bandwidth for {hw.id}; its default link "
                         f"({hw.interconnect}) is used instead")
            interconnect = None
    if isinstance(parallelism, dict):   # the rule engine's plan, with its degrees
        attention_dp = attention_dp or bool(parallelism.get("attention_dp"))   # the planner's DP-attention layouts
        layout = layout_from_plan(parallelism, count, nodes)
        if layout.devices < count * nodes:
            notes.append(f"the plan {layout.describe()} uses {layout.devices} of the {count * nodes} devices")
    else:
        layout = build_layout(parallelism, count, nodes, _devices_to_fit(spec, hw, q, engine, memory_gb))
    if parallelism is None and layout.devices > 1:
        notes.append(f"parallel layout {layout.describe()} assumed (TP inside a node, PP across nodes)")
    attention_dp = bool(attention_dp) and layout.shard > 1
    if attention_dp:
        notes.append(f"attention data-parallel over {layout.shard} devices: each holds the full attention weights and "
                     "only its own requests' KV cache; a prompt's attention runs on one device")
    early = cal.early_block_fp8(spec.native_dtype, q, spec.architecture, rt.family, engine_build)
    if early:
        notes.append(f"engine build of {engine_build}: block-FP8 MoE GEMMs in pre-DeepGEMM kernels (SGLang turned "
                     f"DeepGEMM on by default on {cal.EARLY_BLOCK_FP8_BEFORE})")
    return Setup(spec, hw, layout, q, kv_cache_dtype, engine, inp, out, ctx, concurrency, memory_gb, interconnect,
                 rt, label, load, attention_dp, fill, early, host_ram,
                 max(0, int(shared_prefix or 0))), notes


def _devices_to_fit(spec: ModelSpec, hw: Hardware, quant: str, engine: str | None, memory_gb: float | None) -> int:
    """Smallest power-of-two device group whose usable memory holds the weights."""
    need = weight_bytes(spec, quant, engine).value
    usable = usable_bytes(hw, memory_gb).value
    n = 1
    while n < 4096 and need > n * (usable - reserve_bytes(hw, engine, usable).value):
        n *= 2
    return n


def _kv_split(spec: ModelSpec, layout: Layout, attention_dp: bool = False) -> int:
    """Devices one sequence's KV cache is spread over (heads split up to kv_heads; MLA latent is not;
    attention data-parallel: the group's devices each hold whole sequences, so capacity adds up)."""
    heads = kv_read_split(spec, layout, attention_dp)
    return layout.pp * heads


def _comm_s(s: Setup, batch: int) -> tuple[float, list[str]]:
    """Communication seconds per decode step for the layout."""
    spec, lay, hw = s.spec, s.layout, s.hw
    row_split = s.runtime.family == "local" and not s.runtime.tp_all_reduce   # llama.cpp -sm row, not a TP all-reduce
    tp_comm = comm.row_split_step_s if row_split else comm.tp_step_s
    parts = [tp_comm(spec.hidden, spec.layers, batch, lay.tp, hw, s.interconnect),
             comm.pp_step_s(spec.hidden, batch, lay.pp, hw, s.interconnect)]
    if lay.ep > 1 and spec.architecture == "moe":  # attention sharded over the EP group, experts all-to-all
        parts.append(comm.ep_step_s(spec.hidden, spec.moe_layers, spec.experts_per_tok, batch, lay.ep, hw, s.interconnect))
        parts.append(comm.tp_step_s(spec.hidden, spec.layers, batch, lay.ep, hw, s.interconnect, per_layer=1))
    return sum(p.value for p in parts), [p.why for p in parts if p.value]


@dataclass(frozen=True)
class _Memory:
    """Per-device memory plan of one replica (bytes)."""

    weights: float
    weights_dev: float
    usable: float
    reserve: float
    kv_seq: float
    kv_dev: float
    free: float
    per_replica_cap: int
    """Sequences at the full stated context that fit (the `max_concurrency` contract)."""
    in_service_cap: int
    """Sequences the engine keeps in flight: KV blocks it actually holds per sequence, and its scheduler limit."""
    raised: bool
    """Fits only with macOS's GPU wired-memory limit raised."""
    formulas: list[str]


def _memory_with(s: Setup, usable_value: float, usable_why: str, raised: bool) -> _Memory:
    w = weight_bytes(s.spec, s.quant, s.engine)
    reserve = reserve_bytes(s.hw, s.engine, usable_value)
    w_dev = w.value / s.layout.replica_devices
    if s.attention_dp:  # every device of the group keeps the whole attention projections
        w_dev += attention_weight_bytes(s.spec, s.quant, s.engine) * (1 - 1 / s.layout.shard)
    split = _kv_split(s.spec, s.layout, s.attention_dp)
    kv_seq = kv_bytes(s.spec, s.context, s.kv_dtype)
    kv_dev = kv_seq.value / split
    free = usable_value - reserve.value - w_dev
    cap = max_concurrency(free, kv_dev)
    held = kv_tokens_held(s.runtime.kv_hold, s.context, s.output_tokens, None if s.fill_window else s.input_tokens)
    held_dev = kv_bytes(s.spec, int(held.value), s.kv_dtype).value / split
    prefix_dev = kv_bytes(s.spec, s.shared_prefix, s.kv_dtype).value / split if s.shared_prefix and not s.fill_window else 0.0
    in_service = int(max_concurrency(free - prefix_dev, held_dev).value)
    limit = s.runtime.seq_cap(s.hw)
    why_cap = (f"{free / 1e9:.1f} GB free" + (f" - {prefix_dev / 1e9:.2f} GB for the shared {s.shared_prefix:,}-token prefix "
                                             f"(held once)" if prefix_dev else "")
               + f" / {held_dev / 1e9:.4f} GB held per sequence = {in_service} in flight")
    if limit is not None and in_service > limit:
        in_service, why_cap = limit, why_cap + f", capped at {s.runtime.id}'s scheduler limit of {limit}"
    return _Memory(w.value, w_dev, usable_value, reserve.value, kv_seq.value, kv_dev, free, int(cap.value), in_service,
                   raised, [w.why, usable_why, reserve.why, kv_seq.why, cap.why, held.why, why_cap])


def _memory(s: Setup) -> _Memory:
    """Weights, reserve and KV cache per device, and how many sequences fit (Apple: raising the GPU
    wired-memory limit when the default one is too small)."""
    usable = usable_bytes(s.hw, s.memory_gb)
    mem = _memory_with(s, usable.value, usable.why, False)
    if mem.per_replica_cap >= 1:
        return mem
    raised = raised_usable_bytes(s.hw, s.memory_gb)
    if raised is None:
        return mem
    high = _memory_with(s, raised.value, raised.why, True)
    return high if high.per_replica_cap >= 1 else mem


def _prefill_s(s: Setup, tokens: int, notes: list[str], formulas: list[str], prompts: int = 1) -> float | None:
    """Seconds to prefill `prompts` prompts of `tokens` each in one pass (compute + TP/PP communication);
    None when TFLOPS are unknown."""
    n = max(1, tokens)
    try:
        pf = prefill_seconds(s.spec, s.hw, s.quant, n, s.layout.shard, s.engine, s.runtime.family, prompts=prompts,
                             early=s.early)
    except MissingFactError as exc:
        notes.append(f"prefill not estimated: {exc}")
        return None
    formulas.append(pf.why)
    if s.attention_dp:  # the pass's prompts are spread over the group's devices, one device each
        extra = (attention_dp_extra_s(s.spec, s.hw, s.quant, n, s.layout.shard, s.engine, s.runtime.family, s.early)
                 * -(-prompts // s.layout.shard))
        formulas.append(f"attention data-parallel: the prompt's attention runs on one device, +{extra * 1e3:.1f} ms")
        pf = pf._replace(value=pf.value + extra)
    n *= prompts
    return (pf.value + comm.tp_step_s(s.spec.hidden, s.spec.layers, n, s.layout.shard, s.hw, s.interconnect).value
            + comm.pp_step_s(s.spec.hidden, n, s.layout.pp, s.hw, s.interconnect).value)


def _wave_prefill_s(s: Setup, wave: int) -> float:
    """Seconds to prefill a wave of `wave` prompts that arrived together: passes of as many whole prompts as the
    engine's step token budget holds (no budget: the whole wave in one pass)."""
    budget = s.runtime.token_budget(s.hw)
    per_pass = max(1, min(wave, budget // max(1, s.input_tokens))) if budget else wave
    full, rest = divmod(wave, per_pass)
    t = full * (_prefill_s(s, s.input_tokens, [], [], per_pass) or 0.0)
    return t + ((_prefill_s(s, s.input_tokens, [], [], rest) or 0.0) if rest else 0.0)


def _bound(s: Setup, step, batch: int, formulas: list[str]) -> float:
    """Pure roofline per stream: the slower of bandwidth (bytes per step) and peak compute (FLOPs per step)."""
    bw = s.layout.shard * s.hw.mem_bw_gbs * 1e9
    t_mem = step.bytes_read / bw
    peak = compute_tflops(s.hw, s.quant, s.engine)
    t_fl = step_flops(s.spec, batch) / (peak * 1e12 * s.layout.shard) if peak else 0.0
    formulas.append(f"bound: max({gb(step.bytes_read):.2f} GB / ({s.layout.shard} x {s.hw.mem_bw_gbs:g} GB/s), "
                    f"{step_flops(s.spec, batch) / 1e12:.2f} TFLOP at peak) = {max(t_mem, t_fl) * 1e3:.2f} ms per step")
    return 1 / max(t_mem, t_fl)


def _stepper(s: Setup, context: int, t_pf: float | None):
    """step(batch, prompt_tokens) -> Step for this setup: prompt tokens ride in the step (mixed engines)
    or run as separate prefill passes at the single-prompt rate (engines that alternate)."""
    per_prompt_token = (t_pf or 0.0) / max(1, s.input_tokens)

    def step(batch: int, prompt_tokens: float):
        comm_s, comm_why = _comm_s(s, batch)
        mixed = s.runtime.mixed and prompt_tokens > 0
        st = decode_step(s.spec, s.hw, s.quant, batch, context, s.layout, s.kv_dtype, s.engine, comm_s,
                         prefill_tokens=prompt_tokens if mixed else 0.0, prefill_context=s.input_tokens // 2,
                         family=s.runtime.family, attention_dp=s.attention_dp, early=s.early)
        if prompt_tokens > 0 and not mixed:
            st = replace(st, prefill_attention_s=prompt_tokens * per_prompt_token,
                         notes=st.notes + (f"{prompt_tokens:,.0f} prompt tokens per step run as separate prefill passes",))
        return st, comm_why
    return step


def _flag(o: Offload) -> str:
    return f"--n-cpu-moe {o.n_cpu_moe}" if o.n_cpu_moe is not None else f"-ngl {o.ngl}"


def _offload(s: Setup, mem: _Memory, step, formulas: list[str]) -> tuple[Offload, float] | None:
    """(the RAM part, seconds it adds to each step) when a hybrid CPU engine keeps what does not fit the
    GPUs in system RAM: those bytes move from the GPU's stream to the host's slower one."""
    if s.engine not in hybrid.HYBRID_ENGINES or s.layout.dp > 1 or s.hw.unified_memory:
        return None
    room = (mem.usable - mem.reserve - mem.kv_dev) * s.layout.replica_devices
    sp = hybrid.split(s.spec, s.quant, s.engine, room)
    if sp is None:
        return None
    if s.host_ram is not None:   # the user's own RAM: channels x MT/s x 8 bytes
        host_id, host_bw, host_name = "stated", s.host_ram[0], s.host_ram[1]
    else:
        host = catalog.hardware(hybrid.host_for(s.hw))
        host_id, host_bw, host_name = host.id, host.mem_bw_gbs, host.name
    ram_s, ram_why = hybrid.ram_seconds(sp, host_bw, host_name)
    moved = step.weights_s * sp.ram_read / max(1.0, sp.gpu_read + sp.ram_read)   # no longer read by the GPU
    formulas += [sp.why, ram_why]
    return (Offload(gpu_gb=round(gb(sp.gpu_bytes), 2), ram_gb=round(gb(sp.ram_bytes), 2),
                    ram_gb_per_token=round(gb(sp.ram_read), 3), ngl=sp.ngl, n_cpu_moe=sp.n_cpu_moe, host=host_id,
                    host_bw_gbs=host_bw, ram_ms_per_token=round(ram_s * 1e3, 2)),
            ram_s - moved)


OFFLOAD_UBATCH = 512
"""llama.cpp's default physical batch (-ub 512): a prompt runs in chunks of this many tokens."""


def _offload_prefill_s(s: Setup, o: Offload, formulas: list[str]) -> float:
    """Prompt time added by weights in RAM: for batches of 32 tokens or more llama.cpp's CUDA backend
    copies RAM-resident weights to the GPU to run them there (ggml-cuda offload policy), once per chunk,
    over the PCIe link (the catalog's bidirectional figure halved: one direction)."""
    if not s.hw.pcie_gbs or s.input_tokens < 32:
        return 0.0
    chunks = -(-s.input_tokens // OFFLOAD_UBATCH)
    t = chunks * o.ram_gb / (s.hw.pcie_gbs / 2)
    formulas.append(f"prompt with weights in RAM: {chunks} chunk(s) of {OFFLOAD_UBATCH} tokens x {o.ram_gb:.1f} GB "
                    f"over PCIe at {s.hw.pcie_gbs / 2:g} GB/s = +{t:.2f} s")
    return t


def _offload_bound(bound: float, o: Offload, s: Setup) -> float:
    """The pure bound with the RAM part streamed at the host's full datasheet bandwidth."""
    ram_s = o.ram_gb_per_token / o.host_bw_gbs
    gpu_share = ram_s and o.ram_gb_per_token * 1e9 / (s.layout.shard * s.hw.mem_bw_gbs * 1e9)
    return 1 / (1 / bound - gpu_share + ram_s)


def _sig(x: float) -> float:
    """Two decimals, or four significant digits for small figures (a slow setup is not 0 tokens/s)."""
    return round(x, 2) if x >= 1 else float(f"{x:.4g}")


def estimate(model, hardware, count: int = 1, nodes: int = 1, quant: str | None = None, engine: str | None = None,
             parallelism: str | dict | None = None, input_tokens: int | None = None, output_tokens: int | None = None,
             context_length: int | None = None, concurrency: int = 1, kv_cache_dtype: str | None = None,
             price_per_hour: float | None = None, memory_gb: float | None = None,
             interconnect: str | None = None, load: str = "closed", attention_dp: bool = False,
             chunked_prefill: bool | None = None, requests: int | None = None,
             equal_lengths: bool = False, engine_build: str | None = None,
             window_filled: bool | None = None, host_ram: tuple[float, str] | None = None,
             shared_prefix_tokens: int = 0) -> Estimate:
    """Roofline estimate for `model` on `count` x `hardware` (ids, aliases or specs).

    `load`: 'closed' = `concurrency` users each sending a new request when the last one finishes
    (continuous batching, queueing included: what a benchmark client at fixed concurrency sees);
    'static' = `concurrency` requests started together, no arrivals (offline batch jobs).
    `attention_dp`: attention data-parallel over the TP/EP group; `chunked_prefill` False: prompts run as
    separate prefill passes (None = the engine's default).
    `requests`: a benchmark run of this many requests from `concurrency` users started together (None = a long
    steady run); `equal_lengths`: every request has the same prompt and output length (waves stay together).
    `engine_build`: the engine build's date (YYYY-MM or YYYY-MM-DD), for kernels that changed between builds.
    `window_filled`: requests may grow to the whole context window (None = when no prompt length is given), so a
    paged engine's sequences are sized at it; else each holds its own prompt and output.
    `host_ram`: (GB/s, description) of the host RAM offloaded weights stream from (offload.stated_host); None =
    the host assumed for the GPU. `shared_prefix_tokens`: prompt tokens every request shares from the prefix cache,
    beyond `input_tokens` (each request's own part): their KV cache is held once."""
    if requests is not None and requests < 1:
        raise InputError(f"--requests must be at least 1, got {requests}")
    s, notes = resolve_setup(model, hardware, count, nodes, quant, engine, parallelism, input_tokens, output_tokens,
                             context_length, concurrency, kv_cache_dtype, memory_gb, interconnect, price_per_hour, load,
                             attention_dp, chunked_prefill, engine_build, window_filled, host_ram,
                             shared_prefix_tokens)
    spec, hw, lay = s.spec, s.hw, s.layout
    formulas: list[str] = []
    notes += advice.standing_assumptions(s)

    mem = _memory(s)
    formulas += mem.formulas
    if mem.raised:
        notes.append(f"fits only with macOS's GPU wired-memory limit raised: sudo sysctl iogpu.wired_limit_mb="
                     f"{int(mem.usable / 2**20)} (MiB; the default lets the GPU wire {hw.usable_memory_fraction:.0%} of memory)")

    users = -(-s.concurrency // lay.dp)
    context = s.input_tokens + s.output_tokens // 2
    t_pf = _prefill_s(s, s.input_tokens, notes, formulas)
    stepper = _stepper(s, context, t_pf)
    cap = max(1, mem.in_service_cap)
    if s.load == "static":
        batch = max(1, min(users, cap))
        step, comm_why = stepper(batch, 0.0)
        t_batch = _prefill_s(s, s.input_tokens * batch, [], []) if batch > 1 and t_pf is not None else t_pf
        load_fig = static_batch(batch, t_batch or 0.0, step.seconds, s.output_tokens)
    else:
        cache: dict = {}

        def step_s(b: int, p: float) -> float:
            cache["step"] = stepper(b, p)
            return cache["step"][0].seconds
        load_fig = under_load(users, cap, t_pf or 0.0, step_s, s.input_tokens, s.output_tokens,
                              s.runtime.token_budget(hw))
        step, comm_why = cache["step"]
        if requests and users > 1 and t_pf is not None:  # a benchmark client's run: users start together
            # a wave's sequences all reach the full context together: its slots are those the full context allows
            m = max(1, min(users, mem.per_replica_cap, s.runtime.seq_cap(hw) or users))
            waves = wave(users, m, _wave_prefill_s(s, m), stepper(m, 0.0)[0].seconds, s.output_tokens)
            load_fig = benchmark_run(load_fig, waves, users, -(-requests // lay.dp), equal_lengths)
        batch = load_fig.in_service
    formulas += list(step.notes) + comm_why
    bound = _bound(s, step, batch, formulas)
    solo = stepper(1, 0.0)[0] if batch > 1 else step
    solo_bound = _bound(s, solo, 1, []) if batch > 1 else bound
    formulas.append(load_fig.why)
    aggregate = load_fig.output_tokens_per_s * lay.dp
    price, price_src = advice.price(hw, price_per_hour)
    cost = cost_per_1m_tokens(lay.devices, price, aggregate) if price else None
    if cost:
        formulas.append(cost.why)
    else:
        notes.append("cost per 1M tokens needs a device-hour price (--price-per-hour); the catalog has none for this device")

    weights_fit = mem.usable - mem.reserve >= mem.weights_dev
    fits = weights_fit and mem.per_replica_cap >= 1
    held_dev = mem.free / max(1, mem.in_service_cap) if mem.in_service_cap else mem.kv_dev
    kv_in_service = min(mem.kv_dev * batch, held_dev * batch) if fits else mem.kv_dev
    memory = MemoryBreakdown(devices=lay.devices, capacity_gb=round(gb(capacity_bytes(hw, s.memory_gb).value), 2),
                             usable_gb=round(gb(mem.usable), 2), weights_gb=round(gb(mem.weights_dev), 2),
                             kv_gb=round(gb(kv_in_service), 3), reserve_gb=round(gb(mem.reserve), 2),
                             free_gb=round(gb(mem.free - kv_in_service), 2))
    infeasible = None if fits else advice.infeasible(s, weights_fit, memory, mem.kv_dev)
    off = _offload(s, mem, step, formulas) if not weights_fit else None
    if off is not None:
        slower = load_fig.tpot_s + off[1]
        ratio = load_fig.tpot_s / slower
        aggregate *= ratio
        load_fig = replace(load_fig, tpot_s=slower, output_tokens_per_s=load_fig.output_tokens_per_s * ratio,
                           requests_per_s=load_fig.requests_per_s * ratio)
        cost = cost_per_1m_tokens(lay.devices, price, aggregate) if price else None
        upload = _offload_prefill_s(s, off[0], formulas)
        if upload and t_pf is not None:
            t_pf += upload
            load_fig = replace(load_fig, ttft_s=load_fig.ttft_s + upload)
        # the split kept room on the GPU for the KV cache: count the sequences that room holds (at least one)
        room = mem.usable - mem.reserve - off[0].gpu_gb * 1e9 / lay.replica_devices
        offload_cap = max(1, int(room // mem.kv_dev)) if mem.kv_dev > 0 else 1
        notes.append(f"{gb(off[0].ram_gb * 1e9):.1f} GB of weights stay in system RAM ({_flag(off[0])}); "
                     f"decode reads {off[0].ram_gb_per_token:.2f} GB per token from it at "
                     f"{off[0].host_bw_gbs:g} GB/s ({off[0].host}), +{off[0].ram_ms_per_token:.1f} ms per token")
    elif not fits:
        notes.append("speed figures describe this setup as if it fit in memory")
    # one request alone: its own step (with the RAM part when offloaded), never slower than a stream under load
    solo_s = solo.seconds + (off[1] if off is not None else 0.0)
    single = max(1 / solo_s, 1 / load_fig.tpot_s)
    formulas.append(f"one stream alone: {solo_s * 1e3:.2f} ms per token = {single:.1f} tokens/s")
    binding = advice.binding_constraint(s, fits, infeasible, step, load_fig, t_pf, batch)
    return Estimate(
        fits=fits, weights_gb=round(gb(mem.weights), 2), kv_bytes_per_token=int(kv_bytes_per_token(spec, s.kv_dtype).value),
        max_concurrency=(offload_cap if off is not None else mem.per_replica_cap) * lay.dp,
        decode_tokens_per_s=_sig(1 / load_fig.tpot_s),
        decode_tokens_per_s_bound=round(_offload_bound(bound, off[0], s) if off else bound, 2),
        prefill_tokens_per_s=round(s.input_tokens / t_pf, 1) if t_pf and s.input_tokens else None,
        ttft_s=round(load_fig.ttft_s, 4) if t_pf is not None else None, tpot_ms=round(load_fig.tpot_s * 1e3, 3),
        assumptions=notes, binding_constraint=binding, binding_constraint_zh=binding.zh,
        model=spec.id, hardware=hw.id, count=lay.devices, quantization=s.quant, kv_cache_dtype=s.kv_dtype,
        engine=s.engine_label, parallelism={"strategy": lay.strategy, "tp": lay.tp, "pp": lay.pp, "ep": lay.ep, "dp": lay.dp},
        input_tokens=s.input_tokens, output_tokens=s.output_tokens, context_length=s.context,
        concurrency=s.concurrency, kv_gb_per_sequence=round(gb(mem.kv_seq), 4),
        aggregate_tokens_per_s=_sig(aggregate), requests_per_s=_sig(load_fig.requests_per_s * lay.dp),
        queue_s=round(load_fig.queue_s, 3), comm_ms_per_token=round(step.comm_s * 1e3, 3), memory=memory,
        step=StepBreakdown(weights_ms=round(step.weights_s * 1e3, 3), kv_ms=round(step.kv_s * 1e3, 3),
                           compute_ms=round(step.compute_s * 1e3, 3), overhead_ms=round(step.overhead_s * 1e3, 3),
                           comm_ms=round(step.comm_s * 1e3, 3), batch=batch,
                           prefill_ms=round(step.prefill_attention_s * 1e3, 3),
                           prompt_tokens=round(load_fig.prefill_tokens_per_step, 1),
                           total_ms=round(step.seconds * 1e3, 3)),
        single_stream_tokens_per_s=_sig(single),
        single_stream_bound_tokens_per_s=round(_offload_bound(solo_bound, off[0], s) if off else solo_bound, 2),
        in_service=load_fig.in_service * lay.dp, load=s.load, engine_profile=s.runtime.id,
        cost_per_1m_tokens=round(cost.value, 4) if cost else None, price_usd_per_hour=price, price_source=price_src,
        infeasible=infeasible, error_band=advice.error_band(hw, s.runtime.family, spec.architecture), formulas=formulas,
        offload=off[0] if off else None)


def host_ram_of(profile) -> tuple[float, str] | None:
    """The host RAM bandwidth the profile's words describe (None: not described, or no hardware)."""
    if not profile.hardware:
        return None
    return hybrid.stated_host(profile.host_mem_type, profile.host_mem_mts, profile.host_mem_channels,
                              catalog.hardware(profile.hardware))


def estimate_for_profile(profile, engine: str | None = None, parallelism: str | dict | None = None) -> Estimate | None:
    """Estimate from a rules.profile.Profile (None when hardware or model/size is not known yet).

    `parallelism` is a strategy id or the decision's plan {strategy, tp, pp, ep, dp}: the figures
    then describe the layout the answer recommends.
    """
    spec = catalog.spec_for_profile(profile) if profile.hardware else None
    if spec is None:
        return None
    ctx = profile.context_length
    from rules.context_window import limit
    if ctx and ctx > limit(spec):   # beyond what the model card documents: planned at that (the decision says so)
        ctx = limit(spec)
    from rules.defaults import serving_lengths   # lazy: defaults reads facts, which read this package
    io = (profile.input_tokens or 0) + (profile.output_tokens or 0)
    # the planner's lengths and window (rules.plan.request), so every surface shows the same figures
    inp, out, window = serving_lengths(profile.workload, spec.id if profile.model else None, profile.input_tokens,
                                       profile.output_tokens, ctx if ctx and ctx >= io else None, limit(spec))
    est = estimate(spec, profile.hardware, count=profile.count or 1, nodes=profile.nodes, quant=profile.quantization,
                   engine=engine, parallelism=parallelism, input_tokens=inp, output_tokens=out, context_length=window,
                   concurrency=profile.concurrency or 1, kv_cache_dtype=profile.kv_cache_dtype,
                   price_per_hour=profile.device_hour_usd, memory_gb=profile.memory_gb,
                   interconnect=profile.interconnect if profile.interconnect not in (None, "none") else None,
                   window_filled=profile.input_tokens is None, host_ram=host_ram_of(profile))
    if spec.assumptions:
        est.assumptions.extend(spec.assumptions)
    return est
