"""A real browser (Debian chromium via Playwright): ask, answer the follow-up, see the answer and a plot."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed (.ci/run installs it)")


def test_conversation_in_a_real_browser(web_url):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(web_url, wait_until="load")
        box = page.locator("#message textarea")
        box.fill("I have 4 RTX 3090 cards and want to serve Llama 3.3 70B to my team.")
        box.press("Enter")
        chat = page.locator("#chat")
        chat.get_by_text("NVLink", exact=False).first.wait_for(timeout=60_000)   # the follow-up question
        card = page.locator("#recommendation")
        replies = ["PCIe only, no NVLink. About 60 people, 20 at once.", "I don't know", "I don't know", "I don't know"]
        for n, text in enumerate(replies, start=2):   # answer follow-ups until the recommendation shows
            box.fill(text)
            box.press("Enter")
            chat.locator(".message").nth(2 * n - 1).wait_for(timeout=60_000)   # the advisor's reply to turn n
            if "Recommended" in card.inner_text():
                break
        text = card.inner_text().lower()
        assert "vllm" in text or "exllamav3" in text
        assert "pp" in text or "pipeline" in text
        profile = page.locator("#profile").inner_text()
        assert "NVIDIA GeForce RTX 3090" in profile and "you said" in profile   # names and the user's words
        page.screenshot(path=str(ARTIFACTS / "web-recommendation.png"), full_page=True)
        page.get_by_role("tab", name="Plots").click()
        # plots are drawn when their tab is opened: wait for the chart itself, not the loading spinner
        page.locator("#memory-plot .vega-embed").first.wait_for(timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "web-conversation.png"), full_page=True)
        # reloading the page resumes the same conversation
        page.reload(wait_until="load")
        page.locator("#chat").get_by_text("PCIe only", exact=False).first.wait_for(timeout=30_000)
        browser.close()
