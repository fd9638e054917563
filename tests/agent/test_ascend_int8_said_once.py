"""W8A8 INT8 on Ascend NPUs: vllm-ascend and SGLang both run ModelSlim W8A8 checkpoints (their Ascend
quantization guides), so no answer says either has "no int8 kernel" there (review 7 r7-zh-02: the
avoid list said so for vLLM, then for SGLang). Restated from vllm-ascend / MindIE threads, en and zh-Hant.
Real rules, real catalog, no retrieval."""
from __future__ import annotations

import re

import pytest

from agent.api import advise
from rules import engines


@pytest.mark.parametrize("engine_id", ["vllm", "sglang"])
def test_the_catalog_lists_w8a8_on_ascend(engine_id):
    assert engines.quant_kernel(engine_id, "int8", "huawei-ascend") is not None


@pytest.mark.parametrize("text", [
    "我們在 8 張昇騰 910B 上跑 Qwen3-32B 的 INT8（W8A8）權重，16 個併發，vLLM 和 SGLang 該選哪個？",
    "We run Qwen3-32B W8A8 INT8 on 8x Ascend 910B for 16 concurrent users; vllm-ascend or SGLang?",
])
def test_no_answer_says_an_ascend_engine_lacks_int8(text):
    a = advise(text, None, knowledge=False)
    assert not re.search(r"(vLLM|SGLang)[^\n]{0,30}(沒有 int8 的 kernel|no int8 kernel|has no kernel for int8)",
                         a.answer, re.I), a.answer
