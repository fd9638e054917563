"""The ten engine fact sheets: front matter, the fixed sections, sources inline, our own words."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rules import engines as eng
from rules.ids import ENGINES

CORPUS = Path(__file__).resolve().parents[2] / "knowledge" / "corpus"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
SLUGS = ["overview", "hardware-and-os", "quantization", "parallelism", "serving-features", "api",
         "production-use", "limits", "when-to-choose"]
URL = re.compile(r"https://[^\s)>\]]+")


def _sheet(engine_id: str) -> tuple[dict, str]:
    text = (CORPUS / f"{eng.engine(engine_id).doc}.md").read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, re.S)
    assert match, "front matter missing"
    return yaml.safe_load(match.group(1)), match.group(2)


def _sections(body: str) -> dict[str, str]:
    parts = re.split(r"^## .*?\{#([a-z0-9-]+)\}\s*$", body, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


@pytest.mark.parametrize("engine_id", ENGINES)
def test_front_matter(engine_id):
    meta, _ = _sheet(engine_id)
    assert meta["id"] == eng.engine(engine_id).doc
    assert meta["lang"] == "en" and meta["title"] and meta["tags"]
    assert meta["sources"] and all(s["title"] and s["url"].startswith("https://") for s in meta["sources"])


@pytest.mark.parametrize("engine_id", ENGINES)
def test_fixed_sections_each_citing_a_source(engine_id):
    _, body = _sheet(engine_id)
    sections = _sections(body)
    assert list(sections) == SLUGS
    for slug, text in sections.items():
        if slug == "when-to-choose":
            continue  # our synthesis of the sections above
        assert URL.search(text), f"{engine_id}#{slug} names no source URL"


@pytest.mark.parametrize("engine_id", ENGINES)
def test_sheet_urls_are_known_sources(engine_id):
    """Every URL in a sheet is in its front matter or in the catalog: no stray, uncheckable links."""
    meta, body = _sheet(engine_id)
    spec = eng.engine(engine_id)
    catalog_urls = {u for u in URL.findall(eng.CATALOG_FILE.read_text(encoding="utf-8"))}
    known = {s["url"] for s in meta["sources"]} | catalog_urls
    strays = {u.rstrip(".,;") for u in URL.findall(body)} - known
    domains = {u.split("/")[2] for u in known}
    assert all(u.split("/")[2] in domains for u in strays), (spec.id, strays)


@pytest.mark.skipif(not SEEDS.exists(), reason="source article not available")
def test_no_sentence_copied_from_the_source_article():
    def norm(text: str) -> str:
        return re.sub(r"\s+", " ", text)

    seed = norm("".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt")))
    fragments = {seed[i:i + 24] for i in range(len(seed) - 23)}
    files = [CORPUS / f"{eng.engine(e).doc}.md" for e in ENGINES] + [eng.CATALOG_FILE]
    for path in files:
        text = norm(path.read_text(encoding="utf-8"))
        copied = {text[i:i + 24] for i in range(len(text) - 23)} & fragments
        assert not copied, f"{path.name}: {sorted(copied)[:3]}"
