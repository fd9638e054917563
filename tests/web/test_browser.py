"""A real browser (Debian chromium via Playwright) against a real `advisor web`: the welcome, an
interview answered with quick replies, the summary answer landing at its start, the live profile
and a correction, plots, downloads, the trash control — in English on a desktop and in zh-Hant on
a phone. Screenshots are kept in test-artifacts/ (git-ignored)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP, PHONE = {"width": 1400, "height": 950}, {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield b
        b.close()


def open_page(browser, url, viewport, locale="en-US"):
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.goto(url, wait_until="load")
    page.locator("#message textarea").wait_for(timeout=30_000)
    return page


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"web-{name}.png"), full_page=True)


def bot_messages(page):
    return page.locator("#chat .message-row.bot-row")


IDLE_JS = "[...document.querySelectorAll('[data-testid=status-tracker]')].every(e => e.classList.contains('hide'))"


def idle(page):
    """Wait until no event is pending (a message sent meanwhile would be dropped, as for a person)."""
    page.wait_for_function(IDLE_JS, timeout=90_000)


def send(page, text):
    """Type a message, send it, and wait for the advisor's reply to it."""
    idle(page)
    n = bot_messages(page).count()
    box = page.locator("#message textarea")
    if text is not None:
        box.fill(text)
    box.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#chat .message-row.bot-row').length > {n}", timeout=90_000)
    idle(page)
    page.wait_for_timeout(400)   # the scroll to the answer's start runs just after the reply lands
    return bot_messages(page).last


def answer_with_quick_replies(page, until: str, max_turns: int = 4):
    """Pick the last possible answer in every quick-reply group and send, until `until` shows."""
    for _ in range(max_turns):
        if until in bot_messages(page).last.inner_text():
            return
        page.locator(".quick-reply").first.wait_for(state="visible", timeout=30_000)
        groups = page.locator(".quick-reply:visible")
        for i in range(groups.count()):
            options = groups.nth(i).locator("label")
            options.nth(options.count() - 2).click()   # the last real option (the very last is "don't know")
        page.wait_for_function("document.querySelector('#message textarea').value.length > 0", timeout=10_000)
        send(page, None)
    assert until in bot_messages(page).last.inner_text()


def lands_on_start(page) -> bool:
    """The newest answer's first line is inside the chat's visible area."""
    return page.evaluate("""() => {
        const rows = document.querySelectorAll('#chat .message-row.bot-row');
        const box = document.querySelector('#chat .bubble-wrap').getBoundingClientRect();
        const top = rows[rows.length - 1].getBoundingClientRect().top;
        return top >= box.top - 2 && top < box.bottom - 60;
    }""")


def test_english_on_a_desktop(browser, web_url):
    page = open_page(browser, web_url, DESKTOP)
    chat = page.locator("#chat")
    assert "Describe your setup" in chat.inner_text()                        # the welcome
    assert "I have 4 RTX 3090 cards" in chat.inner_text() and "4 張 RTX 4090" in chat.inner_text()
    shot(page, "en-welcome")
    chat.get_by_text("I have 4 RTX 3090 cards", exact=False).first.click()  # an example question
    page.wait_for_function("document.querySelectorAll('#chat .message-row.bot-row').length >= 1", timeout=90_000)
    idle(page)
    # mid-interview: the profile is live, with names and the user's own words; open fields shown
    profile = page.locator("#profile")
    profile.get_by_text("NVIDIA GeForce RTX 3090").wait_for(timeout=30_000)
    text = profile.inner_text()
    assert "you said: “RTX 3090”" in text and "Workload" in text and "Users" in text and "rtx3090" not in text
    # one group of possible answers per field the question asks about
    page.locator(".quick-reply").first.wait_for(state="visible", timeout=30_000)
    groups = page.locator(".quick-reply:visible")
    asked = bot_messages(page).last.inner_text()
    assert groups.count() >= 2, asked
    all_options = " ".join(groups.nth(i).inner_text() for i in range(groups.count()))
    assert "NVLink bridge" in all_options and "PCIe only" in all_options     # a 3090 takes a bridge
    shot(page, "en-interview")
    answer_with_quick_replies(page, "Recommended:")
    last = bot_messages(page).last
    assert lands_on_start(page), "the chat should show the start of the answer"
    summary = last.inner_text()
    assert len(summary) < 1500, len(summary)                                 # the details are folded
    assert last.locator("details").count() == 1 and not last.locator("details").get_attribute("open")
    table = last.locator("table")
    assert table.count() == 1 and "TTFT" in table.inner_text() and "Tokens/s" in table.inner_text()
    text = page.locator("#profile").inner_text()
    assert "Workload" in text and "Users" in text and "you said" in text
    shot(page, "en-answer")
    last.locator("summary").click()                                          # the whole answer is one click away
    assert len(last.inner_text()) > 3000
    # correct a value: a correction turn, and the profile follows it
    page.locator("#fix-field input").click()
    page.get_by_role("option", name="Concurrent requests").click()
    page.locator("#fix-value input, #fix-value textarea").first.fill("40")
    idle(page)
    page.locator("#fix-send").click()
    page.locator("#chat").get_by_text("Concurrent requests: 40").wait_for(timeout=60_000)
    page.wait_for_function("document.querySelector('#profile').innerText.includes('you said: “40”')", timeout=60_000)
    page.wait_for_timeout(400)
    assert lands_on_start(page), "after a correction the chat shows the start of the new answer"
    assert "Concurrent requests → 40" in bot_messages(page).last.inner_text()   # says what changed, in words
    assert page.locator("#fix-value input, #fix-value textarea").first.input_value() == ""
    shot(page, "en-corrected")
    # plots explain themselves; the benchmark plan downloads
    page.get_by_role("tab", name="Plots").click()
    page.locator("#memory-plot .vega-embed").first.wait_for(timeout=30_000)
    page.locator("#decode-plot .vega-embed").first.wait_for(timeout=30_000)
    assert "Read:" in page.locator("#memory-note").inner_text()
    shot(page, "en-plots")
    page.get_by_role("tab", name="Benchmark").click()
    link = page.locator("#bench a", has_text="benchmark spec (YAML)")
    link.wait_for(timeout=30_000)
    resp = page.request.get(web_url + link.get_attribute("href"))
    assert resp.ok and "concurrency:" in resp.text()
    shot(page, "en-benchmark")
    # reloading the page resumes the same conversation
    page.reload(wait_until="load")
    page.locator("#chat").get_by_text("Concurrent requests: 40").first.wait_for(timeout=30_000)
    # the trash icon starts a new conversation: the next situation inherits nothing
    idle(page)
    page.locator("#chat button[aria-label='Clear']").click()
    page.locator("#chat").get_by_text("Describe your setup").wait_for(timeout=30_000)
    page.wait_for_function("!document.querySelector('#profile').innerText.includes('RTX 3090')", timeout=30_000)
    assert "Hardware\tnot known yet" in page.locator("#profile").inner_text()
    send(page, "Llama 3.1 8B for just me")
    text = page.locator("#profile").inner_text()
    assert "RTX 3090" not in text and "Llama 3 / 3.1 8B" in text
    shot(page, "en-cleared")


def test_zh_hant_on_a_phone(browser, web_url):
    page = open_page(browser, web_url, PHONE, locale="zh-TW")
    # the browser's language until the conversation has one
    page.wait_for_function("document.querySelector('#title').innerText.includes('推論引擎顧問')", timeout=30_000)
    shot(page, "zh-phone-welcome")
    send(page, "4 張 RTX 3090，Llama 3.3 70B，給內部團隊 60 人使用。")
    page.locator("#profile").get_by_text("您提到").first.wait_for(timeout=30_000)
    tabs = page.get_by_role("tab")
    assert [tabs.nth(i).inner_text().strip() for i in range(4)] == ["情境", "圖表", "測試計畫", "來源"]
    assert "硬體" in page.locator("#profile").inner_text() and "Hardware" not in page.locator("#profile").inner_text()
    page.locator(".quick-reply").first.wait_for(state="visible", timeout=30_000)
    assert "不知道" in page.locator(".quick-reply:visible").first.inner_text()
    shot(page, "zh-phone-interview")
    answer_with_quick_replies(page, "建議")
    assert lands_on_start(page)
    assert "詳細內容" in bot_messages(page).last.inner_text()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    shot(page, "zh-phone-answer")
    page.get_by_role("tab", name="圖表").click()
    page.locator("#memory-plot .vega-embed").first.wait_for(timeout=30_000)
    assert "每裝置記憶體" in page.locator("#memory-note").inner_text()
    shot(page, "zh-phone-plots")
    page.get_by_role("tab", name="測試計畫").click()
    page.locator("#bench a", has_text="測試規格").wait_for(timeout=30_000)
    assert page.locator("#new-conversation").inner_text().strip() == "新對話"


def test_an_unrecognised_model_is_said_not_drawn_empty(browser, web_url):
    page = open_page(browser, web_url, DESKTOP)
    send(page, "Serve Frobnicator-X on 2 H100 SXM for 30 users, chat")
    for _ in range(3):   # answer what is asked with "don't know" until there is an answer
        if page.locator(".quick-reply:visible").count() == 0:
            break
        send(page, "I don't know")
    assert "not known yet" in page.locator("#profile").inner_text()        # the model is visibly missing
    page.get_by_role("tab", name="Plots").click()
    note = page.locator("#memory-note")
    page.wait_for_function("document.querySelector('#memory-note').innerText.includes('cannot be drawn')",
                           timeout=30_000)
    assert "no model I know was recognised" in note.inner_text()
    assert page.locator("#memory-plot").is_hidden()
    shot(page, "en-unknown-model")


def test_a_zh_hant_conversation_shows_no_english(browser, web_url):
    """Everything a zh-Hant user reads — chat, title, tabs, profile, plot notes, the benchmark tab and the
    downloaded plan — has no English sentence or fragment (evals/langcheck.py; names, ids and terms stay)."""
    from evals.langcheck import english_runs
    page = open_page(browser, web_url, DESKTOP, locale="zh-TW")
    send(page, "我們有 2 張 H100，要用 Qwen3 32B 做 RAG，大概 40 個併發")
    answer_with_quick_replies(page, "建議")
    seen = {"page": page.evaluate("document.body.innerText")}
    seen["chat"] = page.locator("#chat").inner_text()
    seen["title"] = page.locator("#title").inner_text()
    for name, box in (("情境", "#profile"), ("圖表", "#memory-note"), ("測試計畫", "#bench")):
        page.get_by_role("tab", name=name).click()
        page.locator(box).first.wait_for(state="visible", timeout=30_000)
        seen[name] = page.locator(box).inner_text()
    seen["plots"] = " ".join(page.locator(f"#{n}-note").inner_text() for n in ("memory", "decode", "ttft"))
    link = page.locator("#bench a", has_text="測試計畫").first.get_attribute("href")
    seen["benchplan.md"] = page.request.get(web_url.rstrip("/") + "/" + link.lstrip("/")).text().split("\n## `")[0]
    shot(page, "zh-desktop-bench")
    assert "建議" in seen["chat"] and seen["benchplan.md"].startswith("# 測試計畫") and "硬體" in seen["情境"]
    found = {k: english_runs(v) for k, v in seen.items() if english_runs(v)}
    assert not found, found
