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
    return {"fits": True, "weights_gb": 40.5, "kv_bytes_per_token": 327680, "max_concurrency": 12,
            "decode_tokens_per_s": 31.4, "decode_tokens_per_s_bound": 52.0, "prefill_tokens_per_s": 2900.0,
            "ttft_s": 0.42, "tpot_ms": 31.8, "assumptions": ["fake"], "binding_constraint": "memory bandwidth"}


def fake_spec(profile, decision=None, estimate=None, plan=None) -> dict:
    return {"scenario": {}, "workload": {"concurrency": [1, 8, profile.concurrency or 32]},
            "metrics": [{"id": "ttft"}, {"id": "p99"}], "slos": {}, "checklist": [], "exports": {}}


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

    def structured(self, system, user, schema, max_calls=2):
        from agent.llm import Reply
        if self.fail_calls:
            used = min(max_calls, self.fail_calls)
            self.calls += ["structured"] * used
            return Reply(None, used, "reply: Invalid JSON")
        self.calls.append("structured")
        values = self.extractions.pop(0) if self.extractions else []
        items = [{"field": f, "value": v, "evidence": e} for f, v, e in values]
        return Reply(schema.model_validate({"intent": "recommend", "values": items}), 1)

    def prose(self, system, user):
        self.calls.append("prose")
        self.last_prompt = (system, user)
        text = self.prose_queue.pop(0) if self.prose_queue else ""
        if isinstance(text, Exception):
            raise text
        return text
