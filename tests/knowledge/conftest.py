"""Fixtures for the knowledge tests: a tiny corpus of our own, user files, the seed article."""
from __future__ import annotations

from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[1] / "fixtures" / "seeds" / "000_7466c95c23c9ef43.txt"

ALPHA = """---
id: alpha
title: Alpha note about GPUs
lang: en
sources:
  - title: Alpha source
    url: https://example.org/alpha
tags: [gpu, memory]
---

# Alpha note about GPUs

## Memory bandwidth

Decode speed follows how many bytes per second the GPU memory can deliver.

## Tensor parallel splits {#tp}

Splitting every layer across cards needs a fast link such as NVLink between them.

## 流水線平行 {#pipeline}

管線平行只在階段邊界交換資料，所以 PCIe 也足夠。
"""

BETA = """---
id: beta
title: Beta note about serving
lang: en
sources: [{title: Beta source, url: https://example.org/beta}]
tags: [serving]
---

## Small demos

A handful of people trying a model can live with a laptop runner.

## Busy services

Hundreds of concurrent users need continuous batching and a real scheduler.
"""


def write_corpus(folder: Path, alpha: str = ALPHA, beta: str = BETA) -> Path:
    """Write the two-note corpus into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "alpha.md").write_text(alpha, encoding="utf-8")
    (folder / "beta.md").write_text(beta, encoding="utf-8")
    return folder


@pytest.fixture
def mini_corpus(tmp_path, monkeypatch) -> Path:
    """A two-note corpus used instead of the shipped one (built once per session, then copied)."""
    folder = write_corpus(tmp_path / "corpus")
    monkeypatch.setenv("ADVISOR_CORPUS_DIR", str(folder))
    return folder


@pytest.fixture
def seed_article() -> Path:
    """The source article (Traditional Chinese, no markdown headings)."""
    return SEED


USER_NOTE = """# Our cluster notes

## Racks {#racks}

Rack seven holds the eight-card inference boxes with liquid cooling.

## Network

The boxes are joined by 400G Ethernet with RoCE.

## On-call

Pager rotation changes every Monday at nine.
"""


@pytest.fixture
def user_note(tmp_path) -> Path:
    """A user's markdown file without front matter (doc id from the file name)."""
    path = tmp_path / "files" / "cluster-notes.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_NOTE, encoding="utf-8")
    return path
