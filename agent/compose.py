"""The deterministic answer: Markdown in the user's language, built only from the tools' results.

The one Markdown renderer of a recommendation: it reads the typed `Advice` (answer still empty)
and is what every surface shows unless verified LLM prose replaces it. Citation markers [n]
index `advice.citations`.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent.names import assumption_text, bottleneck_label, display, source_label

if TYPE_CHECKING:
    from agent.advice import Advice

LABELS = {
    "en": {"rec": "Recommendation", "why": "Why", "alts": "Also consider", "avoid": "Avoid",
           "bottleneck": "Bottleneck", "parallel": "Parallelism", "estimate": "Estimate",
           "bench": "Benchmark before you commit", "warn": "Warnings", "assume": "Assumptions",
           "sources": "Sources", "none": "No engine fits every constraint of this profile; see the warnings.",
           "fits": "fits", "nofit": "does not fit", "weights": "weights", "kv": "KV cache per token",
           "decode": "decode, one stream", "bound": "bandwidth bound (one stream)", "prefill": "prefill",
           "ttft": "time to first token", "tpot": "time per output token", "maxc": "max concurrency at this context",
           "limit": "limited by", "sweep": "sweep concurrency", "metrics": "record",
           "cmd": "Full plan with harness commands: `advisor benchspec`.",
           "explain": "From the knowledge base", "launch": "Launch", "changed": "Changed to make it work",
           "steer": "Your message asked the advisor to change its rules; "
           "the recommendation comes from the rules and your setup only.", "bytes": "bytes",
           "on": "on", "per_stream": "per stream", "measure": "Measure first", "at": "at", "concurrent": "concurrent requests",
           "details": "Details", "more_why": "More reasons", "kb_none": "The knowledge base has nothing on this yet.",
           "kb_other": "The retrieved notes are in another language; see the sources below."},
    "zh": {"rec": "建議", "why": "理由", "alts": "也可考慮", "avoid": "避免", "bottleneck": "瓶頸",
           "parallel": "平行策略", "estimate": "估算", "bench": "決定前先實測", "warn": "注意",
           "assume": "假設", "sources": "來源", "none": "沒有引擎能滿足這個情境的所有限制，請看注意事項。",
           "fits": "放得下", "nofit": "放不下", "weights": "權重", "kv": "每個 token 的 KV cache",
           "decode": "單一串流解碼", "bound": "單一串流頻寬上限", "prefill": "prefill", "ttft": "首字延遲",
           "tpot": "每個輸出 token 時間", "maxc": "此 context 下最大併發", "limit": "限制因素",
           "sweep": "併發掃描", "metrics": "記錄", "cmd": "完整測試計畫與各工具指令：`advisor benchspec`。",
           "explain": "知識庫的說明", "launch": "啟動指令", "changed": "為了能運作而調整", "steer": "您的訊息要求顧問改變規則；建議仍只依規則與您的環境決定。",
           "bytes": "bytes", "on": "上", "per_stream": "每條串流", "measure": "先實測", "at": "併發", "concurrent": "",
           "details": "細節", "more_why": "其他理由", "kb_none": "知識庫目前沒有這方面的說明。",
           "kb_other": "找到的說明只有英文版本，請看下方來源。"},
}
def fmt(x: Any) -> str:
    """A tool number as shown: thousands separators, precision by magnitude."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, int) or float(x).is_integer() and abs(x) >= 100:
        return f"{int(round(x)):,}"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"


def markers(chunk_ids: list[str], index: dict[str, int]) -> str:
    """Citation markers like [1][3] for the chunk ids that were retrieved."""
    nums = sorted({index[c] for c in chunk_ids if c in index})
    return "".join(f"[{n}]" for n in nums)


SUMMARY_REASONS = 2


def _summary_reasons(advice: "Advice") -> int:
    """Reasons the summary shows: one when workable setups need the room (they are what to act on)."""
    return 1 if advice.workable else SUMMARY_REASONS
"""Reasons shown in the opening summary; the rest go to the details."""
REASON_CHARS = 220
"""A longer rationale is cut at a sentence end in the summary (the details keep it whole)."""


def _colon(lang: str) -> str:
    return "：" if lang == "zh" else ": "


def _bold_label(label: str, lang: str) -> str:
    """A bold label and its colon, ready for text to follow. The full-width colon stays outside the
    bold: Markdown does not close `**` after punctuation when a letter follows ("**建議：**沒有" shows
    its asterisks)."""
    return f"**{label}**：" if lang == "zh" else f"**{label}:** "


def _reasons(advice: "Advice", index: dict[str, int]) -> list[str]:
    """Rationales of the rules that favoured the primary, with markers; when none did (the primary is what
    is left), why the others were set aside on this setup, then the first rules that are not generic checks."""
    d = advice.decision
    fav = d.favouring()
    if fav:
        return [f"{entry.rationale.strip()} {markers(entry.citations, index)}".rstrip() for entry in fav[:3]]
    out = [line for line in [_left_over(advice)] if line]
    rest = [t for t in d.trace if not t.rule.startswith("constraint-")] or d.trace
    return out + [f"{t.rationale.strip()} {markers(t.citations, index)}".rstrip() for t in rest[:3 - len(out)]]


def _left_over(advice: "Advice") -> str | None:
    """The primary leads because the usual picks do not run well here: those engines and why, in one line."""
    from agent.topic_lead import named_engines
    d, zh = advice.decision, advice.language == "zh"
    one_box = (advice.profile.summary.nodes or 1) <= 1
    named = set(named_engines(advice.question or "", limit=None))
    out = [a for a in d.avoid if (a.engine != "dynamo" or not one_box or a.engine in named)
           and (a.rule != _OFF_PLATFORM or _runs_on_platform(a.engine, advice))]
    # the engines asked about first, then device limits (compute capability), then the usual serving engines
    from rules.engines import engine
    out = sorted(out, key=lambda a: (a.engine not in named, a.rule != _OFF_PLATFORM,
                                     engine(a.engine).production.stance != "production"))[:3]
    if not d.primary or not out:
        return None
    why = ("；" if zh else "; ").join(f"{display(a.engine)}{_colon(advice.language)}"
                                     f"{((a.reason_zh or a.reason) if zh else a.reason).split(' (http')[0].split('（來源')[0]}"
                                     for a in out)
    return (f"{display(d.primary)} 是這裡剩下能好好跑的引擎：{why}" if zh else
            f"{display(d.primary)} is what runs well here once the usual picks are set aside: {why}")


def _short(text: str, limit: int = REASON_CHARS) -> str:
    """`text` cut after the last sentence end before `limit` (whole when it is short or has none)."""
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.;](?=\s|$)|[。；]", text) if m.end() <= limit]
    if not ends:
        return text
    cut = text[:ends[-1]].rstrip()
    return cut[:-1] + ("。" if cut.endswith("；") else ".") if cut.endswith((";", "；")) else cut


BOUND_SHOWN_WITHIN = 4.0
"""The single-stream bandwidth ceiling is shown when the expected single stream reaches at least a quarter of it."""


def _speed_labels(est: dict, lab: dict, lang: str) -> dict:
    """One stream alone and its bandwidth ceiling, then the per-stream figure at the load, each named for what it
    is (r6-en-07: the bound at 458 in flight read as the single-stream ceiling; r6-zh-09: the at-load figure
    called single-stream)."""
    n = est.get("concurrency") or 1
    out = dict(est)
    if est.get("single_stream_bound_tokens_per_s"):
        out["decode_tokens_per_s_bound"] = est["single_stream_bound_tokens_per_s"]
    one = est.get("single_stream_tokens_per_s") or est.get("decode_tokens_per_s")
    if one and (out.get("decode_tokens_per_s_bound") or 0) > BOUND_SHOWN_WITHIN * one:
        # a ceiling that assumes every device streams its share in parallel (a MoE token's experts over 8 GPUs)
        # sits far above what per-layer hand-offs let one stream reach: no figure a user could measure against
        out.pop("decode_tokens_per_s_bound")
    if n > 1 and est.get("single_stream_tokens_per_s"):
        out["single"] = est["single_stream_tokens_per_s"]
    return out


def _estimate_lines(est: dict, lab: dict, lang: str) -> list[str]:
    parts = [f"{lab['fits'] if est.get('fits') else lab['nofit']}"]
    est, n = _speed_labels(est, lab, lang), est.get("concurrency") or 1
    at_load = (f"decode per stream at {n:,} concurrent" if lang == "en" else f"併發 {n:,} 時每條串流解碼") if n > 1 \
        else lab["decode"]
    alone = "one stream alone" if lang == "en" else "單一串流解碼"
    pairs = [("weights_gb", lab["weights"], " GB"), ("kv_bytes_per_token", lab["kv"], " " + lab["bytes"]),
             ("single", alone, " tok/s"), ("decode_tokens_per_s_bound", lab["bound"], " tok/s"),
             ("decode_tokens_per_s", at_load, " tok/s"),
             ("prefill_tokens_per_s", lab["prefill"], " tok/s"), ("ttft_s", lab["ttft"], " s"),
             ("tpot_ms", lab["tpot"], " ms"), ("max_concurrency", lab["maxc"], "")]
    parts += [f"{name} {fmt(est[key])}{unit}" for key, name, unit in pairs if est.get(key) is not None]
    lines = ["- " + ("；" if lang == "zh" else "; ").join(parts)]
    limit = est.get("binding_constraint_zh") if lang == "zh" else None
    if limit or est.get("binding_constraint"):
        lines.append(f"- {lab['limit']}{_colon(lang)}{limit or est['binding_constraint']}")
    return lines


def _bench_lines(levels: list[int], metrics: list[str], lab: dict, lang: str) -> list[str]:
    out, sep = [], "、" if lang == "zh" else ", "
    if levels:
        out.append(f"- {lab['sweep']}{_colon(lang)}{sep.join(fmt(c) for c in levels)}")
    if metrics:
        out.append(f"- {lab['metrics']}{_colon(lang)}{sep.join(m for m in metrics if m)}")
    return out + [f"- {lab['cmd']}"]


def _layout(advice: "Advice"):
    """The layout the answer reports: the planner's when it chose one, else the rules' advice."""
    plan, d = advice.plan, advice.decision
    return plan.layout if plan is not None and plan.basis == "planner" and plan.layout else d.parallelism


def _host_read(off, lang: str) -> str:
    """Which host bandwidth the offloaded part was estimated at: the RAM the user described, or the host assumed."""
    if off.host == "stated":
        return (f", read at {fmt(off.host_bw_gbs)} GB/s (channels x MT/s x 8 bytes of the RAM you described)" if lang == "en"
                else f"，依您描述的記憶體（通道數 × MT/s × 8 bytes）以 {fmt(off.host_bw_gbs)} GB/s 讀取")
    from rules import catalog
    from rules.display import local_name
    host = catalog.hardware(off.host)
    return (f", read at {fmt(off.host_bw_gbs)} GB/s (assumed host: {host.name})" if lang == "en"
            else f"，以假設的主機（{local_name(host, 'zh')}）{fmt(off.host_bw_gbs)} GB/s 讀取")


def _headline(advice: "Advice", lab: dict, lang: str) -> str:
    """One line: engine, layout on the user's devices, fit and speed."""
    d, est, sep = advice.decision, advice.estimate, " · "
    head = f"**{lab['rec']}{_colon(lang)}{display(d.primary)}**" if d.primary else _bold_label(lab['rec'], lang) + lab['none']
    bits = []
    par = _layout(advice)
    s = advice.profile.summary
    if s.hardware and advice.intent != "size":
        from agent.names import hardware_name
        name = hardware_name(s.hardware, lang)
        count = (s.count or 1) * (s.nodes or 1)
        where = (f"{count} × {name}" if count > 1 else name)
        dims = par.degrees() if par and d.primary else ""   # no engine: no layout to run
        bits.append(f"{where} {lab['on']}{(' ' + dims) if dims else ''}" if lang == "zh" else
                    (f"{dims} on {where}" if dims else f"on {where}"))
    if est is not None:
        fit = lab["fits"] if est.fits else lab["nofit"]
        off = est.offload   # the engine keeps what does not fit in system RAM: say so, with that speed
        if off is not None:
            fit = (f"{fit} the GPU memory, runs with {fmt(off.ram_gb)} GB in system RAM" if lang == "en" else
                   f"{fit}顯存，{fmt(off.ram_gb)} GB 放在系統記憶體上跑") + _host_read(off, lang)
        bits.append(f"{fit} ({lab['weights']} {fmt(est.weights_gb)} GB)" if lang == "en" else f"{fit}（{lab['weights']} {fmt(est.weights_gb)} GB）")
        if est.decode_tokens_per_s and (est.fits or off is not None):   # a GPU-only speed of a setup that does not fit is not a figure to act on
            speed = f"~{fmt(est.decode_tokens_per_s)} tok/s {lab['per_stream']}" if lang == "en" else \
                f"{lab['per_stream']}約 {fmt(est.decode_tokens_per_s)} tok/s"
            one = est.single_stream_tokens_per_s
            if est.concurrency > 1 and one and one > 1.1 * est.decode_tokens_per_s:   # the load's figure, said as such
                speed = (f"~{fmt(est.decode_tokens_per_s)} tok/s {lab['per_stream']} at {est.concurrency:,} concurrent "
                         f"(one stream alone ~{fmt(one)})" if lang == "en" else
                         f"併發 {est.concurrency:,} 時{lab['per_stream']}約 {fmt(est.decode_tokens_per_s)} tok/s"
                         f"（單一串流約 {fmt(one)}）")
            if est.ttft_s is not None:
                speed += f", TTFT {fmt(est.ttft_s)} s" if lang == "en" else f"，首字延遲 {fmt(est.ttft_s)} s"
            from agent.sweep import full_window_ttft
            long = full_window_ttft(advice)   # the user's own long prompt, not only the typical short one
            if long:
                speed += (f" ({long[0]:,}-token prompt alone: TTFT ~{fmt(long[1])} s)" if lang == "en" else
                          f"（單一 {long[0]:,} token 提示：首字延遲約 {fmt(long[1])} s）")
            bits.append(speed)
        cap = advice.plan.search.capacity if advice.plan is not None and advice.plan.search is not None else None
        if cap is not None:   # the load is beyond the devices: the replicas it needs, not a queue's TTFT
            bits.append(f"over capacity by {cap.over_by:g}x: needs about {cap.replicas_needed} replicas "
                        f"({cap.devices_needed} devices)" if lang == "en" else
                        f"超出容量約 {cap.over_by:g} 倍：需要約 {cap.replicas_needed} 個副本（{cap.devices_needed} 張）")
    return head + (" — " + sep.join(bits) if bits else "")


def _measure(advice: "Advice", lab: dict, lang: str) -> list[str]:
    """What to measure before committing, in one line."""
    spec = advice.benchmark
    if spec is None:
        return []
    sep = "、" if lang == "zh" else ", "
    key = [m for m in spec.metrics if m in ("ttft", "tpot", "p99", "output_tokens_per_s", "kv_cache_hit_rate",
                                              "cost_per_1m_tokens")][:4]
    levels = sep.join(fmt(c) for c in spec.workload.concurrency)
    if lang == "zh":
        return [f"{_bold_label(lab['measure'], lang)}{sep.join(key)}，併發 {levels}（`advisor benchspec`）。"]
    return [f"**{lab['measure']}:** {sep.join(key)} at {levels} concurrent requests (`advisor benchspec`)."]


def _summary(advice: "Advice", index: dict[str, int], lab: dict, lang: str) -> list[str]:
    """The opening a busy engineer acts on: engine, plan, fit and speed; two reasons; what to measure."""
    from agent.slo_check import slo_line
    from agent.context_note import window_line
    out = [_headline(advice, lab, lang), *filter(None, [slo_line(advice), window_line(advice)])]
    reasons = _reasons(advice, index) if advice.decision.primary else []
    if reasons:
        out += [f"{lab['why']}{_colon(lang).rstrip()}", *[f"- {_short(r)}" for r in reasons[:_summary_reasons(advice)]]]
    est = advice.estimate
    if est is not None and not est.fits:
        limit = (est.binding_constraint_zh if lang == "zh" else None) or est.binding_constraint
        from agent.workable import lines as workable_lines
        out += workable_lines(advice.workable, lang, f"{lab['limit']}{_colon(lang)}{limit}")
    return out + _measure(advice, lab, lang)


def _details(advice: "Advice", index: dict[str, int], lab: dict, lang: str) -> list[str]:
    """Everything behind the summary: the remaining reasons, alternatives, engines to avoid, bottleneck, plan."""
    d, out, sep = advice.decision, [], "、" if lang == "zh" else ", "
    reasons = _reasons(advice, index) if d.primary else []
    longer = reasons[_summary_reasons(advice):]
    if longer:
        out += [f"**{lab['more_why']}{_colon(lang).rstrip()}**", *[f"- {r}" for r in longer], ""]
    if d.alternatives:
        out += [f"**{lab['alts']}{_colon(lang).rstrip()}** " + sep.join(display(e) for e in d.alternatives), ""]
    if d.avoid:
        out += [f"**{lab['avoid']}{_colon(lang).rstrip()}**", *_avoid_lines(advice, lang), ""]
    if d.bottleneck:
        out += [f"**{lab['bottleneck']}{_colon(lang).rstrip()}** {bottleneck_label(d.bottleneck, lang)}", ""]
    par = _layout(advice)
    if par and par.strategy and advice.intent != "size":
        dims = par.degrees()
        name = "單一裝置" if lang == "zh" and par.strategy == "none" else par.strategy.upper()
        out += [f"**{lab['parallel']}{_colon(lang).rstrip()}** {name}" + (f" ({dims})" if dims else "")
                + (f"{_colon(lang)}{par.reason}" if par.reason else ""), *_plan_lines(advice, lab, lang), ""]
    return out


_OFF_PLATFORM = "constraint-hardware-support"
_NOT_HERE = {"constraint-orchestrator-single-box"}
"""Exclusions about engines the user is not weighing (an orchestrator on one box): left out of the text unless named."""


def _avoid_lines(advice: "Advice", lang: str) -> list[str]:
    """One line per engine set aside for a reason about this setup; engines that do not run on the platform at all
    share one short line, and an orchestrator ruled out on one machine is left out, unless the user named them."""
    from agent.topic_lead import named_engines
    named, sep = set(named_engines(advice.question or "", limit=None)), "、" if lang == "zh" else ", "
    one_box = (advice.profile.summary.nodes or 1) <= 1
    lines, off = [], []
    unnamed_local = _LOCAL_FIRST - named - {advice.decision.primary, *advice.decision.alternatives}
    for a in advice.decision.avoid:
        if a.engine not in named and (a.rule in _NOT_HERE or (a.engine == "dynamo" and one_box)):
            continue
        if a.rule == _DEMO_PITFALL and a.engine in unnamed_local and _server_class(advice):
            continue   # "Ollama is for demos" on a datacenter node nobody runs Ollama on: another setup's warning
        if a.engine not in named and a.rule == _OFF_PLATFORM and not _runs_on_platform(a.engine, advice):
            off.append(display(a.engine))
            continue
        lines.append(f"- {display(a.engine)}{_colon(lang)}{a.reason}")
    if off:
        lines.append("- " + ("這個硬體不支援（或只有實驗性支援）：" if lang == "zh" else
                             "Not supported on this hardware (or experimental only): ") + sep.join(off))
    return lines


_DEMO_PITFALL = "pitfall-demo-engine-in-production"


def _server_class(advice: "Advice") -> bool:
    """Datacenter accelerators: nobody weighs a local-first server there unless they name it."""
    from rules import catalog
    hw = advice.profile.summary.hardware
    try:
        return bool(hw) and catalog.hardware(hw).hw_class == "datacenter"
    except Exception:
        return False


def _runs_on_platform(engine_id: str, advice: "Advice") -> bool:
    """The engine has native or plugin support for the device's platform (True when unknown): a refusal
    then has a device-specific reason (compute capability, FP16 speed) worth its own line."""
    from rules import catalog
    from rules.engines import engine
    from rules.errors import AdvisorError
    hw = advice.profile.summary.hardware
    try:
        platform = catalog.hardware(hw).platform if hw else None
    except AdvisorError:
        return True
    status = engine(engine_id).platforms.get(platform) if platform else None
    return platform is None or (status is not None and status.status != "experimental")


def _plan_lines(advice: "Advice", lab: dict, lang: str) -> list[str]:
    """The planner's runner-up and rule lines, what it changed, and the primary's launch command."""
    plan = advice.plan
    if plan is None or plan.search is None:
        return []
    search = plan.search
    lines = [f"- {w}" for w in (search.why.get(lang) or [])[1:]]
    lines += [f"- {lab['changed']}: {c}" for c in search.changes.get(lang) or []]
    lines += [f"- {n}" for n in search.notes.get(lang) or []]   # what the plan assumed (load, wiring)
    launch = next((c for c in plan.launch if c.engine == advice.decision.primary), None)
    if launch is not None:
        lines.append(f"- {lab['launch']} ({display(launch.engine)}): `{launch.command}`")
        lines += [f"  - {n}" for n in (search.launch_notes.get(launch.engine) or {}).get(lang) or []]
    return lines


def _sizing_lines(advice: "Advice") -> list[str]:
    """The ranked hardware options of a sizing question (rendered by agent.sizing)."""
    if not advice.sizing:
        return []
    from agent.sizing import render
    return render(advice.sizing).rstrip("\n").split("\n")


_CJK = re.compile(r"[\u3400-\u9fff]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


def chunk_lang(text: str) -> str:
    """zh when a fair share of the letters are CJK (a Chinese note with English terms), else en."""
    cjk = len(_CJK.findall(text))
    return "zh" if cjk >= 0.2 * max(1, len(re.findall(r"\w", text))) else "en"


_STOP = frozenset("what which when where does with from that this there their about between difference much many "
                  "should would could have into than them then they your need".split())


_FUNCTION_ZH = frozenset("是什麼為嗎呢的了要需它我你們怎如何哪個有沒能可以和跟與在這那會嗎還就都")


def _terms(question: str) -> set[str]:
    """The words of a question that can pick sentences: Latin words of 3+ letters, CJK character pairs."""
    low = question.lower()
    latin = {w for w in re.findall(r"[a-z][a-z0-9.+-]{2,}", low) if w not in _STOP}
    cjk = {m.group(1) for m in re.finditer(r"(?=([\u3400-\u9fff]{2}))", question) if not set(m.group(1)) & _FUNCTION_ZH}
    return latin | cjk


def _score(sentence: str, terms: set[str]) -> int:
    low = sentence.lower()
    return sum(1 for t in terms if t in low)


def _gist(text: str, terms: set[str], rx: "re.Pattern | None" = None, limit: int = 260) -> str:
    """The sentences of a chunk that bear on the question (on the asked topic, else sharing the most of
    its words, else its opening ones), in their order, up to `limit` characters, emphasis removed."""
    clean = re.sub(r"\*\*|__|`", "", " ".join(text.split()))
    sentences = [x.strip().lstrip("-•* ").strip() for x in _SENTENCE.split(clean) if x.strip().lstrip("-•* ")]
    if rx is not None and any(rx.search(x) for x in sentences):
        sentences = [x for x in sentences if rx.search(x)]
    elif terms and any(_score(x, terms) for x in sentences):
        best = max(_score(x, terms) for x in sentences)
        sentences = [x for x in sentences if _score(x, terms) >= max(1, best - 1)]
    out = ""
    for sentence in sentences:
        if out and len(out) + len(sentence) > limit:
            break
        out += ("" if not out or out.endswith(("。", "！", "？")) else " ") + sentence
    out = out.strip() or clean[:limit]
    return out if len(out) <= 2 * limit else out[:2 * limit].rsplit(" ", 1)[0] + " …"


def _explanation(advice: "Advice", lab: dict, lang: str, led: bool = False) -> list[str]:
    """An explain answer from the chunks in the user's language: the sentences on the asked topic (or
    sharing the question's words), cited; chunks that match best first."""
    from agent.topic_lead import pattern
    rx, terms = pattern(advice), _terms(advice.question)
    mine = [(n, c) for n, c in enumerate(advice.citations, start=1) if chunk_lang(c.text) == lang]

    def relevance(nc) -> tuple:
        text = nc[1].title + " " + nc[1].text
        return (not (rx and rx.search(text)), -max([_score(x, terms) for x in _SENTENCE.split(text)] or [0]))
    mine.sort(key=relevance)
    if terms or rx is not None:   # only chunks that bear on the question
        mine = [nc for nc in mine if relevance(nc) < (True, 0)]
    if not mine:
        return [] if led else [lab["kb_other"] if advice.citations else lab["kb_none"]]
    return [f"**{lab['explain']}{_colon(lang).rstrip()}**", *[f"- {_gist(c.text, terms, rx)} [{n}]" for n, c in mine[:3]]]


def sources_block(advice: "Advice") -> list[str]:
    """The numbered list of retrieved chunks the markers point to."""
    if not advice.citations:
        return []
    lab = LABELS["zh" if advice.language == "zh" else "en"]
    return ["", f"**{lab['sources']}:**",
            *[f"[{n}] {c.title} — {source_label(c.source)} (`{c.id}`)" for n, c in enumerate(advice.citations, 1)]]


def understanding_lines(advice: "Advice") -> list[str]:
    """What the answer is about: a new or amended profile."""
    from agent.understand import change_note
    change = advice.profile_change.model_dump() if advice.profile_change else None
    note = change_note(change, advice.language)
    return [f"> {note}", ""] if note else []


_LOCAL_FIRST = frozenset({"ollama", "llama.cpp", "mlx-lm"})
_GENERIC_WARNINGS = {"pitfall-single-user-benchmark": "bench", "faq-benchmark-mismatch": "bench",
                     "pitfall-demo-engine-in-production": "local", "serve-production": "shortlist",
                     "hw-nvidia-datacenter": "bench"}
"""Warnings that say something general: left out when the answer already says it (the benchmark block
asks for real lengths and concurrency; the hardware rule already shortlists the production engines) or
when it is about another setup (local-first servers nobody named or was offered)."""


_PP_FIRST = ("faq-8x4090-tensorrt",)
"""Rules whose warning tells the user to start with pipeline parallelism (the source article's advice for
PCIe boards); the plan compares TP and PP on the estimate and says so when it picks TP."""


def shown_warnings(advice: "Advice") -> list[str]:
    """The warnings worth reading for this setup, in order."""
    from agent.topic_lead import named_engines
    from rules.ruleset import rule_index
    d, fired = advice.decision, set(advice.decision.rules)
    local = _LOCAL_FIRST & {d.primary, *d.alternatives, *named_engines(advice.question or "", limit=None)}
    skip = {"bench": advice.benchmark is not None, "local": not local, "shortlist": "hw-nvidia-datacenter" in fired}
    drop: set[str] = set()
    for rule_id, why in _GENERIC_WARNINGS.items():
        rule = rule_index().get(rule_id)
        if rule_id in fired and skip[why] and rule is not None and rule.effects.warning is not None:
            drop |= {rule.effects.warning.en, rule.effects.warning.zh}
    lay = advice.plan.layout if advice.plan is not None else None
    if lay is not None and lay.tp > 1:   # the plan weighed TP against PP and chose TP: no "start with PP"
        for rule_id in _PP_FIRST:
            rule = rule_index().get(rule_id)
            if rule_id in fired and rule is not None and rule.effects.warning is not None:
                drop |= {rule.effects.warning.en, rule.effects.warning.zh}
    weighed = {d.primary, *d.alternatives, *named_engines(advice.question or "", limit=None)}
    return [w for w in advice.warnings if not any(_filled(t, w) for t in drop) and not _others_format(w, weighed)]


def _filled(template: str, text: str) -> bool:
    """The warning `text` is `template` with its {placeholders} filled in."""
    parts = re.split(r"\{[a-z_]+\}", template)
    return bool(re.fullmatch(".+?".join(re.escape(p) for p in parts), text, re.S))


_FORMAT_WARNING = re.compile(r"^(?:Quantization|量化格式) [^:：]+[:：]")


def _others_format(warning: str, weighed: set) -> bool:
    """"Quantization bf16: ollama can load bf16 but ...": about engines nobody asked about and none recommended."""
    if not _FORMAT_WARNING.match(warning):
        return False
    from rules.engines import all_engines
    named = {e for e in all_engines() if re.search(rf"(?<![\w.-]){re.escape(e)}(?![\w-])", warning)}
    return bool(named) and not named & weighed


_NUM = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def _used(item: str, body: str) -> bool:
    """A number the answer itself states ("~3,000-token" beside "a 3,000-token shared prompt"): it was used. Only
    figures of 10 and more: a small count appears in any answer by chance."""
    values = {float(m.group(0).replace(",", "")) for m in _NUM.finditer(item)}
    said = {float(m.group(0).replace(",", "")) for m in _NUM.finditer(body)}
    return bool(values) and all(v >= 10 for v in values) and values <= said


def unplaced_lines(advice: "Advice", body: str = "") -> list[str]:
    """Words that looked like a device, model or number but were not placed: said once, at the end (not a
    number the answer's `body` states: the answer used it)."""
    from agent.understand import unplaced_note
    items = [n.model_dump() for n in advice.not_understood if not (n.kind == "number" and _used(n.text, body))]
    note = unplaced_note(items, advice.language)
    return ["", f"> {note}"] if note else []


def template_answer(advice: "Advice") -> str:
    """The full Markdown answer (never fails, never invents): the asked-about topics first, then a short
    summary (engine, plan, fit and speed, two reasons, what to measure), then the details."""
    from agent.topic_lead import lead
    lang = "zh" if advice.language == "zh" else "en"
    lab = LABELS[lang]
    index = {c.id: n for n, c in enumerate(advice.citations, start=1)}
    intent = advice.intent
    est_obj, spec = advice.estimate, advice.benchmark
    est = [f"**{lab['estimate']}{_colon(lang).rstrip()}**", *_estimate_lines(est_obj.model_dump(), lab, lang)] if est_obj else []
    bench = ([f"**{lab['bench']}{_colon(lang).rstrip()}**", *_bench_lines(spec.workload.concurrency, spec.metrics, lab, lang)]
             if spec else [])
    out: list[str] = [f"> {lab['steer']}", ""] if advice.injection else []
    out += understanding_lines(advice)
    opening = lead(advice)
    out += opening
    if intent == "explain":
        blocks = [_explanation(advice, lab, lang, led=bool(opening))]
    else:
        details = _details(advice, index, lab, lang)
        first = {"estimate": est, "benchmark": bench, "size": _sizing_lines(advice)}.get(intent)
        rest = [b for b in (est, bench) if b is not first]
        blocks = [first or [], _summary(advice, index, lab, lang),
                  [f"### {lab['details']}", ""] + details if details or rest else [], *rest]
    for block in blocks:
        if block:
            out += [*block, ""]
    assumed = [assumption_text(a, lang) for a in advice.assumptions]
    for key, items in (("warn", shown_warnings(advice)), ("assume", assumed)):
        if items:
            out += [f"**{lab[key]}{_colon(lang).rstrip()}**", *[f"- {w}" for w in items], ""]
    out += unplaced_lines(advice, "\n".join(out)) + sources_block(advice)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"
