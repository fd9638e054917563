"""The serving tier from how many people use the service, as the source article draws it.

The article's third question has five tiers: one person; a demo or an internal trial of five to ten
people (llama-server, MLX-LM and Ollama carry it); an internal team of 50-500 people (vLLM, then
SGLang); external production; a fleet. A mode word ("our team", "a demo") names the audience, a
head count or a load names the size, and the size decides the tier: "our team of 6" is the small
internal tier, "the demo goes to 400 people" is the team tier. Between 10 and 50 people the load
decides (30 requests in flight is a shared service, 20 people asking now and then is not).
External production and fleets keep their tier whatever the size: exposure, not size, makes them.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

SOURCE = "Source article, decision list 3 (one person; demo / internal 5-10; internal team 50-500; production; fleet)"
SMALL_GROUP_MAX_PEOPLE = 10
"""The article's demo / internal-trial tier tops out at ten people."""
TEAM_MIN_PEOPLE = 50
"""The article's internal-team tier starts at fifty people (and its FAQ's Ollama threshold is 50+)."""
PRODUCTION_MIN_PEOPLE = 500
"""Above the article's 50-500 band an audience is production-sized."""
SMALL_GROUP_STRETCH_PEOPLE = 20
"""With no load stated, up to twice the article's ten people still reads as a small group; past that,
pitfall 3's lesson (a pilot fine at five stalls at fifty) says to plan a shared service."""
SMALL_GROUP_MAX_LOAD = 10
"""Requests in flight the small-group tier carries: its ten people all asking at once."""
PRODUCTION_MIN_LOAD = 200
"""Requests in flight that only a production deployment carries (a 500+ audience at the busy hour)."""
ACTIVE_SHARE = 0.1
"""Share of a user base with a request in flight at the busy hour (rule of thumb)."""
PEAK_QUANTILE = 0.99
"""The load planned for is the busy hour's 99th-percentile moment, not its average: with each of N
people mid-request 10% of the time (independently), the number at once is binomial(N, 0.1). Twenty
people average two at once but reach six about one minute in a hundred; five hundred average fifty
and reach about sixty-six. Planning for the average leaves a small team queueing whenever a few of
them ask together, which is the complaint ("it crawls when several people use it"). Setting a
capacity target as the 99% point of the distribution of users at once, rather than its mean, is the
usual load-testing practice (e.g. https://sqa.stackexchange.com/questions/36037, a Poisson at 99%)."""
_NORMAL_Z99 = 2.3263
"""The standard normal's 99th percentile (for head counts too large to sum the binomial)."""
SIZE_DECIDES = frozenset({"personal", "demo", "team"})
"""Modes that describe a size; production and fleet describe exposure and are kept."""


class Tier(BaseModel):
    """The serving tier a head count or load points to, and why (en and zh-Hant)."""

    model_config = ConfigDict(extra="forbid")
    mode: str
    en: str
    zh: str


def busy_hour_load(users: int) -> int:
    """Requests in flight to plan for at the busy hour: the 99th percentile of binomial(users, 10%)."""
    p = ACTIVE_SHARE
    if users > 2000:   # normal approximation; exact summing would cost a loop over the head count
        return math.ceil(users * p + _NORMAL_Z99 * math.sqrt(users * p * (1 - p)))
    pmf = (1 - p) ** users
    cdf, k = pmf, 0
    while cdf < PEAK_QUANTILE and k < users:
        pmf *= (users - k) / (k + 1) * p / (1 - p)
        k += 1
        cdf += pmf
    return max(1, k)


def peak_note(users: int, load: int, lang: str = "en") -> str:
    """Why `load` requests at once for `users` people, in words the user can correct."""
    avg = max(1, round(users * ACTIVE_SHARE))
    if lang == "zh":
        return (f"{users:,} 人若各約 {ACTIVE_SHARE:.0%} 的時間在等回答，平均約 {avg} 個同時請求，尖峰（99% 的時間不超過）"
                f"約 {load} 個；若實際同時人數不同，請直接告訴我")
    return (f"{users:,} users, each with a request in flight about {ACTIVE_SHARE:.0%} of the busy hour: {avg} at once "
            f"on average, {load} at the peak (99% of the time no more); tell me the real number if you know it")


def tier_from_counts(users: int | None, concurrency: int | None) -> Tier | None:
    """The tier the stated people or load point to (None when neither is known)."""
    if users is None and concurrency is None:
        return None
    load = concurrency if concurrency is not None else busy_hour_load(users)
    people = f"{users} people" if users is not None else f"{load} requests at once"
    people_zh = f"{users} 人" if users is not None else f"同時 {load} 個請求"
    if (users or 0) >= PRODUCTION_MIN_PEOPLE or load >= PRODUCTION_MIN_LOAD:
        return Tier(mode="production", en=f"{people} is beyond the 50-500 person team tier: production scale",
                    zh=f"{people_zh}已超過 50–500 人的團隊等級，屬於 production 規模")
    if (users or 0) >= TEAM_MIN_PEOPLE:
        return Tier(mode="team", en=f"{people} is the 50-500 person internal-team tier",
                    zh=f"{people_zh}屬於 50–500 人的內部團隊等級")
    if load > SMALL_GROUP_MAX_LOAD:
        return Tier(mode="team", en=f"{load} requests in flight is more than a 5-10 person trial carries: a shared service",
                    zh=f"同時 {load} 個請求，超過 5–10 人試用的負載，屬於共用服務")
    if concurrency is None and (users or 0) > SMALL_GROUP_STRETCH_PEOPLE:
        return Tier(mode="team", en=f"{people} is more than a small group, with no load figure to say otherwise: "
                    f"planned as a shared service", zh=f"{people_zh}已超過小團體，又沒有負載數字可參考，所以當作共用服務規劃")
    if (users or 1) <= 1 and load <= 1:
        return Tier(mode="personal", en="one person", zh="一個人使用")
    if (users or 0) > SMALL_GROUP_MAX_PEOPLE or concurrency is not None:
        return Tier(mode="demo", en=f"{people} with about {load} requests at once is a load the small-group servers carry",
                    zh=f"{people_zh}、同時約 {load} 個請求，小團體用的 server 撐得住")
    return Tier(mode="demo", en=f"{people} is the article's demo / small internal tier",
                zh=f"{people_zh}屬於原文的 demo／小型內部試用等級")


def reconcile(stated: str | None, users: int | None, concurrency: int | None) -> tuple[str | None, Tier | None]:
    """The tier the rules should use: the size wins over a mode word that only names the audience.

    Returns (mode, tier that changed it or None when the stated mode stands)."""
    tier = tier_from_counts(users, concurrency)
    if tier is None or (stated is not None and stated not in SIZE_DECIDES) or tier.mode == stated:
        return stated, None
    return tier.mode, tier
