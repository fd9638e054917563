"""How engine ids are written for people, and how to spot any engine named in prose."""
from __future__ import annotations

import re

DISPLAY: dict[str, str] = {
    "llama.cpp": "llama.cpp", "mlx-lm": "MLX-LM", "ollama": "Ollama", "exllamav2": "ExLlamaV2",
    "exllamav3": "ExLlamaV3", "vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM",
    "dynamo": "NVIDIA Dynamo", "openvino-genai": "OpenVINO GenAI",
}

# Spellings seen in prose; a bare "ExLlama" names neither version and is not counted.
_PATTERNS: dict[str, str] = {
    "llama.cpp": r"llama[ ._-]?cpp",
    "mlx-lm": r"mlx(?:[ _-]?lm)?",
    "ollama": r"ollama",
    "exllamav2": r"exllama[ _-]?v?2",
    "exllamav3": r"exllama[ _-]?v?3",
    "vllm": r"vllm",
    "sglang": r"sglang",
    "tensorrt-llm": r"tensorrt(?:[ _-]?llm)?|trt[ _-]?llm",
    "dynamo": r"dynamo",
    "openvino-genai": r"openvino(?:[ _-]?genai)?",
}
_RE = {eid: re.compile(rf"(?<![a-z0-9]){pat}(?![a-z0-9])", re.IGNORECASE) for eid, pat in _PATTERNS.items()}


def display(engine: str | None) -> str:
    """The name people know an engine by."""
    return DISPLAY.get(engine or "", engine or "")


def engines_named(text: str) -> set[str]:
    """Engine ids whose name occurs in `text`."""
    return {eid for eid, rx in _RE.items() if rx.search(text)}
