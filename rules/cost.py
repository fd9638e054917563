"""Cost per 1M tokens at the user's own volume: the devices are paid by the hour whether or not they
serve, so the cost that matters is the month's bill over the tokens actually served, beside the
full-utilisation figure (the plan's output tok/s at its planned load, every hour of the month).

    at_volume(devices, usd_per_device_hour, full_tok_s, tokens, output_tokens, utilisation) -> VolumeCost

Pure arithmetic, each figure a formula you can check by hand.
"""
from __future__ import annotations

import functools
import math

from pydantic import BaseModel, ConfigDict

HOURS_PER_MONTH = 730.0
"""Hours paid per month for devices left on: 8,760 hours a year / 12."""


class VolumeCost(BaseModel):
    """The month's bill and what each token costs at the stated volume."""

    model_config = ConfigDict(extra="forbid")
    monthly_usd: float
    """devices × $/device-hour × 730 h (always on)."""
    per_1m_tokens: float | None = None
    """monthly_usd ÷ (all tokens served per month / 1M): the cost at this volume, idle hours included."""
    per_1m_output: float | None = None
    """monthly_usd ÷ (output tokens per month / 1M), when the output volume is known."""
    full_per_1m_output: float
    """The devices busy every hour: $/hour ÷ (output tokens per hour / 1M)."""
    busy_share: float | None = None
    """Share of the month's output capacity the stated output volume uses (1.0 = always busy)."""
    devices_for_volume: int | None = None
    """Devices needed when the volume is beyond one plan's capacity (None when it fits)."""


def at_volume(devices: int, usd_per_device_hour: float, full_tok_s: float, tokens: float | None = None,
              output_tokens: float | None = None, utilisation: float | None = None) -> VolumeCost:
    """The bill and per-token costs for `tokens` (and `output_tokens`) a month, or at a stated `utilisation`."""
    hourly = devices * usd_per_device_hour
    full = hourly / (full_tok_s * 3600 / 1e6)
    capacity = full_tok_s * 3600 * HOURS_PER_MONTH   # output tokens one plan serves in a month, always busy
    copies = math.ceil(output_tokens / capacity) if output_tokens and output_tokens > capacity else 1
    monthly = hourly * HOURS_PER_MONTH * copies   # a volume beyond one plan pays for more copies of it
    out = VolumeCost(monthly_usd=round(monthly, 2), full_per_1m_output=round(full, 4),
                     devices_for_volume=devices * copies if copies > 1 else None)
    if utilisation:   # the user's own busy share: idle hours spread over the tokens served
        out.busy_share = utilisation
        out.per_1m_output = round(full / utilisation, 4)
    if tokens:
        out.per_1m_tokens = round(monthly / (tokens / 1e6), 4)
    if output_tokens:
        out.per_1m_output = round(monthly / (output_tokens / 1e6), 4)
        out.busy_share = round(output_tokens / (capacity * copies), 4)
    return out


WORK_HOURS_PER_MONTH = 220.0
"""Hours a month's traffic is assumed to arrive in when only a volume is given: 22 working days × 10 h
(an internal service's traffic follows the working day; spreading it over all 730 h would plan for a
third of the load people actually send at once)."""


def volume_load(output_per_month: float, tpot_ms: float) -> int:
    """Requests in flight that serve `output_per_month` output tokens inside the working hours, each
    stream decoding at the use case's TPOT target (Little's law: in flight = token rate × time per token)."""
    rate = output_per_month / (WORK_HOURS_PER_MONTH * 3600)   # output tokens per second while people work
    return max(1, math.ceil(rate * tpot_ms / 1000))


class ApiPrice(BaseModel):
    """A hosted API's listed price for a catalog model (rules/api_prices.yaml)."""

    model_config = ConfigDict(extra="forbid")
    model: str
    provider: str
    input_usd_per_1m: float
    output_usd_per_1m: float
    source: str
    seen: str


def listed_api_price(model_id: str | None) -> ApiPrice | None:
    """The listed API price for a catalog model id, or None (loaded and validated once)."""
    return _api_prices().get(model_id or "")


@functools.cache
def _api_prices() -> dict[str, ApiPrice]:
    import yaml
    from pathlib import Path
    from rules.errors import DataError
    path = Path(__file__).with_name("api_prices.yaml")
    out = {}
    for n, raw in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or []):
        try:
            entry = ApiPrice.model_validate(raw)
        except Exception as exc:   # a broken data file names the entry, never a traceback
            raise DataError(path.name, f"entry {n + 1}", None, str(exc).splitlines()[0]) from None
        out[entry.model] = entry
    return out


def api_monthly(price: ApiPrice, input_tokens: float, output_tokens: float) -> float:
    """What the API bills for a month's input and output tokens."""
    return input_tokens / 1e6 * price.input_usd_per_1m + output_tokens / 1e6 * price.output_usd_per_1m
