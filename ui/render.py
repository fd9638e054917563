"""The shared renderer of advisor answers and questions for every surface (CLI, web, Slack).

Pure functions of the `ask --json` result; the Markdown itself is composed in agent/.
"""
from __future__ import annotations

import re
from typing import Any

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)


def markdown(result: dict[str, Any] | None) -> str:
    """The answer as Markdown (web, files)."""
    return ((result or {}).get("answer") or "").strip() + "\n"


def terminal(result: dict[str, Any] | None) -> str:
    """The answer as plain terminal text: emphasis and code marks removed, headings kept as lines."""
    text = markdown(result)
    text = _HEADING.sub(lambda m: m.group(1).upper(), text)
    return _CODE.sub(r"\1", _BOLD.sub(r"\1", text))


def slack(result: dict[str, Any] | None) -> str:
    """The answer in Slack mrkdwn (single-asterisk bold, headings as bold lines)."""
    text = _HEADING.sub(lambda m: f"**{m.group(1)}**", markdown(result))
    return _BOLD.sub(r"*\1*", text)


def question(q: dict[str, Any] | None) -> str:
    """A follow-up question as one line (its field ids in brackets)."""
    if not q:
        return ""
    return f"{q.get('question', '')} [{', '.join(q.get('fields') or [])}]"


def composer_note(result: dict[str, Any] | None) -> str:
    """Why the template answer was used instead of LLM prose (empty when nothing to say)."""
    composer = (result or {}).get("composer") or ""
    return composer if composer.startswith("template (") else ""
