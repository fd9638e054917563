"""A small JSON HTTP API over the same agent entry point as every surface (agent.api.Advisor).

    POST /api/turn            {"text": "...", "thread": "my-id"?}   one user message
    GET  /api/advice/{thread}                                        what the thread holds now

Both answer {"thread", "question", "advice"}: `question` is the pending follow-up ({question,
fields, options?}) or null, `advice` the compact structured answer (`ui.present.data.essentials`:
engine, plan, fit, figures, citations by id, the Markdown answer) or null. `?detail=true` on the GET
adds the full benchmark spec and the cited text. Errors answer {"error": one line} with 400 (bad
input), 404 (no such thread), 409 (the thread's previous turn is still running), 413 (a body over
64 KB) or 503 (store down).

Thread ids are the client's own (letters, digits, `-`, `_`; a new one is made when none is sent)
and live in this surface's namespace: `x` is stored as `api:x` (the `<surface>:<id>` form of the
other surfaces' scoped ids), so no client id can reach a web, Slack or CLI conversation.
Served inside `advisor web` (one process, beside Gradio) and by
`advisor api --workers N` (several processes sharing the conversation store), where a turn costs
milliseconds instead of Gradio's per-event queue and streaming.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from fastapi import Request   # at module level: FastAPI reads the handlers' annotations from here
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.errors import AdvisorError, InputError

PREFIX = "api:"
CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_TEXT = 8000
MAX_BODY = 64 * 1024   # bytes: a message of MAX_TEXT characters fits many times over
log = logging.getLogger("advisor.api")


class TurnRequest(BaseModel):
    """The body of POST /api/turn."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=MAX_TEXT)
    """The user's message: a new request, or the answer to the pending question."""
    thread: str | None = None
    """The client's conversation id; omitted = start a new conversation."""


def stored_id(client_id: str) -> str:
    """The conversation store's id of a client thread id (InputError for a malformed one)."""
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise InputError("thread must be 1-64 letters, digits, '-' or '_'")
    return PREFIX + client_id


def _body(question: dict[str, Any] | None, advice: Any, thread: str, detail: bool = False) -> dict[str, Any]:
    from ui.present import data
    return {"thread": thread, "question": question,
            "advice": data.essentials(advice, detail=detail) if advice is not None else None}


def turn(advisor: Any, body: dict[str, Any]) -> dict[str, Any]:
    """One user message through the agent; the response body (InputError on bad input)."""
    try:
        req = TurnRequest.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc") or ()) or "body"
        raise InputError(f"{where}: {err.get('msg', 'invalid')}") from None
    thread = req.thread or uuid.uuid4().hex[:16]
    out = advisor.turn(stored_id(thread), req.text)
    return _body(out.question, out.advice, thread)


def current(advisor: Any, thread: str, detail: bool = False) -> dict[str, Any] | None:
    """The thread's pending question and last answer; None when the thread has neither."""
    tid = stored_id(thread)
    question, advice = advisor.pending(tid), advisor.advice(tid)
    if question is None and advice is None:
        return None
    return _body(question, advice, thread, detail)


def _status(exc: AdvisorError) -> int:
    from agent.store import StoreUnavailable, ThreadBusy
    if isinstance(exc, ThreadBusy):
        return 409
    if isinstance(exc, StoreUnavailable):
        return 503
    return 400 if isinstance(exc, InputError) else 500


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """The threads turns run on. A turn is CPU work under the GIL: a few threads finish turns in
    the order they came, where Starlette's 40 would interleave every turn and finish all of them
    late. `$ADVISOR_API_THREADS` raises it when an LLM makes turns wait on the network."""
    return ThreadPoolExecutor(max_workers=int(os.environ.get("ADVISOR_API_THREADS", "2")),
                              thread_name_prefix="advisor-api")


def add_routes(app: Any, advisor: Any) -> None:
    """Register the API on a FastAPI app (the one Gradio is mounted on, or a bare one)."""
    import orjson
    from fastapi.responses import Response

    async def in_pool(fn, *args) -> Response:
        return await asyncio.get_running_loop().run_in_executor(_pool(), fn, *args)

    def reply(body: dict[str, Any], status: int = 200) -> Response:
        return Response(orjson.dumps(body), status_code=status, media_type="application/json")

    def guarded(fn, *args) -> Response:
        try:
            found = fn(*args)
        except AdvisorError as exc:
            return reply({"error": str(exc)}, _status(exc))
        except Exception:   # a bug: logged with its traceback, one generic line to the client
            log.exception("API request failed")
            return reply({"error": "internal error (logged on the server)"}, 500)
        return reply(found) if found is not None else reply({"error": "no such conversation"}, 404)

    # The turn runs on `_pool()`: the event loop keeps accepting while the agent works.
    @app.post("/api/turn")
    async def api_turn(request: Request):
        size = request.headers.get("content-length") or ""
        if size.isdigit() and int(size) > MAX_BODY:
            return reply({"error": f"the body is larger than {MAX_BODY // 1024} KB"}, 413)
        try:
            body = orjson.loads(await request.body())
        except orjson.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            return reply({"error": "the body must be a JSON object: {\"text\": ..., \"thread\": ...}"}, 400)
        return await in_pool(guarded, turn, advisor, body)

    @app.get("/api/advice/{thread}")
    async def api_advice(thread: str, detail: bool = False):
        return await in_pool(guarded, current, advisor, thread, detail)


def create_app() -> Any:
    """The API alone (with /healthz and /readyz): what each `advisor api` worker process serves."""
    from fastapi import FastAPI

    from agent.api import Advisor
    from ui import health

    advisor = Advisor()
    app = FastAPI(title="Engine Advisor API", docs_url=None, redoc_url=None)
    health.add_routes(app, advisor)
    add_routes(app, advisor)
    return app
