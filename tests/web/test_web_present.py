"""What the web app shows, from the typed Advice: a short chat summary with the whole answer folded,
the profile as understood (live, with the user's words), plots that say why they cannot be drawn,
and the page's own words in both languages."""
from __future__ import annotations

import pytest

from agent.api import Advisor, advise
from ui import plots
from ui.present import web as present
from ui.present.webtext import TEXT

TEAM = "I have 4 RTX 3090 cards and want to serve Llama 3.3 70B to my team."
TEAM_ANSWERS = {"interconnect": "PCIe only", "serving_mode": "Internal team of 60", "concurrency": "20"}
ZH = "4 張 RTX 4090 沒有 NVLink，Llama 3.3 70B，內部 60 人，20 個併發，聊天。"


@pytest.fixture(scope="module")
def team():
    return advise(TEAM, TEAM_ANSWERS)


def _shown(markdown: str) -> str:
    """The part of a chat message visible before any details are opened."""
    return markdown.split("<details>")[0]


def test_the_chat_shows_a_summary_and_folds_the_whole_answer(team):
    msg = present.chat_markdown(team)
    shown = _shown(msg)
    assert len(team.answer) > 3000 and len(shown) < 1500, (len(team.answer), len(shown))
    assert shown.startswith(f"**Recommended: {present.display(team.decision.primary)}**")
    from ui.present.markdown import answer
    assert answer(team).strip() in msg and "</details>" in msg          # nothing is lost, only folded
    table = [line for line in shown.splitlines() if line.startswith("| ")]
    assert table[0].split("|")[1:-1] == [" Engine ", " Plan ", " fits ", " TTFT ", " TPOT ", " Tokens/s "]
    assert len(table) == 1 + 1 + len(team.plan.alternatives)              # header + primary + alternatives


def test_a_zh_answer_is_summarised_in_zh():
    advice = advise(ZH)
    shown = _shown(present.chat_markdown(advice))
    assert shown.startswith("**建議") and "此配置下的其他選擇" in shown and "| 引擎 |" in shown
    assert "詳細內容" in present.chat_markdown(advice)


def test_the_profile_is_live_during_the_interview_with_the_users_words(tmp_path):
    advisor = Advisor(home=tmp_path)
    out = advisor.turn("t", TEAM)
    assert out.question is not None                                       # mid-interview: no answer yet
    from agent.result import profile_view
    rows = {r.field: r for r in present.live_rows(profile_view(advisor.profile("t")), "en")}
    assert rows["hardware"].value == "NVIDIA GeForce RTX 3090" and rows["hardware"].source == "you said: “RTX 3090”"
    assert rows["model"].source.startswith("you said") and rows["count"].value == "4"
    for open_field in ("workload", "users", "serving_mode"):            # still open, and shown as open
        assert rows[open_field].origin == "missing" and rows[open_field].value == "not known yet"
    table = present.profile_markdown(list(rows.values()), "en")
    assert "| Hardware | **NVIDIA GeForce RTX 3090** | you said: “RTX 3090” |" in table


def test_the_answer_profile_shows_workload_and_users(team):
    rows = {r.field: r for r in present.live_rows(team.profile, "en")}
    assert rows["users"].value == "60" and rows["users"].source.startswith("you said")
    assert rows["workload"].origin in ("assumed", "said") and rows["workload"].value


def test_plots_explain_themselves_and_say_why_not():
    advice = advise("Serve Frobnicator-X on 2 H100 SXM for 30 users, chat")
    assert advice.estimate is None
    for note in (plots.memory_note, plots.decode_note, plots.ttft_note):
        text = note(advice, None, "en")
        assert "cannot be drawn" in text and "no model I know was recognised" in text
        assert "無法畫出" in note(advice, None, "zh")
    assert "plots appear once" in plots.memory_note(None, None, "en")
    assert "Not estimated: no model I know was recognised" in present.chat_markdown(advice)


def test_plots_are_titled_in_the_conversations_language(team):
    zh = plots.memory_frame(team, "zh")
    assert list(zh["part"])[0] == "權重" and plots.memory_frame(team)["part"].iloc[0] == "weights"
    note = plots.decode_note(team, plots.decode_frame(team), "en")
    assert f"Your concurrency is {team.estimate.concurrency}." in note and note.startswith("#### Decode speed")


def test_the_page_has_every_word_in_both_languages():
    assert set(TEXT["en"]) == set(TEXT["zh"])
    for key, en in TEXT["en"].items():
        assert en.count("{") == TEXT["zh"][key].count("{"), key           # same placeholders
        assert en.count("|") == TEXT["zh"][key].count("|"), key           # same category lists


def test_people_see_names_not_ids(team):
    import re
    shown = _shown(present.chat_markdown(team)) + present.profile_markdown(present.live_rows(team.profile, "en"), "en")
    for raw in ("rtx3090", "llama-3.1-70b", "serving_mode", "int8", "pcie", "vllm", "exllamav3"):
        assert not re.search(rf"(?<![\w-]){re.escape(raw)}(?![\w-])", shown), raw


def test_a_sizing_answer_leads_with_the_hardware_options():
    advice = advise("what should we buy for Llama 3.3 70B, 200 users, TTFT p95 < 2 s?")
    assert advice.intent == "size"
    shown = _shown(present.chat_markdown(advice))
    options = [line for line in shown.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(options) == 3 and shown.index(options[0]) < shown.index("**Recommended")
    assert "say which one you pick" in plots.memory_note(advice, None, "en")


def test_the_users_words_are_shown_as_typed_never_as_markup(tmp_path):
    from ui import web_panels
    advisor = Advisor(home=tmp_path)
    typed = "4 RTX 3090 <img src=x onerror=alert(1)> [click](http://evil.example) with Llama 3.3 70B"
    out = advisor.turn("t", typed)
    from agent.result import profile_view
    table = present.profile_markdown(present.live_rows(profile_view(advisor.profile("t")), "en"), "en")
    for shown in (table, web_panels.chat_message(None, out.question) if out.question else "",
                  web_panels.chat_message(None, {"question": f"Which device is “{typed}”?", "fields": ["hardware"]})):
        assert "<img" not in shown and "](http" not in shown


def test_a_client_names_threads_only_inside_the_web():
    from ui.web_panels import key
    assert key("web-0123456789abcdef") == "web-0123456789abcdef"            # ids the app issued
    assert key("slack-T1-C1-1700000000.000100") == "web:slack-T1-C1-1700000000.000100"   # never Slack's
    for hostile in ("../../etc/passwd", "a/b", "x" * 500, "\udcff"):
        k = key(hostile)
        assert k.startswith("web:#") and "/" not in k and len(k) < 60
