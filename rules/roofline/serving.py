"""Serving under load: continuous batching in steady state, queueing, client-seen TTFT, TPOT, throughput.

Closed loop of N users per replica; at most M = min(N, KV capacity, scheduler limit) in service.
In steady state every step emits one token for each of the M sequences and, to keep up with
arrivals, also processes M x input / output prompt tokens (chunked prefill mixes them into the
step; engines that alternate run them as separate prefill passes). With t the resulting step time:
    TPOT = t                                     (what a client measures between tokens)
    X    = M / (t_admit + output x t)            requests/s per replica (Little's law on M slots)
    W    = (N - M) / X                           queue for a KV slot when N > M
    TTFT = W + t/2 + rho t_pf / (2 (1 - rho)) + t_admit     rho = X t_pf (M/D/1 wait behind other prompts)
where t_pf is one prompt alone and t_admit = max(t_pf, chunks x t) the time a prompt takes once admitted.
A static batch (all requests start together, no arrivals) prefills every prompt, then decodes.

A benchmark client (SGLang bench_serving, AIPerf, vLLM benchmark_serving) at fixed concurrency starts its N
users at once, so the first N prompts arrive together: a wave. With equal output lengths the wave stays
together: prompts admitted early decode little while the rest prefill (prefill-first schedulers stop
decoding; mixed steps carrying a full token budget are slow), so all N finish together and the next
wave arrives at once. With P the time to prefill the whole wave and t a decode step of the wave:
    TTFT = P (N + 1) / 2N    TPOT = t + P (N - 1) / (2 N output)    X = N / (P + output x t)
With varied lengths only the first wave is synchronised: its share of the run, N / requests, is blended in.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import ceil, floor

from rules.roofline.figure import Figure

RHO_MAX = 0.95  # keep the M/D/1 term finite when prompts alone would saturate the device


def max_concurrency(free_bytes: float, kv_seq_bytes: float) -> Figure:
    """Sequences whose KV cache fits in the memory left after weights and reserve."""
    if kv_seq_bytes <= 0:
        return Figure(0.0, "no KV cache")
    n = max(0, floor(free_bytes / kv_seq_bytes))
    return Figure(float(n), f"{free_bytes / 1e9:.1f} GB free / {kv_seq_bytes / 1e9:.3f} GB per sequence = {n} sequences")


@dataclass(frozen=True)
class Load:
    """Latency and throughput of one replica under load."""

    in_service: int
    ttft_s: float
    tpot_s: float
    queue_s: float
    requests_per_s: float
    output_tokens_per_s: float
    step_s: float
    prefill_tokens_per_step: float
    why: str


def under_load(users: int, in_service: int, prefill_s: float, step: Callable[[int, float], float],
               input_tokens: int, output_tokens: int, token_budget: int | None = None) -> Load:
    """Steady state of continuous batching for `users` users, `in_service` of them holding KV slots.

    `step(batch, prompt_tokens)` is the seconds of one engine step carrying `batch` decodes and
    `prompt_tokens` prompt tokens; `prefill_s` the seconds of one prompt alone."""
    m = max(1, min(users, in_service))
    out = max(1, output_tokens)
    p = m * input_tokens / out if m > 1 else 0.0  # at concurrency 1 the prompt runs alone, before decoding
    t = step(m, p)
    chunks = ceil(input_tokens / max(1, token_budget - m)) if token_budget and token_budget > m else 1
    admit = max(prefill_s, chunks * t) if m > 1 else prefill_s
    x = m / (admit + out * t)
    wait = max(0, users - m) / x
    rho = min(RHO_MAX, x * prefill_s) if m > 1 else 0.0
    behind = rho * prefill_s / (2 * (1 - rho))
    ttft = wait + (t / 2 if m > 1 else 0.0) + behind + admit
    why = (f"{m} of {users} users in service; each step {t * 1e3:.1f} ms carries {m} decodes + {p:,.0f} prompt tokens; "
           f"{x:.2f} requests/s; queue {wait:.2f} s; TTFT {ttft:.3f} s; TPOT {t * 1e3:.1f} ms")
    return Load(m, ttft, t, wait, x, x * out, t, p, why)


def wave(users: int, in_service: int, wave_prefill_s: float, step_s: float, output_tokens: int) -> Load:
    """Synchronised waves of `in_service` requests (equal lengths, all users started together): each wave's
    prompts prefill (`wave_prefill_s` for all of them), then the wave decodes together; users beyond the
    slots wait for a wave to finish."""
    m, out = max(1, min(users, in_service)), max(1, output_tokens)
    p = wave_prefill_s
    cycle = p + out * step_s
    x = m / cycle
    wait = max(0, users - m) / x
    ttft = wait + p * (m + 1) / (2 * m)
    tpot = step_s + p * (m - 1) / (2 * m * out)
    why = (f"waves of {m}: prompts {p:.2f} s, then {out} steps of {step_s * 1e3:.1f} ms; TTFT {ttft:.3f} s (a prompt "
           f"waits for the wave's earlier prompts), TPOT {tpot * 1e3:.1f} ms")
    return Load(m, ttft, tpot, wait, x, x * out, step_s, 0.0, why)


def benchmark_run(steady: Load, waves: Load, users: int, requests: int | None, equal_lengths: bool) -> Load:
    """What a benchmark client reports over `requests` requests from `users` users started together: every
    wave synchronised when lengths are equal, else only the first (share users / requests) and the steady
    state for the rest. Means are per request; throughput is total tokens over total time."""
    share = 1.0 if equal_lengths else min(1.0, users / max(1, requests or users))

    def mix(a: float, b: float) -> float:
        return share * a + (1 - share) * b

    x = 1 / mix(1 / waves.requests_per_s, 1 / steady.requests_per_s)
    out = steady.output_tokens_per_s / steady.requests_per_s
    why = (f"benchmark run: {share:.0%} of requests in synchronised waves ({waves.why}); the rest in steady state "
           f"({steady.why})")
    return Load(steady.in_service, mix(waves.ttft_s, steady.ttft_s), mix(waves.tpot_s, steady.tpot_s),
                mix(waves.queue_s, steady.queue_s), x, x * out, steady.step_s, steady.prefill_tokens_per_step, why)


def static_batch(batch: int, prefill_s: float, step_s: float, output_tokens: int) -> Load:
    """`batch` requests started together: all prompts prefilled (`prefill_s`), then decoded together."""
    out = max(1, output_tokens)
    total = prefill_s + out * step_s
    x = batch / total
    why = (f"static batch of {batch}: prompts {prefill_s:.3f} s, then {out} steps of {step_s * 1e3:.1f} ms; "
           f"{x * out:,.0f} output tokens/s")
    return Load(batch, prefill_s, step_s, 0.0, x, x * out, step_s, 0.0, why)


def cost_per_1m_tokens(devices: int, usd_per_device_hour: float, tokens_per_s: float) -> Figure:
    """$ per 1M output tokens = devices x $/h / (tokens/s x 3600) x 1e6."""
    cost = devices * usd_per_device_hour / (tokens_per_s * 3600) * 1e6
    return Figure(cost, f"{devices} x ${usd_per_device_hour:g}/h / ({tokens_per_s:,.0f} tokens/s x 3600) x 1e6 = ${cost:.2f}")
