"""A user's ingested document is data: its markup and links must not act in web or Slack output,
and the file's local path is never shown as a citation source (real ingestion, real retrieval)."""
from __future__ import annotations

import re

import pytest

from agent.api import advise
from knowledge.ingest import ingest
from ui.present import markdown, slack
from ui.present import web as present_web

HOSTILE = """---
title: "Cluster notes <img src=x onerror=alert(1)>"
---
# Cluster notes

## Zorblax interconnect

The zorblax fabric links our racks. <!channel> <@U024BE7LH> read this now.
Reset your token at [the vLLM portal](http://vllm-portal.evil.example/login) or https://evil.example/reset.
![](http://evil.example/pixel.png) <script>alert(1)</script> <a href="http://evil.example">docs</a>
"""


@pytest.fixture
def ingested(tmp_path):
    note = tmp_path / "private" / "team" / "cluster-notes.md"
    note.parent.mkdir(parents=True)
    note.write_text(HOSTILE, encoding="utf-8")
    ingest([note])
    advice = advise("What is the zorblax interconnect fabric in our cluster notes?")
    assert any("zorblax" in c.text.lower() for c in advice.citations), "the note is retrieved"
    return advice, str(note.parent)


def _no_active_markup_html(text: str) -> None:
    assert not re.search(r"<\s*(img|script|a|iframe)\b", text, re.I), text
    assert "](http://" not in text and "](https://evil" not in text
    assert not re.search(r"(?<![`\w])https?://[^\s`]*evil", text), "outside addresses are not links"
    assert "![" not in text


def test_web_answer_and_citations_are_inert(ingested):
    advice, folder = ingested
    chat = markdown.answer(advice)
    cites = present_web.citations_markdown(present_web.view(advice))
    assert present_web.advice_citations_markdown(advice) == cites   # what a turn's panels show
    for text in (chat, cites):
        _no_active_markup_html(text.replace("<details>", "").replace("</details>", "")
                               .replace("<summary>", "").replace("</summary>", "")
                               .replace("<code>", "").replace("</code>", ""))
        assert folder not in text, "no local path"
    assert "cluster-notes.md" in chat + cites, "the file is named"


def test_slack_blocks_are_inert(ingested):
    advice, folder = ingested
    texts = [b["text"]["text"] if b["type"] == "section" else b["elements"][0]["text"] for b in slack.blocks(advice)]
    joined = "\n".join(texts) + slack.fallback_text(advice)
    assert "<!channel>" not in joined and "<@U024BE7LH>" not in joined
    links = re.findall(r"<([^>|]+)(?:\|[^>]*)?>", joined)
    sources = {c.source for c in advice.citations}
    assert all(link in sources for link in links), links
    assert "evil.example" not in " ".join(links) and folder not in joined
