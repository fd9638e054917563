"""`Advice`: everything one answered request carries from the agent to a surface, typed.

The graph builds it once (`build_advice(state)`, in the compose/verify nodes) and every surface —
CLI, `ask --json`, web, Slack, MCP — reads it through `ui.present`; none recomputes a layout, an
estimate or a spec. The checkpointer stores it as `model_dump(mode="json")` and `Advice.load`
rebuilds it, so graph state stays plain JSON.

`contract_json()` is DESIGN.md's `advisor ask --json` object (documented keys and values kept;
`plan`, `not_understood`, `topics`, `profile_change`, `warnings`, `composer`, `llm_calls` added).
"""
from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer

from rules.benchspec.spec import BenchSpec
from rules.decision import Avoid, RankedEngine, TraceEntry
from rules.plan import Plan as PlanSearch
from rules.ids import Bottleneck, EngineId, Intent, InterconnectId, Language, Priority, ServingMode, Strategy
from rules.roofline.result import Estimate

PROFILE_ORDER = ("hardware", "count", "nodes", "memory_gb", "host_memory_gb", "host_mem_type", "host_mem_mts",
                 "host_mem_channels", "interconnect", "device_hour_usd", "model", "params_b",
                 "active_params_b", "architecture", "quantization", "kv_cache_dtype", "workload", "input_tokens",
                 "output_tokens", "context_length", "concurrency", "users", "shared_prefix", "prefix_tokens", "structured_output",
                 "streaming", "lora_adapters", "serving_mode", "priority", "priorities")
"""Profile fields in the order people read them (hardware first, then model, workload, serving)."""


class _Handoff:
    """The Advice objects whose `dump()` dicts have not been loaded yet, by the dict's identity: the
    turn that composed an answer reads it back from the graph's output as the object it built,
    instead of validating ~80 KB of JSON again (a quarter of a millisecond per answer). Each entry
    is taken once (no two callers share a mutable object) and only for the very dict `dump()`
    returned (a dict read from a checkpoint is a new object, so it is validated as before)."""

    LIMIT = 64

    def __init__(self) -> None:
        import threading
        self._items: dict[int, tuple[dict, Any]] = {}
        self._lock = threading.Lock()

    def put(self, data: dict, advice: Any) -> None:
        with self._lock:
            if len(self._items) >= self.LIMIT:   # dumps never loaded (one-shot runs): drop the oldest
                self._items.pop(next(iter(self._items)))
            self._items[id(data)] = (data, advice)

    def take(self, data: dict) -> Any:
        with self._lock:
            found = self._items.get(id(data))
            if found is None or found[0] is not data:
                return None
            del self._items[id(data)]
            return found[1]


_JUST_DUMPED = _Handoff()


def _dump_reusing(model: BaseModel, parts: dict[str, Any]) -> dict[str, Any]:
    """`model.model_dump(mode="json")`, where a part named in `parts` (a field, or {field: {...}} one
    level down) that was dumped earlier in this turn (`rules.memo.dumped`: the spec the plan node
    put in the state, the planner's result the estimate node put there) is that very dict instead
    of a second walk of the same object. The same dict, keys in the same order."""
    from rules import memo
    reused: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for name, inner in parts.items():
        value = getattr(model, name, None)
        if value is None:
            continue
        if inner is None:
            found = memo.dump_of(value)
            if found is not None:
                reused[name] = found
        else:
            nested[name] = inner
    if not reused and not nested:
        return model.model_dump(mode="json")
    data = model.model_dump(mode="json", exclude=set(reused) | set(nested))
    for name, inner in nested.items():
        reused[name] = _dump_reusing(getattr(model, name), inner)
    return {name: reused[name] if name in reused else data[name] for name in type(model).model_fields}


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")


class ProfileSummary(_Strict):
    """The flat `profile` object of `ask --json` (DESIGN.md): ids, catalog-implied facts filled in."""

    hardware: str | None = None
    count: int | None = None
    nodes: int = 1
    interconnect: InterconnectId | None = None
    model: str | None = None
    params_b: float | None = None
    quantization: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    context_length: int | None = None
    concurrency: int | None = None
    serving_mode: ServingMode | None = None
    shared_prefix: bool | None = None
    structured_output: bool | None = None
    lora_adapters: int | None = None
    priority: Priority | None = None
    language: Language = "en"
    assumed: list[str] = Field(default_factory=list)
    """Fields whose value is a documented default, not something the user said."""
    compared_hardware: list[dict[str, Any]] | None = None
    """Other hardware options the user weighed (`Profile.compared_hardware`); left out of `ask --json`
    when there are none, so outputs without a comparison are unchanged."""


class ProfileField(_Strict):
    """One profile value as understood, and where it came from."""

    field: str
    """Profile field id (`hardware`, `concurrency`, ...)."""
    value: str | int | float | bool | list[str]
    """The value as an id or a number (names for people come from `agent.names`)."""
    origin: Literal["said", "assumed", "implied", "given"]
    """`said`: read from the user's words; `assumed`: a documented default; `implied`: follows from
    the catalog (a model's size, one device's link); `given`: set without words (a profile file)."""
    evidence: str | None = None
    """The user's own words the value was read from (origin `said`)."""
    note: str | None = None
    """Why this default, or what implied it."""


class ProfileView(_Strict):
    """The profile as understood: the contract's flat summary plus each value's provenance."""

    summary: ProfileSummary
    fields: list[ProfileField] = Field(default_factory=list)
    """Every known value, in `PROFILE_ORDER`."""

    def field(self, name: str) -> ProfileField | None:
        """The entry of one field, or None when it is not known."""
        return next((f for f in self.fields if f.field == name), None)


class Layout(_Strict):
    """How the model is split over the devices (degrees multiply to the devices used)."""

    strategy: Strategy
    tp: int = 1
    pp: int = 1
    ep: int = 1
    dp: int = 1
    attention_dp: bool = False
    """Attention data-parallel over the TP/EP group (MoE; the planner's layout says so)."""
    reason: str = ""
    """Why this layout, in the user's language."""
    rule: str | None = None
    """The rule (or planner) that chose it."""

    @property
    def devices(self) -> int:
        """Devices in use."""
        return self.tp * self.pp * self.ep * self.dp

    def degrees(self) -> str:
        """The degrees above 1, e.g. "TP=4, PP=2" (empty for one device)."""
        text = ", ".join(f"{k.upper()}={getattr(self, k)}" for k in ("tp", "pp", "ep", "dp") if getattr(self, k) > 1)
        return f"{text} (DP attention)" if self.attention_dp else text

    def contract(self) -> dict[str, Any]:
        """The `parallelism` object of `ask --json`."""
        out = {"strategy": self.strategy, "tp": self.tp, "pp": self.pp, "ep": self.ep, "dp": self.dp,
               "reason": self.reason}
        if self.attention_dp:
            out["attention_dp"] = True
        return out


class PlanOption(_Strict):
    """Another way to run it (the runner-up layout, or another engine), with its figures."""

    engine: EngineId | None = None
    layout: Layout
    estimate: Estimate | None = None
    why: str = ""
    """Why it is not the choice (or when it would be)."""


class LaunchCommand(_Strict):
    """How to start the engine with the chosen layout."""

    engine: EngineId
    command: str
    """The full command line."""
    flags: dict[str, str] = Field(default_factory=dict)
    """Flag → value, as in the command (e.g. "--pipeline-parallel-size": "4")."""
    source: str = ""
    """URL of the engine's documentation of these flags."""


class Plan(_Strict):
    """How to run the recommendation: the layout and the figures computed for exactly that layout.

    The planner (`rules.plan`) chooses the layout by scoring every legal one with the roofline; its
    whole result is `search` (candidates' figures, why lines, changes, disaggregation) and the
    fields below are read from it. Without the planner the layout is the rule engine's advice.
    """

    engine: EngineId | None = None
    """The engine the figures are for (the primary)."""
    layout: Layout | None = None
    """The chosen layout (None when hardware or device count is not known)."""
    estimate: Estimate | None = None
    """The roofline estimate at `layout` (None when the model or hardware is not known)."""
    runner_up: PlanOption | None = None
    alternatives: list[PlanOption] = Field(default_factory=list)
    """The alternative engines at the same layout, with their figures (the alternatives table)."""
    launch: list[LaunchCommand] = Field(default_factory=list)
    basis: str = "rules"
    """Who chose the layout: `rules` (the rule engine's parallelism advice) or `planner`."""
    search: PlanSearch | None = None
    """The planner's result the fields above come from (None when the rules chose the layout)."""

    def contract(self) -> dict[str, Any]:
        """The `plan` object added to `ask --json` (figures are its `estimate`, not repeated here):
        the planner's result (chosen, runner_up, why, flags, ...) with the layout and launch commands."""
        head = {"engine": self.engine, "layout": self.layout.contract() if self.layout else None,
                "runner_up": self.runner_up.model_dump(mode="json", exclude={"estimate"}) if self.runner_up else None,
                "launch": [c.model_dump(mode="json") for c in self.launch], "basis": self.basis}
        if self.search is None:
            return head
        return self.search.model_dump(mode="json") | {k: v for k, v in head.items() if k != "runner_up"}


class Question(_Strict):
    """A follow-up question the advisor asked (the interrupt payload)."""

    question: str
    fields: list[str]
    options: list[str] = Field(default_factory=list)
    """Suggested answers (e.g. the catalog devices closest to words that were not recognised)."""

    @model_serializer(mode="wrap")
    def _contract(self, handler):
        """The contract's {question, fields}; options only when there are some."""
        out = handler(self)
        if not out.get("options"):
            out.pop("options", None)
        return out


class Citation(_Strict):
    """A retrieved knowledge chunk behind the answer."""

    id: str
    title: str = ""
    source: str = ""
    text: str = ""


class Decision(_Strict):
    """The rule engine's answer, in the user's language."""

    primary: EngineId | None = None
    alternatives: list[EngineId] = Field(default_factory=list)
    avoid: list[Avoid] = Field(default_factory=list)
    bottleneck: Bottleneck | None = None
    bottleneck_rules: list[str] = Field(default_factory=list)
    parallelism: Layout | None = None
    """The rule engine's parallelism advice (the plan's layout comes from it today)."""
    warnings: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)
    """Ids of every rule that fired."""
    trace: list[TraceEntry] = Field(default_factory=list)
    ranking: list[RankedEngine] = Field(default_factory=list)

    def favouring(self) -> list[TraceEntry]:
        """Trace entries of the rules that raised the primary, strongest first (the ranking's order)."""
        by_rule = {t.rule: t for t in self.trace}
        top = next((r for r in self.ranking if r.engine == self.primary), None)
        if top:
            return [by_rule[r] for r in top.reasons if r in by_rule]
        return [t for t in self.trace if ((t.effects or {}).get("score") or {}).get(self.primary, 0) > 0]


class Workable(_Strict):
    """A change that makes a setup which does not fit work, planned in full (agent.workable)."""

    change: Literal["quantize", "smaller_model", "larger_device", "more_devices"]
    hardware: str
    model: str | None = None
    count: int = 1
    nodes: int = 1
    quantization: str
    engine: EngineId | None = None
    parallelism: dict[str, int | str] = Field(default_factory=dict)
    decode_tokens_per_s: float | None = None
    aggregate_tokens_per_s: float | None = None
    max_concurrency: int = 0
    context_length: int
    weights_gb: float
    ram_gb: float | None = None
    """Weights kept in system RAM by a hybrid engine (llama.cpp -ngl); None: all in device memory."""


class NotUnderstood(_Strict):
    """Words that looked like a device, model or number but were not placed in the profile."""

    text: str
    """The user's own words, quoted back."""
    kind: Literal["device", "model", "number"]


class ProfileChange(_Strict):
    """How this request's profile relates to the previous one in the same thread."""

    kind: Literal["new", "amended"]
    """`new`: a new situation, nothing carried over; `amended`: the previous profile with changes."""
    fields: list[str] = Field(default_factory=list)
    """The fields this message set or changed."""
    values: dict[str, Any] = Field(default_factory=dict)
    """For an amendment: each changed field's new value."""


class Advice(_Strict):
    """One answered request: what was understood, decided, estimated, planned and cited."""

    intent: Intent = "recommend"
    language: Language = "en"
    profile: ProfileView
    decision: Decision = Field(default_factory=Decision)
    plan: Plan | None = None
    sizing: dict[str, Any] | None = None
    """For a sizing question: ranked hardware options (`advisor size --json`'s object)."""
    benchmark: BenchSpec | None = None
    """The benchmark spec for the shortlisted engines, at the plan's layout."""
    questions: list[Question] = Field(default_factory=list)
    """Follow-up questions asked in this request, in order."""
    assumptions: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    not_understood: list[NotUnderstood] = Field(default_factory=list)
    """Words that looked like a device, model or number but were not placed in the profile."""
    workable: list[Workable] = Field(default_factory=list)
    """When the plan does not fit: the nearest setups that do, cheapest first, each planned in full."""
    topics: list[str] = Field(default_factory=list)
    """What the user asked about beyond the situation (agent.extract_topics ids), for the answer to address."""
    question: str = ""
    """The user's message this answer responds to (its words pick the sentences of an explain answer)."""
    profile_change: ProfileChange | None = None
    """Whether this request started a new profile or amended the previous one (None: the thread's first)."""
    tool_notes: list[str] = Field(default_factory=list)
    """Tools that could not run for this profile, in words."""
    slo: dict[str, Any] | None = None
    """Latency targets the user stated (`ttft_ms`, `tpot_ms`, `evidence`): the answer says if the plan meets them."""
    volume: dict[str, Any] | None = None
    """Token volume / utilisation the user stated (agent.extract_volume.Volume): the cost answer uses it."""
    injection: bool = False
    """The user tried to steer the advisor; the rules decided regardless."""
    answer: str = ""
    """The Markdown answer shown to the user (LLM prose or the template), sources list included."""
    composer: str = "template"
    """`template`, `llm`, or `template (why the LLM prose was not used)`."""
    llm_calls: int = 0
    """LLM calls spent in the user turn that produced this answer."""

    @property
    def estimate(self) -> Estimate | None:
        """The roofline figures of the plan."""
        return self.plan.estimate if self.plan else None

    @property
    def warnings(self) -> list[str]:
        """The rules' warnings, then the tools' notes."""
        return [*self.decision.warnings, *self.tool_notes]

    def benchmark_contract(self) -> dict[str, Any] | None:
        """The `benchmark` object of `ask --json`: the spec, with the swept levels on top."""
        if self.benchmark is None:
            return None
        spec = self.benchmark.with_exports().model_dump(mode="json")
        return {"concurrency": spec["workload"]["concurrency"], **spec}

    def contract_json(self) -> dict[str, Any]:
        """DESIGN.md's `advisor ask --json` object (documented keys first, added keys after)."""
        d = self.decision
        return {
            "intent": self.intent,
            "profile": self.profile.summary.model_dump(mode="json", exclude_none=False,
                                                       exclude={"compared_hardware"} if not self.profile.summary.compared_hardware else None),
            "primary": d.primary, "alternatives": list(d.alternatives),
            "avoid": [{"engine": a.engine, "reason": a.reason} for a in d.avoid],
            "bottleneck": d.bottleneck,
            "parallelism": self._parallelism(),
            "estimate": self.estimate.model_dump(mode="json") if self.estimate else None,
            "benchmark": self.benchmark_contract(),
            "questions": [q.model_dump() for q in self.questions],
            "assumptions": list(self.assumptions),
            "citations": [c.model_dump() for c in self.citations],
            "rules": list(d.rules),
            "answer": self.answer,
            "warnings": self.warnings,
            "composer": self.composer,
            "llm_calls": self.llm_calls,
            "plan": self.plan.contract() if self.plan else None,
            "not_understood": [n.text for n in self.not_understood],   # the words, as DESIGN.md says
            "topics": list(self.topics),
            "profile_change": self.profile_change.model_dump(mode="json") if self.profile_change else None,
        } | ({"sizing": self.sizing} if self.sizing else {}) | ({"slo": self.slo} if self.slo else {}) \
          | ({"volume": self.volume} if self.volume else {}) \
          | ({"workable": [w.model_dump(mode="json") for w in self.workable]} if self.workable else {})

    def _parallelism(self) -> dict[str, Any] | None:
        """The contract's `parallelism`: the plan's layout when the planner chose it, else the rules'
        advice (none for a sizing question, which has no hardware yet)."""
        if self.intent == "size":
            return None
        if self.plan is not None and self.plan.basis == "planner" and self.plan.layout is not None:
            return self.plan.layout.contract()
        return self.decision.parallelism.contract() if self.decision.parallelism else None

    def dump(self) -> dict[str, Any]:
        """Plain JSON-able form for graph state and checkpoints."""
        data = _dump_reusing(self, {"benchmark": None, "plan": {"search": None}})
        _JUST_DUMPED.put(data, self)
        return data

    @classmethod
    def load(cls, data: dict[str, Any] | None, strict: bool = True) -> "Advice | None":
        """Rebuild from `dump()` (None when there is none). With `strict=False` a dump that no longer
        validates (a checkpoint written by an older version) also gives None, logged."""
        if not data:
            return None
        built = _JUST_DUMPED.take(data)
        if built is not None:   # the object this very dict was dumped from: validating it again finds nothing
            return built
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            if strict:
                raise
            logging.getLogger("advisor").warning("stored answer no longer readable, ignored: %s",
                                                 str(exc).splitlines()[0])
            return None
