"""A real Gradio server on 127.0.0.1 for the web tests (one per module: startup is slow)."""
from __future__ import annotations

import socket

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def web_url(tmp_path_factory):
    import os

    home = tmp_path_factory.mktemp("web_home")
    old = os.environ.get("ADVISOR_HOME")
    os.environ["ADVISOR_HOME"] = str(home)
    from ui import web

    port = _free_port()
    demo = web.build_app()
    demo.queue(default_concurrency_limit=8)
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, mcp_server=True)
    yield f"http://127.0.0.1:{port}/"
    demo.close()
    if old is None:
        os.environ.pop("ADVISOR_HOME", None)
    else:
        os.environ["ADVISOR_HOME"] = old
