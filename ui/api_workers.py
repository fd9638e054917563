"""The JSON API of `advisor web` served by worker processes beside the page.

    with workers(count) as base_url:      `advisor api --workers count` on a free loopback port
    add_proxy_routes(app, advisor, url)   POST /api/turn and GET /api/advice/{thread} forwarded there

One Python process runs one turn at a time (the GIL), and in `advisor web` that process also serves
Gradio: 50 simultaneous API conversations queued behind each other (p95 0.57 s on two cores). The
workers are the `advisor api` processes (ui.http_api) sharing the conversation store's data
directory, so a conversation is the same whichever process serves it, and the page's process only
forwards the bytes. Until the workers answer (they start in a few seconds), or if they die, the
page's process serves the API itself: a request never fails because a worker is missing.
Workers get SIGTERM when the web process exits, also when it is killed (Linux parent-death signal).
"""
from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import Request   # at module level: FastAPI reads the handler's annotation from here

log = logging.getLogger("advisor.api")
PR_SET_PDEATHSIG = 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:   # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _command() -> list[str]:
    exe = Path(sys.executable).parent / "advisor"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "ui.cli"]


@contextlib.contextmanager
def workers(count: int) -> Iterator[str | None]:
    """`count` API worker processes on a free loopback port; yields their base URL (None for 0)."""
    if count <= 0:
        yield None
        return
    port = _free_port()
    proc = subprocess.Popen([*_command(), "api", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(count)], stdout=subprocess.DEVNULL,
                            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def add_proxy_routes(app: Any, advisor: Any, base_url: str) -> None:
    """The JSON API's routes on `app`, forwarded to the workers at `base_url`; served in this process
    (ui.http_api) when the workers cannot be reached."""
    import httpx
    from fastapi import FastAPI
    from fastapi.responses import Response

    from ui import http_api

    local = FastAPI()   # this process's own API, for when no worker answers
    http_api.add_routes(local, advisor)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    client = httpx.AsyncClient(base_url=base_url, limits=limits, timeout=httpx.Timeout(300.0, connect=2.0))

    async def forward(request: Request) -> Response:
        body = await request.body()
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("content-type", "content-length")}
        try:
            resp = await client.request(request.method, request.url.path, params=request.query_params,
                                        content=body, headers=headers)
        except httpx.TransportError as exc:   # workers not up yet, or gone: answer here
            log.info("API workers unreachable (%s); serving in the web process", type(exc).__name__)
            return await _local(local, request, body)
        return Response(resp.content, status_code=resp.status_code, media_type=resp.headers.get("content-type"))

    app.add_api_route("/api/turn", forward, methods=["POST"])
    app.add_api_route("/api/advice/{thread}", forward, methods=["GET"])


async def _local(local: Any, request: Any, body: bytes) -> Any:
    """Run the request through this process's own API app (same routes, same answers)."""
    from fastapi.responses import Response

    sent = False

    async def receive() -> dict:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    out: dict[str, Any] = {"status": 500, "headers": [], "body": b""}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            out["status"], out["headers"] = message["status"], message.get("headers") or []
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    await local(dict(request.scope), receive, send)
    media = next((v.decode() for k, v in out["headers"] if k.lower() == b"content-type"), None)
    return Response(out["body"], status_code=out["status"], media_type=media)


def default_count() -> int:
    """Worker processes for `advisor web`'s API: `$ADVISOR_WEB_API_WORKERS`, else 2 (0 = none)."""
    raw = os.environ.get("ADVISOR_WEB_API_WORKERS", "2").strip()
    return int(raw) if raw.isdigit() else 2
