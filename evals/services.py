"""Private servers on 127.0.0.1 for the team tests and `advisor bench`: PostgreSQL, Chroma and
`advisor web` replicas. Each is a context manager that stops its server (and deletes its data)
on exit, also when the body raises.

    with postgres() as url:                 # initdb + pg_ctl in a temp dir on a free port
    with chroma() as url:                   # `chroma run` from the installed chromadb package
    with replicas(env, 2) as (a, b):        # `advisor web` processes, waited for /readyz

PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user that Debian's
package creates (through runuser). Missing programs raise NotInstalled naming the package; any
other failure to start raises ServiceUnavailable with the server's own words.
"""
from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


class ServiceUnavailable(RuntimeError):
    """A server cannot be started here; the message says what went wrong."""


class NotInstalled(ServiceUnavailable):
    """The server's programs are not installed; the message names the package."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bindir() -> Path | None:
    """Where initdb and pg_ctl live: `$PG_BINDIR`, the newest Debian cluster version, or PATH."""
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def _as_pg_user(cmd: list[str]) -> list[str]:
    """`cmd` run as the unprivileged `postgres` user when we are root."""
    if os.geteuid() != 0:
        return cmd
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise NotInstalled("running as root and there is no 'postgres' user to run PostgreSQL "
                           "(apt-get install postgresql creates it)") from None
    runuser = shutil.which("runuser")
    if not runuser:
        raise ServiceUnavailable("running as root and `runuser` is missing (util-linux)")
    return [runuser, "-u", "postgres", "--", *cmd]


@contextlib.contextmanager
def postgres(database: str = "advisor") -> Iterator[str]:
    """A throwaway PostgreSQL cluster; yields its URL (user `advisor`, trust auth, loopback only)."""
    bindir = pg_bindir()
    if bindir is None or not (bindir / "pg_ctl").exists():
        raise NotInstalled("PostgreSQL server binaries not found (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="advisor-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()
    pg_ctl = _as_pg_user([str(bindir / "pg_ctl"), "-D", str(data)])
    try:
        _run(_as_pg_user([str(bindir / "initdb"), "-D", str(data), "-U", "advisor", "--auth=trust",
                          "-E", "UTF8", "--no-sync", "--locale=C"]), "initdb")
        options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   f"-c synchronous_commit=off -c max_connections=200")
        _run(pg_ctl + ["-o", options, "-l", str(folder / "log"), "-w", "-t", "30", "start"], "pg_ctl start")
        url = f"postgresql://advisor@127.0.0.1:{port}/postgres"
        _run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "advisor", database],
             "createdb")
        yield f"postgresql://advisor@127.0.0.1:{port}/{database}"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(pg_ctl + ["-m", "immediate", "-w", "stop"], capture_output=True, timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def chroma_bin() -> Path | None:
    """The `chroma` command installed with the chromadb package beside this interpreter."""
    beside = Path(sys.executable).parent / "chroma"
    if beside.exists():
        return beside
    which = shutil.which("chroma")
    return Path(which) if which else None


@contextlib.contextmanager
def chroma() -> Iterator[str]:
    """A throwaway Chroma server; yields its URL."""
    exe = chroma_bin()
    if exe is None:
        raise NotInstalled("the `chroma` command is missing (pip install chromadb)")
    folder, port = Path(tempfile.mkdtemp(prefix="advisor-chroma-")), free_port()
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    with open(folder / "log", "wb") as log:
        proc = subprocess.Popen([str(exe), "run", "--path", str(folder / "data"), "--host", "127.0.0.1",
                                 "--port", str(port)], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(f"{url}/api/v2/heartbeat", proc, 30, folder / "log")
        yield url
    finally:
        _stop(proc)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Replica:
    """One `advisor web` process."""

    url: str
    proc: subprocess.Popen
    home: Path

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs (a crashed host)."""
        self.proc.kill()
        self.proc.wait(timeout=10)


def advisor_cmd() -> list[str]:
    """The `advisor` console script beside this interpreter (or `python -m ui.cli`)."""
    exe = Path(sys.executable).parent / "advisor"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "ui.cli"]


def start_replica(env: dict[str, str]) -> Replica:
    """Start `advisor web` on a free loopback port with `env` added (not waited for)."""
    home = Path(tempfile.mkdtemp(prefix="advisor-web-"))
    port = free_port()
    full = {**os.environ, "ADVISOR_HOME": str(home), **env}
    full.pop("ADVISOR_MODEL", None)
    with open(home / "log", "wb") as log:
        proc = subprocess.Popen(advisor_cmd() + ["web", "--port", str(port)], stdout=log,
                                stderr=subprocess.STDOUT, env=full)
    return Replica(f"http://127.0.0.1:{port}/", proc, home)


@contextlib.contextmanager
def replicas(env: dict[str, str], count: int = 2, wait_s: float = 240) -> Iterator[list[Replica]]:
    """`count` web replicas started together; yields once each one's /readyz says ready."""
    started: list[Replica] = []
    try:
        for _ in range(count):
            started.append(start_replica(env))
        for replica in started:
            _wait(replica.url + "readyz", replica.proc, wait_s, replica.home / "log")
        yield started
    finally:
        for replica in started:
            _stop(replica.proc)
            shutil.rmtree(replica.home, ignore_errors=True)


def ready(url: str) -> dict:
    """The replica's /readyz body (status code folded in as "status")."""
    try:
        with urllib.request.urlopen(url + "readyz", timeout=10) as resp:
            return {"status": resp.status, **json.loads(resp.read())}
    except urllib.error.HTTPError as exc:
        return {"status": exc.code, **json.loads(exc.read() or b"{}")}


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise ServiceUnavailable(f"{what} failed: {(proc.stderr or proc.stdout).strip()[-400:]}")


def _wait(url: str, proc: subprocess.Popen, wait_s: float, log: Path) -> None:
    """Poll `url` until it answers 200 (a readiness probe may be slow: it builds caches)."""
    deadline, last = time.monotonic() + wait_s, "no answer"
    while True:
        if proc.poll() is not None:
            raise ServiceUnavailable(f"{url} exited early: {_tail(log)}")
        try:
            with urllib.request.urlopen(url, timeout=15) as resp:
                if resp.status == 200:
                    return
        except urllib.error.HTTPError as exc:
            last = f"{exc.code} {exc.read()[:300].decode(errors='replace')}"
        except OSError as exc:
            last = type(exc).__name__
        if time.monotonic() > deadline:
            raise ServiceUnavailable(f"{url} not ready within {wait_s:.0f} s (last: {last}): {_tail(log)}")
        time.sleep(0.25)


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace").strip()[-600:]
    except OSError:
        return ""


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
