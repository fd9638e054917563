"""The cost answer at the user's own token volume (idle hours included), beside the full-utilisation
figure, and against an API price when the user quotes one; en and zh-Hant.

    volume_lines(advice) -> [str]    empty when the user gave no volume or utilisation, or no price is known
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules.cost import HOURS_PER_MONTH, WORK_HOURS_PER_MONTH, at_volume, volume_load

if TYPE_CHECKING:
    from agent.advice import Advice
    from rules.profile import Profile


def _usd(x: float) -> str:
    return f"${x:,.0f}" if x >= 100 else f"${x:,.2f}" if x >= 0.1 else f"${x:.3f}"


def _tokens(n: float, zh: bool) -> str:
    if zh:
        return f"{n / 1e8:g} 億" if n >= 1e8 else f"{n / 1e4:,.0f} 萬"
    return f"{n / 1e9:g}B" if n >= 1e9 else f"{n / 1e6:,.0f}M"


def _pct(x: float) -> str:
    return f"{x:.1%}" if x < 0.1 else f"{x:.0%}"


def volume_lines(advice: "Advice") -> list[str]:
    """What a month costs at the stated volume, per 1M tokens, beside the always-busy figure."""
    vol, est = advice.volume, advice.estimate
    if not vol or est is None or not est.cost_per_1m_tokens or not est.price_usd_per_hour or not est.aggregate_tokens_per_s:
        return []
    zh = advice.language == "zh"
    hourly = est.cost_per_1m_tokens * est.aggregate_tokens_per_s * 3600 / 1e6
    devices = max(1, round(hourly / est.price_usd_per_hour))
    total, out_tok = vol.get("tokens_per_month"), vol.get("output_per_month")
    assumed_split = ""
    if total and not out_tok:   # no split given: the prompt/answer lengths planned for give the output share
        share = est.output_tokens / (est.input_tokens + est.output_tokens)
        out_tok = total * share
        assumed_split = (f"（沒有給輸入／輸出比例，依規劃的 {est.input_tokens}／{est.output_tokens} token 長度假設輸出佔 {share:.0%}）"
                         if zh else f" (no input/output split given: output assumed {share:.0%} of it, from the "
                         f"{est.input_tokens}/{est.output_tokens}-token lengths planned for)")
    full_tok_s, full_at = _full_load(est)
    c = at_volume(devices, est.price_usd_per_hour, full_tok_s, total, out_tok, vol.get("utilisation"))
    price = _usd(est.price_usd_per_hour)
    lines = []
    if total:
        if zh:
            lines.append(f"以您的用量算（每月 {_tokens(total, True)} tokens{assumed_split}）：{devices} 個裝置全月開機 "
                         f"{HOURS_PER_MONTH:.0f} 小時 × {price}/小時 ≈ 每月 {_usd(c.monthly_usd)}，平均每百萬 tokens 約 "
                         f"{_usd(c.per_1m_tokens)}（每百萬輸出 token 約 {_usd(c.per_1m_output)}）；裝置只有約 "
                         f"{_pct(c.busy_share)} 的產能在用，閒置的時數一樣要付。")
        else:
            lines.append(f"At your volume ({_tokens(total, False)} tokens a month{assumed_split}): {devices} "
                         f"{'device' if devices == 1 else 'devices'} on all month, {HOURS_PER_MONTH:.0f} h × {price}/h ≈ {_usd(c.monthly_usd)} a month, so about "
                         f"{_usd(c.per_1m_tokens)} per 1M tokens ({_usd(c.per_1m_output)} per 1M output tokens); the "
                         f"devices would be busy about {_pct(c.busy_share)} of the time, and idle hours are paid too.")
        if vol.get("work_hours_only"):   # the traffic the user described stops after hours: so can the bill
            day = devices * est.price_usd_per_hour * WORK_HOURS_PER_MONTH
            lines.append(f"只在上班時間開機（{WORK_HOURS_PER_MONTH:.0f} 小時：22 天 × 10 小時）：每月約 {_usd(day)}，"
                         f"平均每百萬 tokens 約 {_usd(day / (total / 1e6))}。" if zh else
                         f"Run only in business hours ({WORK_HOURS_PER_MONTH:.0f} h: 22 days × 10 h), as your traffic is: "
                         f"about {_usd(day)} a month, {_usd(day / (total / 1e6))} per 1M tokens.")
    elif c.busy_share:
        lines.append(f"在您說的 {_pct(c.busy_share)} 利用率下，每百萬輸出 token 約 {_usd(c.per_1m_output)}（滿載數字 ÷ 利用率）。"
                     if zh else f"At the {_pct(c.busy_share)} utilisation you gave: about {_usd(c.per_1m_output)} per 1M "
                     "output tokens (the full-load figure ÷ utilisation).")
    if c.devices_for_volume:
        lines.append(f"這個用量超過一套配置的產能：約需 {c.devices_for_volume} 個裝置。" if zh else
                     f"This volume is beyond one copy of the plan: about {c.devices_for_volume} devices.")
    lines.append(f"滿載（全月每小時都有 {full_at} 個同時請求，記憶體放得下的上限）時約每百萬輸出 token "
                 f"{_usd(c.full_per_1m_output)}；只有長期接近滿載，自架才會接近這個數字。" if zh else
                 f"Fully busy ({full_at} requests in flight every hour, what the memory holds) it would be about "
                 f"{_usd(c.full_per_1m_output)} per 1M output tokens; self-hosting only gets near that at sustained "
                 "high load.")
    lines += _api(advice, c, zh)
    return lines


FULL_LOAD_CAP = 256
"""The batch the full-utilisation figure is taken at, at most (vLLM's default --max-num-seqs)."""


def _full_load(est) -> tuple[float, int]:
    """(output tok/s, requests in flight) with the devices as busy as their memory allows: the same layout
    estimated at its KV capacity; the planned load's figures when that cannot be estimated."""
    n = min(est.max_concurrency or 0, FULL_LOAD_CAP)
    if n <= est.concurrency:
        return est.aggregate_tokens_per_s, est.concurrency
    from rules.errors import AdvisorError
    from rules.roofline.estimate import estimate
    try:
        full = estimate(est.model, est.hardware, count=est.count, quant=est.quantization, engine=est.engine,
                        parallelism=dict(est.parallelism), input_tokens=est.input_tokens,
                        output_tokens=est.output_tokens, context_length=est.context_length, concurrency=n,
                        kv_cache_dtype=est.kv_cache_dtype)
    except (AdvisorError, ValueError, TypeError):
        return est.aggregate_tokens_per_s, est.concurrency
    if not full.aggregate_tokens_per_s or full.aggregate_tokens_per_s < est.aggregate_tokens_per_s:
        return est.aggregate_tokens_per_s, est.concurrency
    return full.aggregate_tokens_per_s, n


def _api(advice: "Advice", c, zh: bool) -> list[str]:
    """The quoted API price against the cost at this volume, or the price below which an API is cheaper."""
    from agent.extract_amounts import api_prices
    quoted = api_prices(advice.question or "")
    mine = c.per_1m_tokens or c.per_1m_output
    if mine is None:
        return []
    listed = _listed(advice, c, zh) if not quoted else []
    if listed:
        return listed
    if quoted:
        api = quoted[-1][0]
        cheaper = "API" if api < mine else ("自架" if zh else "self-hosting")
        return [f"您給的 API 價格每百萬 {_usd(api)}，以這個用量自架每百萬約 {_usd(mine)}：{cheaper}比較便宜。" if zh else
                f"Against the {_usd(api)} per 1M you quoted for the API: self-hosting costs about {_usd(mine)} per 1M "
                f"at this volume, so {cheaper} is cheaper."]
    est = advice.estimate
    given = (est.price_source or "") == "given by the user"
    where = ("裝置每小時價格是您給的" if given else f"裝置每小時價格取自型錄（{est.price_source}）") if zh else \
        ("the device-hour price you gave" if given else f"the catalog's device-hour price ({est.price_source})")
    return [f"和 API 比：在這個用量下，任何每百萬 tokens（輸入輸出平均）低於約 {_usd(mine)} 的 API 都比自架便宜；"
            f"給我 API 的輸入／輸出價格就能直接算。假設：{where}，全月開機 730 小時。" if zh else
            f"Against an API: at this volume any API charging less than about {_usd(mine)} per 1M tokens (input and "
            "output blended) is cheaper than self-hosting; give its input/output prices for a direct comparison. "
            f"Assumed: {where}, the devices on all month (730 h)."]


def with_volume_load(text: str, profile: "Profile") -> "Profile":
    """A token volume with no stated load sets the load it implies (marked assumed, the rule in words):
    without it the plan would size for a team's default load and contradict the volume's own cost."""
    if profile.concurrency is not None and "concurrency" not in profile.assumed:   # a stated load stands;
        return profile                                                            # a default gives way
    from agent.extract_text import normalize
    from agent.extract_volume import volume
    vol = volume(normalize(text).norm)
    if vol is None or not vol.tokens_per_month:
        return profile
    from rules.benchspec.slos import slos_for
    from rules.defaults import LENGTHS_BY_WORKLOAD
    workload = profile.workload or "chat"
    tpot = slos_for(workload, 1, profile.priority, [])[0].tpot_p99_ms
    i, o = LENGTHS_BY_WORKLOAD[workload]
    out = vol.output_per_month or vol.tokens_per_month * o / (i + o)
    load = volume_load(out, tpot)
    note = (f"{_tokens(out, False)} output tokens a month arriving in working hours ({WORK_HOURS_PER_MONTH:.0f} h: "
            f"22 days × 10 h), each stream at the {workload} target of {tpot:g} ms per token: about {load} in flight")
    note_zh = (f"每月 {_tokens(out, True)} 輸出 token 集中在上班時間（{WORK_HOURS_PER_MONTH:.0f} 小時：22 天 × 10 小時），"
               f"每條串流以 {workload} 目標每 token {tpot:g} ms 計，約 {load} 個同時請求")
    try:
        return profile.with_value("concurrency", load, assumed=True, note=note, note_zh=note_zh)
    except Exception:   # a profile that cannot take it keeps the interview's question
        return profile


def _listed(advice: "Advice", c, zh: bool) -> list[str]:
    """A hosted API's listed price for this model (rules/api_prices.yaml) against the month's self-hosted bill."""
    from rules.cost import api_monthly, listed_api_price
    vol, price = advice.volume or {}, listed_api_price(advice.profile.summary.model)
    total = vol.get("tokens_per_month")
    if price is None or not total:
        return []
    est = advice.estimate
    out_tok = vol.get("output_per_month") or total * est.output_tokens / (est.input_tokens + est.output_tokens)
    in_tok = vol.get("input_per_month") or total - out_tok
    bill = api_monthly(price, in_tok, out_tok)
    ratio = c.monthly_usd / bill if bill else 0
    if zh:
        head = (f"和 API 比：{price.provider} 列出的價格是每百萬輸入 ${price.input_usd_per_1m:.2f}、輸出 "
                f"${price.output_usd_per_1m:.2f}（{price.source}，{price.seen} 讀取，價格常變動），您的用量每月約 {_usd(bill)}"
                f"（平均每百萬約 {_usd(bill / (total / 1e6))}），自架則是 {_usd(c.monthly_usd)}：")
        verdict = (f"這個用量下 API 便宜約 {ratio:.0f} 倍；除非資料不能外流，或長期用量高出許多，自架才划算。"
                   if ratio >= 1.5 else "兩者相近；看資料能否外流與用量成長再決定。" if ratio > 0.67 else
                   f"這個用量下自架便宜約 {1 / ratio:.0f} 倍。")
        return [head + verdict]
    head = (f"Against an API: {price.provider} lists ${price.input_usd_per_1m:.2f} per 1M input and "
            f"${price.output_usd_per_1m:.2f} per 1M output tokens ({price.source}, read {price.seen}; prices change), "
            f"which is about {_usd(bill)} a month for your volume ({_usd(bill / (total / 1e6))} per 1M blended) "
            f"against {_usd(c.monthly_usd)} self-hosted: ")
    verdict = (f"the API is about {ratio:.0f}× cheaper at this volume; self-hosting pays only if the data cannot "
               "leave, or at a far higher sustained volume." if ratio >= 1.5 else
               "the two are close; decide on data policy and growth." if ratio > 0.67 else
               f"self-hosting is about {1 / ratio:.0f}× cheaper at this volume.")
    return [head + verdict]
