"""The user's latency targets against the plan: "TTFT < 2 s, at least 15 tok/s per user" is read from
everything the user wrote in the request (the opening and the replies) and the answer says, in one
line, whether the planned layout meets it at the planned load.

    stated_slo(texts) -> {"ttft_ms", "tpot_ms", "evidence": {...}} | None
    slo_line(advice) -> str | None     the verdict, in the user's language
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent.extract_slo import latency_targets

if TYPE_CHECKING:
    from agent.advice import Advice


def stated_slo(texts: list[str]) -> dict[str, Any] | None:
    """The targets the user's words state (None when they state none)."""
    found: dict[str, float] = {}
    evidence: dict[str, str] = {}
    from rules import memo
    for text in texts:   # read once per turn per text (the estimate node and the Advice both ask)
        values, said = memo.once(("latency-targets", text or ""), lambda t=text or "": latency_targets(t))
        for key, value in values.items():   # a later reply restating a target amends it
            found[key], evidence[key] = value, said[key]
    return {**found, "evidence": evidence} if found else None


def state_slo(state: dict) -> dict[str, float] | None:
    """The targets stated anywhere in a conversation state's transcript ({ttft_ms, tpot_ms} only)."""
    from agent.extract_text import normalize
    found = stated_slo([normalize(t).norm for t in (state.get("transcript") or [state.get("text") or ""]) if t])
    return {k: v for k, v in found.items() if k != "evidence"} if found else None


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def slo_line(advice: "Advice") -> str | None:
    """Whether the plan's typical-request figures meet the stated targets (None: no target stated, or no
    figures to judge it by)."""
    slo, est = advice.slo, advice.estimate
    if not slo or advice.intent == "size":   # a sizing answer ranks its options against the targets itself
        return None
    zh = advice.language == "zh"
    said = "、".join(slo["evidence"].values()) if zh else "; ".join(slo["evidence"].values())
    if est is None:
        return (f"- 您的延遲目標（{said}）：沒有可用的估計值能判斷，請用基準測試確認。" if zh else
                f"- Your target ({said}): there is no estimate to judge it by; check it with the benchmark.")
    if not est.fits:
        return (f"- 您的延遲目標（{said}）：模型放不進這個硬體，這裡沒有任何目標能達成。" if zh else
                f"- Your target ({said}): the model does not fit this hardware, so no target can be met here.")
    checks, misses = [], []
    if "ttft_ms" in slo and est.ttft_s is not None:
        ok = est.ttft_s * 1000 <= slo["ttft_ms"]
        checks.append(f"TTFT {_num(est.ttft_s)} s")
        if not ok:
            misses.append("TTFT")
    elif "ttft_ms" in slo:   # the planner dropped a queueing TTFT: the load is beyond the devices
        at = est.concurrency or 1
        return (f"- 您的延遲目標（{said}）：在 {at} 個同時請求下這個規劃超出容量，請求會排隊，所以達不到；"
                "要把負載分到更多副本上（見下方的容量說明）。" if zh else
                f"- Your target ({said}): at {at} requests in flight this plan is over capacity and requests queue, "
                "so it misses it until the load is spread over more replicas (see the capacity line below).")
    if "tpot_ms" in slo and est.tpot_ms:
        ok = est.tpot_ms <= slo["tpot_ms"]
        rate = 1000 / est.tpot_ms
        checks.append(f"TPOT {_num(est.tpot_ms)} ms（每人約 {_num(rate)} tok/s）" if zh else
                      f"TPOT {_num(est.tpot_ms)} ms (about {_num(rate)} tok/s per user)")
        if not ok:
            misses.append("TPOT")
    if not checks:
        return None
    at = est.concurrency or 1
    figures = "、".join(checks) if zh else ", ".join(checks)
    if zh:
        verdict = "符合" if not misses else f"未達（{'、'.join(misses)}）"
        return (f"- 您的延遲目標（{said}）：這個規劃在 {at} 個同時請求下估計 {figures}，{verdict}；"
                "這是典型請求的估計值，p95/p99 請留餘裕並實測。")
    verdict = "meets it" if not misses else f"misses it ({', '.join(misses)})"
    return (f"- Your target ({said}): this plan at {at} requests in flight gives an estimated {figures}, so it "
            f"{verdict}; these are typical-request figures, so keep a margin for p95/p99 and measure.")
