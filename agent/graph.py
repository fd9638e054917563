"""The conversation graph: understand → interview ⟲ → decide → estimate → plan → retrieve → compose → verify.

`build_graph(tools, checkpointer)` compiles the shape in `agent.routes` with langgraph, binding
the nodes of `agent.nodes` to the given tools bundle (real or fake) and checkpointer (SQLite in
the product, memory in tests).
"""
from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import StateGraph

from agent import nodes
from agent.routes import EDGES, NODES
from agent.state import AgentState
from agent.tools import Tools


def build_graph(tools: Tools, checkpointer: Any = None):
    """The compiled graph, its nodes bound to `tools`."""
    g = StateGraph(AgentState)
    for name in NODES:
        g.add_node(name, partial(getattr(nodes, name), tools=tools))
    for source, target in EDGES.items():
        if isinstance(target, str):
            g.add_edge(source, target)
        else:
            g.add_conditional_edges(source, target)
    return g.compile(checkpointer=checkpointer)
