"""Roofline predictions for the spec: the estimate at the peak and at concurrency 1.

The estimator is another module of `rules/`; when it is missing, or the profile lacks a fact it
needs, the spec still builds and says why it has no prediction.
"""
from __future__ import annotations

from typing import Any

from rules.errors import AdvisorError
from rules.profile import Profile

# Estimate keys the criteria and the reconcile step read (DESIGN.md `estimate` contract).
KEYS = ("fits", "decode_tokens_per_s", "decode_tokens_per_s_bound", "prefill_tokens_per_s",
        "ttft_s", "tpot_ms", "max_concurrency", "binding_constraint", "weights_gb",
        "kv_bytes_per_token", "parallelism")


def as_dict(estimate: Any) -> dict[str, Any] | None:
    """An estimate (pydantic object or dict) as a plain dict."""
    if estimate is None:
        return None
    if hasattr(estimate, "model_dump"):
        return estimate.model_dump()
    return dict(estimate)


def planned_profile(profile: Profile, concurrency: int, input_tokens: int,
                    output_tokens: int, context_tokens: int | None = None) -> Profile:
    """The profile as the main run exercises it.

    Missing concurrency and lengths take the planned values; the context is clipped to what the
    main run's requests actually hold (`context_tokens`), so predictions describe the run that is
    measured rather than the longest context the user mentioned.
    """
    note = "planned value of the benchmark spec"
    for field, value in (("concurrency", concurrency), ("input_tokens", input_tokens),
                         ("output_tokens", output_tokens)):
        if getattr(profile, field) is None:
            profile = profile.with_value(field, value, assumed=True, note=note)
    if context_tokens and profile.context_length and context_tokens < profile.context_length:
        profile = profile.with_value("context_length", context_tokens, assumed=True,
                                     note="longest request of the main run")
    return profile


def estimate_at(profile: Profile, engine: str | None, concurrency: int,
                notes: list[str], layout: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The roofline estimate for the profile at one concurrency, or None (reason noted).

    `layout` is the plan's {strategy, tp, pp, ep, dp}: the benchmark measures the deployment the
    answer recommends, not the estimator's default split."""
    try:
        from rules.roofline import estimate_for_profile
    except ImportError:
        notes.append("The roofline estimator is not available: criteria have no predicted values.")
        return None
    try:
        at = profile if profile.concurrency == concurrency else \
            profile.with_value("concurrency", concurrency, assumed=True, note="benchmark level")
        return as_dict(estimate_for_profile(at, engine=engine, parallelism=layout))
    except AdvisorError as exc:
        notes.append(f"No roofline prediction at concurrency {concurrency}: {exc}")
        return None


def layout_of(source: Any) -> dict[str, Any] | None:
    """The layout a plan chose (its `chosen` layout) or an estimate was computed at ({strategy, tp,
    pp, ep, dp}); None for one device or when there is neither."""
    data = as_dict(source)
    if not data:
        return None
    if data.get("chosen"):
        from rules.plan import Layout
        par = Layout(**data["chosen"]["layout"]).parallelism()
    else:
        par = data.get("parallelism")
    return par if isinstance(par, dict) and par.get("strategy") not in (None, "none") else None


def summary(single: dict[str, Any] | None, peak: dict[str, Any] | None,
            peak_level: int, planned: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The prediction block of the spec: contract keys at concurrency 1, at the peak, and at the
    plan's own load and context (`planned`, the answer's estimate)."""
    if single is None and peak is None and planned is None:
        return None
    pick = (lambda e: {k: e.get(k) for k in KEYS + ("parallelism",) if k in e} if e else None)
    out = {"single_stream": pick(single), "peak": pick(peak), "peak_concurrency": peak_level}
    if planned is not None:
        out["planned"] = pick(planned)
    return out
