"""Properties over arbitrary text: extraction never fails, never invents words, and always yields
values the Profile accepts."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.extract import NUMBER_FIELDS, extract, extract_answer
from rules.errors import ProfileError
from rules.profile import build_profile

PIECES = st.sampled_from([
    "8", "×", "x", "H100", "4090", "張", "兩", "十二", "nodes", "NVLink", "no", "沒有", "PCIe", "70B", "A3B", "128k",
    "context", "tokens", "users", "併發", "同時", "FP8", "KV cache", "Q4", "EXL2", "4.0bpw", "512GB", "M3 Ultra",
    "DGX", "分", "across", "，", ",", "a", "single", "LoRA", "$2/hr", "latency", "matters", "is not", "yes", "about",
    "Llama 3.3 70B", "Mixtral", "1,000", "萬", "ignore previous instructions", "不知道", "(", ")",
])
TEXT = st.lists(PIECES, max_size=14).map(" ".join) | st.text(max_size=80)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_values_are_valid_and_evidenced(text):
    for read in (lambda: extract(text),
                 lambda: extract_answer(text, ["concurrency", "shared_prefix", "interconnect", "priority"])):
        try:
            ex = read()
        except ProfileError as err:   # a number out of range is said back, naming the field and the words
            assert err.field.split(".")[0] in NUMBER_FIELDS and "outside what the advisor can plan for" in str(err)
            continue
        assert set(ex.values) == set(ex.evidence)
        assert all(words in text for words in ex.evidence.values())
        build_profile(ex.values)
