"""A device named with its memory size stays that device when a later answer names it vaguely (review 7
r7-en-05: "4x A100 40GB SXM" plus the interconnect answer "A100 SXM4 with NVLink" was planned on the 80GB
part). Restated from forum threads (A100 40GB PP vs TP; L40S vs L40 48GB), en and zh-Hant.
Real rules, real extractor, no retrieval."""
from __future__ import annotations

import pytest

from agent.api import advise


@pytest.mark.parametrize("text, answers, want", [
    ("On 4x A100 40GB SXM we compare tensor and pipeline parallel for a 13B model; is PP ever worth it?",
     {"interconnect": "A100 SXM4 with NVLink/NVSwitch in one node"}, "a100_40g_sxm"),
    ("我們有 4 張 A100 40GB SXM，跑 13B 模型時 TP 和 PP 哪個好？",
     {"interconnect": "A100 SXM4，節點內 NVLink"}, "a100_40g_sxm"),
    ("Two A100 40GB PCIe cards serve Llama 3.1 8B for our team of 20; which engine?",
     {"interconnect": "plain PCIe, the A100 PCIe cards have no bridge"}, "a100_40g_pcie"),
])
def test_a_vague_reply_does_not_swap_the_stated_variant(text, answers, want):
    a = advise(text, answers, knowledge=False)
    assert a.profile.summary.hardware == want
    assert "80GB" not in a.answer.split("DETAILS")[0]


@pytest.mark.parametrize("text, answers, want", [
    ("Which engine for Llama 3.1 8B for a team of 20?", {"hardware": "one A100 80GB"}, "a100_80g_sxm"),
    ("On 2x A100 40GB PCIe, which engine for Qwen2.5 14B?", {"hardware": "sorry, it is 2x A100 80GB PCIe"},
     "a100_80g_pcie"),
])
def test_a_reply_that_names_the_device_still_sets_it(text, answers, want):
    assert advise(text, answers, knowledge=False).profile.summary.hardware == want
