"""Figures around an answer's plan: the same profile, engine and layout, one quantity varied.

The web plots draw these curves; they call the same `estimate_for_profile` the estimate node
called, with the plan's engine and layout, so the point at the user's own load is exactly the
answer's estimate (no surface chooses its own layout).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.errors import AdvisorError
from rules.profile import Profile, build_profile

if TYPE_CHECKING:
    from agent.advice import Advice
    from rules.roofline.result import Estimate


def profile_of(advice: "Advice") -> Profile:
    """The profile the answer was computed for (values as understood; catalog-implied ones left implied)."""
    data = {f.field: f.value for f in advice.profile.fields if f.origin != "implied"}
    return build_profile(data | {"language": advice.language})


def _layout(advice: "Advice", profile: Profile) -> dict[str, Any] | None:
    """The layout argument the estimate node passed: the plan's degrees when there are several devices."""
    layout = advice.plan.layout if advice.plan else None
    if layout is None or profile.device_count <= 1:
        return None
    return layout.contract()


def estimate_at(advice: "Advice", **changes: Any) -> "Estimate | None":
    """The plan's estimate with some profile values changed (None when it cannot be computed)."""
    from agent.tools import engine_profile
    from rules.roofline import estimate_for_profile
    if advice.plan is None or advice.estimate is None:
        return None
    profile = profile_of(advice)
    est = advice.estimate
    # the load, precision and KV dtype the plan was scored at (the planner may derive the load from
    # the head count and choose the format), unless the caller varies them; the card keeps its own
    # memory (a stated system RAM does not enlarge it), as in the estimate node
    base = {"concurrency": est.concurrency, "quantization": est.quantization, "kv_cache_dtype": est.kv_cache_dtype}
    try:
        return estimate_for_profile(engine_profile(profile.model_copy(update=base | changes), advice.plan.engine),
                                    engine=advice.plan.engine, parallelism=_layout(advice, profile))
    except AdvisorError:
        return None


def over_concurrency(advice: "Advice", levels: list[int]) -> list[tuple[int, "Estimate"]]:
    """(level, estimate) at each concurrency level that could be estimated."""
    out = []
    for c in levels:
        est = estimate_at(advice, concurrency=c)
        if est is not None:
            out.append((c, est))
    return out


def over_prompt(advice: "Advice", lengths: list[int]) -> list[tuple[int, "Estimate"]]:
    """(prompt tokens, estimate) at each prompt length, the context grown to hold prompt and answer."""
    est0 = advice.estimate
    if est0 is None:
        return []
    out = []
    for n in lengths:
        est = estimate_at(advice, input_tokens=n, output_tokens=est0.output_tokens,
                          context_length=n + est0.output_tokens)
        if est is not None:
            out.append((n, est))
    return out


def full_window_ttft(advice: "Advice") -> tuple[int, float] | None:
    """(prompt tokens, TTFT s) of one request with the user's own long prompt: a prompt that fills the
    stated context, when the answer's TTFT was figured for a prompt under half of it ("32K typical" said, a
    1K chat prompt estimated), or the stated prompt when the answer's TTFT was withheld (over capacity).
    One request in flight, so it is prefill time, not queueing."""
    s, est = advice.profile.summary, advice.estimate
    if est is None:
        return None
    said = lambda f: getattr(s, f) and f not in s.assumed   # noqa: E731
    queued = est.concurrency > 1 and said("input_tokens")   # the answer's TTFT is withheld or includes queueing
    longest = s.context_length - est.output_tokens if said("context_length") else 0
    if said("input_tokens") and longest >= 1.5 * est.input_tokens:
        # "usually 8K, some documents 32K": the load was sized at the typical prompt, the window at the longest
        prompt, queued = longest, False
    elif queued:
        prompt = est.input_tokens
    elif said("context_length") and not s.input_tokens and s.context_length - est.output_tokens >= 2 * est.input_tokens:
        prompt = s.context_length - est.output_tokens
    else:
        return None
    long = estimate_at(advice, concurrency=1, input_tokens=prompt, output_tokens=est.output_tokens,
                       context_length=prompt + est.output_tokens)
    if long is None or not long.fits or not long.ttft_s:
        return None
    if queued and est.ttft_s is not None and est.ttft_s < 1.5 * long.ttft_s:
        return None   # the load adds little: the answer's own TTFT already says it
    return prompt, long.ttft_s
