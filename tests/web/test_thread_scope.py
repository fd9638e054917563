"""Thread ids come from web clients: they are scoped to the web and never become file paths."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest
from gradio_client import Client

from agent.api import Advisor, client_thread

CHAT, THREAD, CARD = 1, 2, 4
SLACK_THREAD = "slack-T1-C1-1700000000.000100"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from ui import web
    advisor = Advisor(home=tmp_path_factory.mktemp("scope_home"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = web.build_app(advisor)
    demo.queue(default_concurrency_limit=4)
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    yield advisor, f"http://127.0.0.1:{port}/"
    demo.close()


def test_a_web_client_cannot_write_into_a_slack_conversation(served):
    advisor, url = served
    opened = advisor.turn(SLACK_THREAD, "Which inference engine should we use?")   # as the Slack bot would
    assert opened.question
    before = advisor.state(SLACK_THREAD)
    out = Client(url, verbose=False).predict("8x H100 SXM with NVLink, Llama 3.1 70B, 300 users, 64 concurrent",
                                             [], SLACK_THREAD, api_name="/send")
    assert out[THREAD] == SLACK_THREAD, "the client keeps its own id"
    after = advisor.state(SLACK_THREAD)
    assert after.get("profile") == before.get("profile") and after["question"] == before["question"], \
        "the Slack conversation is untouched"
    assert advisor.state(client_thread("web", SLACK_THREAD)).get("profile", {}).get("hardware") == "h100_sxm"


def test_thread_ids_are_keys_never_paths():
    """A hostile thread id is only ever a key: downloads are rendered in memory, no file is named after it."""
    from fastapi import HTTPException

    from ui import web

    class NoAdvice:   # the conversation does not exist: the download is refused, nothing is written
        def advice(self, thread):
            return None
    import tempfile
    tmp = Path(tempfile.gettempdir())
    before = {p.name for p in tmp.iterdir()}
    for hostile in ("../../../../etc/passwd", "/tmp/x", "a/../../b", "..\\..\\win", "x" * 5000, "\udcff"):
        try:
            web._download(NoAdvice(), hostile, "benchspec.yaml")
        except HTTPException as exc:
            assert exc.status_code == 404
        key = client_thread("web", hostile)
        assert key.startswith("web:") and "/" not in key and len(key) < 120
    assert not {p.name for p in tmp.iterdir()} - before - {p.name for p in tmp.iterdir() if not p.name.startswith(("bench", "web"))}
    assert client_thread("web", "web-0123456789abcdef") == "web-0123456789abcdef"   # ids the web issued
    assert client_thread("web", SLACK_THREAD) == f"web:{SLACK_THREAD}"
