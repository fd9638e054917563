"""The plan in words, English and Traditional Chinese: one line per plan with its numbers.

Every sentence is built from the candidates' figures, so the text cannot drift from the numbers.
"""
from __future__ import annotations

from rules.plan.ranking import advantage
from rules.plan.schema import Candidate, Lang

STRATEGY_WORDS = {
    "en": {"tp": "TP", "tp+dp": "TP with replicas", "pp": "PP", "tp+pp": "TP inside, PP across", "ep": "EP",
           "dp": "DP replicas", "none": "a single device"},
    "zh": {"tp": "TP", "tp+dp": "TP 加副本", "pp": "PP", "tp+pp": "內層 TP、外層 PP", "ep": "EP",
           "dp": "DP 副本", "none": "單一裝置"},
}
RUN_WITH = {
    "en": {"dynamo": "NVIDIA Dynamo", "sglang": "SGLang PD mode", "vllm": "vLLM disaggregated prefill",
           "tensorrt-llm": "TensorRT-LLM disaggregated serving"},
    "zh": {"dynamo": "NVIDIA Dynamo", "sglang": "SGLang 的 PD 分離模式", "vllm": "vLLM 的分離式 prefill",
           "tensorrt-llm": "TensorRT-LLM 的分離式服務"},
}
"""What runs a prefill/decode split, per engine."""
NOTES = {
    "macs-linked": {"en": "the Macs are taken to be linked by Thunderbolt or Ethernet, far slower than their unified memory",
                    "zh": "假設各台 Mac 以 Thunderbolt 或乙太網路相連，遠慢於其統一記憶體"},
    "no-network": {"en": "no network between the nodes was named, so each replica stays inside one node "
                         "(say InfiniBand or Ethernet to plan one model across nodes)",
                   "zh": "未說明節點之間的網路，因此每個副本留在單一節點內（說明 InfiniBand 或乙太網路，才能規劃跨節點的單一模型）"},
    "network-assumed": {"en": "no network between the nodes was named and one node cannot hold the model, so a replica "
                              "spans the nodes over an assumed Ethernet link (InfiniBand or RoCE is faster; say which you have)",
                        "zh": "未說明節點之間的網路，且單一節點放不下模型，因此以假設的乙太網路讓副本跨節點"
                              "（InfiniBand 或 RoCE 更快；請說明實際網路）"},
    "fill": {"en": "an offline job with no load given: each layout is run with as many requests as its KV cache holds "
                   "(queue the whole job; the engine batches what fits)",
             "zh": "離線工作且未提供負載：每種配置都以其 KV cache 放得下的請求數執行（整批送入，由引擎自行批次處理）"},
    "pp-link": {"en": "pipeline hand-offs between nodes are charged at the node's own link speed (they are small next to TP traffic)",
                "zh": "跨節點的 pipeline 交接以節點內互連速度估算（相較 TP 通訊量很小）"},
    "no-attention-dp": {"en": "attention data parallelism (DP attention) is not modelled by the estimator, so it is not among the candidates",
                        "zh": "估算器尚未模擬 attention 資料平行（DP attention），因此不在候選之中"},
}


def num(x: float | None, unit: str = "") -> str:
    """A figure as shown: 3 significant digits, thousands separators."""
    if x is None:
        return "?"
    if abs(x) >= 1000:
        return f"{x:,.0f}{unit}"
    if abs(x) >= 100:
        return f"{x:.0f}{unit}"
    return f"{x:.3g}{unit}"


def _engine(c: Candidate) -> str:
    return f" ({c.engine})" if c.engine else ""


def _precision(c: Candidate, lang: Lang) -> str:
    kv = f", KV {c.kv_cache_dtype}" if c.kv_cache_dtype else ""
    return f"{c.quantization}{kv}"


def figures_line(c: Candidate, load: int, ctx: int, lang: Lang) -> str:
    """TTFT, TPOT, throughput and capacity of one candidate."""
    f = c.figures
    tps = f"{num(f.tokens_per_s)} tok/s"
    per = num(f.tokens_per_s_per_device)
    cost = f", ${f.cost_per_1m_tokens:.2f}/1M tokens" if f.cost_per_1m_tokens else ""
    if lang == "zh":
        cost = f"，每百萬 tokens ${f.cost_per_1m_tokens:.2f}" if f.cost_per_1m_tokens else ""
        return (f"{load} 個併發請求下 TTFT {num(f.ttft_s, ' s')}、TPOT {num(f.tpot_ms, ' ms')}；"
                f"輸出 {tps}（每裝置 {per}）{cost}；{ctx:,} tokens 下可容納 {f.max_concurrency} 個序列")
    return (f"TTFT {num(f.ttft_s, ' s')}, TPOT {num(f.tpot_ms, ' ms')} at {load} requests in flight; "
            f"{tps} ({per} per device){cost}; holds {f.max_concurrency} sequences at {ctx:,} tokens")


def gap(winner: Candidate, other: Candidate, objective: str, lang: Lang) -> str:
    """How far `other` is behind `winner` on the objective, in words."""
    d = advantage(winner, other, objective)
    pct = f"{abs(d):.0%}"
    if objective == "throughput":
        if lang == "zh":
            return f"每裝置吞吐{'少' if d >= 0 else '多'} {pct}"
        return f"{pct} {'fewer' if d >= 0 else 'more'} tokens/s per device"
    if lang == "zh":
        return f"完整回答{'慢' if d >= 0 else '快'} {pct}"
    return f"{pct} {'slower' if d >= 0 else 'faster'} to a whole answer"


def chosen_line(c: Candidate, load: int, ctx: int, lang: Lang) -> str:
    """'Chosen: TP=2 (vllm, fp8): ...'."""
    head = "選定" if lang == "zh" else "Chosen"
    return f"{head}: {c.layout.describe(lang)}{_engine(c)}, {_precision(c, lang)} — {figures_line(c, load, ctx, lang)}"


def runner_line(r: Candidate, c: Candidate, objective: str, load: int, ctx: int, lang: Lang) -> str:
    """'Runner-up: PP=2: ...: 47 % slower to a whole answer'."""
    head = "次佳" if lang == "zh" else "Runner-up"
    return (f"{head}: {r.layout.describe(lang)}, {_precision(r, lang)} — {figures_line(r, load, ctx, lang)}"
            f"{'：' if lang == 'zh' else ': '}{gap(c, r, objective, lang)}")


def rule_line(rule: str | None, strategy: str | None, chosen: Candidate, favoured: Candidate | None,
              best: Candidate, overrode: bool, objective: str, lang: Lang) -> str | None:
    """Why the rules' advice was kept, overridden, or could not be followed (None: nothing to say)."""
    if not rule or not strategy:
        return None
    words = STRATEGY_WORDS[lang].get(strategy, strategy)
    if favoured is None:
        if lang == "zh":
            return f"規則 {rule} 建議 {words}，但這類配置撐不住這個負載，因此依估算改選。"
        return f"Rule {rule} advises {words}, but no layout of that kind can serve this load, so the estimate decides."
    if overrode:
        d = f"{advantage(chosen, favoured, objective):.0%}"
        if lang == "zh":
            return (f"規則 {rule} 建議 {words}；此處估算顯示 {chosen.layout.describe(lang)} 明顯較佳（好 {d}），"
                    f"但估算可能低估互連成本：兩種都實測再定案。")
        return (f"Rule {rule} advises {words}; here {chosen.layout.describe(lang)} wins clearly ({d} better), but the "
                "estimate may understate the link's cost: measure both before settling.")
    if best is not chosen:
        d = f"{advantage(best, chosen, objective):.0%}"
        if lang == "zh":
            return f"依規則 {rule} 採用 {words}：{best.layout.describe(lang)} 只好 {d}，不足以推翻規則。"
        return f"Kept {words} as rule {rule} advises: {best.layout.describe(lang)} is only {d} better here, not enough to override it."
    return None


def unserved_line(c: Candidate, load: int, lang: Lang) -> str:
    """No layout serves the load: say what the closest one lacks."""
    if lang == "zh":
        return (f"沒有任何配置能服務 {load} 個併發請求；最接近的是 {c.layout.describe(lang)}："
                f"{'放不下' if not c.figures.fits else f'只容納 {c.figures.max_concurrency} 個'}。"
                "請看估算中的修正建議（量化、KV cache、更多裝置）。")
    return (f"No layout serves {load} requests in flight; the closest is {c.layout.describe(lang)}: {c.rejected}. "
            "See the estimate's fixes (quantization, KV cache, more devices).")


def disagg_line(d, lang: Lang) -> str:
    """The recommended prefill/decode split, with its figures, whether it carries the load, and what runs it."""
    run = ("、" if lang == "zh" else ", ").join(RUN_WITH[lang].get(e, e) for e in d.run_with)
    more = d.demand_requests_per_s / d.requests_per_s if d.requests_per_s else 0
    if lang == "zh":
        load = ("足以承載您的負載" if d.serves_load else
                f"但您的負載需要約 {num(d.demand_requests_per_s)} req/s，約需 {more:.1f} 倍的裝置")
        return (f"合併部署達不到 TTFT {d.ttft_target_ms:g} ms / TPOT {d.tpot_target_ms:g} ms 的目標；拆分 prefill/decode："
                f"{d.prefill_workers} 個 prefill worker（{d.prefill_layout.describe(lang)}）加 {d.decode_workers} 個 decode "
                f"worker（{d.decode_layout.describe(lang)}，每個 batch {d.decode_batch}），TTFT 約 {num(d.ttft_s, ' s')}、"
                f"TPOT {num(d.tpot_ms, ' ms')}、{num(d.requests_per_s)} req/s，{load}。可用：{run}。")
    load = ("enough for your load" if d.serves_load else
            f"but your load needs about {num(d.demand_requests_per_s)} requests/s, about {more:.1f}x the devices")
    return (f"The aggregated plan misses TTFT {d.ttft_target_ms:g} ms / TPOT {d.tpot_target_ms:g} ms; split prefill "
            f"and decode: {d.prefill_workers} prefill workers ({d.prefill_layout.describe(lang)}) and {d.decode_workers} "
            f"decode workers ({d.decode_layout.describe(lang)}, batch {d.decode_batch}) give TTFT about "
            f"{num(d.ttft_s, ' s')}, TPOT {num(d.tpot_ms, ' ms')} at {num(d.requests_per_s)} requests/s, {load}. "
            f"Run it with {run}.")


def load_lines(load: int, assumed: bool, lang: Lang, fill: bool = False) -> list[str]:
    """Say when the load planned for is a default rather than the user's number."""
    if fill:
        return [NOTES["fill"][lang]]
    if not assumed:
        return []
    if lang == "zh":
        return [f"以 {load} 個同時進行的請求規劃（依您描述情境的預設值；請提供實際併發數）"]
    return [f"planned for {load} requests in flight, the default for what you described (give your real concurrency)"]


def note_lines(codes: list[str], lang: Lang) -> list[str]:
    """Rendered assumption codes."""
    return [NOTES[c][lang] for c in codes if c in NOTES]
