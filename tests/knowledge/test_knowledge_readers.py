"""User files: markdown without front matter, plain text (the seed article), HTML, PDF, bad input."""
from __future__ import annotations

import pytest

from knowledge.chunking import chunk_doc
from knowledge.ingest import expand
from knowledge.readers import MAX_CHARS, read_file
from rules.errors import InputError


def test_markdown_without_front_matter(user_note):
    doc = read_file(user_note)
    assert doc.doc_id == "cluster-notes" and doc.title == "Our cluster notes"
    assert [c.id for c in chunk_doc(doc)] == ["cluster-notes#racks", "cluster-notes#network",
                                               "cluster-notes#on-call"]


def test_seed_article_is_split_into_sized_chunks(seed_article):
    doc = read_file(seed_article)
    chunks = chunk_doc(doc)
    assert doc.lang == "zh" and doc.title.startswith("Inference Engine")
    assert 8 <= len(chunks) <= 30
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    text = "\n".join(f"{c.heading}\n{c.text}" for c in chunks)
    lines = [ln.strip() for ln in seed_article.read_text(encoding="utf-8").splitlines()[1:] if ln.strip()]
    assert [ln for ln in lines if ln not in text] == []          # nothing lost
    assert [c.id for c in chunk_doc(read_file(seed_article))] == [c.id for c in chunks]


def test_html_headings_become_sections(tmp_path):
    page = tmp_path / "guide.html"
    page.write_text("<html><head><title>x</title><style>p{}</style></head><body>"
                    "<h1>Serving guide</h1><p>Intro words about the guide.</p>"
                    "<h2>Batching</h2><p>Continuous batching keeps the GPU busy.</p>"
                    "<script>var a = 1;</script>"
                    "<h2>Caching</h2><ul><li>Prefix caching reuses shared prompts.</li></ul>"
                    "</body></html>", encoding="utf-8")
    doc = read_file(page)
    assert doc.title == "Serving guide"
    joined = " ".join(c.text for c in chunk_doc(doc))
    assert "Continuous batching" in joined and "Prefix caching" in joined and "var a" not in joined


def _pdf(lines: list[str]) -> bytes:
    """A minimal one-page PDF with Helvetica text lines (enough for pypdf to extract)."""
    ops = "BT /F1 12 Tf 72 720 Td " + " ".join(f"({ln}) Tj 0 -16 Td" for ln in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(ops)} >>\nstream\n{ops}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n"
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out.encode("latin-1")


def test_pdf_text_is_extracted(tmp_path):
    path = tmp_path / "runbook.pdf"
    path.write_bytes(_pdf(["GPU runbook", "Restart the router before the engines."]))
    chunks = chunk_doc(read_file(path))
    assert chunks and "Restart the router" in " ".join(c.text for c in chunks)


@pytest.mark.parametrize("name, content, message", [
    ("empty.md", b"", "empty"),
    ("blank.txt", b"  \n\n \n", "empty"),
    ("notes.docx", b"PK\x03\x04", "unsupported file type"),
    ("latin1.txt", "caf\xe9 cr\xe8me".encode("latin-1"), "not UTF-8"),
    ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "PDF"),
    ("bad-front.md", b"---\nid: [unclosed\n---\n## A\n\ntext\n", "front matter"),
])
def test_bad_files_are_one_line_input_errors(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_file(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_missing_paths_and_empty_folders(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        expand([tmp_path / "nope.md"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .md"):
        expand([tmp_path / "empty"])
