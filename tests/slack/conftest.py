"""Fixtures: the local Slack Web API mock and a WebClient pointed at it."""
from __future__ import annotations

import threading

import pytest
from slack_sdk import WebClient

from slackmock import MockSlack


@pytest.fixture
def slack_api():
    srv = MockSlack()
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def web_client(slack_api):
    return WebClient(token="xoxb-test-token", base_url=f"http://127.0.0.1:{slack_api.server_address[1]}/api/")
