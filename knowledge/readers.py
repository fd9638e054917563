"""User files → `Doc`: Markdown, plain text, HTML (stdlib parser) and PDF (pypdf).

Text without markup is cut into blocks at blank lines; a short one-line block without closing
punctuation counts as a heading. Sections are then merged or split to a readable size, so a
Chinese article with bare heading lines still yields a handful of coherent chunks.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from knowledge.chunking import (Doc, Section, doc_id_from_name, front_matter_fields,
                                markdown_sections, split_front_matter)
from rules.errors import InputError

EXTENSIONS = (".md", ".markdown", ".txt", ".html", ".htm", ".pdf")
MIN_CHARS, MAX_CHARS = 350, 1200          # merge sections below MIN, split blocks above MAX
_HEADING_MAX = 60
_CLOSING = tuple("。．.!！?？：:；;，,、…")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff]")


def read_file(path: Path) -> Doc:
    """Parse one user file; InputError (one line) when it is unusable."""
    suffix = path.suffix.lower()
    if suffix not in EXTENSIONS:
        raise InputError(f"{path}: unsupported file type '{suffix or path.name}' "
                         f"(use {', '.join(EXTENSIONS)})")
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    text = _pdf_text(path) if suffix == ".pdf" else _read_text(path)
    if not text.strip():
        raise InputError(f"{path}: the file is empty")
    if suffix in (".md", ".markdown"):
        doc = _markdown(text, path)
    elif suffix in (".html", ".htm"):
        doc = _html(text, path)
    else:
        doc = _plain(text, path)
    if not any(s.body.strip() for s in doc.sections):
        raise InputError(f"{path}: no text to index")
    return doc


def _read_text(path: Path) -> str:
    from rules.inputs import MAX_FILE_BYTES, clean_text
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"{path}: larger than {MAX_FILE_BYTES // 2**20} MB; split it into smaller files")
        # control characters (a file of NULs) are not text; lone surrogates cannot occur after decoding
        return clean_text(path.read_text(encoding="utf-8-sig"), str(path), limit=MAX_FILE_BYTES)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _pdf_text(path: Path) -> str:
    try:
        from pypdf import PdfReader
        from pypdf.errors import PyPdfError

        reader = PdfReader(str(path))
        pages = [page.extract_text() or "" for page in reader.pages]
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a readable PDF ({exc.__class__.__name__})") from None
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text and path.stat().st_size:
        raise InputError(f"{path}: the PDF has no extractable text (scanned images?)")
    return text


def _language(text: str) -> str:
    letters = sum(c.isalpha() for c in text) or 1
    return "zh" if len(_CJK.findall(text)) / letters > 0.2 else "en"


def _new_doc(path: Path, title: str, sections: list[Section], text: str, **extra) -> Doc:
    fields = {"doc_id": doc_id_from_name(path.stem), "lang": _language(text), "title": title, **extra}
    return Doc(sections=tuple(sections), origin="user", path=str(path.resolve()), **fields)


def _markdown(text: str, path: Path) -> Doc:
    meta, body = split_front_matter(text, str(path))
    extra = front_matter_fields(meta, str(path))
    if meta.get("id"):
        extra["doc_id"] = doc_id_from_name(str(meta["id"]))
    h1, intro, sections = markdown_sections(body)
    extra["title"] = extra.get("title") or h1 or path.stem
    if not sections:                       # no `## `: treat it as plain text
        sections = _sized(_text_sections(intro))
    else:                                  # authored sections stay; only long ones are cut
        if intro:
            sections.insert(0, Section("Introduction", intro, "intro"))
        sections = [part for sec in sections for part in _split(sec)]
    return _new_doc(path, extra.pop("title"), sections, body, **extra)


def _plain(text: str, path: Path) -> Doc:
    blocks = _blocks(text)
    title = path.stem
    if blocks and _is_heading(blocks[0]):
        title = blocks.pop(0).strip()
    return _new_doc(path, title, _sized(_text_sections("\n\n".join(blocks))), text)


def _blocks(text: str) -> list[str]:
    return [b.strip() for b in re.split(r"\n[ \t\u3000]*\n", text.replace("\r\n", "\n")) if b.strip()]


def _is_heading(block: str) -> bool:
    line = block.strip()
    return "\n" not in line and len(line) <= _HEADING_MAX and not line.endswith(_CLOSING)


def _text_sections(text: str) -> list[Section]:
    """Blocks → sections, a new one at each heading-like block."""
    sections: list[Section] = []
    heading, body = "", []
    for block in _blocks(text):
        if _is_heading(block):
            if heading or body:
                sections.append(Section(heading, "\n\n".join(body)))
            heading, body = block.strip(), []
        else:
            body.append(block)
    if heading or body:
        sections.append(Section(heading, "\n\n".join(body)))
    return sections


def _sized(sections: list[Section]) -> list[Section]:
    """Merge short neighbouring sections and split long ones at block boundaries."""
    merged: list[Section] = []
    for sec in sections:
        text = f"{sec.heading}\n\n{sec.body}".strip() if merged else sec.body
        prev = merged[-1] if merged else None
        if prev and (len(prev.body) < MIN_CHARS and len(prev.body) + len(text) <= MAX_CHARS):
            merged[-1] = Section(prev.heading, f"{prev.body}\n\n{text}".strip(), prev.slug)
        else:
            merged.append(Section(sec.heading or "Introduction", sec.body))
    if len(merged) > 1 and len(merged[-1].body) < MIN_CHARS // 3:   # a trailing signature line
        last = merged.pop()
        merged[-1] = Section(merged[-1].heading, f"{merged[-1].body}\n\n{last.heading}\n\n{last.body}".strip())
    out: list[Section] = []
    for sec in merged:
        out.extend(_split(sec))
    return out


def _split(sec: Section) -> list[Section]:
    if len(sec.body) <= MAX_CHARS:
        return [sec]
    parts, cur = [], ""
    for piece in _pieces(sec.body):
        if cur and len(cur) + len(piece) + 2 > MAX_CHARS:
            parts.append(cur)
            cur = piece
        else:
            cur = f"{cur}\n\n{piece}" if cur else piece
    parts.append(cur)
    return [Section(sec.heading if i == 0 else f"{sec.heading} ({i + 1})", p) for i, p in enumerate(parts)]


def _pieces(body: str) -> list[str]:
    """Blocks, with any block over MAX cut at line or sentence ends."""
    out = []
    for block in _blocks(body):
        while len(block) > MAX_CHARS:
            window = block[:MAX_CHARS]
            cut = max(window.rfind("\n"), *(window.rfind(p) for p in "。！？.!?"))
            cut = cut + 1 if cut > MAX_CHARS // 3 else MAX_CHARS
            out.append(block[:cut].strip())
            block = block[cut:].strip()
        if block:
            out.append(block)
    return out


class _HtmlText(HTMLParser):
    """Collect (level, text) blocks: level 1–6 for headings, 0 for body text."""

    _SKIP = {"script", "style", "noscript", "template", "head", "svg"}
    _BLOCK = {"p", "div", "li", "pre", "blockquote", "tr", "section", "article", "br", "td",
              "dd", "dt", "table", "ul", "ol", "header", "footer", "main", "figcaption"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[int, str]] = []
        self._buf: list[str] = []
        self._skip = 0
        self._level = 0

    def _flush(self) -> None:
        text = re.sub(r"[ \t\r\n]+", " ", "".join(self._buf)).strip()
        if text:
            self.blocks.append((self._level, text))
        self._buf = []

    def handle_starttag(self, tag, attrs):
        if tag in self._SKIP:
            self._skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self._level = int(tag[1])
        elif tag in self._BLOCK:
            self._flush()

    def handle_endtag(self, tag):
        if tag in self._SKIP:
            self._skip = max(0, self._skip - 1)
        elif re.fullmatch(r"h[1-6]", tag):
            self._flush()
            self._level = 0
        elif tag in self._BLOCK:
            self._flush()

    def handle_data(self, data):
        if not self._skip:
            self._buf.append(data)


def _html(text: str, path: Path) -> Doc:
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    parser._flush()
    blocks = parser.blocks
    title = next((t for lvl, t in blocks if lvl == 1), path.stem)
    levels = sorted({lvl for lvl, _ in blocks if lvl > 1})
    cut = 2 if 2 in levels else (levels[0] if levels else 99)
    sections: list[Section] = []
    heading, body = "", []
    for lvl, t in blocks:
        if lvl == 1 and t == title:
            continue
        if 0 < lvl <= cut:
            if heading or body:
                sections.append(Section(heading, "\n\n".join(body)))
            heading, body = t, []
        else:
            body.append(t)
    if heading or body:
        sections.append(Section(heading, "\n\n".join(body)))
    all_text = "\n".join(t for _, t in blocks)
    return _new_doc(path, title, _sized(sections), all_text)
