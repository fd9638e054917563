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
    from rules import memo
    state = dict(state)
    with memo.turn():
        walk(state, tools, next_node(START, state), reply)
    return state


def walk(state: AgentState, tools: Tools, node: str, reply: Callable[[dict], str] | None = None,
         stop: str | None = None) -> dict[str, Any]:
    """Run from `node` to END (or until the next node would be `stop`), updating `state` in place;
    every key the nodes wrote, with its last value."""
    written: dict[str, Any] = {}
    for _ in range(MAX_STEPS):
        if node == END or node == stop:
            return written
        extra: dict[str, Any] = {"pause": reply} if node == "listen" and reply is not None else {}
        update = getattr(nodes, node)(state, tools, **extra)
        state.update(update)
        written.update(update)
        node = next_node(node, state)
    raise RuntimeError("the graph did not finish (routing loop)")
