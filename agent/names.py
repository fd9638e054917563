"""The one place names shown to people come from.

Engines, devices and models are named by their catalogs (`rules/catalog/*.yaml`, field `name`);
nothing here repeats a catalog name. Profile fields, bottlenecks, interconnects, serving modes
and the like have no catalog, so their labels live here, in English and zh-Hant. Every surface
(template answer, LLM view, web, Slack, MCP) reads names through these functions.

`engines_named(text)` is the reverse: which engines a piece of prose names (for the verifier).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

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


@lru_cache(maxsize=1)
def engine_names() -> dict[str, str]:
    """Engine id → the name people know it by, from the engine catalog."""
    from rules.engines import all_engines
    return {eid: spec.name for eid, spec in all_engines().items()}


def display(engine: str | None) -> str:
    """The name people know an engine by (the id itself when the catalog lacks it)."""
    return engine_names().get(engine or "", engine or "")


@lru_cache(maxsize=1024)
def hardware_name(hw_id: str | None, lang: str | None = "en") -> str:
    """A device's catalog name ("NVIDIA H100 SXM5 80GB"; in zh-Hant without the English qualifier, or
    the catalog's `name_zh`); the id when the catalog lacks it."""
    if not hw_id:
        return ""
    from rules import catalog
    from rules.display import local_name
    from rules.errors import AdvisorError
    try:
        return local_name(catalog.hardware(hw_id), _lang(lang))
    except AdvisorError:
        return hw_id


@lru_cache(maxsize=512)
def model_name(model_id: str | None) -> str:
    """A model's catalog name ("Llama 3 / 3.1 8B"); the id when the catalog lacks it."""
    if not model_id:
        return ""
    from rules import catalog
    from rules.errors import AdvisorError
    try:
        return catalog.model(model_id).name
    except AdvisorError:
        return model_id


def engines_named(text: str) -> set[str]:
    """Engine ids whose name occurs in `text`."""
    return {eid for eid, rx in _RE.items() if rx.search(text)}


FIELDS: dict[str, dict[str, str]] = {
    "en": {"hardware": "Hardware", "count": "Devices per node", "nodes": "Nodes", "memory_gb": "Memory per device",
           "interconnect": "Interconnect", "device_hour_usd": "Price per device-hour", "model": "Model",
           "params_b": "Parameters (billions)", "active_params_b": "Active parameters (billions)",
           "architecture": "Architecture", "quantization": "Quantization", "kv_cache_dtype": "KV cache type",
           "workload": "Workload", "input_tokens": "Prompt tokens", "output_tokens": "Output tokens",
           "context_length": "Context length", "concurrency": "Concurrent requests", "users": "Users",
           "shared_prefix": "Shared prompt prefix", "structured_output": "Structured output",
           "streaming": "Streaming", "lora_adapters": "LoRA adapters", "serving_mode": "Serving mode",
           "priority": "Priority", "priorities": "Priorities", "language": "Language",
           "prefix_tokens": "Shared prompt tokens", "host_memory_gb": "System RAM (GB)", "host_mem_type": "System RAM type",
           "host_mem_mts": "System RAM speed (MT/s)", "host_mem_channels": "Memory channels per CPU"},
    "zh": {"hardware": "硬體", "count": "每節點裝置數", "nodes": "節點數", "memory_gb": "每裝置記憶體",
           "interconnect": "互連", "device_hour_usd": "每裝置小時價格", "model": "模型",
           "params_b": "參數量（十億）", "active_params_b": "啟用參數量（十億）", "architecture": "架構",
           "quantization": "量化", "kv_cache_dtype": "KV cache 型別", "workload": "工作負載",
           "input_tokens": "提示 token 數", "output_tokens": "輸出 token 數", "context_length": "Context 長度",
           "concurrency": "併發請求數", "users": "使用者數", "shared_prefix": "共用提示前綴",
           "structured_output": "結構化輸出", "streaming": "串流輸出", "lora_adapters": "LoRA adapter 數",
           "serving_mode": "服務模式", "priority": "優先目標", "priorities": "優先目標", "language": "語言",
           "prefix_tokens": "共用提示 token 數", "host_memory_gb": "系統記憶體（GB）", "host_mem_type": "系統記憶體類型",
           "host_mem_mts": "系統記憶體速度（MT/s）", "host_mem_channels": "每顆 CPU 記憶體通道數"},
}
VALUES: dict[str, dict[str, dict[str, str]]] = {
    "interconnect": {
        "en": {"nvlink": "NVLink", "pcie": "PCIe only", "infinity-fabric": "Infinity Fabric",
               "infiniband": "InfiniBand", "ethernet": "Ethernet", "unified": "unified memory (one device)",
               "none": "none (one device)"},
        "zh": {"nvlink": "NVLink", "pcie": "只有 PCIe", "infinity-fabric": "Infinity Fabric",
               "infiniband": "InfiniBand", "ethernet": "乙太網路", "unified": "統一記憶體（單一裝置）",
               "none": "無（單一裝置）"}},
    "serving_mode": {
        "en": {"personal": "personal use", "demo": "demo (up to 10 users)", "team": "internal team (≈50–500)",
               "production": "external production", "fleet": "fleet (many nodes)"},
        "zh": {"personal": "個人使用", "demo": "展示（10 人以內）", "team": "內部團隊（約 50–500 人）",
               "production": "對外正式服務", "fleet": "大規模叢集"}},
    "workload": {
        "en": {"chat": "chat", "rag": "RAG", "summarization": "summarization", "agent": "agents",
               "coding": "coding", "batch": "batch jobs"},
        "zh": {"chat": "聊天", "rag": "RAG", "summarization": "摘要", "agent": "agent", "coding": "程式碼",
               "batch": "批次作業"}},
    "priority": {
        "en": {"latency": "latency", "throughput": "throughput", "cost": "cost", "privacy": "privacy",
               "portability": "portability", "dev-speed": "development speed"},
        "zh": {"latency": "延遲", "throughput": "吞吐量", "cost": "成本", "privacy": "隱私",
               "portability": "可攜性", "dev-speed": "開發速度"}},
    "language": {"en": {"en": "English", "zh": "Traditional Chinese"}, "zh": {"en": "英文", "zh": "繁體中文"}},
}
BOTTLENECKS: dict[str, dict[str, str]] = {
    "en": {"prefill": "prefill (compute-bound prompt processing)", "decode": "decode (memory-bandwidth-bound)",
           "kv-cache": "KV cache (memory grows with context and concurrency)",
           "scheduler": "scheduler (batching many concurrent requests)",
           "interconnect": "interconnect (traffic between devices)", "memory-capacity": "memory capacity"},
    "zh": {"prefill": "prefill（受算力限制的提示處理）", "decode": "decode（受記憶體頻寬限制）",
           "kv-cache": "KV cache（隨 context 與併發成長）", "scheduler": "排程（大量併發請求的批次處理）",
           "interconnect": "互連（裝置之間的通訊）", "memory-capacity": "記憶體容量"},
}
YES_NO = {"en": ("yes", "no"), "zh": ("是", "否")}


def _lang(lang: str | None) -> str:
    return "zh" if lang == "zh" else "en"


def field_label(field: str, lang: str | None = "en") -> str:
    """A profile field as people read it ("Concurrent requests" / "併發請求數")."""
    return FIELDS[_lang(lang)].get(field, field)


def bottleneck_label(bottleneck: str | None, lang: str | None = "en") -> str:
    """A bottleneck id in words, with what it means."""
    return BOTTLENECKS[_lang(lang)].get(bottleneck or "", bottleneck or "")


def quant_name(value: str) -> str:
    """A quantization id as people write it: "GGUF Q4_K_M", "AWQ 4-bit", "EXL3 4.0 bpw", "BF16"."""
    from rules.ids import EXL_QUANT_RE
    m = EXL_QUANT_RE.match(value)
    if m:
        return f"{m.group(1).upper()} {m.group(2)} bpw"
    if value.startswith("q") and "_" in value:
        return f"GGUF {value.upper()}"
    return {"awq": "AWQ 4-bit", "gptq-4bit": "GPTQ 4-bit"}.get(value, value.upper())


def link_text(hardware: str | None, count: int | None, link: str | None, lang: str | None = "en") -> str:
    """The link between `count` devices in words. NVLink said of PCIe cards that the catalog bridges only in
    small groups (H800/H100 PCIe: pairs) is that, not one NVLink domain over all of them (r6-zh-04)."""
    lang = _lang(lang)
    shown = value_text("interconnect", link, lang)
    if not hardware:
        return shown
    from rules import catalog
    try:
        hw = catalog.hardware(hardware)
    except Exception:   # an id the catalog does not know: the stated link stands
        return shown
    if hw.fabric and link == hw.interconnect:   # Ascend's HCCS, TPU ICI: not "Ethernet"
        return hw.fabric
    if link != "nvlink":
        return shown
    group = hw.scaleup_domain
    if hw.interconnect == "nvlink" or not group or group < 2 or (count or 1) <= group:
        return shown
    sets = "pairs" if group == 2 else f"groups of {group}"
    return (f"NVLink bridges join the cards in {sets}; PCIe between them" if lang == "en"
            else f"每 {group} 張以 NVLink 橋接，組與組之間走 PCIe")


def value_text(field: str, value: Any, lang: str | None = "en") -> str:
    """A profile value as people read it: catalog names for devices and models, words for ids."""
    lang = _lang(lang)
    if value is None:
        return ""
    if field == "hardware":
        return hardware_name(value, lang)
    if field == "model":
        return model_name(value)
    if field in ("quantization", "kv_cache_dtype") and isinstance(value, str):
        return quant_name(value)
    if isinstance(value, bool):
        return YES_NO[lang][0 if value else 1]
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(value_text(field, v, lang) for v in value)
    return VALUES.get(field, {}).get(lang, {}).get(str(value), str(value))


def source_label(source: str | None) -> str:
    """A citation source as shown to people: a web address as is; anything else (a local file an
    ingested document came from) by its file name only, never its path on this machine."""
    text = str(source or "").strip()
    if _WEB_ADDRESS.match(text):
        return text
    if text.lower().startswith("file:"):
        text = text[5:]
    return _PATH_SEP.split(text.rstrip("\\/"))[-1]


_WEB_ADDRESS = re.compile(r"https?://", re.I)
_PATH_SEP = re.compile(r"[\\/]")   # compiled once: every citation of every answer and panel passes here


_ASSUMED = re.compile(r"^(?P<field>[a-z_]+) = (?P<value>[^\s：:（(]+)")


def assumption_text(line: str, lang: str | None = "en") -> str:
    """An assumption line ("workload = chat：…") opened by its field and value as a zh-Hant reader reads
    them ("工作負載 = 聊天：…"); a value with no words keeps its id ("量化 = int4"). English lines unchanged.
    The Advice keeps the id form (the LLM composer and `ask --json` read it); this is for display."""
    m = _ASSUMED.match(line) if _lang(lang) == "zh" else None
    if not m or m.group("field") not in FIELDS["zh"]:
        return line
    field, value = m.group("field"), m.group("value")
    return f"{field_label(field, 'zh')} = {VALUES.get(field, {}).get('zh', {}).get(value, value)}" + line[m.end():]
