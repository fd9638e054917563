"""Chunk ids: slugs, explicit slugs, non-ASCII headings, stability, corpus validation."""
from __future__ import annotations

import pytest

from knowledge import corpus, paths
from knowledge.chunking import chunk_doc, corpus_doc, section_slug, slugify
from rules.errors import DataError
from kb_samples import ALPHA


def test_slug_rules():
    assert slugify("Hardware and OS") == "hardware-and-os"
    assert slugify("  When to choose?! ") == "when-to-choose"
    assert section_slug("API") == "api"
    assert section_slug("Café crème") == "cafe-creme"      # accents fold, no hash needed


def test_non_ascii_heading_gets_stable_hash_slug():
    first = section_slug("流水線平行")
    assert first.startswith("sec-") and first == section_slug("流水線平行")
    assert first != section_slug("張量平行")
    mixed = section_slug("vLLM 的平行模式")
    assert mixed.startswith("vllm-") and len(mixed) == len("vllm-") + 8


def test_chunks_of_a_note():
    chunks = chunk_doc(corpus_doc(ALPHA, "alpha.md", "alpha"))
    assert [c.id for c in chunks] == ["alpha#memory-bandwidth", "alpha#tp", "alpha#pipeline"]
    assert chunks[0].title == "Alpha note about GPUs" and chunks[0].heading == "Memory bandwidth"
    assert chunks[0].source == "https://example.org/alpha"
    assert all(c.hash and c.ehash for c in chunks)


def test_ids_do_not_depend_on_the_body():
    edited = ALPHA.replace("GPU memory can deliver", "HBM or GDDR can deliver, whatever the card")
    before = chunk_doc(corpus_doc(ALPHA, "alpha.md", "alpha"))
    after = chunk_doc(corpus_doc(edited, "alpha.md", "alpha"))
    assert [c.id for c in before] == [c.id for c in after]
    assert [c.hash == d.hash for c, d in zip(before, after)] == [False, True, True]


def test_duplicate_headings_get_numbered():
    text = ALPHA + "\n## Memory bandwidth\n\nA second section with the same heading.\n"
    ids = [c.id for c in chunk_doc(corpus_doc(text, "alpha.md", "alpha"))]
    assert ids[-1] == "alpha#memory-bandwidth-2"


def test_headings_inside_code_fences_are_text():
    text = ALPHA + "\n## Config\n\n```\n## not a heading\n```\n"
    chunks = chunk_doc(corpus_doc(text, "alpha.md", "alpha"))
    assert chunks[-1].id == "alpha#config" and "## not a heading" in chunks[-1].text


@pytest.mark.parametrize("broken, field", [
    (ALPHA.replace("id: alpha\n", ""), "id"),
    (ALPHA.replace("id: alpha", "id: other"), "id"),
    (ALPHA.replace("title: Alpha note about GPUs\n", ""), "title"),
])
def test_corpus_front_matter_is_checked(broken, field):
    with pytest.raises(DataError) as err:
        corpus_doc(broken, "alpha.md", "alpha")
    assert err.value.field == field


def test_shipped_corpus_parses_with_unique_ids():
    chunks = corpus.chunks(paths.CORPUS_DIR)
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids)) and len(ids) >= 40
    assert all(c.text.strip() for c in chunks)
