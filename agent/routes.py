"""The graph's shape as data: nodes, fixed edges and routers (pure; no langgraph import).

`agent.graph` compiles it with langgraph (checkpoints, interrupts); `agent.runner` walks the same
table in-process for one-shot requests. One table, so the two can never disagree.
"""
from __future__ import annotations

from typing import Callable, Literal

from agent.state import AgentState

START, END = "__start__", "__end__"   # langgraph's own names for the two ends
NODES = ("understand", "interview", "listen", "decide", "estimate", "plan", "retrieve", "compose", "verify")


def route_start(state: AgentState) -> Literal["understand", "decide"]:
    """A given profile skips reading and asking."""
    return "decide" if state.get("mode") == "profile" else "understand"


def route_understood(state: AgentState) -> Literal["interview", "decide", "retrieve"]:
    """Concept questions skip the interview (and the rules, unless hardware is known)."""
    if state.get("intent") != "explain":
        return "interview"
    return "decide" if (state.get("profile") or {}).get("hardware") else "retrieve"


def route_interview(state: AgentState) -> Literal["listen", "decide"]:
    """Ask the chosen question; once the policy has nothing more worth asking, answer."""
    return "decide" if state.get("interview_done") else "listen"


def route_decided(state: AgentState) -> Literal["estimate", "retrieve"]:
    """An explanation needs no estimate or benchmark plan."""
    return "retrieve" if state.get("intent") == "explain" else "estimate"


EDGES: dict[str, str | Callable[[AgentState], str]] = {
    START: route_start,
    "understand": route_understood,
    "interview": route_interview,
    "listen": "interview",
    "decide": route_decided,
    "estimate": "plan",
    "plan": "retrieve",
    "retrieve": "compose",
    "compose": "verify",
    "verify": END,
}
"""Where to go after each node: a node name, or a router of the state."""


def next_node(current: str, state: AgentState) -> str:
    """The node after `current` for this state."""
    edge = EDGES[current]
    return edge if isinstance(edge, str) else edge(state)
