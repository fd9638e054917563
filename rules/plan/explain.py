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


def _reqs(n: int) -> str:
    """'1 request', '64 requests'."""
    return f"{n} request" + ("" if n == 1 else "s")


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
    # Two speeds, each named: the per-stream rate while tokens flow (1000 / TPOT, the figure the headline
    # quotes) and the output rate over whole requests, prefill and queueing included.
    stream = num(1000 / f.tpot_ms) if f.tpot_ms else None
    if lang == "zh":
        cost = f"，每百萬 tokens ${f.cost_per_1m_tokens:.2f}" if f.cost_per_1m_tokens else ""
        ttft = f"TTFT {num(f.ttft_s, ' s')}、" if f.ttft_s is not None else ""
        rate = f"（每條串流 {stream} tok/s）" if stream else ""
        return (f"{load} 個併發請求下 {ttft}TPOT {num(f.tpot_ms, ' ms')}{rate}；"
                f"整個請求（含 prefill）合計輸出 {tps}（每裝置 {per}）{cost}；{ctx:,} tokens 下可容納 {f.max_concurrency} 個序列")
    ttft = f"TTFT {num(f.ttft_s, ' s')}, " if f.ttft_s is not None else ""
    rate = f" ({stream} tok/s per stream)" if stream else ""
    return (f"{ttft}TPOT {num(f.tpot_ms, ' ms')}{rate} at {_reqs(load)} in flight; "
            f"{tps} in total over whole requests, prefill included ({per} per device){cost}; "
            f"holds {f.max_concurrency} sequences at {ctx:,} tokens")


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
    return (f"No layout serves {_reqs(load)} in flight; the closest is {c.layout.describe(lang)}: {c.rejected}. "
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


def load_lines(load: int, assumed: bool, lang: Lang, fill: bool = False, users: int | None = None) -> list[str]:
    """Say when the load planned for is a default rather than the user's number (a share of the people
    named is an assumption: people who all send at once are the concurrency)."""
    if fill:
        return [NOTES["fill"][lang]]
    if not assumed:
        return []
    if users and users > load:
        from rules.serving import peak_note
        if lang == "zh":
            return [f"以 {load} 個同時請求規劃：{peak_note(users, load, 'zh')}"]
        return [f"planned for {_reqs(load)} in flight: {peak_note(users, load)}"]
    if lang == "zh":
        return [f"以 {load} 個同時進行的請求規劃（依您描述情境的預設值；請提供實際併發數）"]
    return [f"planned for {_reqs(load)} in flight, the default for what you described (give your real concurrency)"]


def note_lines(codes: list[str], lang: Lang) -> list[str]:
    """Rendered assumption codes."""
    return [NOTES[c][lang] for c in codes if c in NOTES]


def capacity_line(cap, layout, load: int, device: str, lang: Lang) -> str:
    """The load is beyond the devices: the replicas (and devices) it needs, and what one replica serves."""
    single = layout.replica_devices == 1
    one = layout.model_copy(update={"dp": 1}).describe()
    ttft, tpot = num(cap.ttft_target_ms / 1000, " s"), num(cap.tpot_target_ms, " ms")
    if lang == "zh":
        what = f"每個副本 1 張，共 {cap.devices_needed} 張 {device}" if single else \
            f"{one}，共 {cap.devices_needed} 張 {device}"
        return (f"超出容量約 {cap.over_by:g} 倍：{load} 個同時請求需要約 {cap.replicas_needed} 個副本（{what}），才能維持 TTFT ≤ {ttft}、TPOT ≤ {tpot}；"
                f"目前有 {cap.replicas_have} 個副本，每個副本約可服務 {cap.per_replica} 個請求。" + _levers_text(cap, load, "zh"))
    what = f"one {device} each" if single else f"{one}: {cap.devices_needed} x {device}"
    return (f"Over capacity by {cap.over_by:g}x: {_reqs(load)} in flight need about {cap.replicas_needed} replicas "
            f"({what}) to keep TTFT <= {ttft} and TPOT <= {tpot}; you have "
            f"{cap.replicas_have}, and one replica serves about {cap.per_replica} requests." + _levers_text(cap, load, "en"))


def _levers_text(cap, load: int, lang: Lang) -> str:
    """Besides more replicas: fewer requests at once, a smaller weight format, shorter prompts."""
    now = cap.serves_now
    if now is None:
        return ""
    q = cap.smaller_format
    if lang == "zh":
        bits = [f"把同時請求降到約 {now} 個（目前的卡就撐得住）"]
        if cap.holds_now:
            bits.append(f"接受較慢的每人速度：記憶體可同時容納約 {cap.holds_now} 個請求，是速度目標而非記憶體要求更多副本")
        if q:
            need = -(-load // cap.per_replica_smaller)
            bits.append(f"改用 {q} 量化權重，每個副本約可服務 {cap.per_replica_smaller} 個請求"
                        + ("（一個副本就夠）" if need <= 1 else f"（約需 {need} 個副本）"))
        bits.append("縮短 prompt 或 context 讓每個請求佔的 KV cache 變少")
        return " 調整方式：" + "；".join(bits) + "。"
    bits = [f"fewer requests at once (today's devices serve about {now})"]
    if cap.holds_now:
        bits.append(f"a slower speed per user: memory holds about {cap.holds_now} at once, so the speed target, "
                    "not memory, asks for the extra replicas")
    if q:
        need = -(-load // cap.per_replica_smaller)
        bits.append(f"{q} weights, with which one replica serves about {cap.per_replica_smaller} "
                    + ("(one replica is enough)" if need <= 1 else f"(about {need} replicas)"))
    bits.append("shorter prompts or context, so each request holds less KV cache")
    return " Levers: " + "; ".join(bits) + "."


def prefix_line(engine: str | None, mechanism: str | None, cached: int, prompt: int, lang: Lang) -> str:
    """What the prefix cache does for a shared prefix, and whether the figures count it."""
    name = engine or ("引擎" if lang == "zh" else "the engine")
    if mechanism is None:
        if lang == "zh":
            return f"請求共用前綴，但 {name} 沒有前綴快取：每個請求都要重算整段 prompt，TTFT 以完整 prompt 計算。"
        return (f"Requests share a prefix, but {name} has no prefix cache: every request prefills its whole prompt, "
                "and the TTFT above counts all of it.")
    if cached:
        if lang == "zh":
            return (f"前綴快取：共用的 {cached:,} tokens 前綴只算一次（{name}：{mechanism}），TTFT 只計每個請求"
                    f"自己的 {prompt - cached:,} tokens；實測時看 kv_cache_hit_rate。")
        return (f"Prefix cache: the shared {cached:,}-token prefix is computed once ({name}: {mechanism}), so TTFT "
                f"counts only each request's own {prompt - cached:,} tokens; check kv_cache_hit_rate when you measure.")
    if lang == "zh":
        return (f"請求共用前綴：{name} 以 {mechanism} 重用已算過的前綴 KV，之後的請求只需 prefill 新的部分；"
                "上面的 TTFT 仍以完整 prompt 計算（說明前綴長度即可扣除），實測時看 kv_cache_hit_rate。")
    return (f"Requests share a prefix: {name} reuses its KV through {mechanism}, so after the first request only the "
            "new tokens are prefilled; the TTFT above still charges the whole prompt (give the prefix length to size "
            "it), and kv_cache_hit_rate shows the reuse when you measure.")


def one_server_line(engine: str, devices: int, device: str, lang: Lang) -> str:
    """Why one GPU for an engine that runs one server for all its GPUs (engine catalog: single_server)."""
    from rules import engines
    name = engines.engine(engine).name
    if lang == "zh":
        return (f"{name} 只跑一個伺服器管所有 GPU，沒有自己的副本：模型一張 {device} 放得下時它就只載到一張上，其餘 "
                f"{devices - 1} 張留給別的模型。要兩份副本，得每張 GPU 各開一個 ollama serve（各自的 CUDA_VISIBLE_DEVICES "
                "與 OLLAMA_HOST 連接埠），前面自己加負載平衡；要把這一份分到所有 GPU，設 OLLAMA_SCHED_SPREAD=1。")
    return (f"{name} runs one server for all its GPUs and has no replicas of its own: a model that fits one {device} "
            f"is loaded on one GPU, and the other{' GPU stays' if devices == 2 else f' {devices - 1} stay'} free for other models. Two copies need one "
            "ollama serve per GPU (each with its own CUDA_VISIBLE_DEVICES and OLLAMA_HOST port) behind a load balancer "
            "you run; to split this one copy over every GPU instead, set OLLAMA_SCHED_SPREAD=1.")


def replicas_line(chosen: Candidate, split: Candidate, objective: str, device: str, lang: Lang,
                  fast: bool = False) -> str:
    """Why replicas and not a split: each device holds a copy and only PCIe joins them (`fast`: NVLink
    joins them, and the replicas already meet the latency targets)."""
    d = -advantage(chosen, split, objective)   # the same measure as the runner-up line
    n = chosen.layout.dp
    if fast:
        return _replicas_fast_line(chosen, split, objective, device, lang, d, n)
    if lang == "zh":
        trade = (f"{split.layout.describe()} 在此負載下估計{'完整回答快' if objective != 'throughput' else '每裝置吞吐多'} {d:.0%}，但每一層都要走 PCIe 做 all-reduce，這是估算最不確定的部分"
                 if d > 0 else f"{split.layout.describe()} 在此也不較快")
        return (f"每張 {device} 都放得下完整模型、卡與卡之間只有 PCIe：開 {n} 個副本，前面加負載平衡（不必經 PCIe 做 all-reduce，各副本獨立服務）；"
                f"{trade}；若延遲比吞吐重要，兩種都實測。")
    trade = (f"{split.layout.describe()} is estimated {d:.0%} {'faster to a whole answer' if objective != 'throughput' else 'more tokens/s per device'} here, but it all-reduces over PCIe on every layer, "
             "the least certain part of the estimate" if d > 0 else f"{split.layout.describe()} is not faster here either")
    return (f"Each {device} holds the whole model and only PCIe joins the cards: run {n} replicas behind a load "
            f"balancer (no all-reduce over PCIe, and each copy serves on its own); {trade}. If latency matters more than throughput, "
            "measure both.")



def _replicas_fast_line(chosen: Candidate, split: Candidate, objective: str, device: str, lang: Lang,
                        d: float, n: int) -> str:
    f = chosen.figures
    ttft = f"{f.ttft_s:.2f} s" if f.ttft_s is not None else "?"
    tpot = f"{f.tpot_ms:.0f} ms" if f.tpot_ms is not None else "?"
    split_name = split.layout.describe()
    if lang == "zh":
        trade = (f"{split_name} 在此估計{'完整回答快' if objective != 'throughput' else '每裝置吞吐多'} {d:.0%}，但估算把小矩陣切分與每層 all-reduce 當成全速，實際拿不到這麼多"
                 if d > 0 else f"{split_name} 在此也不較快")
        return (f"每張 {device} 都放得下完整模型並留有 KV cache 空間：開 {n} 個副本、前面加負載平衡，"
                f"每個副本獨立服務自己那份負載（首字延遲 {ttft}、每 token {tpot}，已達延遲目標）；{trade}。"
                "NVLink 上的 TP 留給放不下單卡或延遲目標需要時再用。")
    trade = (f"{split_name} is estimated {d:.0%} {'faster to a whole answer' if objective != 'throughput' else 'more tokens/s per device'} "
             "here, but the estimate counts its split of small matrices and per-layer all-reduces at full speed, which "
             "real kernels do not reach" if d > 0 else f"{split_name} is not faster here either")
    return (f"Each {device} holds the whole model with room for its KV cache: run {n} replicas behind a load balancer, "
            f"each serving its share of the load on its own (TTFT {ttft}, TPOT {tpot}: within the latency targets); "
            f"{trade}. TP over NVLink is for a model that does not fit one card, or a latency target the replicas miss.")
