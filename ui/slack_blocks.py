"""Block Kit rendering of an advisor result, within Slack's limits."""
from __future__ import annotations

from typing import Any

from ui import present

SECTION_LIMIT = 3000     # characters per section text
BLOCKS_PER_MESSAGE = 50


def _chunks(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Split on paragraph, then line boundaries so no piece exceeds `limit`."""
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
    if cur:
        out.append(cur)
    return out


def _mrkdwn(md: str) -> str:
    """GitHub-flavoured markdown → Slack mrkdwn (bold, headings, links)."""
    import re
    md = re.sub(r"^#{1,6}\s*(.+)$", r"*\1*", md, flags=re.M)
    md = re.sub(r"\*\*(.+?)\*\*", r"*\1*", md)
    return re.sub(r"\[([^\]]+)\]\((https?://[^)]+)\)", r"<\2|\1>", md)


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def result_blocks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Recommendation card, the answer text, key numbers and citations with source links."""
    blocks: list[dict[str, Any]] = [section(c) for c in _chunks(_mrkdwn(present.recommendation_md(result)))]
    blocks.append({"type": "divider"})
    blocks += [section(c) for c in _chunks(_mrkdwn(result.get("answer") or ""))]
    cites = result.get("citations") or []
    if cites:
        items = []
        for i, c in enumerate(cites, 1):
            src = c.get("source") or ""
            label = f"[{i}] {c.get('title', c.get('id', ''))}"
            items.append(f"<{src}|{label}>" if src.startswith("http") else f"{label} ({c.get('id', '')})")
        for piece in _chunks(" · ".join(items), 2900):
            blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": piece}]})
    return blocks


def split_messages(blocks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Messages of at most BLOCKS_PER_MESSAGE blocks each."""
    return [blocks[i:i + BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), BLOCKS_PER_MESSAGE)] or [[]]


def fallback_text(result: dict[str, Any]) -> str:
    """Plain text for notifications and clients without blocks."""
    primary = result.get("primary")
    return f"Recommended engine: {primary}" if primary else (result.get("answer") or "")[:300]
