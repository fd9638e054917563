"""The shipped knowledge notes: front matter, stable chunk ids, size, coverage of the source article."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from knowledge.paths import CORPUS_DIR

SEEDS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"

# The topical notes written from the article (engine-*.md fact sheets are another area's).
TOPICAL = {
    "overview", "pitfalls", "two-phases", "bottlenecks", "engine-map", "decision-list",
    "benchmarking", "ten-questions", "faq", "glossary-zh", "overview-zh",
}
SLUG_RE = re.compile(r"\{#([a-z0-9]+(?:-[a-z0-9]+)*)\}\s*$")
CJK_RE = re.compile(r"[\u3400-\u9fff]")
WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-/+%]*")

# Chunk id → terms it must contain (case-insensitive): one row per claim of the article.
COVERAGE: dict[str, list[str]] = {
    "overview#thesis": ["hardware strategy", "workload shape", "serving mode"],
    "overview#wrong-first-question": ["vLLM or TensorRT-LLM", "ExLlamaV2", "black box"],
    "overview#fit-vs-speed": ["819 GB/s", "3.35 TB/s", "4.1×", "2–3×", "8–10×"],
    "overview#two-phases": ["compute-bound", "memory-bandwidth-bound"],
    "overview#no-best-engine": ["eight mainstream engines", "default"],
    "overview#local-not-production": ["not recommended for", "proof-of-concept", "Ollama"],
    "pitfalls#single-user-benchmark": ["180 tokens", "1K", "128", "80K", "50", "30 seconds"],
    "pitfalls#tp-without-nvlink": ["TP=4", "PCIe", "all-reduce", "pipeline", "vLLM"],
    "pitfalls#demo-engine-in-production": ["Ollama", "five", "fifty", "first week"],
    "pitfalls#common-root": ["chose the engine", "hardware", "workload"],
    "two-phases#prefill": ["compute-bound", "attention kernels", "chunked prefill"],
    "two-phases#decode": ["memory-bandwidth-bound", "weights", "KV cache"],
    "two-phases#workload-bottleneck-table": ["RAG", "continuous batching", "PagedAttention",
                                            "all-to-all", "RDMA", "disaggregation"],
    "two-phases#short-prompt-long-answer": ["decode", "memory bandwidth"],
    "two-phases#long-prompt-short-answer": ["prefill", "chunked prefill"],
    "two-phases#many-concurrent-users": ["scheduler", "continuous batching", "paging"],
    "two-phases#long-context": ["PagedAttention", "KV cache quantization"],
    "two-phases#moe-models": ["expert", "all-to-all"],
    "two-phases#multi-node": ["interconnect", "NVLink", "RDMA", "disaggregation"],
    "two-phases#fit-vs-speed": ["819 GB/s", "3.35 TB/s", "4.1×", "capacity", "bandwidth"],
    "two-phases#measured-gaps": ["2–3×", "8–10×", "#4167", "#15013"],
    "bottlenecks#memory-bandwidth": ["bandwidth", "VRAM", "consumer", "datacenter"],
    "bottlenecks#kv-cache-growth": ["context length", "batch size", "PagedAttention"],
    "bottlenecks#interconnect": ["all-reduce", "NVLink", "stage boundaries", "PCIe", "all-to-all"],
    "bottlenecks#scheduler-quality": ["batch", "starve", "production"],
    "bottlenecks#runtime-overhead": ["CUDA graphs", "kernel fusion", "sampling", "tokenizer",
                                     "HTTP", "LoRA", "structured decoding", "1–2 %", "double-digit"],
    "engine-map#four-families": ["portability", "unified memory", "consumer CUDA", "production serving"],
    "engine-map#llama-cpp": ["Metal", "AVX", "HIP", "Vulkan", "SYCL", "offload", "OpenAI-compatible",
                             "JSON", "function calling", "speculative", "RPC", "multi-GPU production"],
    "engine-map#mlx-lm": ["unified memory", "24 GB", "not recommended for production"],
    "engine-map#ollama": ["demo", "50", "vLLM or SGLang"],
    "engine-map#exllamav2": ["3090", "4090", "5090", "paged attention", "dynamic batching",
                             "prompt caching", "deduplication", "EXL2", "coding assistant"],
    "engine-map#exllamav3": ["EXL3", "QTIP", "TabbyAPI", "MoE", "two to four"],
    "engine-map#vllm": ["PagedAttention", "continuous batching", "chunked prefill", "prefix caching",
                        "MXFP8", "NVFP4", "GGUF", "context parallelism", "Anthropic", "gRPC",
                        "multi-LoRA", "PowerPC", "Ascend"],
    "engine-map#sglang": ["RadixAttention", "disaggregation", "structured output", "hostile"],
    "engine-map#tensorrt-llm": ["FP8", "FP4", "B200", "Wide Expert Parallelism", "portability"],
    "engine-map#dynamo": ["not an inference engine", "routing", "multi-tier KV caching"],
    "engine-map#openvino-genai": ["Xeon", "Arc"],
    "decision-list#hw-edge": ["llama.cpp"],
    "decision-list#hw-mac": ["MLX"],
    "decision-list#hw-single-rtx": ["ExLlamaV2", "vLLM"],
    "decision-list#hw-consumer-multi-gpu": ["ExLlamaV3", "vLLM"],
    "decision-list#hw-8xh100": ["vLLM", "SGLang", "TensorRT-LLM", "benchmark"],
    "decision-list#hw-blackwell-fleet": ["TensorRT-LLM", "Dynamo", "GB200"],
    "decision-list#hw-amd": ["ROCm", "vLLM", "SGLang", "MI300"],
    "decision-list#hw-intel": ["OpenVINO GenAI", "Xeon", "Arc"],
    "decision-list#wl-short-prompt-long-answer": ["decode", "memory bandwidth"],
    "decision-list#wl-long-prompt-short-answer": ["prefill", "chunked prefill"],
    "decision-list#wl-many-users": ["scheduler quality"],
    "decision-list#wl-long-context": ["KV cache management"],
    "decision-list#wl-moe": ["expert parallelism", "interconnect"],
    "decision-list#wl-multi-node": ["disaggregation", "routing"],
    "decision-list#serve-personal": ["llama.cpp", "MLX", "ExLlamaV2"],
    "decision-list#serve-demo": ["llama-server", "MLX-LM", "Ollama", "five to ten"],
    "decision-list#serve-team": ["50", "500", "vLLM", "SGLang"],
    "decision-list#serve-production": ["vLLM", "SGLang", "TensorRT-LLM", "Dynamo"],
    "decision-list#serve-fleet": ["Dynamo", "data centres"],
    "benchmarking#scenario-definition": ["architecture", "active parameters", "dtype", "group size",
                                         "calibration", "commit", "backend", "flags", "SKU",
                                         "interconnect"],
    "benchmarking#workload-definition": ["length distributions", "concurrency", "streaming",
                                         "shared prefixes", "structured output"],
    "benchmarking#metrics-latency": ["time to first token", "time per output token", "p99"],
    "benchmarking#metrics-throughput-cost": ["tokens per second", "requests per second",
                                             "headroom", "hit rate", "cost per 1M tokens"],
    "benchmarking#iron-rules": ["single-user", "real concurrency", "p95", "KV cache reuse",
                                "multi-LoRA", "driver, CUDA, model or engine"],
    "benchmarking#measure-prefill-decode-apart": ["TTFT", "TPOT"],
    "benchmarking#tail-latency": ["p95", "p99"],
    "benchmarking#real-concurrency": ["concurrency"],
    "benchmarking#prefix-reuse": ["hit rate"],
    "benchmarking#structured-output-lora-separate": ["structured output", "LoRA"],
    "benchmarking#retest-after-upgrades": ["driver", "CUDA", "model", "engine"],
    "ten-questions#q1-hardware": ["hardware"],
    "ten-questions#q2-fast-memory-fit": ["unified", "system RAM"],
    "ten-questions#q3-prefill-or-decode": ["prefill", "decode"],
    "ten-questions#q4-context-concurrency": ["context length", "concurrent"],
    "ten-questions#q5-shared-prefix": ["prefix"],
    "ten-questions#q6-architecture": ["dense", "Mixture-of-Experts", "multimodal", "hybrid"],
    "ten-questions#q7-serving-mode": ["local convenience", "production serving", "fleet orchestration"],
    "ten-questions#q8-quant-kernels": ["optimized kernels"],
    "ten-questions#q9-interconnect": ["PCIe", "NVLink", "NVSwitch", "RDMA"],
    "ten-questions#q10-priority": ["latency", "throughput", "cost", "privacy", "portability",
                                   "development speed"],
    "faq#faq-ollama": ["five to ten", "50 or more", "vLLM or SGLang", "design"],
    "faq#faq-benchmark-mismatch": ["1K", "128", "80K", "500", "50 concurrent"],
    "faq#faq-8x4090-tensorrt": ["interconnect", "NVLink", "pipeline parallelism", "vLLM", "ExLlamaV3"],
    "faq#faq-local-rag": ["chunked prefill", "prefix caching", "RadixAttention"],
    "faq#faq-long-context-agent": ["PagedAttention", "vLLM or SGLang", "llama.cpp", "ExLlamaV2",
                                   "KV cache quantization"],
    "glossary-zh#glossary-phases": ["預填充", "解碼", "prefill", "decode"],
    "glossary-zh#glossary-memory": ["顯存", "VRAM", "頻寬", "統一記憶體", "KV 快取", "分頁注意力",
                                    "前綴快取", "量化"],
    "glossary-zh#glossary-parallelism": ["張量平行", "管線平行", "專家平行", "互連", "TP", "PP", "EP"],
    "glossary-zh#glossary-serving": ["併發", "連續批次", "continuous batching"],
    "glossary-zh#glossary-metrics": ["首字延遲", "TTFT", "TPOT", "p99"],
    "glossary-zh#glossary-hardware": ["地端", "H100", "MI300X", "OpenVINO GenAI"],
}


def _slugify(heading: str) -> str:
    """The derived slug of DESIGN.md: lowercase, ASCII non-alphanumerics collapsed to '-'."""
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _parse(path: Path) -> tuple[dict, list[tuple[str, str, bool]]]:
    """Front matter and the (slug, text, explicit) of each `## ` section of one note."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"{path.name}: no front matter"
    _, meta, body = text.split("---\n", 2)
    sections = []
    for block in re.split(r"^## ", body, flags=re.M)[1:]:
        heading, _, content = block.partition("\n")
        m = SLUG_RE.search(heading)
        sections.append((m.group(1) if m else _slugify(heading), content.strip(), bool(m)))
    return yaml.safe_load(meta), sections


NOTES = {p.stem: _parse(p) for p in sorted(CORPUS_DIR.glob("*.md"))}
CHUNKS = {f"{doc}#{slug}": text for doc, (_, secs) in NOTES.items() for slug, text, _ in secs}


@pytest.mark.parametrize("doc", sorted(NOTES))
def test_front_matter_and_unique_slugs(doc):
    meta, sections = NOTES[doc]
    assert set(meta) >= {"id", "title", "lang", "sources", "tags"}, doc
    assert meta["id"] == doc
    assert meta["lang"] in ("en", "zh-Hant")
    assert meta["sources"] and all(
        s["title"] and str(s["url"]).startswith("https://") for s in meta["sources"])
    assert isinstance(meta["tags"], list) and meta["tags"]
    slugs = [slug for slug, _, _ in sections]
    assert slugs and all(slugs), f"{doc}: a section without a slug"
    assert len(slugs) == len(set(slugs)), f"{doc}: duplicate slugs"


@pytest.mark.parametrize("doc", sorted(TOPICAL))
def test_topical_sections_are_explicit_and_retrievable_alone(doc):
    meta, sections = NOTES[doc]
    for slug, text, explicit in sections:
        assert explicit, f"{doc}#{slug}: give the heading an explicit {{#slug}}"
        cjk = len(CJK_RE.findall(text))
        size = cjk + len(WORD_RE.findall(text))
        upper = 700 if meta["lang"] == "zh-Hant" else 320
        assert 80 <= size <= upper, f"{doc}#{slug}: {size} words"
        if meta["lang"] == "zh-Hant":
            assert cjk > size / 2, f"{doc}#{slug}: mostly not Chinese"


@pytest.mark.parametrize("chunk_id", sorted(COVERAGE))
def test_article_claim_is_covered(chunk_id):
    assert chunk_id in CHUNKS, f"missing chunk {chunk_id}"
    text = " ".join(CHUNKS[chunk_id].split()).lower()  # line wraps are not word breaks
    missing = [t for t in COVERAGE[chunk_id] if t.lower() not in text]
    assert not missing, f"{chunk_id} lacks {missing}"


def test_every_topical_chunk_is_in_the_coverage_table_or_zh_summary():
    topical = {c for c in CHUNKS if c.split("#")[0] in TOPICAL - {"overview-zh"}}
    extra = {"benchmarking#why-not-tok-s", "benchmarking#real-distributions",
             "bottlenecks#five-bottlenecks", "decision-list#decision-order",
             "ten-questions#engine-is-the-exit"}
    assert topical - set(COVERAGE) - extra == set()


def test_no_line_of_the_article_is_copied():
    seeds = sorted(SEEDS_DIR.glob("*.txt"))
    if not seeds:
        pytest.skip(f"source article not found under {SEEDS_DIR}")
    frags = {line[:24] for s in seeds for line in s.read_text(encoding="utf-8").splitlines()
             if len(line) >= 24}
    for path in sorted(CORPUS_DIR.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        hits = [f for f in frags if f in text]
        assert not hits, f"{path.name} copies the article: {hits[:3]}"
