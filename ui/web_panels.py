"""What each part of the web page shows, from one Advice (and, mid-interview, the profile so far):
the chat message, the profile table, the quick replies, the plots, the benchmark plan, the sources,
and the page's own words — all in the conversation's language. Gradio values and updates only;
the layout and the events are in ui/web.py.
"""
from __future__ import annotations

import uuid
from urllib.parse import quote
from typing import Any

from knowledge import offline

offline.apply()

import gradio as gr  # noqa: E402  (after the offline switches)

from agent.names import field_label  # noqa: E402
from ui import plots  # noqa: E402
from ui.present import replies as quick  # noqa: E402
from ui.present import spec as spec_text  # noqa: E402
from ui.present import web as present  # noqa: E402
from ui.present.webtext import EXAMPLES, text  # noqa: E402

N_GROUPS = 3   # an interview question asks about at most three fields (agent.interview.FIELDS_PER_ROUND)
DOWNLOAD_PATH = "advisor/download"


def _lang(message: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in message) else "en"


def _new_thread() -> str:
    return f"web-{uuid.uuid4().hex[:16]}"


def key(thread: str) -> str:
    """The conversation a client's thread id names, inside the web's own namespace (a web client can
    never name a Slack thread; a thread id is never more than a key)."""
    from agent.api import client_thread
    return client_thread("web", thread)


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
    if question:   # it can quote the user's words: shown as typed, never as markup
        return present.inert(question["question"])
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
    base = f"{DOWNLOAD_PATH}/{quote(thread, safe='')}"
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
            gr.update(label=t["correct_value"], value=""), gr.update(value=t["correct_btn"]), f"#### {t['correct']}",
            f"#### {t['commands']}", f"#### {t['spec_yaml']}"]


def _profile(view: Any, lang: str) -> list[Any]:
    """The profile table and the correction field choices."""
    t = text(lang)
    table = f"#### {t['profile_title']}\n\n" + present.profile_markdown(present.live_rows(view, lang), lang)
    choices = [(field_label(f, lang), f) for f in quick.CORRECTABLE]
    return [table, gr.update(choices=choices, label=t["correct_field"])]


def chrome_update(lang: str) -> list[Any]:
    """The page's own words and the correction field's choices in `lang`, in the order of `chrome`
    in build_app: sent when the conversation's language changes, not with every turn."""
    t = text(lang)
    choices = [(field_label(f, lang), f) for f in quick.CORRECTABLE]
    return [*_chrome(lang), gr.update(choices=choices, label=t["correct_field"]),
            gr.update(placeholder=t["placeholder"])]


PLOTS_STALE = ["", None, "", None, "", None]
SPEC_STALE = ["", "", ""]


def _turn_panels(advice: Any, question: dict | None, thread: str, lang: str, tab: str | None = "profile",
                 profile: Any = None, replies_shown: bool = True) -> list[Any]:
    """What a turn changes beside the chat, in the order of `turn_panels` in build_app: the profile,
    the sources, the quick replies, and the plots and plan of the tab shown (the hidden one is
    emptied and built when opened). Plain values wherever the component's settings stay as they
    are: Gradio rebuilds a component for every update (also for a skip), ~0.5 ms each, where a
    value costs a fraction of that. The quick replies are updated only when a question is asked
    or was on screen before this turn (`replies_shown`)."""
    if profile is not None:
        from agent.result import profile_view
        view = profile_view(profile)
    else:
        view = advice.profile if advice is not None else None
    t = text(lang)
    table = f"#### {t['profile_title']}\n\n" + present.profile_markdown(present.live_rows(view, lang), lang)
    cites = present.advice_citations_markdown(advice) if advice is not None else ""
    if question or replies_shown:
        groups = [*reply_groups(question, profile, lang),
                  gr.update(value=t["quick"], visible=True) if question else gr.update(value="", visible=False)]
    else:
        groups = [None] * N_GROUPS + [""]
    return [
        table, cites or t["no_sources"], *groups,
        *(plots.plots(advice, lang) if tab == "plots" else PLOTS_STALE),
        *(_spec(advice, thread, lang) if tab == "benchmark" else SPEC_STALE),
    ]


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
    cites = present.advice_citations_markdown(advice) if advice is not None else ""
    return [
        *_profile(view, lang), *_chrome(lang),
        *(plots.plots(advice, lang) if fresh or tab == "plots" else [gr.skip()] * 6),
        *(_spec(advice, thread, lang) if fresh or tab == "benchmark" else [gr.skip()] * 3),
        cites or text(lang)["no_sources"],
        *reply_groups(question, profile, lang),
        gr.update(value=text(lang)["quick"], visible=True) if question else gr.update(value="", visible=False),
    ]


