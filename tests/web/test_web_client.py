"""The web app driven through gradio_client: multi-turn conversations and concurrency."""
from __future__ import annotations

import concurrent.futures as cf
import time

from gradio_client import Client

# send() returns: box, chat, thread, profile, card, mem, dec, ttft, spec, cmds, download, cites, 5 buttons
CHAT, THREAD, PROFILE, CARD, SPEC, CITES = 1, 2, 3, 4, 8, 11


def answered(card: str) -> bool:
    """The summary card shows a recommendation (it starts with its headline)."""
    return card.startswith("### ")


def converse(client: Client, turns: list[str], until_answer: bool = False) -> tuple:
    """Send turns in one thread; with `until_answer`, stop once a recommendation is shown."""
    history, thread, out = [], "", None
    for text in turns:
        out = client.predict(text, history, thread, api_name="/send")
        history, thread = out[CHAT], out[THREAD]
        if until_answer and answered(out[CARD]):
            break
    return out


def test_multi_turn_conversation_reaches_a_cited_recommendation(web_url):
    client = Client(web_url, verbose=False)
    first = client.predict("Which inference engine should we use?", [], "", api_name="/send")
    thread = first[THREAD]
    assert thread.startswith("web-")
    assert first[CHAT][-1]["role"] == "assistant" and "?" in str(first[CHAT][-1]["content"])
    history, out = first[CHAT], first
    for text in ["Two RTX 4090s, PCIe only without NVLink, Qwen3 32B",
                 "Internal team of 100 people, about 20 at once", "I don't know"]:
        if answered(out[CARD]):
            break
        out = client.predict(text, history, thread, api_name="/send")
        history = out[CHAT]
        assert out[THREAD] == thread
    card = out[CARD]
    assert card.startswith("### Recommended: vLLM") or card.startswith("### Recommended: ExLlamaV3")
    assert out[CITES].count("<details>") >= 2
    assert "concurrency" in out[SPEC]
    rows = {row[0]: row for row in out[PROFILE]["data"]}
    assert {"Hardware", "Devices per node", "Interconnect"} <= set(rows)
    assert rows["Hardware"][1] == "NVIDIA GeForce RTX 4090"               # the catalog's name, not the id
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
        card = out[CARD]
        primary = card.splitlines()[0].removeprefix("### Recommended: ") if answered(card) else ""
        assert primary in expected, (i, card)
        assert setups[i % 2][0].split(",")[0] in " ".join(str(m["content"]) for m in out[CHAT])
