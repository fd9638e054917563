"""Serving under load: KV capacity, concurrency, queueing, TTFT, TPOT, aggregate throughput.

Closed loop of N users per replica, at most M of them in service (KV capacity). Each request needs
one prefill (t_pf, compute-bound, serialised) and `out` decode steps of t_step(M):
    throughput X = M / (out * t_step + M * t_pf)            requests/s per replica
    queue wait  W = (N - M) / X                            when N > M
    TTFT        = W + t_pf + rho * t_pf / (2 (1 - rho))    rho = X * t_pf (M/D/1 wait behind other prefills)
    TPOT        = t_step + (M - 1) * t_pf / out            other requests' prefills interleave with decode
"""
from __future__ import annotations

from dataclasses import dataclass
from math import floor

from rules.roofline.figure import Figure


def max_concurrency(free_bytes: float, kv_seq_bytes: float) -> Figure:
    """Sequences whose KV cache fits in the memory left after weights and reserve."""
    if kv_seq_bytes <= 0:
        return Figure(0.0, "no KV cache")
    n = max(0, floor(free_bytes / kv_seq_bytes))
    return Figure(float(n), f"{free_bytes / 1e9:.1f} GB free / {kv_seq_bytes / 1e9:.3f} GB per sequence = {n} sequences")


@dataclass(frozen=True)
class Load:
    """Latency and throughput of one replica under a closed loop of users."""

    in_service: int
    ttft_s: float
    tpot_s: float
    queue_s: float
    requests_per_s: float
    output_tokens_per_s: float
    why: str


def under_load(users: int, in_service: int, prefill_s: float, step_s: float, output_tokens: int) -> Load:
    """Queueing model above for `users` users with `in_service` of them holding KV slots."""
    m = max(1, min(users, in_service))
    out = max(1, output_tokens)
    x = m / (out * step_s + m * prefill_s)
    wait = max(0, users - m) / x
    rho = min(0.99, x * prefill_s)
    ttft = wait + prefill_s + rho * prefill_s / (2 * (1 - rho))
    tpot = step_s + (m - 1) * prefill_s / out
    why = (f"{m} of {users} users in service; {x:.2f} requests/s; queue {wait:.2f} s; "
           f"TTFT {ttft:.3f} s; TPOT {tpot * 1e3:.1f} ms")
    return Load(m, ttft, tpot, wait, x, x * out, why)


def cost_per_1m_tokens(devices: int, usd_per_device_hour: float, tokens_per_s: float) -> Figure:
    """$ per 1M output tokens = devices x $/h / (tokens/s x 3600) x 1e6."""
    cost = devices * usd_per_device_hour / (tokens_per_s * 3600) * 1e6
    return Figure(cost, f"{devices} x ${usd_per_device_hour:g}/h / ({tokens_per_s:,.0f} tokens/s x 3600) x 1e6 = ${cost:.2f}")
