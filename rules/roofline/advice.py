"""Words around the numbers: standing assumptions, the binding constraint, fixes, price, error band."""
from __future__ import annotations

from rules.catalog_schema import Hardware
from rules.display import Line
from rules.quant import bits_per_weight
from rules.roofline import calibration as cal
from rules.roofline.memory import APPLE_RAISED_FRACTION, kv_bytes, reserve_bytes, usable_bytes, weight_bytes
from rules.roofline.result import ErrorBand, Infeasible, MemoryBreakdown


def standing_assumptions(s) -> list[str]:
    """Assumptions every estimate of this setup rests on."""
    hw, spec, rt = s.hw, s.spec, s.runtime
    eff, eff_why = cal.bandwidth_efficiency(hw, rt.family)
    basis = ("published server-engine results under load" if rt.family != "local"
             else "published single-stream results, mostly llama.cpp")
    out = [f"decode streams at {eff_why}, plus {cal.token_overhead_s(hw, rt.family) * 1e3:.1f} ms fixed cost per step "
           f"(calibrated on {basis})",
           f"decode context averages prompt + half the output ({s.input_tokens + s.output_tokens // 2} tokens)",
           f"KV cache ({'16-bit' if s.kv_dtype is None else s.kv_dtype}): fit checked for one sequence at the full "
           f"context ({s.context:,} tokens); sequences in flight hold " + _KV_HOLD[rt.kv_hold],
           f"scheduling as {rt.id}: {rt.source}"]
    if hw.memory_is_max_config and not s.memory_gb:
        out.append(f"{hw.id}: memory taken as the largest configuration ({hw.memory_gb:g} GB); pass the real size if smaller")
    if hw.usable_memory_fraction < 1:
        out.append(f"only {hw.usable_memory_fraction:.0%} of unified memory is GPU-usable by default (macOS wired limit)")
    if spec.attention.linear_layers and not spec.attention.linear_state_values:
        out.append(f"the fixed state of the {spec.attention.linear_layers} linear-attention layers is not counted "
                   "(its size is not in the catalog); only the full-attention layers' KV cache is")
    if spec.architecture == "moe":
        out.append("MoE routing assumed uniform: a batch of b tokens touches 1-(1-k/E)^b of the experts")
    if s.layout.pp > 1:
        out.append(f"pipeline parallel: one stream does not get faster; with fewer than {s.layout.pp} sequences in flight "
                   "stages sit idle (pipeline bubbles)")
    if s.layout.devices > 1 and hw.p2p is not True and (s.interconnect or hw.interconnect) == "pcie":
        out.append(f"{hw.id} has no peer-to-peer over PCIe: collectives go through host memory")
    if s.concurrency > 1 and s.load == "static":
        out.append("load model: one batch of the given requests started together (prompts first, then decoding)")
    elif s.concurrency > 1:
        out.append("load model: closed loop of the given concurrent users; continuous batching mixes admitted prompts "
                   "into decode steps; requests beyond the KV capacity queue, and TTFT includes that wait")
    return out + engine_notes(s)


_KV_HOLD = {"peak": "their whole context, reserved at admission",
            "mean": "KV blocks for the tokens so far (prompt + half the output on average)",
            "slot": "a full context per parallel slot"}


def engine_notes(s) -> list[str]:
    """Warnings when the named engine cannot run here or lacks a kernel for the format (rules.engines)."""
    if s.engine is None:
        return []
    try:
        from rules import engines
    except ModuleNotFoundError:
        return []
    ok, reason, _ = engines.supports(s.engine, s.hw)
    notes = [] if ok else [f"WARNING: {reason}"]
    kernel = engines.device_kernel(s.engine, s.quant, s.hw)
    if ok and kernel is None:
        gate = (engines.amd_dtype_gate(s.engine, s.quant, s.hw)
                or engines.cc_gate(s.engine, s.quant, s.hw.platform, s.hw.cuda_cc, s.hw.name))
        notes.append(f"WARNING: {gate[0]}" if gate else f"WARNING: {s.engine} has no kernel for {s.quant} on {s.hw.platform}")
    return notes


def price(hw: Hardware, user_price: float | None) -> tuple[float | None, str | None]:
    """The $/device-hour to use and where it comes from."""
    if user_price:
        return user_price, "given by the user"
    return hw.price_usd_per_hour, hw.price_source




def _fits_with(s, quant: str | None = None, devices: int | None = None, context: int | None = None,
               kv_dtype: str | None = None, usable_fraction: float | None = None) -> bool:
    """Memory check of the setup with one thing changed (weights split evenly over devices)."""
    q = quant or s.quant
    n = devices or s.layout.replica_devices
    usable = usable_bytes(s.hw, s.memory_gb).value
    if usable_fraction:
        usable = usable / s.hw.usable_memory_fraction * usable_fraction
    free = usable - reserve_bytes(s.hw, s.engine, usable).value - weight_bytes(s.spec, q, s.engine).value / n
    kv = kv_bytes(s.spec, context or s.context, kv_dtype if kv_dtype is not None else s.kv_dtype).value / n
    return free >= kv


GGUF_PLATFORMS = frozenset({"apple-silicon", "x86-cpu", "arm-cpu", "intel-gpu"})


def _longest_context(s) -> int:
    """Longest context at which one sequence fits (binary search on the memory check)."""
    lo, hi = 1, s.context
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _fits_with(s, context=mid) else (lo, mid - 1)
    return lo


def _devices_needed(s, quant: str) -> int | None:
    """Smallest power-of-two device count (beyond the current one) that fits, up to 1024."""
    n = s.layout.replica_devices * 2
    while n <= 1024 and not _fits_with(s, quant=quant, devices=n):
        n *= 2
    return n if n <= 1024 else None


def _split_advice(hw: Hardware) -> str:
    """How to split a model over more devices of this kind."""
    if hw.interconnect in ("nvlink", "infinity-fabric"):
        return "(tensor parallel inside the NVLink / Infinity Fabric domain)"
    if hw.interconnect == "pcie":
        return "(over PCIe: pipeline parallel tolerates the slow link better than tensor parallel)"
    return "(machines linked by a network or Thunderbolt: pipeline parallel; expect little speed-up)"


def infeasible(s, weights_fit: bool, mem: MemoryBreakdown, kv_dev: float) -> Infeasible:
    """Which constraint fails and the fixes that would make it fit, cheapest first."""
    usable, left = mem.usable_gb - mem.reserve_gb, max(0.0, mem.usable_gb - mem.reserve_gb - mem.weights_gb)
    if not weights_fit:
        constraint = Line(f"memory capacity: the weights need {mem.weights_gb:.1f} GB per device but only "
                          f"{usable:.1f} GB are usable after the runtime reserve",
                          f"記憶體容量：權重每個裝置需要 {mem.weights_gb:.1f} GB，扣掉執行期保留後只剩 {usable:.1f} GB 可用")
    else:
        constraint = Line(f"KV-cache capacity: one sequence at {s.context:,} tokens needs {kv_dev / 1e9:.2f} GB per device; "
                          f"{left:.2f} GB are left after the weights",
                          f"KV cache 容量：{s.context:,} tokens 的一條序列每個裝置需要 {kv_dev / 1e9:.2f} GB，"
                          f"權重之外只剩 {left:.2f} GB")
    fixes: list[str] = []
    if s.hw.usable_memory_fraction < 1 and _fits_with(s, usable_fraction=APPLE_RAISED_FRACTION):
        fixes.append("raise macOS's GPU wired-memory limit (sudo sysctl iogpu.wired_limit_mb=...) to leave "
                     f"only ~{1 - APPLE_RAISED_FRACTION:.0%} to the system")
    if weights_fit:  # the KV cache is what does not fit: cheapest is to shrink it
        if s.kv_dtype is None and _fits_with(s, kv_dtype="fp8"):
            fixes.append("store the KV cache in fp8 (halves it)")
        longest = _longest_context(s)
        if longest > 1:
            fixes.append(f"shorten the context to {longest:,} tokens")
    bits = bits_per_weight(s.quant)
    ladder = [q for q in (("q8_0", "q4_k_m") if s.hw.platform in GGUF_PLATFORMS else ("fp8", "int8", "awq"))
              if bits_per_weight(q) < bits and (q != "fp8" or s.hw.tflops.fp8)]
    quant_fix = next((q for q in ladder if _fits_with(s, quant=q)), None)
    if quant_fix:
        fixes.append(f"quantize the weights to {quant_fix} ({bits_per_weight(quant_fix):g} bits per weight)")
    more = _devices_needed(s, s.quant)
    fewer = _devices_needed(s, ladder[-1]) if ladder and not quant_fix else None
    if fewer and (not more or fewer < more):  # fewer devices first: that is the cheaper fix
        fixes.append(f"quantize to {ladder[-1]} and use {fewer} x {s.hw.id} {_split_advice(s.hw)}")
    if more:
        fixes.append(f"use {more} x {s.hw.id} {_split_advice(s.hw)}")
    return Infeasible(constraint=constraint, constraint_zh=constraint.zh, fixes=fixes or ["a device with more memory"])


INTERACTIVE_TTFT_S = 10.0
"""Ten seconds: the limit for keeping a user's attention on a dialogue (Nielsen, "Response Times: The 3 Important
Limits", https://www.nngroup.com/articles/response-times-3-important-limits/); a first token later than that is
not an interactive answer."""

_SHARE_NAMES = {   # what takes a request's time, (en, zh)
    "prefill": ("prefill compute (prompt processing)", "prefill 計算（處理 prompt）"),
    "weights": ("memory bandwidth: streaming the weights each token", "記憶體頻寬：每個 token 都要讀一遍權重"),
    "kv": ("memory bandwidth: reading the KV cache each token", "記憶體頻寬：每個 token 都要讀一遍 KV cache"),
    "compute": ("compute: the batch makes the weight GEMMs compute-bound", "算力：批次夠大，權重矩陣乘法受算力限制"),
    "overhead": ("fixed per-token runtime overhead (kernel launches, sync, sampling)",
                 "每個 token 的固定執行期開銷（kernel 啟動、同步、取樣）"),
    "comm": ("interconnect: collectives between devices every token", "互連：每個 token 都要在裝置之間做集體通訊"),
}


def binding_constraint(s, fits: bool, bad: Infeasible | None, step, load, t_pf: float | None, batch: int) -> Line:
    """What limits this setup, in words (English, with its zh-Hant twin as `.zh`)."""
    if not fits:
        return Line(bad.constraint, bad.constraint_zh or bad.constraint)
    if s.load == "closed" and s.concurrency > load.in_service * s.layout.dp:
        flight = load.in_service * s.layout.dp
        return Line(f"KV-cache capacity: only {flight} of {s.concurrency} sequences are in flight "
                    f"at once; the rest wait about {load.queue_s:.1f} s in the queue",
                    f"KV cache 容量：{s.concurrency} 條序列中同時只有 {flight} 條在跑，其餘在佇列中等約 {load.queue_s:.1f} 秒")
    out = s.output_tokens
    memory_bound = step.weights_s >= step.compute_s
    # the GEMM time of a step that carries other requests' prompt tokens is prompt processing in the main: a RAG
    # load's 6,000-token prompts, not the decodes, make the step compute-bound (r6-zh-07)
    prompt = load.prefill_tokens_per_step or 0.0
    prompt_share = prompt / (batch + prompt) if prompt > 0 else 0.0
    gemm = out * step.compute_s if not memory_bound else 0.0
    shares = {
        "prefill": (t_pf or 0.0) + max(0.0, load.ttft_s - load.queue_s - (t_pf or 0.0)) + out * step.prefill_attention_s
        + gemm * prompt_share,
        "weights": out * step.weights_s if memory_bound else 0.0,
        "kv": out * step.kv_s,
        "compute": gemm * (1 - prompt_share),
        "overhead": out * step.overhead_s,
        "comm": out * step.comm_s,
    }
    key, value = max(shares.items(), key=lambda kv: kv[1])
    share = value / (sum(shares.values()) or 1.0)
    en, zh = _SHARE_NAMES[key]
    line = Line(f"{en} ({share:.0%} of a request's time at batch {batch})", f"{zh}（批次 {batch} 時佔一個請求時間的 {share:.0%}）")
    ttft = load.ttft_s if load.ttft_s is not None else t_pf
    if key == "prefill" and ttft is not None and ttft > INTERACTIVE_TTFT_S:
        line = Line(f"{line}: {ttft:,.0f} s to the first token for each {s.input_tokens:,}-token prompt, not interactive "
                    f"(past the {INTERACTIVE_TTFT_S:g} s a person waits): shorten or cache the prompt, pick a model with "
                    "fewer active parameters, or use hardware with more compute",
                    f"{line.zh}：每個 {s.input_tokens:,} token 的 prompt 要 {ttft:,.0f} 秒才出第一個字，無法互動使用"
                    f"（超過一般人願意等的 {INTERACTIVE_TTFT_S:g} 秒）：縮短或快取 prompt、換啟用參數較少的模型，或用算力更強的硬體")
    return line


def error_band(hw: Hardware, family: str = "local", architecture: str = "dense") -> ErrorBand:
    """The estimator's measured error on this platform (single stream) and, for server engines, under load
    (on published rows of models of the same architecture, dense or MoE)."""
    load = {}
    if family != "local":
        lb = cal.LOAD_ERROR_BAND["moe" if architecture == "moe" else "dense"]
        which = ("MoE: Qwen3 on TensorRT-LLM, DeepSeek-R1 on vLLM/SGLang/TensorRT-LLM" if architecture == "moe"
                 else "dense: Llama on TensorRT-LLM, NIM, vLLM")
        load = dict(load_basis=f"held-out error on {lb['rows']:.0f} published at-load rows ({which}; H100/H200/B200/"
                               "GB200/RTX PRO 6000/MI300X)",
                    load_throughput_p50_pct=lb["throughput_p50"], load_tpot_p50_pct=lb["tpot_p50"],
                    load_ttft_p50_pct=lb["ttft_p50"])
    band = cal.ERROR_BAND.get(hw.platform)
    if band is None:
        return ErrorBand(basis=f"no published measurements for {hw.platform} in the calibration file: "
                               "treat figures as +/-50 %", decode_p50_pct=None, decode_p90_pct=None, prefill_p50_pct=None,
                         **load)
    return ErrorBand(basis=f"absolute error on the {band['rows']} published {hw.platform} single-stream "
                           "measurements (about two thirds used to calibrate); expect more on other setups",
                     decode_p50_pct=band["decode_p50"], decode_p90_pct=band["decode_p90"],
                     prefill_p50_pct=band["prefill_p50"], **load)
