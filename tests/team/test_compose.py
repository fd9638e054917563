"""compose.yaml, the Dockerfile and the load balancer's config hold together and name only real
commands, options, routes and environment variables of ours. Docker cannot run here, so this is
a structural check; the same processes are started for real in test_replicas.py."""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from ui.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
ADVISOR_SERVICES = ("web-1", "web-2", "slack")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def _env_names_read_by_the_code() -> set[str]:
    """Every ADVISOR_* / SLACK_* name the package reads (its source, not the tests)."""
    names: set[str] = set()
    for folder in ("agent", "knowledge", "ui", "rules", "evals"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(re.findall(r"\b((?:ADVISOR|SLACK)_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
    return names


def test_the_team_services_are_all_there(compose):
    assert set(compose["services"]) == {"postgres", "chroma", "web-1", "web-2", "lb", "slack"}
    assert compose["services"]["slack"]["profiles"] == ["slack"]


def test_advisor_commands_are_real_cli_commands(compose):
    parser = build_parser()
    for name in ADVISOR_SERVICES:
        command = compose["services"][name]["command"]
        assert command[0] == "advisor"
        args = parser.parse_args(command[1:])              # exits (fails the test) on a bad option
        assert args.command in ("web", "slack")
        if args.command == "web":
            assert args.host == "0.0.0.0"                   # reachable from the load balancer
            published = [int(p.split(":")[1]) for p in compose["services"][name]["ports"]]
            assert published == [args.port]


def test_environment_names_are_read_by_the_code_and_point_at_the_services(compose):
    known = _env_names_read_by_the_code()
    pg = compose["services"]["postgres"]["environment"]
    for name in ADVISOR_SERVICES:
        env = compose["services"][name]["environment"]
        unknown = sorted(k for k in env if k not in known)
        assert not unknown, f"{name}: variables nothing reads: {unknown}"
        db = urlsplit(env["ADVISOR_DATABASE_URL"].replace("${ADVISOR_DB_PASSWORD:-advisor}", "pw"))
        assert (db.scheme, db.hostname, db.port, db.username, db.path) == \
            ("postgresql", "postgres", 5432, pg["POSTGRES_USER"], "/" + pg["POSTGRES_DB"])
        chroma = urlsplit(env["ADVISOR_CHROMA_URL"])
        assert (chroma.hostname, chroma.port) == ("chroma", 8000)
    assert {"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"} <= set(compose["services"]["slack"]["environment"])


def test_the_chroma_server_image_matches_the_installed_client(compose):
    from importlib.metadata import version

    image = compose["services"]["chroma"]["image"]
    assert image.startswith("chromadb/chroma:")
    assert image.split(":")[1].split(".")[:2] == version("chromadb").split(".")[:2]


def test_healthchecks_probe_routes_the_app_serves(compose):
    from fastapi import FastAPI

    from ui import health

    app = FastAPI()
    health.add_routes(app, advisor=None)
    routes = {r.path for r in app.routes}
    for name in ("web-1", "web-2"):
        check = compose["services"][name]["healthcheck"]
        test = check["test"]
        assert test[:2] == ["CMD", "python"]
        url = re.search(r"'(http://[^']+)'", test[-1]).group(1)
        assert urlsplit(url).path in routes and urlsplit(url).path == "/readyz"
        assert urlsplit(url).port == 7860
        compile(test[-1], "healthcheck", "exec")            # valid Python


def test_dependencies_wait_for_what_exists(compose):
    services = compose["services"]
    for name, service in services.items():
        for dep, rule in (service.get("depends_on") or {}).items():
            assert dep in services, f"{name} depends on unknown service {dep}"
            if rule.get("condition") == "service_healthy":
                assert "healthcheck" in services[dep], f"{name} waits for {dep}'s health, which has none"


def test_the_load_balancer_is_sticky_and_sends_to_the_web_replicas(compose):
    volume = compose["services"]["lb"]["volumes"][0]
    conf = (ROOT / volume.split(":")[0]).read_text(encoding="utf-8")
    upstream = re.search(r"upstream\s+\w+\s*\{(.*?)\}", conf, re.S).group(1)
    assert "ip_hash;" in upstream
    servers = re.findall(r"server\s+([\w-]+):(\d+)", upstream)
    assert sorted(servers) == [("web-1", "7860"), ("web-2", "7860")]
    assert "proxy_buffering off" in conf


def test_the_dockerfile_installs_the_team_extra_and_runs_the_web_command():
    import tomllib

    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "'.[team]'" in text and "team" in extras
    for source in re.findall(r"^COPY\s+(\S+)", text, re.M):
        assert (ROOT / source).exists(), source
    cmd = re.search(r"^CMD\s+(\[.*\])", text, re.M).group(1)
    command = yaml.safe_load(cmd)
    assert command[0] == "advisor" and build_parser().parse_args(command[1:]).command == "web"
    assert shlex.split(" ".join(command))                     # a plain exec-form command
