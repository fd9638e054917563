"""Sizing from the user's words: "what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?".

Reads the model, the load and the latency targets with the deterministic extractors, fills what is
missing with the same documented defaults as the conversation (said as assumptions), and asks
`rules.plan.sizing` for ranked hardware options.
"""
from __future__ import annotations

from typing import Any

from agent.extract_slo import latency_targets
from rules.errors import InputError
from rules.profile import Profile, build_profile


def _targets(found: dict[str, float], profile: Profile, load: int, lang: str) -> tuple[dict[str, float], list[str]]:
    """The stated targets, the use case's default for any that is missing (with a note)."""
    from rules.benchspec.slos import slos_for
    slo = slos_for(profile.workload or "chat", load, profile.priority, [])[0]
    notes = []
    out = dict(found)
    for key, default, what in (("ttft_ms", slo.ttft_p99_ms, "TTFT"), ("tpot_ms", slo.tpot_p99_ms, "TPOT")):
        if key not in out:
            out[key] = default
            notes.append(f"{what} target {default:g} ms: the advisor's default for {profile.workload or 'chat'} "
                         "(you did not give one)" if lang == "en" else
                         f"{what} 目標 {default:g} ms：{profile.workload or 'chat'} 的預設值（您沒有指定）")
    return out, notes


def request_for(profile: Profile, text: str, lang: str):
    """(SizingRequest, assumptions) for a profile and the user's words (targets are read from them)."""
    from rules.facts import derive_facts
    from rules.plan.sizing import SizingRequest
    if not profile.model:
        raise InputError("name the model to size for (e.g. 'Llama 3.3 70B'); a size alone is not enough to plan")
    facts, _ = derive_facts(profile.model_copy(update={"hardware": None, "count": None, "nodes": 1}))
    load = profile.concurrency or facts.get("load")
    if not load:
        raise InputError("say how many users or requests at once to size for (e.g. '200 users', '50 concurrent')")
    notes = []
    if profile.concurrency is None or "concurrency" in profile.assumed:
        from rules.serving import peak_note
        basis = peak_note(profile.users, load) if profile.users else "the default for what you described"
        basis_zh = peak_note(profile.users, load, "zh") if profile.users else "依您描述情境的預設值"
        notes.append(f"{load} requests in flight assumed ({basis})" if lang == "en"
                     else f"假設約 {load} 個同時請求（{basis_zh}）")
    targets, more = _targets(latency_targets(text)[0], profile, load, lang)
    named = (profile.hardware,) if profile.hardware else ()
    prices = {profile.hardware: profile.device_hour_usd} if profile.hardware and profile.device_hour_usd else {}
    req = SizingRequest(model=profile.model, concurrency=int(load), quantization=profile.quantization,
                        input_tokens=profile.input_tokens, output_tokens=profile.output_tokens,
                        context_length=profile.context_length, priority=profile.priority, workload=profile.workload,
                        hardware=named, prices=prices, **targets)
    return req, notes + more


def sizing_request(text: str):
    """(SizingRequest, assumptions, language) for a sizing question; InputError names what is missing."""
    from agent.extract import extract
    ext = extract(text)
    values = dict(ext.values)
    keep = {k: v for k, v in values.items() if k in Profile.model_fields and k not in ("count", "nodes")}
    req, notes = request_for(build_profile(keep), text, ext.language)
    return req, notes, ext.language


def size_for(profile: Profile, text: str) -> dict[str, Any]:
    """The sizing object for a conversation's profile and words (the `sizing` key of `ask --json`)."""
    from rules.plan.sizing import size
    req, notes = request_for(profile, text, profile.language)
    result = size(req).model_dump(mode="json")
    result["assumptions"] = notes
    result["language"] = profile.language
    return result


def size_text(text: str) -> dict[str, Any]:
    """The `advisor size --json` object: ranked options, how they were ranked, assumptions."""
    from rules.inputs import clean_text
    from rules.plan.sizing import size
    text = clean_text(text, "question")
    if not text.strip():
        from rules.errors import InputError
        raise InputError("empty question: name the model and the load, e.g. 'Llama 3.3 70B, 200 users'")
    req, notes, lang = sizing_request(text)
    result = size(req).model_dump(mode="json")
    result["assumptions"] = notes
    result["language"] = lang
    return result


def name_of(option: dict[str, Any], zh: bool) -> str:
    """A sizing option's device name as the list prints it."""
    from rules.display import short_name
    return short_name(option["name"]) if zh else option["name"]


def render(result: dict[str, Any]) -> str:
    """The sizing answer as Markdown, in the user's language."""
    zh = result.get("language") == "zh"
    req = result["request"]
    from rules import catalog
    name = catalog.model(req["model"]).name
    head = (f"**{name}，{req['concurrency']} 個同時請求，TTFT ≤ {req['ttft_ms']:g} ms、TPOT ≤ {req['tpot_ms']:g} ms 的硬體選項**"
            if zh else f"**Hardware for {name} at {req['concurrency']} requests in flight, "
                       f"TTFT <= {req['ttft_ms']:g} ms, TPOT <= {req['tpot_ms']:g} ms**")
    lines = [head, ""]
    top = (result["options"] or [None])[0]
    if top and result["any_meets"]:   # the question is usually "how many": say it before the list
        n = top["count"] * top["nodes"]
        lines.insert(1, f"這個負載需要 {n} 張 {name_of(top, zh)}（見下方第 1 個選項）。" if zh else
                     f"This load needs {n} x {name_of(top, zh)} (option 1 below).")   # in the title's paragraph
    if not result["any_meets"]:
        lines += ["沒有選項達到目標；以下是最接近的：" if zh else "No option meets the targets; the closest ones:", ""]
    for n, o in enumerate(result["options"], start=1):
        f, lay = o["plan"]["figures"], o["plan"]["layout"]
        from rules.display import short_name
        from rules.plan import Layout
        devices = o["count"] * o["nodes"]
        where = f"{o['nodes']} x {o['count']}" if o["nodes"] > 1 else str(devices)
        cost = (f", ${o['cost_per_hour']:.2f}/h" if o.get("cost_per_hour") else "")
        if o.get("cost_per_1m_tokens"):
            cost += f" (${o['cost_per_1m_tokens']:.2f} {'每百萬 tokens' if zh else 'per 1M tokens'})"
        miss = "" if o["meets_targets"] else (f"（未達：{'; '.join(o['misses'])}）" if zh else f" (misses: {'; '.join(o['misses'])})")
        shape = Layout(**lay).describe("zh" if zh else "en")
        hw_name = short_name(o["name"]) if zh else o["name"]   # a zh-Hant answer without the English qualifier
        lines.append(f"{n}. {where} x {hw_name} — {shape}, {o['plan']['quantization']}"
                     + (f", KV {o['plan']['kv_cache_dtype']}" if o['plan']['kv_cache_dtype'] else "")
                     + f": TTFT {f['ttft_s']} s, TPOT {f['tpot_ms']} ms, {f['tokens_per_s']} tok/s{cost}{miss}")
    lines += ["", ("排序依據：" if zh else "Ranked by: ") + result["ranked_by"]["zh" if zh else "en"]]
    notes = result["notes"]["zh" if zh else "en"] + result.get("assumptions", [])
    if notes:
        lines += ["", "**假設：**" if zh else "**Assumptions:**", *[f"- {x}" for x in notes]]
    return "\n".join(lines) + "\n"
