"""What every metric id means in this spec, with the one TPOT definition used everywhere.

The harnesses name the same thing differently: vLLM and SGLang call the per-request average
gap after the first token "TPOT", AIPerf and GuideLLM call it "inter-token latency", and
GuideLLM's own "TPOT" also counts the first token. Results are normalised to this definition.
"""
from __future__ import annotations

TPOT_DEFINITION = (
    "TPOT = (end-to-end latency - TTFT) / (output tokens - 1), computed per request; its "
    "percentiles are taken across the requests of one level. vLLM and SGLang report it as "
    "'TPOT', AIPerf and GuideLLM as 'inter-token latency'. GuideLLM's 'time per output token' "
    "includes the first token and is not used."
)

METRIC_DEFINITIONS: dict[str, str] = {
    "ttft": "Time to first token (ms): from sending a request to its first streamed token; "
            "includes queueing and prefill.",
    "tpot": TPOT_DEFINITION,
    "itl": "Inter-chunk gap (ms): time between consecutive streamed chunks, pooled over all "
           "requests (vLLM/SGLang 'ITL'). Shows stalls and jitter; the TPOT targets do not use it.",
    "e2e_latency": "End-to-end latency (ms): from sending a request to its last token.",
    "p50": "Median over the requests of one level, for TTFT, TPOT and end-to-end latency.",
    "p95": "95th percentile over the requests of one level, for TTFT, TPOT and end-to-end latency.",
    "p99": "99th percentile over the requests of one level, for TTFT, TPOT and end-to-end latency; "
           "the SLOs are judged on it, never on means.",
    "output_tokens_per_s": "Generated tokens of all requests divided by the wall-clock time of "
                           "the level (aggregate, not per user).",
    "requests_per_s": "Completed requests divided by the wall-clock time of the level.",
    "gpu_memory_headroom": "Accelerator memory left unused while the peak level runs (total minus "
                           "peak used), read with the device tools (nvidia-smi, rocm-smi, Activity "
                           "Monitor); no client harness reports it.",
    "kv_cache_hit_rate": "Share of prompt tokens served from the prefix cache, read from the "
                         "engine's own metrics or logs and compared with the planned target; "
                         "client harness summaries do not report it.",
    "cost_per_1m_tokens": "Device-hour price x devices / (output tokens per s x 3600) x 1,000,000, "
                          "at the peak level.",
}
