"""Documents → chunks: one chunk per `## ` section, id `<doc-id>#<slug>`, stable across ingests.

A slug is the heading lowercased with ASCII non-alphanumerics collapsed to '-'; an explicit
`## Heading {#slug}` wins. Headings with non-ASCII letters (zh-Hant) and no explicit slug get
their ASCII part plus a short hash of the heading, so the id does not depend on the body.
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field

from rules.errors import DataError, InputError

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_EXPLICIT_SLUG = re.compile(r"\s*\{#([A-Za-z0-9][A-Za-z0-9_-]*)\}\s*$")
_H2 = re.compile(r"^##[ \t]+(.+?)[ \t]*#*[ \t]*$")
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^(```|~~~)")
_URL = re.compile(r"https?://[^\s)>\]\"'`]+")


@dataclass(frozen=True)
class Section:
    """A heading and the text under it; `slug` is set when the heading carries `{#slug}`."""

    heading: str
    body: str
    slug: str | None = None


@dataclass(frozen=True)
class Doc:
    """A parsed document: front-matter fields plus its sections in order."""

    doc_id: str
    title: str
    sections: tuple[Section, ...]
    lang: str = "en"
    sources: tuple[dict, ...] = ()
    tags: tuple[str, ...] = ()
    origin: str = "user"          # "corpus" (shipped notes) or "user" (advisor ingest)
    path: str = ""


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit; `hash` covers everything stored, `ehash` only what is embedded."""

    id: str
    doc_id: str
    title: str
    heading: str
    text: str
    source: str
    lang: str
    tags: str
    origin: str
    path: str
    position: int
    hash: str = field(default="", compare=False)
    ehash: str = field(default="", compare=False)

    def embed_text(self) -> str:
        """The text the embedder and BM25 see: titles give short sections their context."""
        return f"{self.title}\n{self.heading}\n{self.text}"

    def lexical_text(self) -> str:
        """The text BM25 indexes: the heading twice, so a section named for the asked topic wins."""
        return f"{self.title}\n{self.heading}\n{self.heading}\n{self.text}"

    def metadata(self) -> dict:
        """Chroma metadata (scalars only)."""
        return {"doc_id": self.doc_id, "title": self.title, "heading": self.heading,
                "source": self.source, "lang": self.lang, "tags": self.tags, "origin": self.origin,
                "path": self.path, "position": self.position, "hash": self.hash, "ehash": self.ehash}

    @classmethod
    def from_record(cls, chunk_id: str, text: str, meta: dict) -> "Chunk":
        """Rebuild a chunk from what Chroma or the snapshot stored."""
        keys = ("doc_id", "title", "heading", "source", "lang", "tags", "origin", "path", "hash", "ehash")
        return cls(id=chunk_id, text=text, position=int(meta["position"]), **{k: meta[k] for k in keys})


def _digest(*parts: str, n: int = 16) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:n]


def slugify(text: str) -> str:
    """Lowercase, accents folded, ASCII non-alphanumerics collapsed to '-', trimmed."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


def section_slug(heading: str) -> str:
    """The slug of a heading without an explicit one (hash suffix when it has non-ASCII letters)."""
    base = slugify(heading)
    folded = unicodedata.normalize("NFKD", heading)
    if any(not c.isascii() and c.isalnum() for c in folded):
        tag = _digest(heading.strip(), n=8)
        return f"{base}-{tag}" if base else f"sec-{tag}"
    return base or "section"


def doc_id_from_name(stem: str) -> str:
    """A doc id from a file name: lowercase, runs of other characters → '-'."""
    ident = re.sub(r"[^a-z0-9_.-]+", "-", stem.lower()).strip("-.")
    if not ident:
        raise InputError(f"cannot derive a document id from the file name '{stem}'")
    return ident


def chunk_doc(doc: Doc) -> list[Chunk]:
    """One chunk per non-empty section; slugs de-duplicated by order ('-2', '-3')."""
    chunks, seen = [], set()
    default_source = next((s.get("url", "") for s in doc.sources if s.get("url")), doc.path)
    for position, sec in enumerate(doc.sections):
        body = sec.body.strip()
        if not body:
            continue
        slug = sec.slug or section_slug(sec.heading)
        unique, n = slug, 2
        while unique in seen:
            unique, n = f"{slug}-{n}", n + 1
        seen.add(unique)
        # A shipped note names each section's source in its text; in a user's document a link in
        # the text is just text (it could be anything), so the source is what the document declares.
        url = _URL.search(body) if doc.origin == "corpus" else None
        source = url.group(0).rstrip(".,;:") if url else default_source
        chunk = Chunk(id=f"{doc.doc_id}#{unique}", doc_id=doc.doc_id, title=doc.title,
                      heading=sec.heading, text=body, source=source, lang=doc.lang,
                      tags=",".join(doc.tags), origin=doc.origin, path=doc.path, position=position)
        ehash = _digest(chunk.embed_text())
        full = _digest(chunk.embed_text(), source, doc.lang, chunk.tags, doc.origin, doc.path, str(position))
        chunks.append(Chunk(**{**chunk.__dict__, "hash": full, "ehash": ehash}))
    return chunks


def split_front_matter(text: str, where: str) -> tuple[dict, str]:
    """(front-matter mapping or {}, the rest of the text)."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    from rules.inputs import load_yaml

    # no aliases (a YAML bomb in a document must not exhaust memory), size and depth capped
    meta = load_yaml(match.group(1), f"{where}: front matter") or {}
    if not isinstance(meta, dict):
        raise InputError(f"{where}: front matter must be a mapping")
    return meta, text[match.end():]


def markdown_sections(body: str) -> tuple[str | None, str, list[Section]]:
    """(H1 title or None, text before the first `## `, the `## ` sections); fences respected."""
    title, intro, sections = None, [], []
    heading, lines, fenced = None, intro, False
    for line in body.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
        h2 = None if fenced else _H2.match(line)
        if h2:
            if heading is not None:
                sections.append(_section(heading, lines))
            heading, lines = h2.group(1), []
            continue
        h1 = None if fenced or heading is not None or title else _H1.match(line)
        if h1:
            title = h1.group(1).strip()
            continue
        lines.append(line)
    if heading is not None:
        sections.append(_section(heading, lines))
    return title, "\n".join(intro).strip(), sections


def _section(raw_heading: str, lines: list[str]) -> Section:
    explicit = _EXPLICIT_SLUG.search(raw_heading)
    heading = raw_heading[: explicit.start()].strip() if explicit else raw_heading.strip()
    return Section(heading, "\n".join(lines).strip(), explicit.group(1).lower() if explicit else None)


def corpus_doc(text: str, path: str, stem: str) -> Doc:
    """A shipped note: front matter (id = file name, title) required; DataError otherwise."""
    meta, body = split_front_matter(text, path)
    for key in ("id", "title"):
        if not str(meta.get(key) or "").strip():
            raise DataError(path, None, key, "the front matter needs this field")
    if str(meta["id"]) != stem:
        raise DataError(path, None, "id", f"'{meta['id']}' must equal the file name '{stem}'")
    title, intro, sections = markdown_sections(body)
    if not sections:
        raise DataError(path, None, None, "a corpus note needs at least one '## ' section")
    if intro:
        sections.insert(0, Section("Overview", intro, "intro"))
    return Doc(doc_id=stem, title=str(meta["title"]).strip(), sections=tuple(sections),
               lang=str(meta.get("lang") or "en"), sources=_sources(meta, path),
               tags=tuple(str(t) for t in meta.get("tags") or ()), origin="corpus", path=path)


def _sources(meta: dict, where: str) -> tuple[dict, ...]:
    raw = meta.get("sources") or ()
    if isinstance(raw, (str, dict)):
        raw = [raw]
    out = []
    for item in raw:
        if isinstance(item, str):
            out.append({"title": item, "url": item if item.startswith("http") else ""})
        elif isinstance(item, dict):
            out.append({"title": str(item.get("title", "")), "url": str(item.get("url", ""))})
        else:
            raise InputError(f"{where}: 'sources' entries must be {{title, url}} mappings")
    return tuple(out)


def front_matter_fields(meta: dict, where: str) -> dict:
    """The optional Doc fields a user file's front matter may set."""
    fields = {}
    if meta.get("title"):
        fields["title"] = str(meta["title"]).strip()
    if meta.get("lang"):
        fields["lang"] = str(meta["lang"])
    if meta.get("tags"):
        fields["tags"] = tuple(str(t) for t in meta["tags"])
    if meta.get("sources"):
        fields["sources"] = _sources(meta, where)
    return fields
