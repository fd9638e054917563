"""The answer as Markdown (web chat, files) and as plain terminal text; questions as one line.

The Markdown itself is composed by the agent (`agent.compose.template_answer`, or verified LLM
prose): this module only adapts it to the medium. The answer can quote ingested documents (titles,
sections), whose markup is not ours: `safe()` keeps it from acting in a browser or in Slack —
no HTML, no images, links only to the cited sources (other addresses shown as code, not links).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.advice import Advice

_CODE_SPAN = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)|!\[([^\]]*)\]\[[^\]]*\]")
_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$", re.M)
_URL = re.compile(r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>()\[\]`]+", re.I)
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def allowed_urls(advice: "Advice | None") -> set[str]:
    """The web addresses an answer may link to: its cited sources."""
    return {c.source.rstrip("/") for c in (advice.citations if advice else []) if re.match(r"https?://", c.source)}


def _safe_text(text: str, allowed: set[str], lt: str) -> str:
    """One stretch outside code: images to their alt text, links to outside addresses to their
    label, bare outside addresses as code, and `<` escaped so no tag or autolink acts."""
    text = _IMAGE.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _REF_DEF.sub("", text)

    def link(m: re.Match) -> str:
        label, url = m.group(1), m.group(2)
        return f"[{label}]({url})" if url.rstrip("/") in allowed else label
    parts = re.split(r"(\[[^\]]*\]\([^)]*\))", _LINK.sub(link, text))
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:   # outside a kept link: bare addresses that are not sources become code
            part = _URL.sub(lambda m: m.group(0) if m.group(0).rstrip("/.,;:") in allowed else f"`{m.group(0)}`", part)
            part = part.replace("<", lt)
        out.append(part)
    return "".join(out)


def safe(md: str, allowed: set[str], lt: str = "&lt;") -> str:
    """`md` with markup that is not the advisor's own neutralised (code spans left as written);
    `lt` replaces `<` outside code (callers that escaped it already pass "<")."""
    return _safe(md, frozenset(allowed), lt)


@lru_cache(maxsize=512)
def _safe(md: str, allowed: frozenset[str], lt: str) -> str:
    """`safe`, remembered: the cited chunks are the same few hundred notes in every answer, and each
    took ~0.1 ms of regular expressions per page."""
    pieces = _CODE_SPAN.split(md)
    return "".join(p if i % 2 else _safe_text(p, allowed, lt) for i, p in enumerate(pieces))


def raw_answer(advice: "Advice | None") -> str:
    """The answer as the agent wrote it (for media that escape it their own way)."""
    return ((advice.answer if advice else "") or "").strip() + "\n"


def answer(advice: "Advice | None") -> str:
    """The answer as Markdown, safe to render (see `safe`)."""
    return safe(raw_answer(advice).strip(), allowed_urls(advice)) + "\n"


def terminal(advice: "Advice | None") -> str:
    """The answer as plain terminal text: emphasis and code marks removed, headings kept as lines."""
    text = _HEADING.sub(lambda m: m.group(1).upper(), raw_answer(advice))
    return _CODE.sub(r"\1", _BOLD.sub(r"\1", text))


def question(q: dict[str, Any] | None) -> str:
    """A follow-up question as one line (its field ids in brackets)."""
    if not q:
        return ""
    return f"{q.get('question', '')} [{', '.join(q.get('fields') or [])}]"


def composer_note(advice: "Advice | None") -> str:
    """Why the template answer was used instead of LLM prose (empty when nothing to say)."""
    composer = advice.composer if advice else ""
    return composer if composer.startswith("template (") else ""


def body(advice: "Advice", raw: bool = False) -> str:
    """The answer without its numbered source list (surfaces that show sources their own way);
    safe to render unless `raw` (then the caller escapes it for its medium)."""
    from agent.compose import sources_block
    text = raw_answer(advice)
    tail = "\n".join(sources_block(advice)).strip()
    if tail and text.rstrip().endswith(tail):
        text = text.rstrip()[: -len(tail)]
    text = text.rstrip() + "\n"
    return text if raw else safe(text, allowed_urls(advice))
