"""The workload half of the spec: lengths, the concurrency sweep, prefix sharing and the runs.

Missing facts become documented defaults and are reported as assumptions by the caller; the
defaults below are the advisor's own planning values, not measurements.
"""
from __future__ import annotations

from rules.benchspec.spec import LengthDist, Level, Run, Workload
from rules.profile import Profile

# Typical (input, output) tokens per request when the user gave none: planning defaults.
DEFAULT_LENGTHS: dict[str, tuple[int, int]] = {
    "chat": (1000, 300), "rag": (4000, 300), "summarization": (8000, 500),
    "agent": (16000, 500), "coding": (8000, 800), "batch": (2000, 500),
}
# Share of a prompt that repeats across requests when the app has a shared prefix
# (system prompt, retrieved documents, agent history): planning defaults.
PREFIX_SHARE: dict[str, float] = {
    "chat": 0.3, "rag": 0.4, "summarization": 0.1, "agent": 0.8, "coding": 0.7, "batch": 0.5,
}
# Peak concurrent requests by serving mode when the user gave no number.
PEAK_BY_MODE: dict[str, int] = {"personal": 1, "demo": 8, "team": 50, "production": 200, "fleet": 1000}
_SWEEP_STEPS = (4, 8, 32, 128, 512, 2048, 8192)
INPUT_SPREAD = 0.25
"""Main-run prompts vary ±25 % around the typical length: real prompts are never all equal."""


def concurrency_sweep(peak: int) -> list[int]:
    """Levels 1, up to two steps below the peak, the peak itself and twice the peak."""
    below = [s for s in _SWEEP_STEPS if s < 0.8 * peak][-2:]
    return sorted({1, *below, peak, 2 * peak})


def requests_for(concurrency: int) -> int:
    """Measured requests at a level: enough for a p99 over at least 100 samples."""
    return max(100, 8 * concurrency)


def warmup_for(concurrency: int) -> int:
    """Warm-up requests: fill every slot once (CUDA graphs, caches), within reason."""
    return min(max(4, concurrency), 64)


def levels(concurrencies: list[int]) -> list[Level]:
    """Levels with their request and warm-up counts."""
    return [Level(concurrency=c, requests=requests_for(c), warmup=warmup_for(c))
            for c in sorted(set(concurrencies))]


def fixed(n: int) -> LengthDist:
    """A fixed length."""
    return LengthDist(kind="fixed", mean=n, min=n, max=n)


def spread(n: int, ratio: float = INPUT_SPREAD) -> LengthDist:
    """A uniform length around `n` (±ratio)."""
    lo, hi = max(1, round(n * (1 - ratio))), max(1, round(n * (1 + ratio)))
    return LengthDist(kind="uniform" if hi > lo else "fixed", mean=n, min=lo, max=hi)


def workload_kind(profile: Profile, notes: list[str]) -> str:
    """The workload shape, defaulting to chat."""
    if profile.workload:
        return profile.workload
    notes.append("Workload shape not stated: planned as interactive chat.")
    return "chat"


def peak_concurrency(profile: Profile, notes: list[str]) -> int:
    """The user's real peak of concurrent requests (stated, or derived and noted)."""
    if profile.concurrency:
        return profile.concurrency
    if profile.serving_mode:
        peak = PEAK_BY_MODE[profile.serving_mode]
        notes.append(f"Peak concurrency not stated: {peak} assumed for serving mode "
                     f"'{profile.serving_mode}'. Replace it with your measured peak.")
        return peak
    notes.append("Peak concurrency not stated: 8 assumed. Replace it with your measured peak.")
    return 8


def typical_lengths(profile: Profile, kind: str, notes: list[str]) -> tuple[int, int]:
    """Typical input and output tokens (stated, or planning defaults noted)."""
    d_in, d_out = DEFAULT_LENGTHS[kind]
    n_in, n_out = profile.input_tokens, profile.output_tokens
    if n_in is None:
        room = profile.context_length - (n_out or d_out) if profile.context_length else d_in
        n_in = max(1, min(d_in, room))
        notes.append(f"Typical prompt length not stated: {n_in} tokens assumed for {kind}.")
    if n_out is None:
        n_out = d_out if not profile.context_length else max(1, min(d_out, profile.context_length - n_in))
        notes.append(f"Typical answer length not stated: {n_out} tokens assumed for {kind}.")
    return n_in, n_out


def prefix_share(profile: Profile, kind: str, notes: list[str]) -> float:
    """Planned share of each prompt that is a shared prefix (the app's KV-cache hit rate)."""
    if profile.shared_prefix is True:
        share = PREFIX_SHARE[kind]
        notes.append(f"Shared prefix: about {share:.0%} of each prompt planned as shared (typical "
                     f"for {kind}); set it to the fraction your prompts really repeat.")
        return share
    if profile.shared_prefix is None:
        notes.append("Shared prefix not stated: none planned (cold prefill, the worst case). "
                     "If prompts repeat a system prompt or documents, say so.")
    return 0.0


def prefix_tokens(dist: LengthDist, share: float) -> int:
    """Shared-prefix tokens: `share` of the typical prompt, leaving a unique part in every prompt."""
    # at least one unique token per prompt, even for a two-token prompt
    return max(0, min(round(dist.mean * share), round(0.9 * dist.min), dist.min - 1))


def build_workload(profile: Profile, notes: list[str]) -> Workload:
    """The workload and its runs from the profile; defaults are appended to `notes`."""
    kind = workload_kind(profile, notes)
    peak = peak_concurrency(profile, notes)
    n_in, n_out = typical_lengths(profile, kind, notes)
    share = prefix_share(profile, kind, notes)
    main_in = spread(n_in)
    if profile.context_length and main_in.max + n_out > profile.context_length:
        main_in = fixed(n_in)  # no room above the typical prompt: keep it fixed
    sweep = concurrency_sweep(peak)
    runs = [_main(main_in, n_out, share, sweep)]
    runs += [_prefill(n_in, peak), _decode(n_in, n_out, peak, profile.context_length)]
    if profile.context_length and profile.context_length - n_out > 1.25 * main_in.max:
        runs.append(_long_context(profile.context_length - n_out, n_out, peak))
    if profile.structured_output:
        runs.append(_structured(main_in, n_out, share, peak))
    if profile.lora_adapters:
        runs.append(_lora(main_in, n_out, share, peak, profile.lora_adapters))
    streaming = profile.streaming if profile.streaming is not None else True
    if profile.streaming is False:
        notes.append("The app does not stream, but every run streams so TTFT and TPOT can be "
                     "measured; judge users' experience by end-to-end latency.")
    # With one prefix shared by every request, a warm cache serves exactly the prefix tokens.
    hit = round(runs[0].shared_prefix_tokens / main_in.mean, 3)
    return Workload(kind=kind, peak_concurrency=peak, concurrency=sweep, streaming=streaming,
                    input=main_in, output=fixed(n_out), shared_prefix_share=hit,
                    target_kv_hit_rate=hit, runs=runs)


def _main(inp: LengthDist, n_out: int, share: float, sweep: list[int]) -> Run:
    return Run(id="main", purpose="Your real prompt/answer mix at every concurrency level up to "
               "twice your peak: latency percentiles, throughput, the saturation knee.",
               input=inp, output=fixed(n_out), shared_prefix_tokens=prefix_tokens(inp, share),
               levels=levels(sweep))


def _prefill(n_in: int, peak: int) -> Run:
    return Run(id="prefill", purpose="Prefill alone: full prompts, one output token, no prefix "
               "reuse. TTFT here is prompt processing plus queueing.",
               input=fixed(n_in), output=fixed(1), levels=levels([1, peak]))


def _decode(n_in: int, n_out: int, peak: int, context: int | None) -> Run:
    short = min(128, n_in)
    long_out = max(n_out, 256)
    if context:
        long_out = max(1, min(long_out, context - short))  # stay inside the model's context
    return Run(id="decode", purpose="Decode alone: short prompts, long answers. TPOT at "
               "concurrency 1 is compared with the bandwidth bound.",
               input=fixed(short), output=fixed(long_out), levels=levels([1, peak]))


def _long_context(n_in: int, n_out: int, peak: int) -> Run:
    return Run(id="long-context", purpose="Worst-case prompts at the stated context length: "
               "TTFT tail and KV-cache capacity.", input=fixed(n_in), output=fixed(n_out),
               levels=levels([1, peak]),
               notes=["If the engine rejects or queues requests here, the KV cache does not hold "
                      "the peak at full context: record where it stops."])


def _structured(inp: LengthDist, n_out: int, share: float, peak: int) -> Run:
    return Run(id="structured", purpose="Structured (JSON) output at your peak, apart from the "
               "main run: grammar-constrained decoding has its own cost.", input=inp,
               output=fixed(n_out), shared_prefix_tokens=prefix_tokens(inp, share),
               levels=levels([peak]), endpoint="chat", fixed_output=False, structured_output=True,
               notes=["EOS is not ignored here (a grammar must be allowed to finish), so answers "
                      "can be shorter than requested: compare TPOT, not end-to-end latency."])


def _lora(inp: LengthDist, n_out: int, share: float, peak: int, adapters: int) -> Run:
    return Run(id="lora", purpose=f"Requests spread over {adapters} LoRA adapters at your peak, "
               "apart from the main run: adapter switching has its own cost.", input=inp,
               output=fixed(n_out), shared_prefix_tokens=prefix_tokens(inp, share),
               levels=levels([peak]), lora_adapters=adapters,
               notes=["Load the adapters on the server first; replace the placeholder adapter "
                      "names in the commands with the names the server registered."])
