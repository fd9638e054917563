"""The Slack bot end to end against a local mock of Slack's Web API, with the real advisor."""
from __future__ import annotations

import time

import pytest

from agent.api import Advisor
from slackmock import SECRET, event_body, signed
from ui.present import slack as slack_blocks
from ui.slack_bot import build_app

CHANNEL = "C1"



def make_app(web_client, tmp_path):
    return build_app(Advisor(), signing_secret=SECRET, client=web_client,
                     seen_path=tmp_path / "seen.sqlite", process_before_response=True)


def mention(text: str, ts: str, thread_ts: str | None = None, event_id: str = "Ev1") -> dict:
    ev = {"type": "app_mention", "user": "U1", "text": f"<@UBOT> {text}", "ts": ts, "channel": CHANNEL}
    if thread_ts:
        ev["thread_ts"] = thread_ts
    return event_body(ev, event_id)


def reply(text: str, ts: str, thread_ts: str, event_id: str) -> dict:
    return event_body({"type": "message", "channel_type": "channel", "user": "U1", "text": text, "ts": ts,
                       "thread_ts": thread_ts, "channel": CHANNEL}, event_id)


def test_mention_interview_answer_in_thread_with_restart(slack_api, web_client, tmp_path):
    app = make_app(web_client, tmp_path)
    resp = app.dispatch(signed(mention("Which inference engine should we use?", "1.000100")))
    assert resp.status == 200
    first = slack_api.posts("1.000100")
    assert len(first) == 1 and "blocks" not in first[0], "the interview asks a question in the thread"
    # restart: a new app and a new advisor on the same data directory continue the thread
    app = make_app(web_client, tmp_path)
    answers = ["Two RTX 4090 cards, PCIe only without NVLink, Qwen3 32B",
               "Internal team of 100 people, about 20 concurrent", "I don't know"]
    for i, text in enumerate(answers):
        app.dispatch(signed(reply(text, f"1.00020{i}", "1.000100", f"EvR{i}")))
        if any("blocks" in p for p in slack_api.posts("1.000100")):
            break
    final = [p for p in slack_api.posts("1.000100") if "blocks" in p]
    assert final, "an answer in Block Kit arrives in the thread"
    text = " ".join(b["text"]["text"] for b in final[0]["blocks"] if b["type"] == "section")
    assert "vllm" in text.lower() or "exllamav3" in text.lower()
    assert any(m == "files.completeUploadExternal" for m, _ in slack_api.calls), "spec uploaded as a file"
    assert slack_api.uploads and b"concurrency" in slack_api.uploads[0]


def test_retry_delivered_twice_gives_one_answer(slack_api, web_client, tmp_path):
    app = make_app(web_client, tmp_path)
    body = mention("8x H100 SXM with NVLink, Llama 3.1 70B FP8, internal chat for 300 people, 64 concurrent, "
                   "4K prompts, 500-token answers, 8K context", "2.000100")
    app.dispatch(signed(body))
    n = len(slack_api.posts("2.000100"))
    assert n >= 1
    resp = app.dispatch(signed(body, extra_headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}))
    assert resp.status == 200
    app.dispatch(signed(body))  # the same event again without the header: remembered, dropped
    assert len(slack_api.posts("2.000100")) == n


def test_bad_signature_and_stale_timestamp_are_rejected(slack_api, web_client, tmp_path):
    app = make_app(web_client, tmp_path)
    body = mention("hello", "3.000100")
    assert app.dispatch(signed(body, secret="wrong-secret")).status == 401
    assert app.dispatch(signed(body, timestamp=int(time.time()) - 3600)).status == 401
    assert slack_api.posts() == []


def test_slash_command_opens_a_thread_and_answers(slack_api, web_client, tmp_path):
    app = make_app(web_client, tmp_path)
    form = {"command": "/engine-advisor", "text": "Mac Studio M3 Ultra 512GB, Llama 3.3 70B, just me, chat",
            "channel_id": CHANNEL, "user_id": "U1", "team_id": "T1", "trigger_id": "tr", "response_url": "http://127.0.0.1:9/x"}
    resp = app.dispatch(signed(form, form=True))
    assert resp.status == 200
    opener = slack_api.posts()[0]
    assert "asked" in opener["text"]
    thread_posts = [p for p in slack_api.posts() if p.get("thread_ts")]
    assert thread_posts, "the answer or question goes into the opened thread"


def test_errors_reach_the_user_in_the_thread(slack_api, web_client, tmp_path):
    class Broken:
        def turn(self, thread_id, text):
            raise RuntimeError("store unavailable")

        def state(self, thread_id):
            return {}

        def pending(self, thread_id):
            return None

    app = build_app(Broken(), signing_secret=SECRET, client=web_client, seen_path=tmp_path / "s.sqlite",
                    process_before_response=True)
    app.dispatch(signed(mention("anything", "4.000100")))
    posts = slack_api.posts("4.000100")
    assert len(posts) == 1 and "try again" in posts[0]["text"], "a generic line with what to do"
    assert "store unavailable" not in posts[0]["text"], "internal exception text stays in the log"
    app.dispatch(signed(mention("   ", "4.000200", event_id="Ev2")))   # the user's own mistake is named
    assert "empty" in slack_api.posts("4.000200")[0]["text"]


def test_long_answers_are_split_within_limits():
    from agent.advice import Advice, Citation, ProfileSummary, ProfileView
    advice = Advice(profile=ProfileView(summary=ProfileSummary()), answer=("x" * 2000 + "\n") * 60,
                    citations=[Citation(id=f"d#{i}", title=f"T{i}", source="https://e.x/y", text="t") for i in range(80)])
    blocks = slack_blocks.blocks(advice)
    for b in blocks:
        text = b["text"]["text"] if b["type"] == "section" else b["elements"][0]["text"]
        assert len(text) <= slack_blocks.SECTION_LIMIT
    parts = slack_blocks.split_messages(blocks)
    assert all(len(p) <= slack_blocks.BLOCKS_PER_MESSAGE for p in parts)
    assert sum(len(p) for p in parts) == len(blocks)


def test_tokens_never_logged(slack_api, web_client, tmp_path, caplog):
    caplog.set_level("DEBUG")
    app = make_app(web_client, tmp_path)
    app.dispatch(signed(mention("one RTX 4090, Qwen3 8B, just me, chat", "5.000100")))
    assert "xoxb-test-token" not in caplog.text


def test_answer_text_cannot_mention_or_link_in_slack():
    """Whatever an answer holds (verified prose, a quoted document), Slack gets it as inert text."""
    from agent.advice import Advice, Citation, ProfileSummary, ProfileView
    answer = ("Use vLLM [1]. <!channel> <@U024BE7LH> <http://evil.example|docs> ![](http://evil.example/p.png) "
              "[portal](http://evil.example/login) https://evil.example/x [guide](https://docs.vllm.ai/x)")
    advice = Advice(profile=ProfileView(summary=ProfileSummary()), answer=answer,
                    citations=[Citation(id="d#1", title="T <!here>", source="https://docs.vllm.ai/x", text="t"),
                               Citation(id="d#2", title="Local", source="/home/me/private/notes.md", text="t")])
    texts = [b["text"]["text"] if b["type"] == "section" else b["elements"][0]["text"] for b in slack_blocks.blocks(advice)]
    joined = "\n".join(texts)
    assert "<!channel>" not in joined and "<@U" not in joined and "<!here>" not in joined
    import re
    assert set(re.findall(r"<([^>|]+)", joined)) == {"https://docs.vllm.ai/x"}, joined
    assert "/home/me" not in joined
