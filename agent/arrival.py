"""An arrival rate the user gave ("3 requests per second", "每秒 5 個請求") turned into requests in flight.

    per_second("120 requests per minute") -> 2.0
    note("3 requests per second", estimate, "en") -> "'3 requests per second' is an arrival rate ... about 14 at once ..."

Little's law: requests in flight L = arrival rate λ × time a request spends in the server W. W is the estimate's
own request time (time to first token + output tokens × time per output token), so the conversion is stated with
the figures it rests on, never guessed; without an estimate the note says how to convert.
"""
from __future__ import annotations

import math
import re
from typing import Any

_F = re.I
_NUM = r"(?P<n>\d+(?:\.\d+)?)"
_RATE_EN = re.compile(rf"{_NUM}\s*(?:requests?|reqs?|queries|calls)?\s*(?:/\s*(?P<u>s|sec|min)\b|(?:per|a|each)\s+(?P<u2>second|sec|minute|min)\b)"
                      rf"|{_NUM.replace('n>', 'q>')}\s*(?:QPS|RPS)\b", _F)
_RATE_ZH = re.compile(r"每\s*(?P<u>秒|分鐘|分|小時)鐘?\D{0,8}?(?P<n>\d+(?:\.\d+)?)\s*個?\s*請求")
_SCALE = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "秒": 1.0, "分鐘": 60.0, "分": 60.0, "小時": 3600.0}


def per_second(text: str) -> float | None:
    """The arrival rate a quoted phrase states, in requests per second (None: not an arrival rate)."""
    m = _RATE_ZH.search(text or "")
    if m:
        return float(m.group("n")) / _SCALE[m.group("u")]
    m = _RATE_EN.search(text or "")
    if not m:
        return None
    if m.group("q"):
        return float(m.group("q"))
    unit = (m.group("u") or m.group("u2") or "s").lower()
    return float(m.group("n")) / _SCALE.get(unit, 1.0)


def _request_seconds(est: dict[str, Any]) -> float | None:
    ttft, tpot, out = est.get("ttft_s"), est.get("tpot_ms"), est.get("output_tokens")
    if ttft is None or tpot is None or not out:
        return None
    return float(ttft) + float(out) * float(tpot) / 1000.0


def _fmt(x: float) -> str:
    return f"{x:,.1f}" if x < 10 else f"{x:,.0f}"


def note(item: str, estimate: dict[str, Any] | None, language: str) -> str | None:
    """One sentence converting the quoted arrival rate into requests in flight with the estimate's request time."""
    rate = per_second(item)
    if not rate:
        return None
    zh = language == "zh"
    w = _request_seconds(estimate or {})
    if w is None:
        return (f"「{item}」是到達率，不是同時在跑的請求數：同時在跑的請求數 = 每秒請求數 × 每個請求的秒數（Little 定律）；"
                "請把這個數（或一個請求大約要幾秒）當作併發數告訴我。") if zh else \
            (f"'{item}' is an arrival rate, not requests in flight: in flight = requests per second × seconds per request "
             "(Little's law); give that number, or how long a request takes, as the concurrency.")
    est = estimate or {}
    flight = max(1, math.ceil(rate * w))
    out, tpot, ttft, planned = est.get("output_tokens"), est.get("tpot_ms"), est.get("ttft_s"), est.get("concurrency")
    capacity = est.get("requests_per_s")
    if zh:
        s = (f"「{item}」是到達率（每秒 {_fmt(rate)} 個請求）：依 Little 定律，同時在跑的請求數 = 到達率 × 每個請求的時間；"
             f"這裡估計一個請求約 {_fmt(w)} 秒（首字 {ttft:.2f} s + {out:,} 個輸出 token × {tpot:.1f} ms），"
             f"所以約 {flight} 個請求同時在跑")
        if capacity and rate > capacity:
            return s + f"；這個設定估計每秒只能處理約 {_fmt(capacity)} 個請求，低於到達率，請求會排隊、延遲一路上升。"
        return s + (f"（上面的估計是以 {planned} 個併發計算）。" if planned and planned != flight else "。")
    s = (f"'{item}' is an arrival rate ({_fmt(rate)} requests per second): by Little's law, requests in flight = arrival "
         f"rate × time per request; a request takes about {_fmt(w)} s here (TTFT {ttft:.2f} s + {out:,} output tokens × "
         f"{tpot:.1f} ms), so about {flight} are in flight at once")
    if capacity and rate > capacity:
        return s + f"; this setup is estimated to finish only about {_fmt(capacity)} requests per second, fewer than " \
            "arrive, so requests queue and latency keeps growing."
    return s + (f" (the estimate above is for {planned} in flight)." if planned and planned != flight else ".")
