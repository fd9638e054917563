"""Fixtures: the local Slack Web API mock (tests/slack/slackmock.py, a real HTTP server on 127.0.0.1)."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "slack"))


@pytest.fixture
def slack_api():
    from slackmock import MockSlack
    srv = MockSlack()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def web_client(slack_api):
    from slack_sdk import WebClient
    return WebClient(token="xoxb-test-token", base_url=f"http://127.0.0.1:{slack_api.server_address[1]}/api/")
