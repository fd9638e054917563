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
import re
import uuid
from typing import Any

from knowledge import offline

offline.apply()

import gradio as gr  # noqa: E402  (after the offline switches)

from agent.api import Advisor  # noqa: E402
from agent.names import field_label  # noqa: E402
from rules.errors import AdvisorError  # noqa: E402
from ui import mcp_tools, plots  # noqa: E402
from ui.present import replies as quick  # noqa: E402
from ui.present import spec as spec_text  # noqa: E402
from ui.present import web as present  # noqa: E402
from ui.present.webtext import EXAMPLES, text  # noqa: E402

THREAD_KEY = "engine-advisor-thread"
N_GROUPS = 3   # an interview question asks about at most three fields (agent.interview.FIELDS_PER_ROUND)
DOWNLOAD_PATH = "advisor/download"
CORRECTABLE = ("hardware", "count", "model", "quantization", "workload", "context_length", "users", "concurrency",
               "serving_mode", "interconnect", "priority")
_THREAD_RE = re.compile(r"^[A-Za-z0-9_-]{1,80}$")

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
  #chat .message-row { max-width: 100% !important; margin: 6px 2px !important; } }
"""


def _lang(message: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in message) else "en"


def _new_thread() -> str:
    return f"web-{uuid.uuid4().hex[:16]}"


def welcome(lang: str) -> str:
    """The empty page's welcome (the example questions are the chat's example buttons)."""
    return text(lang)["welcome"]


def examples(lang: str = "en") -> list[dict[str, str]]:
    """Example questions in both languages, the page's language first (the user's may be the other)."""
    order = ("zh", "en") if lang == "zh" else ("en", "zh")
    return [{"text": q} for code in order for q in EXAMPLES[code]]


def _box(lang: str) -> Any:
    """The message box, emptied, with its hint in the conversation's language."""
    return gr.update(value="", placeholder=text(lang)["placeholder"])


def empty_chat(lang: str) -> Any:
    """The empty conversation: the welcome and the examples in the page's language."""
    return gr.update(value=[], placeholder=welcome(lang), examples=examples(lang))


def _example(ev: gr.SelectData) -> str:
    """The text of the example question clicked on the empty page."""
    return ev.value["text"] if isinstance(ev.value, dict) else str(ev.value)


def chat_message(advice: Any, question: dict[str, Any] | None) -> str:
    """What the advisor says in the chat: the question, or the answer's summary with details folded."""
    if question:
        return question["question"]
    return present.chat_markdown(advice) if advice is not None else ""


def reply_groups(question: dict[str, Any] | None, profile: Any, lang: str) -> list[Any]:
    """One radio group per open field (every field of the question), with only possible answers."""
    groups = quick.groups(question, profile, lang)
    out = []
    for i in range(N_GROUPS):
        if i < len(groups) and groups[i].replies:
            g = groups[i]
            choices = [r.text for r in g.replies] + [quick.DONT_KNOW["zh" if lang == "zh" else "en"]]
            out.append(gr.update(choices=choices, value=None, label=g.label, visible=True))
        else:
            out.append(gr.update(choices=[], value=None, visible=False))
    return out


def bench_markdown(advice: Any, thread: str, lang: str) -> str:
    """The benchmark plan in a few lines (engines, levels, lengths) with download links; the files
    are rendered from the stored answer when downloaded (`create_app`), never written."""
    from agent.names import display
    from ui.present.figures import number
    from ui.present.labels import labels
    t, lab = text(lang), labels(lang)
    spec = advice.benchmark if advice is not None else None
    if spec is None:
        return t["no_spec"]
    w = spec.workload
    base = f"{DOWNLOAD_PATH}/{thread}"
    lines = [f"#### {t['spec_title']}",
             f"- {lab['engine']}: " + ", ".join(display(e.id) for e in spec.scenario.engines),
             f"- {field_label('concurrency', lang)}: " + ", ".join(number(c) for c in w.concurrency),
             f"- {field_label('input_tokens', lang)} / {field_label('output_tokens', lang)}: "
             f"{number(w.input.mean)} / {number(w.output.mean)}",
             "", f"{t['download']}: [{t['download_yaml']}]({base}/benchspec.yaml) · "
             f"[{t['download_md']}]({base}/benchplan.md)"]
    return "\n".join(lines)


def _spec(advice: Any, thread: str, lang: str) -> list[Any]:
    """[plan summary + links, YAML, harness commands]: the YAML is dumped only when the tab is shown."""
    spec = advice.benchmark if advice is not None else None
    return [bench_markdown(advice, thread, lang), spec_text.yaml_text(spec) if spec is not None else "",
            spec_text.harness_commands(spec)]


def _chrome(lang: str) -> list[Any]:
    """Title, tab titles, buttons and labels in the conversation's language."""
    t = text(lang)
    return [f"# {t['title']}\n{t['subtitle']}", gr.update(label=t["tab_profile"]), gr.update(label=t["tab_plots"]),
            gr.update(label=t["tab_bench"]), gr.update(label=t["tab_sources"]), gr.update(value=t["new"]),
            gr.update(label=t["correct_value"]), gr.update(value=t["correct_btn"]), f"#### {t['correct']}",
            f"#### {t['commands']}", f"#### {t['spec_yaml']}"]


def _profile(view: Any, lang: str) -> list[Any]:
    """The profile table and the correction field choices."""
    t = text(lang)
    table = f"#### {t['profile_title']}\n\n" + present.profile_markdown(present.live_rows(view, lang), lang)
    choices = [(field_label(f, lang), f) for f in CORRECTABLE]
    return [table, gr.update(choices=choices, label=t["correct_field"])]


def _panels(advice: Any, question: dict | None, thread: str, lang: str, tab: str | None = "all",
            profile: Any = None) -> list[Any]:
    """Everything beside the chat, in the order of `panels` in build_app, from one Advice — and,
    mid-interview, the profile so far (`profile`, a rules Profile). Plots and spec are built only
    when their tab is shown (`tab`), else left as they are and built when the tab is opened; a
    cleared view (`advice` None, tab "all") clears every tab."""
    if profile is not None:
        from agent.result import profile_view
        view = profile_view(profile)
    else:
        view = advice.profile if advice is not None else None
    fresh = tab == "all"
    cites = present.citations_markdown(present.view(advice)) if advice is not None else ""
    return [
        *_profile(view, lang), *_chrome(lang),
        *(plots.plots(advice, lang) if fresh or tab == "plots" else [gr.skip()] * 6),
        *(_spec(advice, thread, lang) if fresh or tab == "benchmark" else [gr.skip()] * 3),
        cites or text(lang)["no_sources"],
        *reply_groups(question, profile, lang),
    ]


def build_app(advisor: Advisor | None = None) -> gr.Blocks:
    """The Blocks app; `advisor` is injectable for tests. Binds no port."""
    advisor = advisor or Advisor()
    log = advisor.store.transcripts   # shared by replicas when the store is PostgreSQL

    def screen(thread: str, lang: str, tab: str | None, advice: Any = None, question: Any = None) -> list[Any]:
        return _panels(advice, question, thread, lang, tab, advisor.profile(thread) if question else None)

    def send(message: str, history: list[dict], thread: str | None, tab: str | None = None,
             lang: str | None = None):
        message = (message or "").strip()
        thread = thread if thread and _THREAD_RE.match(thread) else _new_thread()
        lang = lang or _lang(message)
        if not message:
            return ("", history, thread, lang, *screen(thread, lang, tab, advisor.advice(thread),
                                                      advisor.pending(thread)))
        try:
            out = advisor.turn(thread, message)
        except AdvisorError as exc:   # bad input: say so in the chat, lose nothing
            history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": f"⚠️ {exc}"}]
            return ("", history, thread, lang, *screen(thread, lang, tab, advisor.advice(thread),
                                                      advisor.pending(thread)))
        # mid-interview the profile so far comes from the thread; an answer carries its own
        profile = advisor.profile(thread) if out.question else None
        lang = out.advice.language if out.advice else (profile.language if profile else _lang(message))
        reply = chat_message(out.advice, out.question)
        log.append(thread, "user", message)
        log.append(thread, "assistant", reply)
        history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": reply}]
        return (_box(lang), history, thread, lang,
                *_panels(out.advice or advisor.advice(thread), out.question, thread, lang, tab, profile))

    def correct(field: str | None, value: str | None, history, thread, tab, lang):
        """A correction turn: "<field>: <value>" in the conversation's language (the agent amends)."""
        if not field or not (value or "").strip():
            return ("", history, thread, lang, *screen(thread or _new_thread(), lang or "en", tab))
        return send(f"{field_label(field, lang)}: {value.strip()}", history, thread, tab, lang)

    def restore(saved: str | None, browser_lang: str | None):
        lang = "zh" if (browser_lang or "").lower().startswith("zh") else "en"
        thread = saved if saved and _THREAD_RE.match(saved) else _new_thread()
        history = log.history(thread)
        if not history:
            return (empty_chat(lang), thread, lang, _box(lang), *_panels(None, None, thread, lang, "all"))
        advice, pending = advisor.advice(thread), advisor.pending(thread)
        profile = advisor.profile(thread) if pending else None
        lang = advice.language if advice else (profile.language if profile else lang)
        # the page opens on the profile: plots and spec are built when their tab is opened
        return (gr.update(value=history, placeholder=welcome(lang), examples=examples(lang)), thread, lang,
                _box(lang), *_panels(advice, pending, thread, lang, "profile", profile))

    def new_conversation(lang: str | None):
        """A new thread: nothing of the old situation carries over (the trash icon does the same)."""
        thread, lang = _new_thread(), lang or "en"
        return (empty_chat(lang), thread, lang, _box(lang), *_panels(None, None, thread, lang, "all"))

    def show_plots(thread: str | None, lang: str | None):
        return plots.plots(advisor.advice(thread) if thread else None, lang or "en")

    def show_spec(thread: str | None, lang: str | None):
        return _spec(advisor.advice(thread) if thread else None, thread or "none", lang or "en")

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
                  fix_title, cmds_head, spec_head, mem_note, mem, dec_note, dec, ttft_note, ttft, bench, spec, cmds, cites, *groups]
        head = [box, chat, thread, lang]
        sent = box.submit(send, [box, chat, thread, tab, lang], head + panels, api_name="send",
                          api_visibility="undocumented")   # callable by API clients, not an MCP tool
        sent.then(None, js=SCROLL_JS)
        for g in groups:
            g.input(compose, [lang, *groups], box, api_visibility="private")
        chat.example_select(_example, None, box, api_visibility="private").then(
            send, [box, chat, thread, tab, lang], head + panels, api_visibility="private").then(None, js=SCROLL_JS)
        fix.click(correct, [fix_field, fix_value, chat, thread, tab, lang], head + panels,
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
    if name not in kinds or not _THREAD_RE.match(thread):
        raise HTTPException(404, "no such download")
    advice = advisor.advice(thread)
    if advice is None or advice.benchmark is None:
        raise HTTPException(404, "this conversation has no benchmark plan yet")
    media, render = kinds[name]
    return Response(render(advice.benchmark), media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


def create_app(advisor: Advisor | None = None) -> Any:
    """The FastAPI app `advisor web` serves: /healthz and /readyz, downloads, and the Gradio page with
    its MCP tools at the root. Extra routers (a JSON API) can be included here before the mount."""
    from fastapi import FastAPI

    from ui import health

    advisor = advisor or Advisor()
    demo = build_app(advisor)
    demo.queue(default_concurrency_limit=int(os.environ.get("ADVISOR_WEB_CONCURRENCY", "8")))
    app = FastAPI()
    health.add_routes(app, advisor)
    app.add_api_route(f"/{DOWNLOAD_PATH}/{{thread}}/{{name}}", lambda thread, name: _download(advisor, thread, name),
                      methods=["GET"])
    return gr.mount_gradio_app(app, demo, path="", mcp_server=True, show_error=True, css=CSS)


def launch(port: int = 7860, host: str = "127.0.0.1") -> None:
    """Serve the app (MCP tools on) until stopped."""
    import uvicorn
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
