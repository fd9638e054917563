"""The deterministic tools the graph calls, bundled so tests can inject fakes.

`build_graph(tools)` never reaches past this bundle: the real components are imported lazily by
`default_tools()`, fakes are plain callables with the same signatures.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel


@dataclass(frozen=True)
class Tools:
    """Everything the agent uses to understand, decide, estimate, plan and retrieve."""

    extract: Callable[[str], Any]
    """text -> Extraction(intent, values, evidence, language, dont_know, injection)."""
    extract_answer: Callable[[str, list[str]], Any]
    """(answer text, fields asked) -> Extraction limited to those fields."""
    decide: Callable[[Any], Any]
    """Profile -> Decision."""
    estimate: Callable[..., Any]
    """(Profile, engine=None) -> Estimate."""
    build_spec: Callable[..., Any]
    """(Profile, decision, estimate) -> BenchSpec."""
    search: Callable[..., list]
    """(query, k) -> [Hit(id, title, source, text, score)]."""
    get_chunks: Callable[[list[str]], list]
    """chunk ids -> [Hit]."""
    default_for: Callable[[str, Any], tuple[Any, ...] | None]
    """(field, Profile) -> (value, note, note in zh-Hant) from rules.defaults, or None when there is none."""
    plan: Callable[..., Any] | None = None
    """(Profile, decision) -> (Plan, Estimate, [(engine, Estimate)]) | None: the deployment planner,
    with the alternative engines at its layout (None: the estimate follows the rules' advice)."""
    size: Callable[..., Any] | None = None
    """(Profile, the user's words) -> the sizing object (ranked hardware options), for the `size` intent."""
    llm: Any = None
    """An `agent.llm.LLM`, or None in deterministic mode."""

    def outcome(self) -> Callable[[Any], tuple] | None:
        """Profile -> what the interview's probes compare of a decision (engines, avoid list,
        bottleneck, layout), from a brief run of the rules without texts or trace; None (compare
        full decisions) unless `decide` is the real rule engine."""
        return _outcome if self.decide is _decide else None

    def with_llm(self, llm: Any) -> "Tools":
        """A copy that uses `llm` (None = deterministic)."""
        return dataclasses.replace(self, llm=llm)

    def without_knowledge(self) -> "Tools":
        """A copy that retrieves nothing (for callers that need the plan, not the cited prose)."""
        return dataclasses.replace(self, search=_no_hits, get_chunks=_no_chunks)


def _no_hits(query: str, k: int = 5) -> list:
    return []


def _no_chunks(ids: list[str]) -> list:
    return []


def as_dict(obj: Any) -> Any:
    """A plain JSON-able copy of a tool result (pydantic model, dataclass, dict or list)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, BaseModel):   # mode="json" is already plain JSON: no second walk
        from rules import memo
        return memo.dumped(obj.model_dump(mode="json"), obj)   # a later node may read it back typed
    if hasattr(obj, "model_dump"):   # a model_dump() without pydantic's options (e.g. a dataclass hit)
        return as_dict(obj.model_dump())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return as_dict(dataclasses.asdict(obj))
    if isinstance(obj, dict):
        return {str(k): as_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [as_dict(v) for v in obj]
    return str(obj)


def _default_for(field: str, profile: Any) -> tuple[Any, str] | None:
    from rules import defaults
    proposal = defaults.default_for(field, profile)
    return None if proposal is None else (proposal.value, proposal.note, proposal.note_zh or None)


def _estimate(profile: Any, engine: str | None = None, parallelism: dict | None = None) -> Any:
    from rules.roofline import estimate_for_profile
    return estimate_for_profile(engine_profile(profile, engine), engine=engine, parallelism=parallelism)


def engine_profile(profile: Any, engine: str | None) -> Any:
    """The profile as this engine's estimate must see it: a bare bit width ("int4") becomes the
    engine's own format (Q4_K_M on llama.cpp, EXL2 4.0 bpw on ExLlamaV2, AWQ on vLLM), and a memory
    size larger than the card is sold with (system RAM) does not enlarge the card."""
    from rules import catalog, quant
    from rules.fit import device_memory
    if not profile.hardware:
        return profile
    hw = catalog.hardware(profile.hardware)
    update = {}
    if profile.memory_gb is not None and device_memory(hw, profile.memory_gb)[0] is None:
        update["memory_gb"] = None    # the machine's RAM, not the card's: the card keeps its own memory
    prov = profile.provenance.get("quantization")
    meant = quant.as_said(profile.quantization, prov.evidence if prov else None)
    if quant.is_generic(meant) and engine is not None:
        concrete = quant.concrete(meant, engine, hw.platform, hw.cuda_cc)
        if concrete != profile.quantization:
            update["quantization"] = concrete
    return profile.model_copy(update=update) if update else profile


def _plan(profile: Any, decision: Any = None, slo: dict | None = None) -> Any:
    from rules.plan import options_for_profile, plan_for_profile
    found = plan_for_profile(profile, decision, slo=slo)
    return None if found is None else (*found, options_for_profile(profile, decision))


def _size(profile: Any, text: str) -> Any:
    from agent.sizing import size_for
    return size_for(profile, text)


def _build_spec(profile: Any, decision: Any = None, estimate: Any = None, plan: Any = None) -> Any:
    """The spec without its harness scripts: surfaces build them when shown (`with_exports`), so
    an answer turn neither renders nor checkpoints them."""
    from rules.benchspec import build_spec
    return build_spec(profile, decision, estimate, plan=plan, exports=False)


def _search(query: str, k: int = 5) -> list:
    from knowledge.retrieve import search
    return search(query, k=k)


def _get_chunks(ids: list[str]) -> list:
    from knowledge.retrieve import get_chunks
    return get_chunks(ids)


def _decide(profile: Any) -> Any:
    from rules.decide import decide
    return decide(profile)


def _outcome(profile: Any) -> tuple:
    from rules.decide import decide_outcome
    return decide_outcome(profile)


def _extract(text: str) -> Any:
    from agent.extract import extract
    return extract(text)


def _extract_answer(text: str, fields: list[str]) -> Any:
    from agent.extract import extract_answer
    return extract_answer(text, fields)


def default_tools(llm: Any = None) -> Tools:
    """The real components (imported on first use, so building the bundle is free)."""
    return Tools(extract=_extract, extract_answer=_extract_answer, decide=_decide, estimate=_estimate,
                 build_spec=_build_spec, search=_search, get_chunks=_get_chunks,
                 default_for=_default_for, plan=_plan, size=_size, llm=llm)
