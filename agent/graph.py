"""The conversation graph: understand → (interview → listen)⟲ → answer (decide → estimate → plan → retrieve → compose → verify).

`build_graph(tools, checkpointer)` compiles the shape in `agent.routes` with langgraph, binding
the nodes of `agent.nodes` to the given tools bundle (real or fake) and checkpointer (SQLite in
the product, memory in tests). Only `listen` pauses, so the nodes after the interview run as one
langgraph step (`answer`), walked through the same routing table by `agent.runner`: each
langgraph step costs ~0.5 ms of bookkeeping over a state this size, which was a third of a turn.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from agent import nodes, runner
from agent.routes import ANSWER_NODES, EDGES, answer_start
from agent.state import AgentState
from agent.tools import Tools


def answer(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Every node from the first answering one to the end, in-process: their writes."""
    return runner.walk(dict(state), tools, answer_start(state))


def _to_graph(router):
    """A router of the table, with every answering node it names replaced by `answer`."""
    def route(state: AgentState) -> str:
        target = router(state)
        return "answer" if target in ANSWER_NODES else target
    route.__name__ = getattr(router, "__name__", "route")
    return route


def build_graph(tools: Tools, checkpointer: Any = None):
    """The compiled graph, its nodes bound to `tools`."""
    g = StateGraph(AgentState)
    for name in ("understand", "interview", "listen"):
        g.add_node(name, partial(getattr(nodes, name), tools=tools))
    g.add_node("answer", partial(answer, tools=tools))
    for source in (START, "understand", "interview"):
        g.add_conditional_edges(source, _to_graph(EDGES[source]))
    g.add_edge("listen", EDGES["listen"])
    g.add_edge("answer", END)
    return g.compile(checkpointer=checkpointer)
