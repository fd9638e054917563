"""The Gradio web app: chat with the advisor beside the profile, recommendation, plots,
benchmark spec and citations; MCP tools for other agents. A thin adapter over agent.api.
"""
from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path
from typing import Any

from knowledge import offline

offline.apply()

import gradio as gr  # noqa: E402  (after the offline switches)

from agent.api import Advisor  # noqa: E402
from rules.errors import AdvisorError  # noqa: E402
from ui import mcp_tools, plots  # noqa: E402
from ui.present import spec as spec_text  # noqa: E402
from ui.present import web as present  # noqa: E402

QUICK_REPLIES = {
    "en": {
        "hardware": ["1× RTX 4090", "8× H100 SXM", "Mac Studio M3 Ultra", "Intel Xeon, no GPU"],
        "interconnect": ["NVLink", "PCIe only, no NVLink", "InfiniBand between nodes"],
        "serving_mode": ["Just me", "Demo for up to 10 people", "Internal team of 50–500", "External production"],
        "concurrency": ["1 at a time", "10 concurrent", "50 concurrent", "200 concurrent"],
        "workload": ["Chat", "RAG", "Coding agent", "Batch summarization"],
        "_": ["I don't know"],
    },
    "zh": {
        "hardware": ["一張 RTX 4090", "8 張 H100", "Mac Studio M3 Ultra", "Intel Xeon，沒有 GPU"],
        "interconnect": ["有 NVLink", "只有 PCIe，沒有 NVLink", "節點之間 InfiniBand"],
        "serving_mode": ["只有我自己用", "Demo，10 人以內", "內部團隊 50–500 人", "對外正式上線"],
        "concurrency": ["一次一個", "10 個併發", "50 個併發", "200 個併發"],
        "workload": ["聊天", "RAG", "程式 agent", "批次摘要"],
        "_": ["不知道"],
    },
}
N_BUTTONS = 5
THREAD_KEY = "engine-advisor-thread"


def quick_replies(question: dict[str, Any] | None, lang: str) -> list[str]:
    """Suggested answers for the fields a question asks about (plus "don't know")."""
    if not question:
        return []
    table = QUICK_REPLIES["zh" if lang == "zh" else "en"]
    out: list[str] = list(question.get("options") or [])   # e.g. devices closest to words we did not know
    for field in question.get("fields", []):
        out += table.get(field, [])
    return (out[: N_BUTTONS - 1] + table["_"])[:N_BUTTONS]


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def _download(text: str, thread: str) -> str | None:
    if not text:
        return None
    path = Path(tempfile.gettempdir()) / f"benchspec-{thread}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


NO_ADVICE = {"en": "No recommendation yet: answer the question in the chat.", "zh": "尚無建議：請先回答左側的問題。"}


def _plots(advice: Any) -> list[Any]:
    """The three plots: the answer's plan with one quantity varied (a few ms: drawn when shown)."""
    return [plots.memory_plot(advice), plots.decode_plot(advice), plots.ttft_plot(advice)]


def _spec(advice: Any, thread: str) -> list[Any]:
    """The spec as YAML (dumped once: shown and offered for download) and its harness commands."""
    spec = advice.benchmark if advice is not None else None
    yaml_text = spec_text.yaml_text(spec) if spec is not None else ""
    return [yaml_text, spec_text.harness_commands(spec), _download(yaml_text, thread)]


def _panels(advice: Any, question: dict | None, thread: str, lang: str, tab: str | None = "all") -> list[Any]:
    """Everything beside the chat, in the order of `outputs` below, from one Advice. The plots and
    the spec are built only when their tab is the one shown (`tab`); otherwise left as they are
    and built when the tab is opened."""
    replies = quick_replies(question, lang)
    buttons = [gr.update(value=replies[i], visible=True) if i < len(replies) else gr.update(visible=False)
               for i in range(N_BUTTONS)]
    view = present.view(advice) if advice is not None else None
    fresh = advice is None or tab == "all"   # a cleared view clears every tab
    return [
        {"data": present.profile_table(view) if view else [], "headers": present.profile_headers(lang)},
        present.card_markdown(view) if view else NO_ADVICE["zh" if lang == "zh" else "en"],
        *(_plots(advice) if fresh or tab == "plots" else [gr.skip()] * 3),
        *(_spec(advice, thread) if fresh or tab == "benchmark" else [gr.skip()] * 3),
        present.citations_markdown(view) if view else "",
        *buttons,
    ]


def build_app(advisor: Advisor | None = None) -> gr.Blocks:
    """The Blocks app; `advisor` is injectable for tests."""
    advisor = advisor or Advisor()
    log = advisor.store.transcripts   # shared by replicas when the store is PostgreSQL

    def last_advice(thread: str) -> Any:
        return advisor.advice(thread)

    def send(message: str, history: list[dict], thread: str | None, tab: str | None = None):
        message = (message or "").strip()
        thread = thread or f"web-{uuid.uuid4().hex[:16]}"
        if not message:
            return ("", history, thread, *_panels(last_advice(thread), advisor.pending(thread), thread, "en", tab))
        try:
            out = advisor.turn(thread, message)
        except AdvisorError as exc:   # bad input: say so in the chat, lose nothing
            history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": f"⚠️ {exc}"}]
            return ("", history, thread, *_panels(last_advice(thread), advisor.pending(thread), thread,
                                                  _lang(message), tab))
        lang = out.advice.language if out.advice else _lang(message)
        reply = out.question["question"] if out.question else (out.advice.answer if out.advice else "")
        log.append(thread, "user", message)
        log.append(thread, "assistant", reply)
        history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": reply}]
        return ("", history, thread, *_panels(out.advice or last_advice(thread), out.question, thread, lang, tab))

    def restore(thread: str | None):
        if not thread:
            thread = f"web-{uuid.uuid4().hex[:16]}"
            return ([], thread, *_panels(None, None, thread, "en"))
        history = log.history(thread)
        pending = advisor.pending(thread)
        advice = last_advice(thread)
        lang = advice.language if advice else _lang(" ".join(m["content"] for m in history))
        return (history, thread, *_panels(advice, pending, thread, lang, "recommendation"))

    def show_plots(thread: str | None):
        return _plots(last_advice(thread) if thread else None)

    def show_spec(thread: str | None):
        return _spec(last_advice(thread) if thread else None, thread or "none")

    def new_conversation():
        thread = f"web-{uuid.uuid4().hex[:16]}"
        return ([], thread, *_panels(None, None, thread, "en"))

    with gr.Blocks(title="Engine Advisor") as demo:
        saved = gr.BrowserState(None, storage_key=THREAD_KEY)   # survives a page reload
        thread = gr.Textbox(visible=False, elem_id="thread-id")    # explicit, so API clients hold their own
        gr.Markdown("## Engine Advisor — hardware first, then workload, then serving mode")
        with gr.Row():
            with gr.Column(scale=5):
                chat = gr.Chatbot(label="Conversation", height=520, elem_id="chat")
                with gr.Row():
                    buttons = [gr.Button(visible=False, size="sm", elem_classes=["quick-reply"]) for _ in range(N_BUTTONS)]
                box = gr.Textbox(placeholder="e.g. 4× RTX 4090 without NVLink, Llama 3.3 70B for 50 colleagues",
                                 show_label=False, elem_id="message", submit_btn=True)
                new = gr.Button("New conversation", elem_id="new-conversation", variant="secondary")
            with gr.Column(scale=6):
                tab = gr.State("recommendation")   # the tab shown: plots and spec are built when shown
                with gr.Tab("Recommendation") as rec_tab:
                    card = gr.Markdown(elem_id="recommendation")
                    profile = gr.Dataframe(headers=present.profile_headers("en"), label="Profile as understood",
                                           interactive=False, wrap=True, elem_id="profile")
                with gr.Tab("Plots") as plots_tab:
                    mem = gr.BarPlot(label="Memory per device vs capacity", elem_id="memory-plot")
                    dec = gr.LinePlot(label="Decode tokens/s vs concurrency", elem_id="decode-plot")
                    ttft = gr.LinePlot(label="TTFT vs prompt length", elem_id="ttft-plot")
                with gr.Tab("Benchmark") as bench_tab:
                    spec = gr.Code(language="yaml", label="Benchmark spec")
                    cmds = gr.Code(language="shell", label="Harness commands")
                    dl = gr.File(label="Download the spec")
                with gr.Tab("Citations") as cites_tab:
                    cites = gr.Markdown(elem_id="citations")
        panels = [profile, card, mem, dec, ttft, spec, cmds, dl, cites, *buttons]
        box.submit(send, [box, chat, thread, tab], [box, chat, thread, *panels], api_name="send",
                   api_visibility="undocumented")   # callable by API clients, not an MCP tool
        for b in buttons:
            b.click(send, [b, chat, thread, tab], [box, chat, thread, *panels], api_visibility="private")
        rec_tab.select(lambda: "recommendation", None, tab, api_visibility="private")
        cites_tab.select(lambda: "citations", None, tab, api_visibility="private")
        plots_tab.select(lambda: "plots", None, tab, api_visibility="private").then(
            show_plots, thread, [mem, dec, ttft], api_name="plots", api_visibility="undocumented")
        bench_tab.select(lambda: "benchmark", None, tab, api_visibility="private").then(
            show_spec, thread, [spec, cmds, dl], api_name="benchmark", api_visibility="undocumented")
        new.click(new_conversation, None, [chat, thread, *panels], api_visibility="private")
        demo.load(restore, [saved], [chat, thread, *panels], api_visibility="private")
        thread.change(lambda t: t, thread, saved, api_visibility="private")
        mcp_tools.register(advisor)
    return demo


def launch(port: int = 7860, host: str = "127.0.0.1") -> None:
    """Serve the app (MCP tools on) beside /healthz and /readyz (ui.health) until stopped."""
    import uvicorn
    from fastapi import FastAPI

    from ui import health, http_api

    advisor = Advisor()
    demo = build_app(advisor)
    demo.queue(default_concurrency_limit=int(os.environ.get("ADVISOR_WEB_CONCURRENCY", "8")))
    app = FastAPI()
    health.add_routes(app, advisor)
    http_api.add_routes(app, advisor)   # POST /api/turn, GET /api/advice/{thread}
    app = gr.mount_gradio_app(app, demo, path="", mcp_server=True, show_error=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
