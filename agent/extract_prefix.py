"""The size of the prompt part every request shares: "a ~3,000-token shared system prompt", "每個請求都帶同一段
2K tokens 的系統提示詞", "a system prompt of about 1,500 tokens shared by every request".

A system prompt (or few-shot block, or a prefix said to be shared) is the same at the head of every request, so
a prefix-caching engine prefills it and holds its KV cache once (rules.plan.request.cached_prefix). The length
is the token count written next to that name in its clause; it is the shared part, not the whole prompt.
"""
from __future__ import annotations

import re

from agent.extract_base import Finding, overlaps
from agent.extract_quantity import quantities

_F = re.I
_NAME = re.compile(r"system[\s-]*prompts?|sys(?:tem)?[\s-]*msg|few[\s-]*shot(?:\s+(?:examples|block|prompt))?|(?:shared|common)\s+(?:prompt\s+)?prefix(?:es)?"
                   r"|prefix(?:es)?\s+(?:shared|common)|系統提示(?:詞|語)?|系統\s*prompt|共用(?:的)?\s*(?:前綴|prefix)|共同(?:的)?\s*(?:前綴|prefix)|前綴", _F)
_CLAUSE = re.compile(r"[;；。!?！？\n]|\.(?:\s|$)|,(?!\d{3})|，|\+|、|\band\b|\bplus\b|\bwith\b|但|而", _F)


def _clause(text: str, pos: int) -> tuple[int, int]:
    left = max((m.end() for m in _CLAUSE.finditer(text, max(0, pos - 40), pos)), default=max(0, pos - 40))
    right = next((m.start() for m in _CLAUSE.finditer(text, pos, min(len(text), pos + 40))), min(len(text), pos + 40))
    return left, right


def find(text: str, taken: list[tuple[int, int]]) -> list[Finding]:
    """prefix_tokens (and shared_prefix) where a token count stands in the clause of a shared prompt's name."""
    names = list(_NAME.finditer(text))
    if not names:
        return []
    for q in quantities(text):
        if q.kind != "quantity" or overlaps((q.start, q.end), taken) or q.value < 16 or q.value > 1_000_000:
            continue
        if q.unit not in (None, "tokens") or (q.unit is None and not q.suffixed and not re.match(r"\s*-?\s*tokens?", text[q.end:], _F)):
            continue
        left, right = _clause(text, q.start)
        if any(left <= n.start() < right or left < n.end() <= right for n in names):
            return [Finding("prefix_tokens", int(round(q.value)), q.start, q.unit_end),
                    Finding("shared_prefix", True, q.start, q.unit_end)]
    return []
