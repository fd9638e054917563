"""The conversation graph: understand → (interview → listen)⟲ → answer (decide → estimate → plan → retrieve → compose → verify).

`build_graph(tools, checkpointer)` compiles the shape in `agent.routes` with langgraph, binding
the nodes of `agent.nodes` to the given tools bundle (real or fake) and checkpointer (SQLite in
the product, memory in tests). Only `listen` pauses, so the compiled graph has two steps, each
walking the same routing table in-process (`agent.runner.walk`): `advance` (from the start up to
the next question or the end) and `listen` (ask, read the answer, then on to the next question
or the end). One langgraph step per user turn: each step costs ~0.5 ms of bookkeeping over a
state this size, which was a quarter of a turn with one step per node.
"""
from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from agent import nodes, runner
from agent.routes import next_node
from agent.state import AgentState
from agent.tools import Tools
from rules import memo

PAUSE = "listen"


SCRATCH = ("decision", "estimate", "plan", "options", "benchmark", "citations", "template")
"""The tools' results an answer is built from: the Advice holds all of them, so a finished run
checkpoints them once (inside `advice`), not twice: ~140 KB → ~80 KB per answered thread, which
every later turn and page of the thread reads back."""


def _finished(update: dict[str, Any]) -> dict[str, Any]:
    """The run's writes, the scratch results left out once the Advice holds them."""
    if update.get("advice"):
        update |= {key: None for key in SCRATCH}
    return update


def advance(state: AgentState, tools: Tools) -> dict[str, Any]:
    """A new request: every node from the start until the interview asks (or the answer is done)."""
    state = dict(state)
    with memo.turn():   # pure results computed twice in a turn (facts, the store check) are computed once
        return _finished(runner.walk(state, tools, next_node(START, state), stop=PAUSE))


def listen(state: AgentState, tools: Tools) -> dict[str, Any]:
    """Ask the pending question (pauses), read the answer, then go on until the next question or the end."""
    with memo.turn():
        update = nodes.listen(state, tools)   # re-runs from its top when resumed: nothing before interrupt()
        state = {**state, **update}
        return _finished(update | runner.walk(state, tools, next_node(PAUSE, state), stop=PAUSE))


def route(state: AgentState) -> str:
    """After a step: the interview chose a question (listen asks it), or the request is answered."""
    return PAUSE if state.get("pending") and not state.get("interview_done") else END


@contextmanager
def _shared_pool(config: Any = None) -> Iterator[ThreadPoolExecutor]:
    """The threads langgraph writes checkpoints on. langgraph opens a new thread pool for every
    run and joins it at the end: one thread started and joined per turn (~0.6 ms of a ~9 ms turn).
    Its BackgroundExecutor still waits for its own tasks before a run returns, so sharing one
    long-lived pool changes when threads start, not what is written or when."""
    yield _POOL


_POOL = ThreadPoolExecutor(max_workers=32, thread_name_prefix="langgraph-background")


def _reuse_threads() -> None:
    """Point langgraph's per-run executor at the shared pool (left as is if langgraph moved it)."""
    from langgraph.pregel import _executor
    if callable(getattr(_executor, "get_executor_for_config", None)):
        _executor.get_executor_for_config = _shared_pool


def _remember_saver_signature() -> None:
    """langgraph inspects the saver's `put_writes` signature (does it take `task_path`?) at the start
    of every run, ~0.1 ms of a turn; the answer depends on the method alone, so it is read once per
    method (left as is if langgraph moved it)."""
    from langgraph.pregel import _loop
    check = getattr(_loop, "put_writes_accepts_task_path", None)
    if not callable(check) or getattr(check, "_advisor_cached", False):
        return
    seen: dict[Any, bool] = {}

    def cached(put_writes: Any) -> bool:
        key = getattr(put_writes, "__func__", put_writes)
        if key not in seen:
            seen[key] = check(put_writes)
        return seen[key]

    cached._advisor_cached = True  # type: ignore[attr-defined]
    _loop.put_writes_accepts_task_path = cached


def build_graph(tools: Tools, checkpointer: Any = None):
    """The compiled graph, its nodes bound to `tools`."""
    _reuse_threads()
    _remember_saver_signature()
    g = StateGraph(AgentState)
    g.add_node("advance", partial(advance, tools=tools))
    g.add_node(PAUSE, partial(listen, tools=tools))
    g.add_edge(START, "advance")
    g.add_conditional_edges("advance", route, [PAUSE, END])
    g.add_conditional_edges(PAUSE, route, [PAUSE, END])
    return g.compile(checkpointer=checkpointer)
