"""Block Kit rendering of an Advice, within Slack's limits: the answer once, then its sources as links."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent.names import display
from ui.present.labels import labels
from ui.present.markdown import allowed_urls, body, safe

if TYPE_CHECKING:
    from agent.advice import Advice

SECTION_LIMIT = 3000     # characters per section text
CONTEXT_LIMIT = 2900     # characters per context element (Slack allows 3000)
BLOCKS_PER_MESSAGE = 50


def _chunks(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Split on line boundaries so no piece exceeds `limit` (over-long lines are cut)."""
    out, cur = [], ""
    for para in text.split("\n"):
        while len(para) > limit:
            out.append(para[:limit])
            para = para[limit:]
        if len(cur) + len(para) + 1 > limit:
            out.append(cur)
            cur = para
        else:
            cur = f"{cur}\n{para}" if cur else para
    if cur.strip():
        out.append(cur)
    return [c for c in out if c.strip()]


def escape(text: str) -> str:
    """`text` shown as written: Slack's control characters escaped, so `<!channel>`, `<@U…>` and
    `<url|label>` in it are text, never mentions or links."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def mrkdwn(md: str, allowed: set[str] | None = None) -> str:
    """GitHub-flavoured Markdown → Slack mrkdwn (bold, headings, links). The text is escaped first,
    so nothing in it acts as a mention or a link; images, links and bare addresses other than the
    `allowed` ones (the cited sources) lose their target."""
    md = safe(md.replace("&", "&amp;").replace("<", "&lt;"), allowed or set(), lt="<")
    md = re.sub(r"^#{1,6}\s*(.+)$", r"*\1*", md, flags=re.M)
    md = re.sub(r"\*\*(.+?)\*\*", r"*\1*", md)
    return re.sub(r"\[([^\]]+)\]\((https?://[^)]+)\)", r"<\2|\1>", md)


def section(text: str) -> dict[str, Any]:
    """A mrkdwn section block."""
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _sources(advice: "Advice") -> list[dict[str, Any]]:
    items = []
    for n, c in enumerate(advice.citations, 1):
        label = escape(f"[{n}] {c.title or c.id}").replace("|", "¦")
        items.append(f"<{c.source}|{label}>" if re.match(r"https?://[^\s<>|]+$", c.source) else f"{label} ({escape(c.id)})")
    if not items:
        return []
    head = f"*{labels(advice.language)['sources']}:* "
    return [{"type": "context", "elements": [{"type": "mrkdwn", "text": (head if i == 0 else "") + piece}]}
            for i, piece in enumerate(_chunks(" · ".join(items), CONTEXT_LIMIT))]


def blocks(advice: "Advice") -> list[dict[str, Any]]:
    """The answer (once) as sections, then the cited sources as context links."""
    return [*(section(c) for c in _chunks(mrkdwn(body(advice, raw=True), allowed_urls(advice)))), *_sources(advice)]


def split_messages(all_blocks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Messages of at most BLOCKS_PER_MESSAGE blocks each."""
    return [all_blocks[i:i + BLOCKS_PER_MESSAGE] for i in range(0, len(all_blocks), BLOCKS_PER_MESSAGE)] or [[]]


def fallback_text(advice: "Advice") -> str:
    """Plain text for notifications and clients without blocks."""
    primary = advice.decision.primary
    if primary:
        return f"{labels(advice.language)['recommended_engine']}: {display(primary)}"
    return mrkdwn(body(advice, raw=True), allowed_urls(advice))[:300]
