"""A fake OpenAI-compatible server on 127.0.0.1 (real HTTP) for the LLM fault suite.

`/v1/chat/completions` tells the two kinds of call apart the way the advisor makes them: the
extractor sends a `response_format`, the composer does not. Each kind gets a behaviour:

    ("json", obj)        a normal completion whose content is json.dumps(obj)
    ("content", text)    a normal completion with this content (may be None)
    ("prose", fn)        content = fn(facts): fn reads the FACTS the composer was given
    ("status", code)     an OpenAI-style error with this HTTP status
    ("raw", bytes)       HTTP 200 with this body (malformed responses)
    ("sleep", seconds)   wait, then answer like ("content", "")
    ("trickle", seconds) send headers, then one byte per second for `seconds`
"""
from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_FACTS = re.compile(r"FACTS \(JSON\):\n(.*?)\n\nSOURCES:", re.S)


class FakeLLM(ThreadingHTTPServer):
    """The server; set `.extract` and `.compose` to behaviours; `.requests` records what came in."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.extract: tuple = ("json", {"intent": "recommend", "values": []})
        self.compose: tuple = ("content", "")
        self.requests: list[dict] = []
        self.stop = threading.Event()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


def facts(request: dict) -> dict[str, Any]:
    """The FACTS JSON the composer was shown (what a model would read)."""
    user = next(m["content"] for m in request["messages"] if m["role"] == "user")
    m = _FACTS.search(user)
    return json.loads(m.group(1)) if m else {}


def completion(content: str | None) -> dict:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": "fake",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802
        srv: FakeLLM = self.server  # type: ignore[assignment]
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        request = json.loads(raw or b"{}")
        srv.requests.append(request)
        kind, arg = srv.extract if "response_format" in request else srv.compose
        try:
            self._behave(srv, kind, arg, request)
        except (BrokenPipeError, ConnectionResetError):
            pass   # the client gave up (its deadline): expected

    def _behave(self, srv: FakeLLM, kind: str, arg: Any, request: dict) -> None:
        if kind == "json":
            return self._send(200, json.dumps(completion(json.dumps(arg))).encode())
        if kind == "content":
            return self._send(200, json.dumps(completion(arg)).encode())
        if kind == "prose":
            return self._send(200, json.dumps(completion(arg(facts(request)))).encode())
        if kind == "status":
            body = {"error": {"message": f"fake error {arg}", "type": "server_error", "code": arg}}
            return self._send(arg, json.dumps(body).encode())
        if kind == "raw":
            return self._send(200, arg)
        if kind == "sleep":
            srv.stop.wait(arg)
            return self._send(200, json.dumps(completion("")).encode())
        if kind == "trickle":
            body = json.dumps(completion("x" * 10)).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            for i in range(min(len(body), int(arg))):
                if srv.stop.wait(1.0):
                    return
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
            return
        raise ValueError(kind)

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
