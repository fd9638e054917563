"""Review-4 "stuck on one format", end to end (real extractor, rules, roofline): a format the hardware's
engines cannot read ends in an engine running the same weights in its own format, never "no engine fits";
FP8 on a CDNA2 card (gfx90a, no FP8 units: vllm-project/vllm#16394) is never said to run."""
from __future__ import annotations

from agent.api import ask

NONE = "No engine fits every constraint"


def test_gptq_on_mi50s_falls_to_llama_cpp_gguf():
    out = ask("I run 4x AMD Instinct MI50 32GB. With a community vLLM fork, Qwen3-32B GPTQ-Int4 at TP=4 gives ~13 tok/s. "
              "Which engine should I standardize on for 1-3 users?", answers={"concurrency": "1-3", "context_length": "32K"})
    assert NONE not in out["answer"], out["answer"][:1500]
    assert "llama.cpp" in out["answer"].split("DETAILS")[0]


def test_nvfp4_on_l40s_falls_to_a_format_ada_runs():
    out = ask("A 27B fine-tune is only published as NVFP4, but our servers have L40S 48GB cards. Can we run the NVFP4 "
              "checkpoint on L40S with vLLM, and if not, which quantization should we make?",
              answers={"concurrency": "5-10", "context_length": "16-32K"})
    assert NONE not in out["answer"], out["answer"][:1500]
    assert "nvfp4" in out["answer"].lower()   # the step is said, with the format asked for


def test_fp8_on_mi210_is_not_said_to_run():
    out = ask("Running vLLM on a single AMD Instinct MI210, Llama 3 8B. Would FP8 help?",
              answers={"workload": "offline batch inference"})
    text = out["answer"]
    assert "not natively, but it runs" not in text and NONE not in text, text[:1500]


def test_windows_stated_rules_out_vllm_and_says_wsl():
    out = ask("On Windows with an RTX 4060 Ti 16GB and 64GB RAM, AWQ models load slower and use more VRAM than GPTQ "
              "in my web UI. For single-user chat with a 14B model, which quantization format and engine should I use?",
              answers={"concurrency": "just me", "context_length": "8-16K"})
    head = out["answer"].split("DETAILS")[0]
    assert "Recommendation: vLLM" not in head and NONE not in head, head
    assert "WSL" in out["answer"]


def test_wsl_keeps_vllm_in_the_running():
    from agent.topic_lead import stated_os
    assert stated_os("Windows 11 with WSL2 and a 4090") is None
    assert stated_os("On Windows with an RTX 4060 Ti") == "windows"
