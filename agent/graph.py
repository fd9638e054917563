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
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from functools import partial
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from agent import nodes, runner
from agent.routes import next_node
from agent.state import AgentState, Question
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


class Routing(TypedDict, total=False):
    """The two keys `route` reads. langgraph reads a conditional edge's input by its annotation: this
    narrow view, not a copy of the whole state (~30 channels) after every step."""

    pending: Question | None
    interview_done: bool


def route(state: Routing) -> str:
    """After a step: the interview chose a question (listen asks it), or the request is answered."""
    return PAUSE if state.get("pending") and not state.get("interview_done") else END


class _InPlace(Executor):
    """An executor that runs each task at once, in the calling thread, and hands back its finished
    future (the result, or the exception the task raised)."""

    def submit(self, fn, /, *args, **kwargs):   # noqa: ANN001 - Executor's signature
        done: Future = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:   # kept in the future, as a pool thread would keep it
            done.set_exception(exc)
        return done


_IN_PLACE = _InPlace()


@contextmanager
def _in_place(config: Any = None) -> Iterator[Executor]:
    """Where langgraph runs what it hands to "the background" during a run: the checkpoint and
    pending-write saves (every step of this graph is one node, run in the caller's thread anyway).
    langgraph waits for those saves before a run returns, and a save waits for the one before, so
    running each as it is handed over writes the same rows in the same order; what it saves is a
    thread handoff per save (~0.1 ms of a ~9 ms answer turn), and before that a thread started and
    joined per run when langgraph opened its own pool."""
    yield _IN_PLACE


def _saves_in_place() -> None:
    """Point langgraph's per-run executor at `_in_place` (left as is if langgraph moved it)."""
    from langgraph.pregel import _executor
    if callable(getattr(_executor, "get_executor_for_config", None)):
        _executor.get_executor_for_config = _in_place


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
    _saves_in_place()
    _remember_saver_signature()
    g = StateGraph(AgentState)
    g.add_node("advance", partial(advance, tools=tools))
    g.add_node(PAUSE, partial(listen, tools=tools))
    g.add_edge(START, "advance")
    g.add_conditional_edges("advance", route, [PAUSE, END])
    g.add_conditional_edges(PAUSE, route, [PAUSE, END])
    return g.compile(checkpointer=checkpointer)
