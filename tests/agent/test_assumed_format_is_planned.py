"""The assumption line states the weight format the plan runs, and why it differs from the one assumed
(review 7: "quantization = bf16" printed beside a plan in int8 or FP8). Restated from forum threads
(a 13B chat model shared by a team on one A100; 70B on H100s for many users), en and zh-Hant.
Real rules, real planner, no retrieval."""
from __future__ import annotations

import re

import pytest

from agent.api import advise

CASES = [
    ("Our 13B chat model runs on one A100 80GB behind a web UI and 40 colleagues send requests at the same "
     "time with 4K-token contexts; how many can it serve?", None),
    ("一張 A100 80GB 跑 13B 聊天模型，同時 40 個同事在用、每個請求 4K tokens，能撐幾個人？", None),
    ("Llama 3.1 70B for 200 concurrent users on 4x H100 80GB SXM; which engine and layout?", None),
    ("4 張 H100 80GB SXM 跑 Llama 3.1 70B，同時 200 人使用，選哪個引擎？", None),
]


def _format_lines(a):
    return [x for x in a.assumptions if re.match(r"quantization = ", x)]


@pytest.mark.parametrize("text, answers", CASES)
def test_the_assumed_format_line_names_the_format_planned(text, answers):
    a = advise(text, answers, knowledge=False)
    search = a.plan.search
    if search is None:
        pytest.skip("no planner result for this question")
    used = search.chosen.quantization
    for line in _format_lines(a):
        value = re.match(r"quantization = ([\w.-]+)", line).group(1)
        assert value == used, (line, used)
        if used != re.sub(r"\W", "", a.profile.summary.quantization or used):
            assert re.search(r"assumed|假設", line), line
