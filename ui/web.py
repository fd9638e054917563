"""The Gradio web app: a chat with the advisor beside the profile as understood, plots, the benchmark
plan and the sources; MCP tools for other agents. A thin adapter over agent.api and ui.present.

    build_app(advisor) -> gr.Blocks      the page (no port bound)
    create_app(advisor) -> FastAPI       the page + /healthz, /readyz + downloads (served from memory)
    launch(port, host)                   serve create_app() until stopped

Everything on the page follows the conversation's language (en / zh-Hant): the chat, the profile,
the plots, the tab titles and the buttons.
"""
from __future__ import annotations

import os
from typing import Any

from knowledge import offline

offline.apply()

import gradio as gr  # noqa: E402  (after the offline switches)

from agent.api import Advisor  # noqa: E402
from rules.errors import AdvisorError  # noqa: E402
from ui import mcp_tools, plots  # noqa: E402
from ui.present import replies as quick  # noqa: E402
from ui.present import spec as spec_text  # noqa: E402
from ui.present.webtext import text  # noqa: E402
from ui.web_panels import (  # noqa: E402,F401  (chat_message, _panels, _spec: also used by tests and evals/bench)
    DOWNLOAD_PATH, N_GROUPS, _box, _example, _lang, _new_thread, _panels, _spec, _turn_panels, chat_message,
    chrome_update, empty_chat, examples, key, welcome,
)

THREAD_KEY = "engine-advisor-thread"

# Land on the start of the newest answer, not at the end of it (the chat does not autoscroll).
SCROLL_JS = """() => { setTimeout(() => {
  const rows = document.querySelectorAll('#chat .message-row.bot-row');
  const last = rows[rows.length - 1], box = document.querySelector('#chat .bubble-wrap');
  if (last && box) box.scrollTop += last.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
}, 60); }"""
CSS = """
#title h1 { margin: 0; font-size: 1.4rem; } #title p { margin: 0; opacity: .75; }
.quick-reply .wrap { gap: 4px; } .quick-reply label { padding: 2px 8px !important; }
#profile table, #chat table { font-size: .88rem; } #profile td, #profile th, #chat td, #chat th {
  padding: 4px 6px !important; word-break: normal !important; overflow-wrap: normal !important; }
#profile td:nth-child(3) { opacity: .8; }
#chat table { display: block; overflow-x: auto; white-space: nowrap; max-width: 100%; }
@media (max-width: 640px) { .gradio-container { padding: 4px !important; } #profile td:nth-child(3) { min-width: 9em; }
  #chat .message-row { max-width: 100% !important; margin: 6px 2px !important; }
  #chat td, #chat th { padding: 2px 4px !important; font-size: .78rem; } }
"""


def build_app(advisor: Advisor | None = None) -> gr.Blocks:
    """The Blocks app; `advisor` is injectable for tests. Binds no port."""
    advisor = advisor or Advisor()
    log = advisor.store.transcripts   # shared by replicas when the store is PostgreSQL

    def screen(thread: str, lang: str, tab: str | None) -> list[Any]:
        """What a turn shows beside the chat, for a thread as it stands (no new turn)."""
        pending = advisor.pending(key(thread))
        return _turn_panels(advisor.advice(key(thread)), pending, thread, lang, tab,
                            advisor.profile(key(thread)) if pending else None)

    def send(message: str, history: list[dict], thread: str | None, tab: str | None = None,
             lang: str | None = None):
        """One user message: the advisor's turn, the chat, and what it changed beside it (the page's
        own words follow the language through `lang.change`)."""
        message = (message or "").strip()
        thread = thread or _new_thread()   # the client's id; the conversation is key(thread)
        lang = lang or _lang(message)
        if not message:
            return ("", history, thread, lang, *screen(thread, lang, tab))
        try:
            shown = advisor.pending(key(thread)) is not None   # quick replies were on screen
            out = advisor.turn(key(thread), message)
        except AdvisorError as exc:   # bad input: say so in the chat, lose nothing
            history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": f"⚠️ {exc}"}]
            return ("", history, thread, lang, *screen(thread, lang, tab))
        # mid-interview the profile so far comes from the thread; an answer carries its own
        profile = advisor.profile(key(thread)) if out.question else None
        lang = out.advice.language if out.advice else (profile.language if profile else _lang(message))
        reply = chat_message(out.advice, out.question)
        log.append(key(thread), "user", message)
        log.append(key(thread), "assistant", reply)
        history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": reply}]
        return ("", history, thread, lang,
                *_turn_panels(out.advice or advisor.advice(key(thread)), out.question, thread, lang, tab, profile,
                              shown))

    def correct(field: str | None, value: str | None, history, thread, tab, lang):
        """A correction turn: "<field>: <value>" in the conversation's language (the agent amends);
        the new-value box is emptied."""
        if not field or not (value or "").strip():
            return ("", history, thread, lang, *screen(thread or _new_thread(), lang or "en", tab), "")
        return (*send(quick.correction(field, value, lang or "en"), history, thread, tab, lang), "")

    def current(field: str | None, thread: str | None, lang: str | None):
        """The picked field's value now, as the new-value box's hint."""
        from agent.names import value_text
        profile = advisor.profile(key(thread)) if field and thread else None
        value = getattr(profile, field, None) if profile is not None else None
        shown = value_text(field, value, lang) if value not in (None, []) else text(lang)["not_known"]
        return gr.update(placeholder=f"{text(lang)['now']}: {shown}" if field else "")   # never what was typed

    def restore(saved: str | None, browser_lang: str | None):
        """The page (re)opened: the saved conversation, or the welcome in the browser's language."""
        lang = "zh" if (browser_lang or "").lower().startswith("zh") else "en"
        thread = saved or _new_thread()
        history = log.history(key(thread))
        if not history:
            return (empty_chat(lang), thread, lang, _box(lang), *_panels(None, None, thread, lang, "all"))
        advice, pending = advisor.advice(key(thread)), advisor.pending(key(thread))
        profile = advisor.profile(key(thread)) if pending else None
        lang = advice.language if advice else (profile.language if profile else lang)
        # the page opens on the profile: plots and spec are built when their tab is opened
        return (gr.update(value=history, placeholder=welcome(lang), examples=examples(lang)), thread, lang,
                _box(lang), *_panels(advice, pending, thread, lang, "profile", profile))

    def new_conversation(lang: str | None):
        """A new thread: nothing of the old situation carries over (the trash icon does the same)."""
        thread, lang = _new_thread(), lang or "en"
        return (empty_chat(lang), thread, lang, _box(lang), *_panels(None, None, thread, lang, "all"))

    def show_plots(thread: str | None, lang: str | None):
        return plots.plots(advisor.advice(key(thread)) if thread else None, lang or "en")

    def show_spec(thread: str | None, lang: str | None):
        return _spec(advisor.advice(key(thread)) if thread else None, thread or "none", lang or "en")

    def compose(lang, *choices):
        return quick.compose(list(choices), lang or "en")

    t = text("en")
    with gr.Blocks(title="Engine Advisor", fill_width=True) as demo:
        saved = gr.BrowserState(None, storage_key=THREAD_KEY)   # survives a page reload
        thread = gr.Textbox(visible=False, elem_id="thread-id")    # explicit, so API clients hold their own
        lang = gr.State("en")   # the conversation's language: every word on the page follows it
        browser_lang = gr.Textbox(visible=False)
        title = gr.Markdown(f"# {t['title']}\n{t['subtitle']}", elem_id="title")
        with gr.Row(equal_height=False):
            with gr.Column(scale=5, min_width=340):
                chat = gr.Chatbot(elem_id="chat", height="62vh", min_height=360, autoscroll=False,
                                  placeholder=welcome("en"), examples=examples(), show_label=False,
                                  feedback_options=None, buttons=["copy"], group_consecutive_messages=False)
                quick_hint = gr.Markdown(visible=False, elem_id="quick-hint")
                groups = [gr.Radio(visible=False, elem_classes=["quick-reply"], elem_id=f"reply-{i}",
                                   interactive=True) for i in range(N_GROUPS)]
                box = gr.Textbox(placeholder=t["placeholder"], show_label=False, elem_id="message", submit_btn=True,
                                 lines=1, max_lines=6)
                new = gr.Button(t["new"], elem_id="new-conversation", variant="secondary", size="sm")
            with gr.Column(scale=6, min_width=340):
                tab = gr.State("profile")   # the tab shown: plots and spec are built when shown
                with gr.Tabs():
                    with gr.Tab(t["tab_profile"], elem_id="tab-profile") as profile_tab:
                        profile = gr.Markdown(elem_id="profile")
                        fix_title = gr.Markdown(f"#### {t['correct']}")
                        with gr.Row():
                            fix_field = gr.Dropdown(label=t["correct_field"], elem_id="fix-field", min_width=140)
                            fix_value = gr.Textbox(label=t["correct_value"], elem_id="fix-value", min_width=140)
                        fix = gr.Button(t["correct_btn"], elem_id="fix-send", size="sm")
                    with gr.Tab(t["tab_plots"], elem_id="tab-plots") as plots_tab:
                        mem_note = gr.Markdown(elem_id="memory-note")
                        mem = gr.BarPlot(show_label=False, elem_id="memory-plot", visible=False)
                        dec_note = gr.Markdown(elem_id="decode-note")
                        dec = gr.LinePlot(show_label=False, elem_id="decode-plot", visible=False)
                        ttft_note = gr.Markdown(elem_id="ttft-note")
                        ttft = gr.LinePlot(show_label=False, elem_id="ttft-plot", visible=False)
                    with gr.Tab(t["tab_bench"], elem_id="tab-bench") as bench_tab:
                        bench = gr.Markdown(elem_id="bench")
                        cmds_head = gr.Markdown(f"#### {t['commands']}")
                        cmds = gr.Code(language="shell", show_label=False, elem_id="commands", max_lines=20)
                        spec_head = gr.Markdown(f"#### {t['spec_yaml']}")
                        spec = gr.Code(language="yaml", show_label=False, elem_id="spec", max_lines=30)
                    with gr.Tab(t["tab_sources"], elem_id="tab-sources") as cites_tab:
                        cites = gr.Markdown(elem_id="citations")
        panels = [profile, fix_field, title, profile_tab, plots_tab, bench_tab, cites_tab, new, fix_value, fix,
                  fix_title, cmds_head, spec_head, mem_note, mem, dec_note, dec, ttft_note, ttft, bench, spec, cmds,
                  cites, *groups, quick_hint]
        # A turn sends only what it can change (Gradio rebuilds every output it is given, even a skip):
        turn_panels = [profile, cites, *groups, quick_hint, mem_note, mem, dec_note, dec, ttft_note, ttft,
                       bench, spec, cmds]
        chrome = [title, profile_tab, plots_tab, bench_tab, cites_tab, new, fix_value, fix, fix_title, cmds_head,
                  spec_head, fix_field, box]
        head = [box, chat, thread, lang]
        sent = box.submit(send, [box, chat, thread, tab, lang], head + turn_panels, api_name="send",
                          api_visibility="undocumented")   # callable by API clients, not an MCP tool
        sent.then(None, js=SCROLL_JS)
        lang.change(chrome_update, lang, chrome, api_visibility="private")   # the page's words follow the conversation
        for g in groups:
            g.input(compose, [lang, *groups], box, api_visibility="private")
        chat.example_select(_example, None, box, api_visibility="private").then(
            send, [box, chat, thread, tab, lang], head + turn_panels, api_visibility="private").then(
            None, js=SCROLL_JS)
        fix_field.input(current, [fix_field, thread, lang], fix_value, api_visibility="private")
        fix.click(correct, [fix_field, fix_value, chat, thread, tab, lang], head + turn_panels + [fix_value],
                  api_visibility="private").then(None, js=SCROLL_JS)
        profile_tab.select(lambda: "profile", None, tab, api_visibility="private")
        cites_tab.select(lambda: "citations", None, tab, api_visibility="private")
        plots_tab.select(lambda: "plots", None, tab, api_visibility="private").then(
            show_plots, [thread, lang], [mem_note, mem, dec_note, dec, ttft_note, ttft], api_name="plots",
            api_visibility="undocumented")
        bench_tab.select(lambda: "benchmark", None, tab, api_visibility="private").then(
            show_spec, [thread, lang], [bench, spec, cmds], api_name="benchmark", api_visibility="undocumented")
        new.click(new_conversation, [lang], [chat, thread, lang, box, *panels], api_visibility="private")
        chat.clear(new_conversation, [lang], [chat, thread, lang, box, *panels], api_visibility="private")
        demo.load(restore, [saved, browser_lang], [chat, thread, lang, box, *panels], api_visibility="private",
                  js="(s, l) => [s, navigator.language || 'en']")
        thread.change(lambda v: v, thread, saved, api_visibility="private")
        mcp_tools.register(advisor)
    return demo


def _download(advisor: Advisor, thread: str, name: str) -> Any:
    """The thread's benchmark spec (YAML) or plan (Markdown), rendered on request: no file is written."""
    from fastapi import HTTPException
    from fastapi.responses import Response
    kinds = {"benchspec.yaml": ("application/yaml", spec_text.yaml_text),
             "benchplan.md": ("text/markdown; charset=utf-8", spec_text.markdown_text)}
    if name not in kinds or not thread:
        raise HTTPException(404, "no such download")
    advice = advisor.advice(key(thread))
    if advice is None or advice.benchmark is None:
        raise HTTPException(404, "this conversation has no benchmark plan yet")
    media, render = kinds[name]
    return Response(render(advice.benchmark), media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


def create_app(advisor: Advisor | None = None) -> Any:
    """The FastAPI app `advisor web` serves: /healthz and /readyz, downloads, and the Gradio page with
    its MCP tools at the root. Extra routers (a JSON API) can be included here before the mount."""
    from fastapi import FastAPI

    from ui import health, http_api

    advisor = advisor or Advisor()
    demo = build_app(advisor)
    demo.queue(default_concurrency_limit=int(os.environ.get("ADVISOR_WEB_CONCURRENCY", "8")))
    app = FastAPI()
    health.add_routes(app, advisor)
    app.add_api_route(f"/{DOWNLOAD_PATH}/{{thread}}/{{name}}", lambda thread, name: _download(advisor, thread, name),
                      methods=["GET"])
    http_api.add_routes(app, advisor)   # POST /api/turn, GET /api/advice/{thread}
    return gr.mount_gradio_app(app, demo, path="", mcp_server=True, show_error=True, css=CSS)


def launch(port: int = 7860, host: str = "127.0.0.1") -> None:
    """Serve the app (MCP tools on) until stopped."""
    import uvicorn
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
