"""A local stand-in for Slack's Web API (an HTTP server on 127.0.0.1) and signed event requests."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from slack_bolt.request import BoltRequest
from slack_sdk.signature import SignatureVerifier

SECRET = "test-signing-secret"


class MockSlack(ThreadingHTTPServer):
    """Records every Web API call as (method, params)."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.calls: list[tuple[str, dict]] = []
        self.uploads: list[bytes] = []
        self.responses: list[dict] = []          # bodies POSTed to a slash command's response_url
        self.not_in_channel: set[str] = set()    # channels the bot has not joined
        self._ts = 1000
        self._lock = threading.Lock()

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"

    def next_ts(self) -> str:
        with self._lock:
            self._ts += 1
            return f"1700000000.{self._ts:06d}"

    def posts(self, thread_ts: str | None = None) -> list[dict]:
        return [p for m, p in self.calls if m == "chat.postMessage" and (thread_ts is None or p.get("thread_ts") == thread_ts)]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep test output quiet
        pass

    def do_POST(self):  # noqa: N802
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        path = self.path.split("?")[0]
        srv: MockSlack = self.server  # type: ignore[assignment]
        if path.startswith("/upload/"):
            srv.uploads.append(raw)
            return self._reply({"ok": True}, raw_text="OK - 200")
        if path.startswith("/respond/"):
            srv.responses.append(json.loads(raw or b"{}"))
            return self._reply({"ok": True}, raw_text="ok")
        method = path.rsplit("/", 1)[-1]
        ctype = self.headers.get("content-type", "")
        if "json" in ctype:
            params = json.loads(raw or b"{}")
        else:
            params = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
        for key in ("blocks", "files"):
            if isinstance(params.get(key), str):
                params[key] = json.loads(params[key])
        srv.calls.append((method, params))
        host = f"http://127.0.0.1:{srv.server_address[1]}"
        body = {"ok": True}
        if method == "auth.test":
            body.update(user_id="UBOT", bot_id="BBOT", team_id="T1", url="https://example.slack.com/")
        elif method == "chat.postMessage" and params.get("channel") in srv.not_in_channel:
            body = {"ok": False, "error": "not_in_channel"}
        elif method == "chat.postMessage":
            body.update(channel=params.get("channel"), ts=srv.next_ts(), message={"text": params.get("text")})
        elif method == "files.getUploadURLExternal":
            body.update(upload_url=f"{host}/upload/F1", file_id="F1")
        elif method == "files.completeUploadExternal":
            body.update(files=[{"id": "F1", "title": "Benchmark spec"}])
        self._reply(body)

    def _reply(self, body: dict, raw_text: str | None = None):
        data = (raw_text or json.dumps(body)).encode()
        self.send_response(200)
        self.send_header("content-type", "text/plain" if raw_text else "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)



def signed(body, *, secret: str = SECRET, timestamp=None, extra_headers=None, form: bool = False) -> BoltRequest:
    """A request signed the way Slack signs it."""
    from urllib.parse import urlencode
    raw = urlencode(body) if form else (body if isinstance(body, str) else json.dumps(body))
    ts = str(timestamp if timestamp is not None else int(time.time()))
    sig = SignatureVerifier(secret).generate_signature(timestamp=ts, body=raw)
    headers = {"x-slack-request-timestamp": [ts], "x-slack-signature": [sig],
               "content-type": ["application/x-www-form-urlencoded" if form else "application/json"]}
    for k, v in (extra_headers or {}).items():
        headers[k.lower()] = [v]
    return BoltRequest(body=raw, headers=headers)


def event_body(event: dict, event_id: str = "Ev1") -> dict:
    """The Events API envelope around one event."""
    return {"token": "x", "team_id": "T1", "api_app_id": "A1", "type": "event_callback",
            "event_id": event_id, "event_time": int(time.time()), "event": event}
