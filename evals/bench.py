"""`advisor bench`: the performance benchmark (not a test). Medians over repeated runs.

Figures: cold `advisor ask` (whole process), warm turn p50/p95 (in-process), server CPU of an
answer turn (agent + web panels), retrieval p95,
golden-suite wall time, peak RSS of an idle `advisor web`, turn latency with 50 simultaneous
conversations through the JSON API (`advisor api --workers 2`, and inside `advisor web`) and
through Gradio, 20 against two replicas sharing PostgreSQL and a Chroma server, the bytes an MCP
`recommend` / `estimate` call returns, and in LLM mode the calls and tokens per conversation. Each
figure is reported beside its target; the machine (and its load average while measuring) is described.
"""
from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Callable

TARGETS = {"cold_ask_s": 0.7, "warm_turn_p95_ms": 50.0, "retrieval_p95_ms": 20.0, "golden_suite_s": 15.0,
           "answer_turn_cpu_ms": 10.0, "api_50_conversations_p95_ms": 500.0}
LOAD_CONVERSATIONS = 50
FULL_PROFILE_TEXT = ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, chat for an internal team of 400 with "
                     "64 concurrent requests, 4K prompts and 500-token answers, 8K context.")
WARM_TEXTS = [
    FULL_PROFILE_TEXT,
    "一張 RTX 4090，自己用，跑 Qwen3 8B 聊天，沒有其他人用。",
    "Mac Studio M3 Ultra 512GB, Llama 3.3 70B, just me, chat.",
    "4 張 4090 沒有 NVLink，Llama 3.3 70B AWQ，內部 60 人，20 個併發。",
]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def machine() -> dict[str, Any]:
    """What this was measured on."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem_gb = round(kb / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu or platform.processor(), "cores": os.cpu_count(), "memory_gb": mem_gb,
            "python": platform.python_version(), "os": platform.platform(),
            "load_average_1m": round(os.getloadavg()[0], 1)}


def _advisor_cmd() -> list[str]:
    exe = shutil.which("advisor", path=str(Path(sys.executable).parent)) or shutil.which("advisor")
    return [exe] if exe else [sys.executable, "-m", "ui.cli"]


def _children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process so far."""
    import resource

    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def cold_ask(repeat: int) -> dict[str, Any]:
    """Whole-process `advisor ask --json`: wall time and the process's own CPU time (what the
    machine's other load does not inflate). One untimed run first builds the store and the caches."""
    cmd = _advisor_cmd() + ["ask", FULL_PROFILE_TEXT, "--json"]
    env = {**os.environ}
    env.pop("ADVISOR_MODEL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # a user's install keeps its bytecode
    subprocess.run(cmd, env=env, capture_output=True, check=False)
    times, cpu = [], []
    for _ in range(repeat):
        c0, t0 = _children_cpu(), time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - t0)
        cpu.append(_children_cpu() - c0)
        if proc.returncode != 0:
            return {"error": proc.stderr.decode(errors="replace").strip()[-300:]}
    return {"median_s": round(statistics.median(times), 3), "runs_s": [round(t, 3) for t in times],
            "cpu_median_s": round(statistics.median(cpu), 3), "load_average": _load_average()}


def _load_average() -> float | None:
    """The 1-minute load average while measuring (wall times on a busy machine run long)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _timed(fn: Callable[[], Any], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def warm_turn(repeat: int) -> dict[str, Any]:
    """In-process deterministic turns (full answers), after one warm-up turn per text."""
    from agent.api import Advisor

    saved = os.environ.pop("ADVISOR_MODEL", None)   # warm turns are measured in deterministic mode
    try:
        advisor = Advisor()
    finally:
        if saved is not None:
            os.environ["ADVISOR_MODEL"] = saved
    for text in WARM_TEXTS:
        advisor.turn(f"bench-{uuid.uuid4().hex}", text)
    texts = WARM_TEXTS * max(1, repeat)
    times, cpu = [], []
    for text in texts:   # wall time, and the process's CPU time (what other jobs on a shared machine cannot inflate)
        c0 = time.process_time()
        times += _timed(lambda: advisor.turn(f"bench-{uuid.uuid4().hex}", text), 1)
        cpu.append((time.process_time() - c0) * 1000)
    return {"p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2), "turns": len(times),
            "cpu_p50_ms": round(percentile(cpu, 50), 2), "cpu_p95_ms": round(percentile(cpu, 95), 2),
            "load_average": round(os.getloadavg()[0], 2)}


def answer_turn(repeat: int) -> dict[str, Any]:
    """Server CPU of one answer turn as the web app spends it: the agent's turn (graph, SQLite
    checkpoint) plus what the turn sends beside the chat (profile, sources, quick replies hidden)
    (process CPU time, so other processes on the
    machine do not count). Follow-up questions are answered "I don't know"; only the turn that
    produced the answer is measured."""
    from agent.api import Advisor
    from ui import web

    saved = os.environ.pop("ADVISOR_MODEL", None)
    try:
        advisor = Advisor()
    finally:
        if saved is not None:
            os.environ["ADVISOR_MODEL"] = saved

    def one(text: str, new_query: bool = False) -> tuple[float, float]:
        thread, reply = f"bench-{uuid.uuid4().hex}", text
        if new_query:   # the retrieval query is embedded afresh, as for a question not seen before
            from knowledge import embed
            embed.query_vector.cache_clear()
        for _ in range(4):
            c0 = time.process_time()
            out = advisor.turn(thread, reply)
            c1 = time.process_time()
            if out.question is None:
                web._turn_panels(out.advice, None, thread, out.advice.language, "profile", None, True)
                return (c1 - c0) * 1000, (time.process_time() - c1) * 1000
            reply = "I don't know"
        raise RuntimeError(f"no answer after 4 turns: {text}")

    for text in WARM_TEXTS:
        one(text)
    agent, panels = zip(*(one(text) for text in WARM_TEXTS * max(1, repeat)))
    total = [a + p for a, p in zip(agent, panels)]
    # The texts repeat, so the figures above reuse each text's query embedding (knowledge.embed caches
    # it per process); a question never seen before also pays for embedding its query once.
    fresh = [a + p for a, p in (one(text, new_query=True) for text in WARM_TEXTS * max(1, repeat))]
    return {"cpu_p50_ms": round(statistics.median(total), 2), "cpu_p95_ms": round(percentile(total, 95), 2),
            "agent_p50_ms": round(statistics.median(agent), 2), "panels_p50_ms": round(statistics.median(panels), 2),
            "turns": len(total), "new_query_cpu_p50_ms": round(statistics.median(fresh), 2)}


def retrieval(repeat: int) -> dict[str, Any]:
    """Hybrid search latency over the labelled retrieval queries."""
    from knowledge import retrieve

    queries = _retrieval_queries()
    retrieve.search(queries[0], k=5)
    times = [t for _ in range(max(1, repeat)) for q in queries for t in _timed(lambda: retrieve.search(q, k=5), 1)]
    return {"p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2), "queries": len(times)}


def _retrieval_queries() -> list[str]:
    import yaml

    for path in sorted((Path(__file__).parent).glob("retrieval*.y*ml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        items = data.get("queries", data) if isinstance(data, dict) else data
        found = [q["query"] for q in items if isinstance(q, dict) and "query" in q]
        if found:
            return found
    return ["prefill vs decode", "沒有 NVLink 要用 PP 還是 TP", "Ollama production 50 users"]


def golden_suite() -> dict[str, Any]:
    """Wall time of the whole golden suite in one process (includes loading)."""
    cmd = _advisor_cmd() + ["eval", "--suite", "golden"]
    env = {**os.environ}
    env.pop("ADVISOR_MODEL", None)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - t0
    closing = (proc.stdout.decode(errors="replace").strip().splitlines() or [""])[-1]
    return {"wall_s": round(elapsed, 2), "closing_line": closing}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _descendants(pid: int) -> list[int]:
    """`pid` and every process under it (the web app's API workers are its grandchildren)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split() if int(c) not in found]
    return list(dict.fromkeys(found))


def _rss_kb(pid: int) -> int:
    """Peak RSS (VmHWM) of a process and all its descendants, in kB."""
    total = 0
    for p in _descendants(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


@contextlib.contextmanager
def _web_server(wait_s: float = 90.0, command: tuple[str, ...] = ("web",)):
    """`advisor web` (or another serving command) in a child process on a free loopback port;
    yields (process, url) once its /healthz answers."""
    import urllib.request

    port = _free_port()
    proc = subprocess.Popen(_advisor_cmd() + [*command, "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + wait_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError((proc.stderr.read() or b"").decode(errors="replace").strip()[-300:])
            try:
                urllib.request.urlopen(url + "healthz", timeout=1)
                break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"advisor {command[0]} did not answer within {wait_s:.0f} s") from None
                time.sleep(0.5)
        yield proc, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def web_idle_rss() -> dict[str, Any]:
    """Peak RSS of an idle `advisor web` (3 s after it first answers)."""
    try:
        with _web_server() as (proc, _url):
            time.sleep(3)
            return {"peak_rss_mb": round(_rss_kb(proc.pid) / 1024, 1)}
    except RuntimeError as exc:
        return {"error": str(exc)}


def _load(urls: list[str], conversations: int, api: bool = False) -> dict[str, Any]:
    """Run the lean load client (evals.loadclient: stdlib only) in its own process."""
    cmd = [sys.executable, "-m", "evals.loadclient", *urls, "--conversations", str(conversations)]
    proc = subprocess.run(cmd + (["--api"] if api else []), capture_output=True, text=True, timeout=1800, check=False)
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": (proc.stderr or proc.stdout).strip()[-300:]}
    keys = ("replicas", "conversations", "turns", "p50_ms", "p95_ms", "wall_s", "failovers", "errors")
    return {k: report[k] for k in keys}


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and all its descendants (worker processes)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in _descendants(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def _repeated_load(proc: subprocess.Popen, url: str, repeat: int, conversations: int, api: bool) -> dict[str, Any]:
    """One warm-up run (first turns load the store and the embedder), then `repeat` measured runs:
    medians of their p50 / p95, every error, the server's CPU per turn and the load average."""
    _load([url], conversations, api)
    runs = []
    for _ in range(repeat):
        load_before, cpu_before = os.getloadavg()[0], _cpu_s(proc.pid)
        report = _load([url], conversations, api)
        if "error" in report:
            return report
        report["server_cpu_ms_per_turn"] = round((_cpu_s(proc.pid) - cpu_before) * 1000 / max(1, report["turns"]), 1)
        report["load_average"] = round(load_before, 1)
        runs.append(report)
    med = lambda key: round(statistics.median(r[key] for r in runs), 1)  # noqa: E731
    return {"conversations": conversations, "turns_per_run": runs[0]["turns"], "p50_ms": med("p50_ms"),
            "p95_ms": med("p95_ms"), "errors": sum(len(r["errors"]) for r in runs),
            "first_errors": [e for r in runs for e in r["errors"]][:3],
            "server_cpu_ms_per_turn": med("server_cpu_ms_per_turn"), "load_average": med("load_average"),
            "runs": [{k: r[k] for k in ("p50_ms", "p95_ms", "wall_s", "server_cpu_ms_per_turn", "load_average")}
                     for r in runs]}


def api_concurrency(repeat: int, conversations: int = LOAD_CONVERSATIONS, workers: int = 2) -> dict[str, Any]:
    """Turn latency when `conversations` clients talk at once to the JSON API served by
    `advisor api --workers N` (worker processes sharing the SQLite store); the lean load client
    (stdlib only) runs in a process of its own on the same machine."""
    try:
        with _web_server(command=("api", "--workers", str(workers))) as (proc, url):
            return {"setup": f"advisor api --workers {workers}, SQLite, local store",
                    **_repeated_load(proc, url, repeat, conversations, api=True)}
    except RuntimeError as exc:
        return {"error": str(exc)}


def api_in_web(repeat: int, conversations: int = LOAD_CONVERSATIONS) -> dict[str, Any]:
    """The same load through the JSON API routes that `advisor web` serves beside Gradio (one process)."""
    try:
        with _web_server() as (proc, url):
            return {"setup": "advisor web (one process): POST /api/turn", **_repeated_load(proc, url, repeat,
                                                                                          conversations, api=True)}
    except RuntimeError as exc:
        return {"error": str(exc)}


def web_concurrency(repeat: int = 1, conversations: int = LOAD_CONVERSATIONS) -> dict[str, Any]:
    """The same load through Gradio's event API (what the page does: queue, stream, panels) against
    one embedded `advisor web` (SQLite, local knowledge store)."""
    try:
        with _web_server() as (proc, url):
            return {"setup": "advisor web (one process): Gradio's send event",
                    **_repeated_load(proc, url, repeat, conversations, api=False)}
    except RuntimeError as exc:
        return {"error": str(exc)}


MCP_QUESTION = FULL_PROFILE_TEXT


def mcp_bytes() -> dict[str, Any]:
    """Bytes of JSON text an MCP client receives from `recommend` (compact and `detail=true`),
    `estimate` and `benchmark_spec` for the same situation (the tool functions `advisor web` serves)."""
    from agent.api import Advisor
    from ui import mcp_tools

    tools = mcp_tools.make_tools(Advisor())
    compact = tools["recommend"](MCP_QUESTION)
    plan = json.loads(compact)["plan"]
    sizes = {"recommend_bytes": len(compact.encode()),
             "recommend_detail_bytes": len(tools["recommend"](MCP_QUESTION, detail=True).encode()),
             "benchmark_spec_bytes": len(tools["benchmark_spec"](MCP_QUESTION).encode())}
    est = tools["estimate"]("llama-3.1-70b", "h100_sxm", count=8, quant="fp8", concurrency=64, interconnect="nvlink",
                            input_tokens=4000, output_tokens=500, context=8000)   # the question's setup
    sizes["estimate_bytes"] = len(est.encode())
    degrees = lambda p: {k: ((p or {}).get("layout") or {}).get(k) for k in ("strategy", "tp", "pp", "ep", "dp")}  # noqa: E731
    sizes["same_layout_as_estimate"] = degrees(json.loads(est)["plan"]) == degrees(plan)
    return {"question": MCP_QUESTION, **sizes}


def web_shared(conversations: int = 20) -> dict[str, Any]:
    """The same load against replicas sharing PostgreSQL and a Chroma server — those named by
    ADVISOR_DATABASE_URL / ADVISOR_CHROMA_URL, else private ones started here (evals.services):
    one replica (what sharing costs) and two (each conversation alternating between them)."""
    from evals import services

    out: dict[str, Any] = {"setup": "shared: PostgreSQL, Chroma server"}
    try:
        with contextlib.ExitStack() as stack:
            db = os.environ.get("ADVISOR_DATABASE_URL") or stack.enter_context(services.postgres())
            chroma = os.environ.get("ADVISOR_CHROMA_URL") or stack.enter_context(services.chroma())
            env = {"ADVISOR_DATABASE_URL": db, "ADVISOR_CHROMA_URL": chroma,
                   "ADVISOR_CHROMA_COLLECTION": f"bench-{uuid.uuid4().hex[:8]}"}
            stack.callback(_drop_collection, chroma, env["ADVISOR_CHROMA_COLLECTION"])
            for count, key in ((1, "one_replica"), (2, "two_replicas")):
                with services.replicas(env, count) as replicas:
                    report = _load([r.url for r in replicas], conversations)
                    rss = [round(_rss_kb(r.proc.pid) / 1024, 1) for r in replicas]
                out[key] = {**report, "peak_rss_mb_per_replica": rss}
    except services.ServiceUnavailable as exc:
        return {"skipped": str(exc)}
    return out


def _drop_collection(url: str, name: str) -> None:
    """Remove the bench's collection from a server the bench did not start."""
    from knowledge import remote

    with contextlib.suppress(Exception):
        remote.client(url).delete_collection(name)


def llm_mode() -> dict[str, Any]:
    """LLM calls per user turn and tokens per conversation, when ADVISOR_MODEL is set."""
    model = os.environ.get("ADVISOR_MODEL")
    if not model:
        return {"skipped": "ADVISOR_MODEL is not set (deterministic mode)"}
    from agent.api import Advisor

    advisor = Advisor(model=model)
    llm = advisor.tools.llm
    calls, tokens = [], []
    for text in WARM_TEXTS:
        before = len(llm.usage)
        out = advisor.turn(f"bench-{uuid.uuid4().hex}", text)
        calls.append((out.result or {}).get("llm_calls", len(llm.usage) - before))
        tokens.append(sum((u.get("prompt_tokens") or 0) + (u.get("completion_tokens") or 0) for u in llm.usage[before:]))
    return {"model": model, "calls_per_turn_max": max(calls), "tokens_per_conversation": statistics.median(tokens)}


def run(repeat: int = 5, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """All figures, each beside its target."""
    parts: dict[str, Callable[[], dict[str, Any]]] = {
        "cold_ask": lambda: cold_ask(repeat), "warm_turn": lambda: warm_turn(repeat),
        "answer_turn": lambda: answer_turn(repeat),
        "retrieval": lambda: retrieval(repeat), "golden_suite": golden_suite,
        "web_idle": web_idle_rss, "api_concurrency": lambda: api_concurrency(repeat),
        "api_in_web": lambda: api_in_web(repeat), "web_concurrency": lambda: web_concurrency(min(repeat, 3)),
        "web_shared": web_shared, "mcp": mcp_bytes, "llm": llm_mode,
    }
    figures = {name: (fn() if name not in skip else {"skipped": "by --skip"}) for name, fn in parts.items()}
    verdict = {
        "cold_ask_s": figures["cold_ask"].get("median_s"),
        "warm_turn_p95_ms": figures["warm_turn"].get("p95_ms"),
        "retrieval_p95_ms": figures["retrieval"].get("p95_ms"),
        "golden_suite_s": figures["golden_suite"].get("wall_s"),
        "answer_turn_cpu_ms": figures["answer_turn"].get("cpu_p50_ms"),
        "api_50_conversations_p95_ms": figures["api_concurrency"].get("p95_ms"),
    }
    checks = {k: {"value": v, "target": TARGETS[k], "met": (v is not None and v <= TARGETS[k])} for k, v in verdict.items()}
    return {"machine": machine(), "repeat": repeat, "figures": figures, "targets": checks,
            "command": "advisor bench --repeat %d" % repeat}


def main(repeat: int, skip: tuple[str, ...], out_path: Path | None) -> int:
    """Run and print JSON (and write it to `out_path`)."""
    report = run(repeat, skip)
    text = json.dumps(report, ensure_ascii=False, indent=2)
    print(text)
    if out_path:
        out_path.write_text(text + "\n", encoding="utf-8")
    return 0
