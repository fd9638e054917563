"""Sample notes for the knowledge tests, written for them (two tiny corpus notes, a user file)."""
from __future__ import annotations

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


USER_NOTE = """# Our cluster notes

## Racks {#racks}

Rack seven holds the eight-card inference boxes with liquid cooling.

## Network

The boxes are joined by 400G Ethernet with RoCE.

## On-call

Pager rotation changes every Monday at nine.
"""
