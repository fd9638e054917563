"""The committed corpus of bad inputs (from issue 17's probes): every entry point gets all of them.

Each is something a person, a pasted document or a misbehaving client really sends: lone
surrogates (invalid UTF-8 read with surrogateescape), control characters, walls of digits and
punctuation that made patterns quadratic, absurd and non-finite numbers, deep nesting, YAML bombs.
"""
from __future__ import annotations

BILLION_LAUGHS = "\n".join(
    ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},"
       f"*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]" for i in range(8)]
    + ["interconnect: *i"])

TEXTS = [
    "\ud800 8x H100 llama 70b", "8x H100 \udfff", "\udc80\udcff RTX 4090", "8x H100\x00\x01\x02 Llama 3.1 70B",
    "1" * 20_000, "8x H100 " + "9" * 20_000, "８" * 9_000, "[" * 9_000, "(" * 9_000, " " * 9_000 + "8x H100",
    "1a" * 4_500, "x" * 100_000, "10^9 H100 Llama 3.1 70B", "-5 H100 Llama 3.1 70B", "1e999 H100",
    "8x H100 with 1e999 users", "nan H100 inf users", "8x H100, 99999999999999999999999999 concurrent users",
    "Llama 3 70B on 999999999 GPUs", "8 H100, context 1e999 tokens", "𝟖x H100", "８×H100", "\u202e8x H100",
    "8x H100, " + "context 80K, " * 700, "One RTX " + "9" * 400 + " for chat", "四張4090 " * 1_200, "", "   ", "\n\n\n",
]
ANSWERS = [
    {"interconnect": "\ud800"}, {"interconnect": ["a", "b"]}, {"interconnect": {"x": 1}}, {1: "a"},
    {"concurrency": "9" * 5_000}, {"concurrency": "1e999"}, {"context_length": "-80K"}, {"bogus": "x"},
    {"interconnect": "PCIe " * 2_000},
]
YAML_TEXTS = [
    BILLION_LAUGHS, "a: &x 1\nb: *x", "[" * 5_000 + "]" * 5_000, "{a: " * 2_000 + "1" + "}" * 2_000,
    "interconnect: \"\\ud800\"", "- 1\n- 2", "just text", "count: 1e999", "count: .nan", "count: 99999999999999999999999999",
    "interconnect: !!python/object/apply:os.system ['echo hi']", "\t\x00: x", "a: b: c", "x" * 300_000,
]
PROFILES = [
    {"count": 10**30}, {"count": float("inf")}, {"count": float("nan")}, {"params_b": float("nan")},
    {"memory_gb": float("inf")}, {"hardware": "\ud800"}, {"model": "x" * 100_000}, {"count": -5},
    {"concurrency": 1e999}, {"hardware": ["a"]}, {"hardware": {"a": 1}}, {"count": "abc"}, {1: 2},
    {"model_config": {"a": [[[[1]]]]}}, {"hardware": "h100_sxm", "count": 10**9}, {"hardware": "h100_sxm", "count": True},
    {"model_config": "{" * 3_000}, {"model_config": '{"num_hidden_layers": NaN}'}, {"context_length": 10**400},
]
THREAD_IDS = ["", "   ", "\ud800", "x" * 10_000, 123, None, "../../etc/passwd", "t\x00t"]
