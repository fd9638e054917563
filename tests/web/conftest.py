"""A real `advisor web` server on 127.0.0.1 for the web tests (one per module: startup is slow).

The server runs in its own process, exactly as `advisor web` starts it (FastAPI with /healthz,
downloads, the Gradio page and its MCP tools), with its data directory under pytest's tmp dir.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"advisor web exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("advisor web did not answer /healthz in time")


@pytest.fixture(scope="module")
def web_server(tmp_path_factory):
    """(url, data directory) of a running `advisor web`; its TMPDIR is `<data>/tmp`."""
    home = tmp_path_factory.mktemp("web_home")
    (home / "tmp").mkdir()
    port = _free_port()
    env = {**os.environ, "ADVISOR_HOME": str(home), "TMPDIR": str(home / "tmp")}
    advisor = Path(sys.executable).with_name("advisor")
    log = open(home / "server.log", "w")
    proc = subprocess.Popen([str(advisor), "web", "--port", str(port)], env=env, stdout=log,
                            stderr=subprocess.STDOUT, cwd=Path(__file__).resolve().parents[2])
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait(url, proc)
        yield url, home
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def web_url(web_server) -> str:
    return web_server[0]
