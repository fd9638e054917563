"""The Advice as JSON: the `ask --json` contract, and the compact essentials other agents get (MCP)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.advice import Advice

ESTIMATE_KEYS = ("fits", "weights_gb", "kv_bytes_per_token", "max_concurrency", "decode_tokens_per_s",
                 "decode_tokens_per_s_bound", "prefill_tokens_per_s", "ttft_s", "tpot_ms", "binding_constraint",
                 "aggregate_tokens_per_s", "requests_per_s", "cost_per_1m_tokens", "model", "hardware", "count",
                 "quantization", "engine", "parallelism", "input_tokens", "output_tokens", "context_length",
                 "concurrency", "memory", "infeasible", "assumptions")
"""The estimate's contract keys (DESIGN.md) and what describes the setup; formulas and the step
breakdown are left to `detail`."""


def contract(advice: "Advice") -> dict[str, Any]:
    """DESIGN.md's `advisor ask --json` object."""
    return advice.contract_json()


def estimate_essentials(advice: "Advice", detail: bool = False) -> dict[str, Any] | None:
    """The plan's estimate: the contract keys and the setup (everything with `detail`)."""
    est = advice.estimate
    if est is None:
        return None
    full = est.model_dump(mode="json")
    return full if detail else {k: full[k] for k in ESTIMATE_KEYS if k in full}


def options(advice: "Advice") -> list[dict[str, Any]]:
    """The primary and each alternative at the plan's layout, as numbers (the web's alternatives table)."""
    plan = advice.plan
    if plan is None or plan.estimate is None or plan.layout is None:
        return []
    rows = [("primary", plan.engine, plan.estimate)] + [("alternative", o.engine, o.estimate) for o in plan.alternatives]
    layout = {k: getattr(plan.layout, k) for k in ("strategy", "tp", "pp", "ep", "dp")}
    return [{"engine": e, "role": role, "layout": layout, "fits": est.fits if est else None,
             "ttft_s": est.ttft_s if est else None, "tpot_ms": est.tpot_ms if est else None,
             "tokens_per_s": est.aggregate_tokens_per_s if est else None} for role, e, est in rows]


def _profile(advice: "Advice") -> dict[str, Any]:
    out = advice.profile.summary.model_dump(mode="json")
    out["from"] = {f.field: (f.evidence if f.origin == "said" else f.origin) for f in advice.profile.fields}
    return out


def essentials(advice: "Advice", detail: bool = False, answer: bool = True) -> dict[str, Any]:
    """A compact structured answer (a few KB). `detail` adds the full benchmark spec, the whole
    estimate (formulas, step breakdown) and the cited chunks' text; `answer=False` leaves out the
    Markdown answer (a third of the bytes, and all of it is in the structured fields)."""
    d, plan = advice.decision, advice.plan
    out: dict[str, Any] = {
        "intent": advice.intent, "language": advice.language, "profile": _profile(advice),
        "primary": d.primary, "alternatives": list(d.alternatives),
        "avoid": [{"engine": a.engine, "reason": a.reason} for a in d.avoid], "bottleneck": d.bottleneck,
        "plan": plan.contract() if plan else None,
        "estimate": estimate_essentials(advice, detail),
        "options": options(advice),
        "benchmark": advice.benchmark.summary() if advice.benchmark else None,
        "questions": [q.model_dump() for q in advice.questions], "assumptions": list(advice.assumptions),
        "warnings": advice.warnings, "not_understood": [n.text for n in advice.not_understood],
        "citations": [c.model_dump(include=None if detail else {"id", "title", "source"}) for c in advice.citations],
    }
    if advice.workable:   # the setup does not fit: the nearest setups that do, as planned (agent.workable)
        out["workable"] = [w.model_dump(mode="json") for w in advice.workable]
    if answer:
        out["answer"] = advice.answer
    if detail:
        out["benchmark_spec"] = advice.benchmark.with_exports().model_dump(mode="json") if advice.benchmark else None
    return out
