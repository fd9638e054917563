"""The web app driven through gradio_client: multi-turn conversations and concurrency."""
from __future__ import annotations

import concurrent.futures as cf
import time

from gradio_client import Client

# /send returns box, chat, thread, then what a turn changes beside the chat (`turn_panels` in
# ui.web.build_app; API clients get no State output): the profile table, the sources, the three
# reply groups and their hint, then the plots and the plan (empty unless their tab is shown)
CHAT, THREAD, PROFILE, CITES = 1, 2, 3, 4


def text_of(content) -> str:
    """A chat message's text (Gradio 6 may send a list of typed parts)."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def last_reply(out) -> str:
    return text_of(out[CHAT][-1]["content"])


def answered(out) -> bool:
    """The chat's last message is a recommendation summary (it starts with its headline)."""
    return last_reply(out).startswith("**Recommended: ")


def converse(client: Client, turns: list[str], until_answer: bool = False) -> tuple:
    """Send turns in one thread; with `until_answer`, stop once a recommendation is shown."""
    history, thread, out = [], "", None
    for text in turns:
        out = client.predict(text, history, thread, api_name="/send")
        history, thread = out[CHAT], out[THREAD]
        if until_answer and answered(out):
            break
    return out


def test_multi_turn_conversation_reaches_a_cited_recommendation(web_url):
    client = Client(web_url, verbose=False)
    first = client.predict("Which inference engine should we use?", [], "", api_name="/send")
    thread = first[THREAD]
    assert thread.startswith("web-")
    assert first[CHAT][-1]["role"] == "assistant" and "?" in last_reply(first)
    history, out = first[CHAT], first
    for text in ["Two RTX 4090s, PCIe only without NVLink, Qwen3 32B",
                 "Internal team of 100 people, about 20 at once", "I don't know"]:
        if answered(out):
            break
        out = client.predict(text, history, thread, api_name="/send")
        history = out[CHAT]
        assert out[THREAD] == thread
    reply = last_reply(out)
    assert reply.startswith("**Recommended: vLLM**") or reply.startswith("**Recommended: ExLlamaV3**")
    assert reply.index("<details>") < 1500                                # a summary first, details folded
    assert out[CITES].count("<details>") >= 2
    bench, spec_yaml, commands = client.predict(thread, api_name="/benchmark")   # built when its tab is opened
    assert "concurrency" in spec_yaml and "vllm bench serve" in commands
    assert f"advisor/download/{thread}/benchspec.yaml" in bench
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[1:-1]]
            for line in out[PROFILE].splitlines() if line.startswith("| ")}
    assert {"Hardware", "Devices per node", "Interconnect", "Workload", "Users"} <= set(rows)
    assert rows["Hardware"][1] == "**NVIDIA GeForce RTX 4090**"           # the catalog's name, not the id
    assert "PCIe" in rows["Interconnect"][2] and rows["Interconnect"][2].startswith("you said")


def test_twenty_simultaneous_conversations_stay_in_their_threads(web_url):
    client = Client(web_url, verbose=False)
    setups = [
        ("Mac Studio M3 Ultra 512GB, Llama 3.3 70B, just me, chat", {"MLX-LM", "llama.cpp"}),
        ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, external production API, 200 concurrent requests",
         {"vLLM", "SGLang", "TensorRT-LLM"}),
    ]

    def one(i: int):
        text, expected = setups[i % 2]
        t0 = time.perf_counter()
        out = converse(client, [text, "I don't know", "I don't know", "I don't know"], until_answer=True)
        return i, out, expected, time.perf_counter() - t0

    with cf.ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(one, range(20)))
    threads = {out[THREAD] for _, out, _, _ in results}
    assert len(threads) == 20
    for i, out, expected, _ in results:
        reply = last_reply(out)
        primary = reply.splitlines()[0].removeprefix("**Recommended: ").removesuffix("**") if answered(out) else ""
        assert primary in expected, (i, reply[:200])
        assert setups[i % 2][0].split(",")[0] in " ".join(text_of(m["content"]) for m in out[CHAT])


def test_downloads_are_served_from_memory_and_leave_no_file(web_server):
    import urllib.error
    import urllib.request
    url, home = web_server
    client = Client(url, verbose=False)
    out = converse(client, ["8x H100 SXM with NVLink, Llama 3.1 70B FP8, external production API, 200 concurrent",
                            "I don't know", "I don't know"], until_answer=True)
    thread = out[THREAD]
    with urllib.request.urlopen(f"{url}advisor/download/{thread}/benchspec.yaml") as resp:
        body = resp.read().decode()
        assert "attachment" in resp.headers["Content-Disposition"] and "concurrency:" in body
    with urllib.request.urlopen(f"{url}advisor/download/{thread}/benchplan.md") as resp:
        assert resp.read().decode().startswith("#")
    for bad in (f"advisor/download/web-nosuchthread/benchspec.yaml", f"advisor/download/{thread}/passwd"):
        try:
            urllib.request.urlopen(url + bad)
            raise AssertionError(f"{bad} was served")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    written = [p for p in (home / "tmp").rglob("*") if "bench" in p.name]
    assert not written, written   # nothing per conversation in the temp directory


def test_a_web_client_cannot_write_into_a_slack_conversation(web_server):
    from agent.api import Advisor
    from ui.web_panels import key
    url, home = web_server
    advisor = Advisor(home=home)   # the server's conversation store, as the Slack bot would use it
    slack_thread = "slack-T1-C1-1700000000.000100"
    assert advisor.turn(slack_thread, "Which inference engine should we use?").question
    before = advisor.state(slack_thread)
    out = Client(url, verbose=False).predict("8x H100 SXM with NVLink, Llama 3.1 70B, 300 users, 64 concurrent",
                                             [], slack_thread, api_name="/send")
    assert out[THREAD] == slack_thread, "the client keeps its own id"
    after = advisor.state(slack_thread)
    assert after.get("profile") == before.get("profile") and after["question"] == before["question"]
    assert advisor.state(key(slack_thread)).get("profile", {}).get("hardware") == "h100_sxm"
