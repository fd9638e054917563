"""The engine the question is about leads the answer, when the rules found it fit for the setup.

    asked_first(decision, topics, named, replacing) -> Decision   (unchanged when nothing applies)

Two cases, both only among engines the rules already recommend (never one they set aside):
- the user asks about a capability only some engines have ("offload the experts to the CPU"):
  the best-ranked recommended engine that has it leads (CPU/GPU hybrid offload: llama.cpp, Ollama);
- the user asks about one named engine's feature or layout ("does vLLM's structured output slow
  down?", "vLLM TP or PP?"): that engine leads, if it has the feature, and the others follow.
A named engine the user wants to leave ("we run Ollama, it is slow, what instead?") is not promoted, and when
it is the primary, the best-ranked other recommended engine leads instead.
"""
from __future__ import annotations

from rules.decision import Decision, TraceEntry
from rules.engines import engine

TOPIC_FEATURES: dict[str, str | None] = {
    "speculative-decoding": "speculative_decoding", "prefix-caching": "prefix_caching",
    "multi-lora": "multi_lora", "structured-output": "structured_output", "kv-quantization": "kv_cache_quant",
    "disaggregation": "pd_disaggregation", "parallelism": None, "offload": "hybrid_cpu",
}
"""Topics about one engine's capability, and the engine-catalog feature that answers them (None: any engine)."""
SOURCE = "Source article, the ten questions (answer the question asked; the engine falls out of the setup)"


def _has(engine_id: str, feature: str | None) -> bool:
    if feature is None:
        return True
    spec = engine(engine_id)
    if feature == "hybrid_cpu":
        return bool(spec.hybrid_cpu.value)
    return bool(spec.feature(feature).value)


def _promote(d: Decision, chosen: str, rule: str, en: str, zh: str) -> Decision:
    """`chosen` (one of the alternatives) becomes primary; the old primary heads the alternatives."""
    alts = [d.primary, *[e for e in d.alternatives if e != chosen]] if d.primary else [e for e in d.alternatives if e != chosen]
    entry = TraceEntry(rule=rule, name="The engine asked about leads", rationale=en, rationale_zh=zh,
                       values={"engine": chosen}, citations=[], effects={"score": {chosen: 1}})
    ranking = sorted(d.ranking, key=lambda r: r.engine != chosen)
    ranking = [r.model_copy(update={"reasons": [rule, *r.reasons]}) if r.engine == chosen else r for r in ranking]
    return d.model_copy(update={"primary": chosen, "alternatives": [e for e in alts if e], "ranking": ranking,
                                "trace": [entry, *d.trace], "rules": [*d.rules, rule]})


def asked_first(d: Decision, topics: list[str], named: list[str], replacing: bool, setup: str = "",
                setup_zh: str = "", abandoning: bool = False, many_at_once: bool = False) -> Decision:
    """The decision with the engine the question is about as primary (see the module docstring)."""
    if not d.primary or not d.alternatives:
        return d
    asked = [t for t in topics if t in TOPIC_FEATURES]
    where, where_zh = (f" on {setup}" if setup else ""), (f"在 {setup_zh or setup} 上" if setup else "")
    if "offload" in asked and not _has(d.primary, "hybrid_cpu"):
        pick = next((e for e in d.alternatives if _has(e, "hybrid_cpu")), None)
        if pick:
            name = engine(pick).name
            return _promote(d, pick, "asked-offload-engine",
                            f"You asked to keep part of the model in system RAM: {name} splits a model between GPU and "
                            f"CPU (for a MoE, the experts in RAM and attention on the GPU){where}, which "
                            f"{engine(d.primary).name} cannot.",
                            f"您問的是把部分模型放到系統記憶體：{name}{where_zh}可以把模型拆在 GPU 與 CPU 之間（MoE 的專家放 RAM、"
                            f"attention 留在 GPU），{engine(d.primary).name} 做不到。")
    # the engine being left is the one named first (the setup is described before the destination: "we run
    # Ollama ... should we move to vLLM?"): an engine named as the destination is never demoted
    if abandoning and named and d.primary == named[0]:
        others = [e for e in d.alternatives if e != named[0]]
        # leaving because it slows down when many use it at once: the engine built for that load (its docs' stance)
        serving = [e for e in others if engine(e).production.stance == "production"] if many_at_once else []
        pick = next(iter(serving or others), None)
        if pick:
            name, old = engine(pick).name, engine(d.primary).name
            return _promote(d, pick, "asked-leaving-engine",
                            (f"You are moving away from {old} because it slows down with many requests at once: {name} "
                             f"is the engine built to batch them (continuous batching, paged KV cache) among those the "
                             f"rules recommend{where}, so it leads." if serving else
                             f"You are moving away from {old}: {name} is the best-ranked of the other engines the rules "
                             f"recommend{where}, so it leads."),
                            (f"您要換掉 {old}，因為多人同時使用時變慢：{name}{where_zh}是規則推薦的引擎中專為批次處理大量請求而設計的"
                             "（continuous batching、分頁 KV cache），所以排第一。" if serving else
                             f"您要換掉 {old}：{name}{where_zh}是規則推薦的其他引擎中排名最前的，所以排第一。"))
    if replacing or len(set(named)) != 1 or not asked:
        return d
    target = named[0]
    if target == d.primary or target not in d.alternatives:
        return d
    feature = TOPIC_FEATURES[asked[0]]
    if not _has(target, feature):
        return d
    name = engine(target).name
    return _promote(d, target, "asked-engine-first",
                    f"You asked about {name}: it runs{where} and has what you asked about, so it leads; the others "
                    "are there to compare.",
                    f"您問的是 {name}：它{where_zh or '在這個配置上'}可以跑，也有您問的功能，所以排第一；其他引擎供比較。")
