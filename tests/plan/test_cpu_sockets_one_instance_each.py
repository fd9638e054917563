"""Dual-socket CPU servers: a model that fits one socket's memory runs one instance per NUMA node
(numactl --cpunodebind/--membind; llama.cpp --numa isolate), never one process across both sockets: its
reads cross UPI and the user measured half the speed (review 7 r7-en-13, r7-en-14; llamafile #765:
4 tok/s on both Xeon Gold 5218, 8 tok/s pinned to one). A model too big for one socket may still span.
Restated, en and zh-Hant. Real rules, real planner, no retrieval."""
from __future__ import annotations

import pytest

from agent.api import advise


@pytest.mark.parametrize("text", [
    "Dual-socket box with two Xeon Gold 5218 (Cascade Lake), 384 GB per socket, CPU only: Llama 3.1 8B at "
    "Q4_K_M for 2 users with llama.cpp. How should I run it?",
    "雙路 Xeon Gold 5218（Cascade Lake）伺服器，每顆 CPU 384 GB 記憶體、沒有 GPU，用 llama.cpp 跑 Llama 3.1 8B "
    "Q4_K_M 給 2 個人用，該怎麼跑？",
    "Two Xeon Platinum 8480+ sockets with 512 GB DDR5, no GPU; Qwen2.5 7B at INT8 for 6 concurrent users. "
    "Which engine and layout?",
])
def test_a_model_that_fits_one_socket_runs_one_instance_per_socket(text):
    a = advise(text, None, knowledge=False)
    lay = a.plan.layout
    assert lay is not None
    assert lay.tp * lay.pp * lay.ep == 1, lay


def test_a_model_too_big_for_one_socket_may_span_both():
    a = advise("2x AMD EPYC 9654, 384 GB DDR5 per socket, no GPU: DeepSeek-R1 671B at Q4_K_M with llama.cpp "
               "for one user. How do I lay it out?", None, knowledge=False)
    lay = a.plan.layout
    assert lay is None or lay.tp * lay.pp * lay.ep >= 1
