"""A lean load client for `advisor web` / `advisor api`: simultaneous conversations over HTTP.

    python -m evals.loadclient URL [URL ...] [--conversations 20] [--timeout 120] [--api]

By default each turn goes through Gradio's HTTP API (the `send` event, as the page does); with
`--api` through the JSON API (`POST /api/turn`, ui.http_api) that `advisor web` and `advisor api` serve.

Standard library only (no gradio_client, no advisor imports), so it runs in its own small process
beside the servers it measures. Each conversation sends the same three turns — an opening that
leaves questions open, an answer, "I don't know" — and turn k of conversation i goes to
URL[(i + k) % len(URLs)]: with two replicas every conversation moves between them. A replica that
refuses the connection or drops it mid-turn is marked down and the turn is sent to the next one,
as a load balancer would. Prints one JSON object: latencies (p50/p95), failovers, and each
conversation's record of completed turns (text, replica, reply, milliseconds).
"""
from __future__ import annotations

import argparse
import http.client
import json
import sys
import threading
import time
import uuid
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

OPENINGS = [
    "We want to self-host an LLM for our team.",
    "我們想自己架一個 LLM 給團隊用。",
    "Which inference engine should we run for an internal assistant?",
    "想在公司內部跑一個聊天助理，要選哪個推論引擎？",
]
ANSWERS = [
    "4x RTX 4090 with PCIe only, Llama 3.3 70B AWQ, about 60 people and 20 at once, chat.",
    "8 張 H100 SXM 有 NVLink，Llama 3.1 70B FP8，內部 300 人，64 個併發。",
    "One Mac Studio M3 Ultra, Qwen3 32B, just a demo for 5 colleagues.",
    "2x L40S over PCIe, Qwen3 32B, RAG for 100 employees, 30 concurrent.",
]
DONT_KNOW = "I don't know"


def script(i: int) -> list[str]:
    """The three messages of conversation `i`."""
    return [OPENINGS[i % len(OPENINGS)], ANSWERS[i % len(ANSWERS)], DONT_KNOW]


class Down(Exception):
    """The replica refused the connection or dropped it mid-turn."""


class CallError(Exception):
    """The replica answered, with an error (a bug or bad input, not a dead replica)."""


def call(base: str, api: str, data: list, timeout: float) -> list:
    """One Gradio API call (POST /gradio_api/call/API, then read its event stream)."""
    body = json.dumps({"data": data}).encode()
    req = urllib.request.Request(f"{base}gradio_api/call/{api}", data=body,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            event = json.loads(resp.read())["event_id"]
        with urllib.request.urlopen(f"{base}gradio_api/call/{api}/{event}", timeout=timeout) as resp:
            stream = resp.read().decode()
    except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:   # refused, dropped, cut short
        raise Down(f"{base}: {type(exc).__name__}") from None
    kind, payload = None, None
    for line in stream.splitlines():
        if line.startswith("event:"):
            kind = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            payload = line.split(":", 1)[1].strip()
    if kind == "error":
        raise CallError(f"{base}{api}: {payload}")
    if kind != "complete" or payload is None:
        raise Down(f"{base}: the event stream ended with {kind!r}")   # the replica died mid-turn
    return json.loads(payload)


def api_call(base: str, text: str, thread: str, timeout: float) -> str:
    """One turn through the JSON API; the reply text (the question, or the answer's Markdown)."""
    body = json.dumps({"text": text, "thread": thread}).encode()
    req = urllib.request.Request(f"{base}api/turn", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            out = json.loads(resp.read())
    except urllib.error.HTTPError as exc:    # the replica answered, with an error
        raise CallError(f"{base}api/turn: {exc.code} {exc.read()[:200].decode(errors='replace')}") from None
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise Down(f"{base}: {type(exc).__name__}") from None
    if out.get("question"):
        return out["question"]["question"]
    return (out.get("advice") or {}).get("answer") or ""


def text_of(content: Any) -> str:
    """A chat message's text (Gradio 6 sends a list of typed parts, older versions a string)."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


class Pool:
    """The replicas, in order, and which of them are down."""

    def __init__(self, urls: list[str]):
        self.urls = [u if u.endswith("/") else u + "/" for u in urls]
        self.down: set[str] = set()
        self.lock = threading.Lock()

    def pick(self, n: int) -> str:
        """Replica n (mod count), skipping those marked down."""
        with self.lock:
            live = [u for u in self.urls if u not in self.down] or self.urls
            preferred = self.urls[n % len(self.urls)]
            return preferred if preferred in live else live[n % len(live)]

    def mark_down(self, url: str) -> None:
        with self.lock:
            self.down.add(url)


def conversation(i: int, pool: Pool, timeout: float,
                 on_turn: Callable[[dict], None] | None = None, api: bool = False) -> dict[str, Any]:
    """Run conversation `i`; its record of completed turns and how many turns failed over."""
    history: list = []
    thread = f"load-{i}-{uuid.uuid4().hex[:8]}" if api else ""
    turns, failovers = [], 0
    for k, text in enumerate(script(i)):
        for attempt in range(len(pool.urls) + 1):
            url = pool.pick(i + k + attempt)
            t0 = time.perf_counter()
            try:
                if api:
                    reply = api_call(url, text, thread, timeout)
                else:
                    out = call(url, "send", [text, history, thread], timeout)
                    history, thread = out[1], out[2]
                    reply = text_of(history[-1]["content"]) if history else ""
            except Down:
                pool.mark_down(url)
                failovers += 1
                continue
            except CallError as exc:
                return {"conversation": i, "thread": thread, "turns": turns, "failovers": failovers,
                        "error": f"turn {k}: {exc}"[:300]}
            turn = {"conversation": i, "turn": k, "text": text, "url": url, "thread": thread,
                    "reply": reply, "ms": round((time.perf_counter() - t0) * 1000, 1)}
            turns.append(turn)
            if on_turn:
                on_turn(turn)
            break
        else:
            return {"conversation": i, "thread": thread, "turns": turns, "failovers": failovers,
                    "error": f"turn {k} failed on every replica"}
    return {"conversation": i, "thread": thread, "turns": turns, "failovers": failovers}


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100), None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def run(urls: list[str], conversations: int = 20, timeout: float = 120.0,
        on_turn: Callable[[dict], None] | None = None, api: bool = False) -> dict[str, Any]:
    """All conversations at once; the summary and every record."""
    pool = Pool(urls)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=conversations) as ex:
        records = list(ex.map(lambda i: conversation(i, pool, timeout, on_turn, api), range(conversations)))
    times = [t["ms"] for r in records for t in r["turns"]]
    return {"replicas": len(pool.urls), "conversations": conversations, "turns": len(times),
            "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95),
            "wall_s": round(time.perf_counter() - t0, 2),
            "failovers": sum(r["failovers"] for r in records),
            "errors": [r["error"] for r in records if r.get("error")], "records": records}


def main(argv: list[str] | None = None) -> int:
    """Command line: run and print the JSON summary (records included with --records)."""
    parser = argparse.ArgumentParser(prog="python -m evals.loadclient", description=__doc__.split("\n")[0])
    parser.add_argument("urls", nargs="+", metavar="URL", help="replica base URL, e.g. http://127.0.0.1:7860/")
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per HTTP call")
    parser.add_argument("--records", action="store_true", help="include every conversation's record")
    parser.add_argument("--api", action="store_true", help="use the JSON API (POST /api/turn), not Gradio's")
    args = parser.parse_args(argv)
    if not 1 <= args.conversations <= 500:
        parser.error("--conversations must be between 1 and 500")
    report = run(args.urls, args.conversations, args.timeout, api=args.api)
    if not args.records:
        report.pop("records")
    print(json.dumps(report, ensure_ascii=False))
    return 0 if not report["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
