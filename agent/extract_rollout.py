"""A pilot (or today's state) followed by a rollout: the rollout is the target state.

"worked great for a 5-person pilot. Next month we open it to 50 sales reps" → the words from
"Next month" on describe what the advice is for: 50 users, internal people (team), not a demo.
"內部 5 個人試用…下週要正式開放給 50 個業務同仁" reads the same way.
"""
from __future__ import annotations

import re

from agent import lexicon
from agent.extract_base import negated

_F = re.I | re.ASCII
_TRIAL = re.compile("|".join(lexicon.TRIAL), _F)
_ROLLOUT = re.compile("|".join(lexicon.ROLLOUT), _F)
AUDIENCE = [(v, re.compile("|".join(p), _F)) for v, p in lexicon.AUDIENCE.items()]
"""Who a rollout is for when no mode word says it: internal people → team, customers → production."""


def segment(text: str) -> tuple[int, int] | None:
    """The rollout's span when the text also names a pilot or the current state, else None.

    It runs from the first rollout cue to the next pilot word after it (or the end): a sentence
    about the pilot that comes later ("...; first a pilot with 10") is not part of the target.
    """
    trials = [m.start() for m in _TRIAL.finditer(text) if not negated(text, m.start())]
    cue = next((m for m in _ROLLOUT.finditer(text) if not negated(text, m.start())), None)
    if not trials or cue is None:
        return None
    later = [t for t in trials if t >= cue.end()]
    return cue.start(), later[0] if later else len(text)
