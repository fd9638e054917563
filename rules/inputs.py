"""Input hygiene shared by every entry point (CLI, agent API, MCP tools, ingestion).

Whatever a person, a file or another program sends is checked here once, before any work starts,
so that ordinary bad input becomes one clear `InputError` line and never a crash or a hang:

    clean_text(value, what, limit)   text: lone surrogates → U+FFFD, control characters dropped,
                                     length capped (the message names the cap)
    load_yaml(text, what)            YAML without aliases/anchors (no "billion laughs"), size and
                                     nesting capped, one-line errors
    read_text(path, what, limit)     a UTF-8 text file, size-capped, one-line errors
    check_depth(obj, what)           nested data from a client or a file, depth capped
    finite(obj)                      non-finite floats → None, so JSON output stays JSON
    dumps(obj, **kw)                 json.dumps that never writes NaN/Infinity

Pure standard library plus PyYAML: `rules/` stays free of the agent, knowledge and UI layers.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from rules.errors import InputError

MAX_QUESTION_CHARS = 10_000
"""A question or a chat message (a long pasted description fits; a document belongs in
`advisor ingest`). Keeps the extractor's worst case near a second of CPU."""
MAX_FIELD_CHARS = 2_000
"""One answer, one profile value, a thread id, a search query."""
MAX_YAML_BYTES = 256 * 1024
"""A profile or answers file, the MCP `answers_yaml`, a document's front matter."""
MAX_FILE_BYTES = 50 * 1024 * 1024
"""A document given to `advisor ingest`."""
MAX_DEPTH = 32
"""Nesting of mappings and lists in any structured input."""

# C0/C1 control characters except tab, newline and carriage return; and lone surrogates.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(value: Any, what: str = "text", limit: int = MAX_QUESTION_CHARS) -> str:
    """`value` as safe text: not text → InputError; lone surrogates (invalid UTF-8 read with
    surrogateescape, or broken JSON escapes) become U+FFFD; control characters are dropped;
    longer than `limit` → InputError stating the limit."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f"{what} must be text (got {type(value).__name__})")
    text = str(value)
    if len(text) > limit:
        raise InputError(f"{what} is too long: {len(text):,} characters (the limit is {limit:,}); "
                         "shorten it to the situation and the question",
                         zh=f"{what} 太長：{len(text):,} 個字元（上限 {limit:,}）；請精簡成您的情境與問題")
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    if _CONTROL.search(text):
        text = _CONTROL.sub("", text)
    return text


def check_depth(obj: Any, what: str = "input", limit: int = MAX_DEPTH) -> Any:
    """`obj` unchanged, or InputError when mappings/lists nest deeper than `limit` (iterative:
    no RecursionError however deep)."""
    stack = [(obj, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children = list(node.values()) + list(node.keys())
        elif isinstance(node, (list, tuple, set)):
            children = list(node)
        else:
            continue
        if depth > limit:
            raise InputError(f"{what} is nested too deeply (more than {limit} levels)")
        stack.extend((c, depth + 1) for c in children)
    return obj


def _loader():
    import yaml

    class NoAliasLoader(yaml.SafeLoader):
        """SafeLoader that refuses anchors/aliases (their expansion is the YAML bomb) and deep nesting."""

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise yaml.YAMLError(f"aliases (*{event.anchor}) are not allowed, line {event.start_mark.line + 1}")
            event = self.peek_event()
            if getattr(event, "anchor", None):
                raise yaml.YAMLError(f"anchors (&{event.anchor}) are not allowed, line {event.start_mark.line + 1}")
            self._depth = getattr(self, "_depth", 0) + 1
            try:
                if self._depth > MAX_DEPTH:
                    raise yaml.YAMLError(f"nested more than {MAX_DEPTH} levels deep")
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1

    return NoAliasLoader


def load_yaml(text: Any, what: str, limit: int = MAX_YAML_BYTES) -> Any:
    """Parse untrusted YAML (or JSON) text: no aliases/anchors, at most `limit` bytes and
    MAX_DEPTH levels, strings cleaned; InputError naming `what` otherwise."""
    import yaml

    text = clean_text(text, what, limit=limit)
    if len(text.encode("utf-8", errors="replace")) > limit:
        raise InputError(f"{what} is too large (the limit is {limit // 1024} KB)")
    try:
        data = yaml.load(text, Loader=_loader())  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise InputError(f"{what} is not valid YAML: {_first_line(exc)}") from None
    except (RecursionError, ValueError, OverflowError, TypeError) as exc:
        # PyYAML's int/float constructors raise ValueError/OverflowError on odd numbers.
        raise InputError(f"{what} is not valid YAML: {type(exc).__name__}") from None
    check_depth(data, what)
    return _clean_strings(data, what)


def _clean_strings(obj: Any, what: str) -> Any:
    """Strings inside parsed data cleaned like `clean_text` (keys too)."""
    if isinstance(obj, str):
        return clean_text(obj, what, limit=MAX_YAML_BYTES)
    if isinstance(obj, dict):
        return {_clean_strings(k, what) if isinstance(k, str) else k: _clean_strings(v, what) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean_strings(v, what) for v in obj]
    return obj


def _first_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return (text[:200] + "…") if len(text) > 200 else (text or type(exc).__name__)


def read_text(path: str | Path, what: str, limit: int = MAX_YAML_BYTES) -> str:
    """A UTF-8 text file's content (BOM dropped); InputError naming the file when it is missing,
    a folder, unreadable, larger than `limit` or not UTF-8."""
    p = Path(path)
    shown = clean_text(str(p), "path", limit=10_000)
    try:
        if not p.exists():
            raise InputError(f"{what} file not found: {shown} (cannot read it)")
        if p.is_dir():
            raise InputError(f"{what} {shown} is a folder, not a file")
        size = p.stat().st_size
        if size > limit:
            raise InputError(f"{what} file {shown} is too large ({size:,} bytes; the limit is {limit:,})")
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} file {shown}: {exc.strerror or type(exc).__name__}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} file {shown} is not UTF-8 text (byte {exc.start})") from None


def finite(obj: Any) -> Any:
    """`obj` with every NaN/±inf float replaced by None (JSON has no such numbers)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def dumps(obj: Any, **kwargs: Any) -> str:
    """JSON text that is always valid JSON: non-finite floats become null, odd objects `str`."""
    kwargs.setdefault("ensure_ascii", False)
    kwargs.setdefault("default", str)
    return json.dumps(finite(obj), allow_nan=False, **kwargs)


def whole_number(value: Any, what: str) -> int:
    """`value` as an int (a client may send 8, 8.0, "8", NaN or 1e999); InputError naming `what`
    for anything that is not a finite whole number."""
    if isinstance(value, bool):
        raise InputError(f"{what} must be a whole number (got {value})")
    if isinstance(value, str):
        try:
            value = float(value.strip()) if value.strip() else 0
        except ValueError:
            raise InputError(f"{what} must be a whole number (got '{clean_text(value, what, 10_000)[:40]}')") from None
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise InputError(f"{what} must be a finite whole number (got {value})")
        value = int(value)
    if not isinstance(value, int):
        raise InputError(f"{what} must be a whole number (got {type(value).__name__})")
    return value
