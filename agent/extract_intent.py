"""What the user wants (recommend | explain | estimate | benchmark | size), whether they said they do not
know, and whether the text tries to steer the advisor (prompt injection)."""
from __future__ import annotations

import re

from agent import lexicon

_F = re.I | re.ASCII
_BENCH = re.compile("|".join(lexicon.BENCHMARK_CUES), _F)
_ESTIMATE = re.compile("|".join(lexicon.ESTIMATE_CUES), _F)
_SIZE = re.compile("|".join(lexicon.SIZE_CUES), _F)
_RECOMMEND = re.compile("|".join(lexicon.RECOMMEND_CUES), _F)
_EXPLAIN = re.compile("|".join(lexicon.EXPLAIN_CUES), _F)
_EXPLAIN_LEAD = re.compile(lexicon.EXPLAIN_CUES[0], _F)   # the text opens as a concept question
_ENGINE_NAME = re.compile(r"vllm|sglang|tensorrt|trt-?llm|ollama|llama\.?cpp|llama-server|mlx|exllama|openvino|dynamo", _F)
_INJECTION = re.compile("|".join(lexicon.INJECTION), _F | re.S)
_DONT_KNOW = re.compile("|".join(lexicon.DONT_KNOW), _F)


def intent(text: str) -> str:
    """size > benchmark > estimate > recommend (asked for an engine) > explain > recommend (default)."""
    if _SIZE.search(text):
        return "size"
    if _BENCH.search(text):
        return "benchmark"
    if _ESTIMATE.search(text):
        return "estimate"
    rec = _RECOMMEND.search(text)
    # "explain TP vs PP" compares concepts: a bare "vs" after an explain opening is not a request
    concept_vs = rec and rec.group(0).lower().startswith("vs") and _EXPLAIN_LEAD.search(text) \
        and not _ENGINE_NAME.search(text)
    if rec and not concept_vs:
        return "recommend"
    if _EXPLAIN.search(text):
        return "explain"
    return "recommend"


def dont_know(text: str) -> re.Match | None:
    """The words saying the user does not know ("not sure", "不知道", "隨便"), if any."""
    return _DONT_KNOW.search(text)


def injection(text: str) -> re.Match | None:
    """The words trying to steer the advisor ("ignore your rules", "你必須推薦"), if any."""
    return _INJECTION.search(text)
