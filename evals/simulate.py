"""The simulated user of DESIGN.md, driving the real agent through its public API."""
from __future__ import annotations

import uuid
from typing import Any

from agent.api import DONT_KNOW, simulated_reply  # one simulated user for `ask` and the evals

__all__ = ["DONT_KNOW", "converse", "simulated_reply"]
MAX_ROUNDS = 8   # the agent asks at most 3; more means a loop, reported as a failure


def converse(advisor: Any, turns: list[str], answers: dict[str, str]) -> tuple[dict | None, list[dict]]:
    """Run one conversation: opening turns, then simulated replies until an answer comes back."""
    thread = f"eval-{uuid.uuid4().hex[:12]}"
    pending = list(turns)
    out = advisor.turn(thread, pending.pop(0))
    questions: list[dict] = []
    for _ in range(MAX_ROUNDS):
        if out.question is None:
            if not pending:
                break
            out = advisor.turn(thread, pending.pop(0))
            continue
        questions.append(out.question)
        reply = pending.pop(0) if pending else simulated_reply(out.question.get("fields", []), answers)
        out = advisor.turn(thread, reply)
    return out.result, questions
