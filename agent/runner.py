"""One request walked through the graph's nodes in-process, without langgraph.

For one-shot use (`ask`, `ask_profile`): nothing to persist, and skipping langgraph's import
keeps a cold `advisor ask` fast. The interview's pause is answered by `reply(question)` on the
spot, which is what a resumed langgraph node sees too. Same nodes, same routing table.
"""
from __future__ import annotations

from typing import Any, Callable

from agent import nodes
from agent.routes import END, START, next_node
from agent.state import AgentState
from agent.tools import Tools

MAX_STEPS = 64   # a loop guard; a request takes ~12 steps


def run(state: AgentState, tools: Tools, reply: Callable[[dict], str]) -> AgentState:
    """Run from START to END; every interview question goes to `reply`."""
    state = dict(state)
    node = next_node(START, state)
    for _ in range(MAX_STEPS):
        if node == END:
            return state
        extra: dict[str, Any] = {"pause": reply} if node == "interview" else {}
        state.update(getattr(nodes, node)(state, tools, **extra))
        node = next_node(node, state)
    raise RuntimeError("the graph did not finish (routing loop)")
