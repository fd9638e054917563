"""Small test doubles for the graph's tools: scripted extractions and rule-like fakes.

They follow the real signatures (see agent/tools.py) and are injected through `Tools`, never by
patching module globals. The fake decide is deliberately simple but sensitive to the fields the
interview asks about, so interview tests can see what changes a decision.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.tools import Tools


@dataclass
class Ext:
    """Shape of agent.extract.Extraction."""

    intent: str = "recommend"
    values: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, str] = field(default_factory=dict)
    language: str = "en"
    dont_know: bool = False
    injection: bool = False


def scripted(table: dict[str, Ext]):
    """An extractor that knows the test's messages (unknown text → nothing extracted)."""
    def extract(text: str) -> Ext:
        return table.get(text, Ext(dont_know="know" in text.lower()))
    return extract


def scripted_answers(table: dict[str, Ext]):
    """extract_answer(text, fields) from a table keyed by the answer text."""
    def extract_answer(text: str, fields: list[str]) -> Ext:
        return table.get(text, Ext(dont_know="know" in text.lower()))
    return extract_answer


def fake_decide(profile) -> dict:
    """Team/production → vllm, else llama.cpp; several PCIe devices → pp; long context → kv-cache."""
    shared = profile.serving_mode in ("team", "production", "fleet")
    primary = "vllm" if shared else "llama.cpp"
    many = (profile.count or 1) > 1
    strategy = ("pp" if profile.interconnect == "pcie" else "tp") if many else "none"
    bottleneck = "kv-cache" if (profile.context_length or 0) > 32000 else ("scheduler" if shared else "decode")
    return {
        "primary": primary, "alternatives": ["sglang"] if shared else ["ollama"],
        "avoid": [{"engine": "ollama", "reason": "not built for many concurrent users", "rule": "r-ollama"}] if shared else [],
        "bottleneck": bottleneck,
        "parallelism": {"strategy": strategy, "tp": 2 if strategy == "tp" else 1, "pp": 2 if strategy == "pp" else 1,
                        "ep": 1, "dp": 1, "reason": "split the layers across the cards", "rule": "r-par"},
        "warnings": [], "assumptions": [],
        "trace": [{"rule": "r-main", "name": "main", "rationale": f"{primary} suits this serving mode.",
                   "values": {}, "citations": ["notes#engines"], "effects": {"score": {primary: 3}}}],
        "rules": ["r-main"], "citations": ["notes#engines"],
    }


def fake_estimate(profile, engine=None, parallelism=None) -> dict:
    """A complete `Estimate` (the Advice types it) with fixed figures; the setup echoes the call."""
    par = {k: (parallelism or {}).get(k, 1) for k in ("tp", "pp", "ep", "dp")}
    return {"fits": True, "weights_gb": 40.5, "kv_bytes_per_token": 327680, "max_concurrency": 12,
            "decode_tokens_per_s": 31.4, "decode_tokens_per_s_bound": 52.0, "prefill_tokens_per_s": 2900.0,
            "ttft_s": 0.42, "tpot_ms": 31.8, "assumptions": ["fake"], "binding_constraint": "memory bandwidth",
            "model": profile.model or "fake-model", "hardware": profile.hardware or "fake-hw",
            "count": profile.device_count, "quantization": profile.quantization or "bf16", "kv_cache_dtype": None,
            "engine": engine, "parallelism": {"strategy": (parallelism or {}).get("strategy", "none"), **par},
            "input_tokens": 1024, "output_tokens": 256, "context_length": 1280,
            "concurrency": profile.concurrency or 1, "kv_gb_per_sequence": 0.42, "aggregate_tokens_per_s": 31.4,
            "requests_per_s": 0.1, "queue_s": 0.0, "comm_ms_per_token": 0.0,
            "memory": {"devices": 1, "capacity_gb": 80.0, "usable_gb": 76.0, "weights_gb": 40.5, "kv_gb": 0.42,
                       "reserve_gb": 2.0, "free_gb": 33.1},
            "step": {"weights_ms": 30.0, "kv_ms": 1.0, "compute_ms": 0.5, "overhead_ms": 0.3, "comm_ms": 0.0,
                     "batch": 1},
            "cost_per_1m_tokens": None, "price_usd_per_hour": None, "price_source": None, "infeasible": None,
            "error_band": {"basis": "fake", "decode_p50_pct": None, "decode_p90_pct": None, "prefill_p50_pct": None},
            "formulas": []}


def fake_spec(profile, decision=None, estimate=None, plan=None) -> dict:
    """A small but complete `BenchSpec` sweeping 1, 8 and the stated concurrency."""
    levels = sorted({1, 8, profile.concurrency or 32})
    length = {"kind": "fixed", "mean": 1024, "min": 1024, "max": 1024}
    return {
        "scenario": {"model": {"id": profile.model}, "engines": [],
                     "weights": {"dtype": "bf16", "quantization": "none", "group_size": "n/a", "calibration": "n/a",
                                 "kv_cache_dtype": "bf16"},
                     "hardware": {"id": profile.hardware, "count": profile.count or 1}},
        "workload": {"kind": "chat", "peak_concurrency": levels[-1], "concurrency": levels, "streaming": True,
                     "input": length, "output": length | {"mean": 256, "min": 256, "max": 256},
                     "shared_prefix_share": 0.0, "target_kv_hit_rate": 0.0,
                     "runs": [{"id": "main", "purpose": "fake", "input": length, "output": length,
                               "levels": [{"concurrency": c, "requests": 10 * c, "warmup": c} for c in levels]}]},
        "metrics": ["ttft", "p99"], "metric_definitions": {"ttft": "time to first token", "p99": "99th percentile"},
        "tpot_definition": "fake", "slos": [], "criteria": [], "checklist": [], "exports": {},
    }


CHUNKS = {
    "notes#engines": {"id": "notes#engines", "title": "Engines", "source": "https://example.org/engines",
                      "text": "vLLM pages the KV cache and batches continuously; llama.cpp runs on nearly anything."},
    "notes#nvlink": {"id": "notes#nvlink", "title": "Interconnect", "source": "https://example.org/nvlink",
                     "text": "Tensor parallelism wants NVLink; pipeline parallelism tolerates PCIe."},
}


def fake_search(query: str, k: int = 5) -> list[dict]:
    return [dict(CHUNKS["notes#nvlink"], score=0.5)][:k]


def fake_get_chunks(ids: list[str]) -> list[dict]:
    return [CHUNKS[i] for i in ids if i in CHUNKS]


DEFAULTS = {"serving_mode": ("team", "a typical internal deployment"), "concurrency": (16, "typical peak"),
            "workload": ("chat", "most common"), "interconnect": ("pcie", "most servers"),
            "context_length": (8192, "typical chat"), "quantization": ("bf16", "unquantized")}


def fake_default_for(field: str, profile) -> tuple[Any, str] | None:
    return DEFAULTS.get(field)


def fake_tools(extract_table: dict[str, Ext], answer_table: dict[str, Ext] | None = None,
               llm: Any = None, decide=fake_decide) -> Tools:
    """A Tools bundle of fakes."""
    return Tools(extract=scripted(extract_table), extract_answer=scripted_answers(answer_table or {}),
                 decide=decide, estimate=fake_estimate, build_spec=fake_spec, search=fake_search,
                 get_chunks=fake_get_chunks, default_for=fake_default_for, llm=llm)


class ScriptedLLM:
    """An LLM double: structured replies and prose come from queues; every call is counted."""

    def __init__(self, extractions: list | None = None, prose: list[str] | None = None, fail_calls: int = 0):
        self.extractions, self.prose_queue = list(extractions or []), list(prose or [])
        self.fail_calls = fail_calls
        self.calls: list[str] = []

    def structured(self, system, user, schema, max_calls=2, deadline=None):
        from agent.llm import Reply
        if self.fail_calls:
            used = min(max_calls, self.fail_calls)
            self.calls += ["structured"] * used
            return Reply(None, used, "reply: Invalid JSON")
        self.calls.append("structured")
        values = self.extractions.pop(0) if self.extractions else []
        items = [{"field": f, "value": v, "evidence": e} for f, v, e in values]
        return Reply(schema.model_validate({"intent": "recommend", "values": items}), 1)

    def prose(self, system, user, deadline=None):
        self.calls.append("prose")
        self.last_prompt = (system, user)
        text = self.prose_queue.pop(0) if self.prose_queue else ""
        if isinstance(text, Exception):
            raise text
        return text
