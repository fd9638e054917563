"""The Slack bot: mentions, DMs and `/engine-advisor`, one Slack thread = one conversation.

A thin adapter over agent.api.Advisor. Slack's retries never produce a second answer: every
message handled is remembered (channel + ts) in the conversation store (SQLite, or PostgreSQL
shared by every bot replica), so neither a restart nor a second replica answers twice, while a
retry whose first delivery never arrived is answered. A direct-message channel is one
conversation. Failures reach the user as a line meant for them; details go to the log. HTTP mode
(ui.slack_http) binds 127.0.0.1 unless told otherwise. Tokens are read from the environment and
never logged.
"""
from __future__ import annotations

import logging
import re
import threading
import zlib
from pathlib import Path
from typing import Any

from slack_bolt import App, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from agent.store_sqlite import SqliteSeen as SeenMessages  # noqa: F401  (the old name, for callers)
from ui.present import slack as present_slack
from ui.present import spec as spec_text

log = logging.getLogger("advisor.slack")
MENTION = re.compile(r"<@[A-Z0-9]+>\s*")
# What a user reads when a turn fails for a reason that is not theirs: no exception text (it can
# hold paths, SQL or provider replies), and what to do. The detail goes to the log.
SORRY = {"en": "Sorry, I could not answer that: {err}", "zh": "抱歉，無法回答：{err}"}
FAILED = {"en": "Sorry, something went wrong on my side and I could not answer. Please try again in a "
                "minute; if it keeps failing, tell whoever runs this bot (the details are in its log).",
          "zh": "抱歉，我這邊出了問題，沒能回答。請稍後再試；若一直失敗，請告訴管理這個 bot 的人（細節在它的日誌裡）。"}
NOT_IN_CHANNEL = {"en": "I can't post in this channel because I'm not a member. Invite me with "
                        "`/invite @engine-advisor` and run the command again, or ask me in a direct message.",
                  "zh": "我不是這個頻道的成員，無法在這裡發言。請用 `/invite @engine-advisor` 邀請我後再執行一次，"
                        "或在私訊（direct message）中問我。"}
# Turns of one thread run one at a time in this process (striped: bounded memory): a reply that
# arrives while the thread's first turn still runs waits for it instead of being taken for a
# message in an unknown thread, and answers are posted in the order of the turns.
_STRIPES = tuple(threading.Lock() for _ in range(64))


def thread_id(team: str | None, channel: str, thread_ts: str) -> str:
    """The advisor conversation id of a Slack thread (`thread_ts="dm"`: a direct-message channel)."""
    return f"slack-{team or 'T'}-{channel}-{thread_ts}"


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def _user_message(exc: Exception, lang: str) -> str:
    """What the user reads about a failed turn: their own input error, else a generic line."""
    from agent.store import ThreadBusy
    from rules.errors import InputError
    if isinstance(exc, (InputError, ThreadBusy)):
        text = exc.message(lang) if isinstance(exc, InputError) else str(exc)
        return SORRY[lang].format(err=present_slack.escape(text[:300]))
    return FAILED[lang]


class SlackAdvisor:
    """Routes Slack events to the advisor and posts its replies in the thread."""

    def __init__(self, advisor: Any, seen: Any):
        self.advisor, self.seen = advisor, seen

    def handle(self, client: WebClient, team: str | None, channel: str, ts: str, thread_ts: str | None,
               text: str, require_known_thread: bool = False, *, dm: bool = False, key: str | None = None) -> None:
        """Answer one user message in its thread (or ask the next interview question).

        `key` identifies the message (default channel:ts, the same in a retry and in the app_mention
        and message events of one message): it is handled once, and a retry whose first delivery
        never arrived — or whose handler died before answering (its claim outlived the store's
        lease) — is handled like a first one. In a direct message the channel is the conversation
        (`dm`)."""
        key = key or f"{channel}:{ts}"
        if not self.seen.first_time(key):
            return
        root = thread_ts or ts
        tid = thread_id(team, channel, "dm" if dm else root)
        reply_ts = thread_ts if dm else root
        with _STRIPES[zlib.crc32(tid.encode()) % len(_STRIPES)]:
            if require_known_thread and not self._known(tid):
                self._done(key)
                return
            if self._turn(client, channel, reply_ts, tid, key, MENTION.sub("", text or "").strip()):
                self._done(key)

    def _done(self, key: str) -> None:
        done = getattr(self.seen, "done", None)
        if done is not None:
            done(key)

    def _turn(self, client: WebClient, channel: str, reply_ts: str | None, tid: str, key: str, text: str) -> bool:
        """One turn and its reply; False when nothing reached the user and the claim was dropped."""
        answered = False
        try:
            if not text:
                from rules.errors import InputError
                raise InputError("the message was empty — tell me your hardware, model and users")
            out = self.advisor.turn(tid, text)
            answered = True
            if out.question:
                client.chat_postMessage(channel=channel, thread_ts=reply_ts,
                                        text=present_slack.escape(out.question["question"]))
            else:
                self.post_advice(client, channel, reply_ts, out.advice)
        except Exception as exc:  # the user must hear about every failure, in words meant for them
            log.warning("slack turn failed in %s: %s: %s", tid, type(exc).__name__, exc, exc_info=True)
            try:
                client.chat_postMessage(channel=channel, thread_ts=reply_ts, text=_user_message(exc, _lang(text)))
            except Exception as post_exc:
                log.warning("could not tell the user in %s: %s", tid, type(post_exc).__name__)
                if not answered and hasattr(self.seen, "forget"):
                    self.seen.forget(key)   # nothing happened: let Slack's retry try again
                    return False
        return True

    def _known(self, tid: str) -> bool:
        """True when the thread is a conversation the advisor has (so replies continue it)."""
        try:
            return bool(self.advisor.state(tid).get("profile") is not None or self.advisor.pending(tid))
        except Exception:
            return False

    def post_advice(self, client: WebClient, channel: str, thread_ts: str | None, advice: Any) -> None:
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


def _seen(advisor: Any, path: Path | None) -> Any:
    """The de-duplication set: a given file, else the advisor's conversation store's."""
    from agent.store import open_store
    from agent.store_sqlite import SqliteSeen

    if path is not None:
        return SqliteSeen(path)
    store = getattr(advisor, "store", None) or open_store()
    return store.seen


def build_app(advisor: Any, *, token: str | None = None, signing_secret: str | None = None,
              client: WebClient | None = None, seen_path: Path | None = None,
              process_before_response: bool = False) -> App:
    """The bolt App with its listeners; `client` lets tests point it at a local mock."""
    bot = SlackAdvisor(advisor, _seen(advisor, seen_path))
    app = App(token=token, signing_secret=signing_secret, client=client,
              process_before_response=process_before_response)

    @app.event("app_mention")
    def on_mention(event, client, context):
        bot.handle(client, context.team_id, event["channel"], event["ts"], event.get("thread_ts"),
                   event.get("text", ""))

    @app.event("message")
    def on_message(event, client, context):
        if event.get("subtype") or event.get("bot_id"):
            return
        is_dm = event.get("channel_type") == "im"
        if not is_dm and MENTION.search(event.get("text", "")):
            return  # the app_mention event answers it
        bot.handle(client, context.team_id, event["channel"], event["ts"], event.get("thread_ts"),
                   event.get("text", ""), require_known_thread=not is_dm, dm=is_dm)

    @app.command("/engine-advisor")
    def on_command(ack, command, client, context, respond):
        ack()
        text = (command.get("text") or "").strip()
        channel = command["channel_id"]
        asked = present_slack.escape(text) or "(empty)"   # the user's words, never as mentions or links
        try:
            opener = client.chat_postMessage(channel=channel, text=f"<@{command['user_id']}> asked: {asked}")
        except SlackApiError as exc:   # e.g. not_in_channel: only the command's response_url reaches the user
            log.warning("slash command in %s: %s", channel, exc.response.get("error"))
            respond(text=NOT_IN_CHANNEL[_lang(text)], response_type="ephemeral")
            return
        bot.handle(client, context.team_id, channel, opener["ts"], None, text)

    return app


def serve(port: int = 3000, host: str = "127.0.0.1") -> None:
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

    from ui.slack_http import http_app
    uvicorn.run(http_app(app), host=host, port=port, log_level="warning")
