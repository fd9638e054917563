"""The Slack bot: mentions, DMs and `/engine-advisor`, one Slack thread = one conversation.

A thin adapter over agent.api.Advisor. Slack's retries never produce a second answer (retries are
acknowledged and dropped, and every handled message is remembered by channel+ts in SQLite, so a
restart does not forget). Tokens are read from the environment and never logged.
"""
from __future__ import annotations

import logging
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

from slack_bolt import App, BoltResponse
from slack_sdk import WebClient

from ui.present import slack as present_slack
from ui.present import spec as spec_text

log = logging.getLogger("advisor.slack")
MENTION = re.compile(r"<@[A-Z0-9]+>\s*")
SORRY = {"en": "Sorry, I could not answer that: {err}", "zh": "抱歉，無法回答：{err}"}


class SeenMessages:
    """Persistent set of handled (channel, ts) pairs: duplicate deliveries are dropped."""

    def __init__(self, path: Path):
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY)")
        self._lock = threading.Lock()

    def first_time(self, key: str) -> bool:
        """True the first time `key` is seen (and records it)."""
        with self._lock, self._db:
            cur = self._db.execute("INSERT OR IGNORE INTO seen(key) VALUES (?)", (key,))
            return cur.rowcount == 1


def thread_id(team: str | None, channel: str, thread_ts: str) -> str:
    """The advisor conversation id of a Slack thread."""
    return f"slack-{team or 'T'}-{channel}-{thread_ts}"


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


class SlackAdvisor:
    """Routes Slack events to the advisor and posts its replies in the thread."""

    def __init__(self, advisor: Any, seen: SeenMessages):
        self.advisor, self.seen = advisor, seen

    def handle(self, client: WebClient, team: str | None, channel: str, ts: str, thread_ts: str | None,
               text: str, require_known_thread: bool = False) -> None:
        """Answer one user message in its thread (or ask the next interview question)."""
        if not self.seen.first_time(f"{channel}:{ts}"):
            return
        root = thread_ts or ts
        tid = thread_id(team, channel, root)
        if require_known_thread and not self._known(tid):
            return
        text = MENTION.sub("", text or "").strip()
        try:
            if not text:
                raise ValueError("the message was empty — tell me your hardware, model and users")
            out = self.advisor.turn(tid, text)
            if out.question:
                client.chat_postMessage(channel=channel, thread_ts=root, text=out.question["question"])
            else:
                self.post_advice(client, channel, root, out.advice)
        except Exception as exc:  # the user must hear about every failure
            log.warning("slack turn failed in %s: %s", tid, type(exc).__name__)
            client.chat_postMessage(channel=channel, thread_ts=root,
                                    text=SORRY[_lang(text)].format(err=str(exc)[:300] or type(exc).__name__))

    def _known(self, tid: str) -> bool:
        """True when the thread is a conversation the advisor has (so replies continue it)."""
        try:
            return bool(self.advisor.state(tid).get("profile") is not None or self.advisor.pending(tid))
        except Exception:
            return False

    def post_advice(self, client: WebClient, channel: str, thread_ts: str, advice: Any) -> None:
        """The answer once, as Block Kit message(s), then the benchmark spec as a file."""
        if advice is None:
            raise ValueError("the advisor returned no answer")
        blocks = present_slack.blocks(advice)
        for part in present_slack.split_messages(blocks):
            client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=part,
                                    text=present_slack.fallback_text(advice))
        if advice.benchmark is not None:
            client.files_upload_v2(channel=channel, thread_ts=thread_ts, content=spec_text.yaml_text(advice.benchmark),
                                   filename="benchmark-spec.yaml", title="Benchmark spec")


def _drop_retries(request, next):  # noqa: A002  (bolt's middleware signature)
    """Slack re-sends an event when our ack was slow: acknowledge and do nothing."""
    if request.headers.get("x-slack-retry-num"):
        return BoltResponse(status=200, body="")
    return next()


def build_app(advisor: Any, *, token: str | None = None, signing_secret: str | None = None,
              client: WebClient | None = None, seen_path: Path | None = None,
              process_before_response: bool = False) -> App:
    """The bolt App with its listeners; `client` lets tests point it at a local mock."""
    from knowledge.paths import home

    bot = SlackAdvisor(advisor, SeenMessages(seen_path or home() / "slack_seen.sqlite"))
    app = App(token=token, signing_secret=signing_secret, client=client,
              process_before_response=process_before_response)
    app.middleware(_drop_retries)

    @app.event("app_mention")
    def on_mention(event, client, context):
        bot.handle(client, context.team_id, event["channel"], event["ts"], event.get("thread_ts"), event.get("text", ""))

    @app.event("message")
    def on_message(event, client, context):
        if event.get("subtype") or event.get("bot_id"):
            return
        is_dm = event.get("channel_type") == "im"
        if not is_dm and MENTION.search(event.get("text", "")):
            return  # the app_mention event answers it
        bot.handle(client, context.team_id, event["channel"], event["ts"], event.get("thread_ts"),
                   event.get("text", ""), require_known_thread=not is_dm)

    @app.command("/engine-advisor")
    def on_command(ack, command, client, context):
        ack()
        text = (command.get("text") or "").strip()
        channel = command["channel_id"]
        opener = client.chat_postMessage(channel=channel, text=f"<@{command['user_id']}> asked: {text or '(empty)'}")
        bot.handle(client, context.team_id, channel, opener["ts"], None, text)

    return app


def serve(port: int = 3000) -> None:
    """Socket Mode when SLACK_APP_TOKEN is set, else HTTP (Events API) via FastAPI."""
    import os

    from agent.api import Advisor
    from rules.errors import InputError

    token, secret = os.environ.get("SLACK_BOT_TOKEN"), os.environ.get("SLACK_SIGNING_SECRET")
    app_token = os.environ.get("SLACK_APP_TOKEN")
    if not token:
        raise InputError("SLACK_BOT_TOKEN is not set (see ui/slack_manifest.yaml to create the app)")
    if not app_token and not secret:
        raise InputError("set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)")
    app = build_app(Advisor(), token=token, signing_secret=secret)
    if app_token:
        from slack_bolt.adapter.socket_mode import SocketModeHandler
        SocketModeHandler(app, app_token).start()
        return
    import uvicorn
    from fastapi import FastAPI, Request
    from slack_bolt.adapter.fastapi import SlackRequestHandler

    handler = SlackRequestHandler(app)
    api = FastAPI()

    @api.post("/slack/events")
    async def events(req: Request):
        return await handler.handle(req)

    uvicorn.run(api, host="0.0.0.0", port=port, log_level="warning")
