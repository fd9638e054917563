"""Slack HTTP mode end to end: a real uvicorn server on 127.0.0.1 serving POST /slack/events, requests
signed with Slack's v0 scheme (HMAC-SHA256 of "v0:<timestamp>:<body>"), the real advisor behind it and
Slack's Web API faked at the protocol boundary (slackmock, a local HTTP server)."""
from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
import time
from urllib.parse import urlencode

import httpx
import pytest
import uvicorn

from agent.api import Advisor
from slackmock import SECRET, event_body
from ui.slack_bot import build_app
from ui.slack_http import http_app

CHANNEL = "C1"


def sign(raw: str, secret: str = SECRET, ts: int | None = None) -> dict[str, str]:
    """Slack's request signature, computed here from its published scheme (not with slack_sdk)."""
    stamp = str(ts if ts is not None else int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{stamp}:{raw}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}


class Bot:
    """The bot served over HTTP, and how to talk to it."""

    def __init__(self, url: str, slack):
        self.url, self.slack = url, slack

    def post(self, body: dict, *, form: bool = False, headers: dict | None = None, secret: str = SECRET,
             ts: int | None = None) -> httpx.Response:
        raw = urlencode(body) if form else json.dumps(body)
        ctype = "application/x-www-form-urlencoded" if form else "application/json"
        return httpx.post(f"{self.url}/slack/events", content=raw.encode(), timeout=30,
                          headers={"Content-Type": ctype, **sign(raw, secret, ts), **(headers or {})})

    def wait_posts(self, n: int, thread_ts: str | None = None, channel: str | None = None,
                   timeout: float = 60) -> list[dict]:
        """Wait until at least `n` chat.postMessage calls match (the bot answers after its ack)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            posts = [p for p in self.slack.posts(thread_ts) if channel is None or p.get("channel") == channel]
            if len(posts) >= n:
                return posts
            time.sleep(0.1)
        return [p for p in self.slack.posts(thread_ts) if channel is None or p.get("channel") == channel]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(bolt_app):
    """Run the FastAPI app of HTTP mode under uvicorn in a thread; yield its base URL."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(http_app(bolt_app), host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=server.run, daemon=True)
    t.start()
    end = time.monotonic() + 20
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    return server, t, f"http://127.0.0.1:{port}"


@pytest.fixture
def bot(slack_api, web_client):
    # process_before_response=False: the production setting (ack first, answer in the background)
    app = build_app(Advisor(), signing_secret=SECRET, client=web_client)
    server, t, url = serve(app)
    yield Bot(url, slack_api)
    server.should_exit = True
    t.join(timeout=10)


def mention(text: str, ts: str, thread_ts: str | None = None, event_id: str = "Ev1", channel: str = CHANNEL) -> dict:
    ev = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {text}", "ts": ts, "channel": channel}
    if thread_ts:
        ev["thread_ts"] = thread_ts
    return event_body(ev, event_id)


def reply(text: str, ts: str, thread_ts: str, event_id: str) -> dict:
    return event_body({"type": "message", "channel_type": "channel", "user": "U1", "text": text, "ts": ts,
                       "thread_ts": thread_ts, "channel": CHANNEL}, event_id)


def dm(text: str, ts: str, event_id: str, channel: str = "D1") -> dict:
    return event_body({"type": "message", "channel_type": "im", "user": "U1", "text": text, "ts": ts,
                       "channel": channel}, event_id)


FULL = ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, internal chat for 300 people, 64 concurrent, "
        "4K prompts, 500-token answers, 8K context")


def test_url_verification_and_signatures_over_http(bot):
    resp = bot.post({"token": "x", "challenge": "c-123", "type": "url_verification"})
    assert resp.status_code == 200, resp.text
    assert "c-123" in resp.text
    assert bot.post({"token": "x", "challenge": "c", "type": "url_verification"}, secret="wrong").status_code == 401
    stale = int(time.time()) - 3600
    assert bot.post({"token": "x", "challenge": "c", "type": "url_verification"}, ts=stale).status_code == 401


def test_a_mention_is_answered_in_its_thread(bot):
    assert bot.post(mention(FULL, "10.000100", event_id="EvA")).status_code == 200
    posts = bot.wait_posts(1, "10.000100")
    assert posts and any("blocks" in p for p in posts), "the answer arrives in the thread as Block Kit"


def test_a_retry_whose_first_delivery_never_arrived_is_answered_once(bot):
    body = mention(FULL, "11.000100", event_id="EvRetry")
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    assert bot.post(body, headers=retry).status_code == 200
    assert bot.wait_posts(1, "11.000100"), "the retry is the only delivery: it must be answered"
    n = len(bot.wait_posts(99, "11.000100", timeout=2))
    assert bot.post(body, headers={"X-Slack-Retry-Num": "2", "X-Slack-Retry-Reason": "http_timeout"}).status_code == 200
    assert len(bot.wait_posts(n + 1, "11.000100", timeout=3)) == n, "a second delivery of a handled event is dropped"


def test_direct_messages_are_one_conversation(bot):
    bot.post(dm("Which inference engine should we use?", "20.000100", "EvD1"))
    first = bot.wait_posts(1, channel="D1")
    assert len(first) == 1 and "blocks" not in first[0], "the interview asks its first question"
    bot.post(dm("Two RTX 4090 cards, PCIe only without NVLink, Qwen3 32B, internal team of 100, 20 concurrent",
                "20.000200", "EvD2"))
    second = bot.wait_posts(2, channel="D1")
    assert len(second) >= 2
    follow = second[1]
    assert "blocks" in follow or follow["text"] != first[0]["text"], "the second DM continues the conversation"
    state = Advisor().state("slack-T1-D1-dm")
    assert (state.get("profile") or {}).get("hardware") == "rtx4090", "both DMs are in one thread (key = channel)"


def test_concurrent_messages_in_one_thread_are_all_answered(bot):
    """A mention and two replies sent at once: every message gets its own reply, in order of turns."""
    bodies = [mention("Which inference engine should we use?", "30.000100", event_id="EvC0"),
              reply("Two RTX 4090 cards, PCIe only without NVLink, Qwen3 32B", "30.000200", "30.000100", "EvC1"),
              reply("Internal team of 100 people, about 20 concurrent", "30.000300", "30.000100", "EvC2")]
    assert bot.post(bodies[0]).status_code == 200   # acknowledged at once; its turn runs on
    threads = [threading.Thread(target=bot.post, args=(b,)) for b in bodies[1:]]
    for t in threads:   # both replies arrive together while the mention's turn is running
        t.start()
    for t in threads:
        t.join()
    posts = bot.wait_posts(3, "30.000100", timeout=90)
    assert len(posts) == 3, [p.get("text") for p in posts]


def test_slash_command_in_a_channel_the_bot_has_not_joined_says_so(bot):
    bot.slack.not_in_channel.add("C9")
    form = {"command": "/engine-advisor", "text": "one RTX 4090, Qwen3 8B, just me", "channel_id": "C9",
            "user_id": "U1", "team_id": "T1", "trigger_id": "tr", "response_url": bot.slack.url("/respond/1")}
    assert bot.post(form, form=True).status_code == 200
    end = time.monotonic() + 30
    while not bot.slack.responses and time.monotonic() < end:
        time.sleep(0.1)
    assert bot.slack.responses, "the user hears back through the command's response_url"
    msg = bot.slack.responses[0]
    assert msg.get("response_type") == "ephemeral"
    assert "/invite" in msg["text"] and "direct message" in msg["text"]


def test_internal_errors_are_not_shown_to_the_channel(slack_api, web_client, caplog):
    class Broken:
        def turn(self, thread_id, text):
            raise RuntimeError("sqlite3 at /srv/advisor/threads.sqlite is locked")

        def state(self, thread_id):
            return {}

        def pending(self, thread_id):
            return None

    server, t, url = serve(build_app(Broken(), signing_secret=SECRET, client=web_client))
    try:
        b = Bot(url, slack_api)
        b.post(mention("anything", "40.000100", event_id="EvE"))
        posts = b.wait_posts(1, "40.000100")
    finally:
        server.should_exit = True
        t.join(timeout=10)
    assert len(posts) == 1
    text = posts[0]["text"]
    assert "/srv/advisor" not in text and "sqlite3" not in text and "RuntimeError" not in text
    assert "try again" in text.lower()
    assert "/srv/advisor/threads.sqlite" in caplog.text, "the detail goes to the log"


def test_http_mode_binds_localhost_by_default():
    from ui.cli import build_parser
    args = build_parser().parse_args(["slack"])
    assert args.host == "127.0.0.1"
    assert build_parser().parse_args(["slack", "--host", "0.0.0.0"]).host == "0.0.0.0"
