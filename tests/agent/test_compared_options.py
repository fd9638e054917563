"""Hardware options the user weighed get their own figures and a verdict, in both languages."""
import re

import pytest

from agent.api import advise
from ui.present import markdown


@pytest.mark.parametrize("question, names", [
    ("Qwen3 32B for me alone: 2x RTX 3090 or one RTX 5090?", ("RTX 3090", "RTX 5090")),
    ("公司內部要做知識庫問答，模型想用 Qwen3-32B，尖峰大概同時 40 人。預算只夠兩張 4090 或一張 RTX 6000 Ada 48GB，該選哪個？",
     ("RTX 4090", "RTX 6000 Ada")),
])
def test_each_option_named_gets_its_plan_speed_and_a_verdict(question, names):
    text = markdown.answer(advise(question, knowledge=False))
    lead = text.split("\n\n")[[i for i, p in enumerate(text.split("\n\n")) if re.search(r"options you compared|您比較的選項", p)][0]]
    assert all(n in lead for n in names), lead
    assert re.search(r"serves this best|only .* runs|最適合|只有", lead), lead
    assert len(re.findall(r"tok/s", lead)) >= 2, lead


def test_no_options_paragraph_without_a_comparison():
    text = markdown.answer(advise("2x RTX 3090, Qwen3 32B for me alone", knowledge=False))
    assert "options you compared" not in text
