"""The answer as Markdown (web chat, files) and as plain terminal text; questions as one line.

The Markdown itself is composed by the agent (`agent.compose.template_answer`, or verified LLM
prose): this module only adapts it to the medium.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.advice import Advice

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def answer(advice: "Advice | None") -> str:
    """The answer as Markdown."""
    return ((advice.answer if advice else "") or "").strip() + "\n"


def terminal(advice: "Advice | None") -> str:
    """The answer as plain terminal text: emphasis and code marks removed, headings kept as lines."""
    text = _HEADING.sub(lambda m: m.group(1).upper(), answer(advice))
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


def body(advice: "Advice") -> str:
    """The answer without its numbered source list (surfaces that show sources their own way)."""
    from agent.compose import sources_block
    text = answer(advice)
    tail = "\n".join(sources_block(advice)).strip()
    if tail and text.rstrip().endswith(tail):
        text = text.rstrip()[: -len(tail)]
    return text.rstrip() + "\n"
