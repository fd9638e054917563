"""Platform facts and advice for the user's own device (review 6: false platform facts, wrong device).

Cases restated from real questions (sources beside each). Classes:
- the link between the devices is the device's real link: PCIe cards with NVLink bridges join in pairs
  (never one NVLink domain of 8), and a link said of another machine is not said of this one;
- advice on Ascend speaks of what applies there (vllm-ascend graph mode, MindIE, HCCL), never CUDA graphs or NCCL;
- on a Mac: the MLX/Metal wired-memory limit explains a large model's collapse; no vLLM memory flags, no ExLlama;
- the answer plans for the user's own card, not the one they compare with; an AMD iGPU beside the dGPU is a cause;
- a family word plus a tier word ("Mistral Large") never resolves to another size of the family;
- FP8 on Ampere runs weight-only through Marlin: never "no optimized kernel".
Held-out cases of the same classes: heldout_platform_facts.py (run on purpose).
"""
from __future__ import annotations

import re

import pytest

from agent.api import advise
from rules.model_resolve import find, resolve


def _advise(text, answers=None):
    return advise(text, answers, knowledge=False)


# --- link topology -----------------------------------------------------------------------------------------

def test_h800_pcie_is_not_called_nvlink_when_the_nvlink_belongs_to_the_a800():
    # deepseek-ai/DeepSeek-V2 issue 35: 8x H800 PCIe at 1,500 tok/s, "the same on 8 NVLink A800 SXM"
    a = _advise("硬體是 8 張 H800 PCIe，我用 vLLM 跑 DeepSeek-V2，batch size 開到 1024，最多也只有約 1,500 tokens/s；"
                "在 8 張 NVLink 的 A800 SXM 上一樣是 1,500 tokens/s。推理時該用張量並行還是流水線並行？",
                {"concurrency": "離線批次，盡量把吞吐量拉滿", "workload": "資料合成，輸入約 1K、輸出約 1K tokens"})
    assert a.profile.summary.hardware == "h800_pcie"
    assert a.profile.summary.interconnect != "nvlink"
    assert "互連：NVLink" not in a.answer


def test_nvlink_bridged_pcie_cards_are_one_nvlink_domain_only_in_pairs():
    # planner: 8 PCIe H800 with bridges are pairs joined by NVLink and PCIe between the pairs
    from rules.catalog import hardware
    from rules.plan.topology import topology
    topo = topology(hardware("h800_pcie"), 8, 1, "nvlink", None, True)
    assert topo.domain == 2


def test_eight_pcie_cards_with_nvlink_bridges_split_tensors_only_inside_a_pair():
    a = _advise("We have 8x H100 PCIe 80GB with NVLink bridges, Llama 3.1 70B in BF16 for 100 concurrent users.")
    assert a.decision.primary and a.plan is not None
    assert a.plan.layout.tp * a.plan.layout.ep <= 2
    assert not re.search(r"\(interconnect: NVLink\)", a.answer)


def test_nvlink_said_of_cards_without_it_is_pcie():
    a = _advise("4x RTX 4090 with NVLink, Llama 3.3 70B AWQ for 20 people.")
    assert any(line.startswith("interconnect = pcie") for line in a.assumptions)


def test_a100_sxm_nodes_keep_their_nvlink():
    # sgl-project/sglang issue 3640: R1 on A100 nodes of 8; NVSwitch inside, InfiniBand between
    a = _advise("The SGLang DeepSeek guide deploys DeepSeek-R1 on four A100 nodes (8x 80GB each). Would three A100 "
                "nodes be enough, and what speed should we expect?",
                {"hardware": "3 nodes x 8x A100 80GB SXM",
                 "interconnect": "NVLink/NVSwitch inside each node, 4x 200G HDR InfiniBand between nodes",
                 "concurrency": "research team of ~60, 10-30 concurrent requests", "context_length": "32K"})
    assert "no NVLink-class" not in a.answer
    assert a.profile.summary.count == 8 and a.profile.summary.nodes == 3


# --- Ascend ----------------------------------------------------------------------------------------------

_CUDA_ONLY = re.compile(r"CUDA graph|\bNCCL\b|nvidia-smi|InfiniBand", re.I)


def test_ascend_slow_decode_gets_ascend_causes_in_zh():
    # vllm-project/vllm-ascend issue 362 / 171: 4x 910B2, R1-Distill-Qwen-32B, about 7 tok/s
    a = _advise("我們在華為昇騰 910B2 上用 vLLM-Ascend 推理 DeepSeek-R1-Distill-Qwen-32B，用 4 張卡，結果只有大約 "
                "7 token/s，非常慢。請問這正常嗎？是設定問題還是框架本身還沒最佳化？",
                {"concurrency": "合計尖峰 50 個併發", "context_length": "8K"})
    assert not _CUDA_ONLY.search(a.answer)
    assert re.search(r"graph mode|圖模式|ACLGraph|TorchAir", a.answer, re.I)
    assert "MindIE" in a.answer


def test_ascend_two_nodes_get_hccl_not_nccl():
    # vllm-project/vllm-ascend issue 1621: two 8x 910B machines, vllm-ascend 1.4 tok/s vs MindIE 14 tok/s
    a = _advise("Two servers, each with 8x Ascend 910B 64GB. DeepSeek-V3 W8A8 on vllm-ascend gives about 1.4 tokens/s, "
                "MindIE gives 14 tokens/s. Why is vllm-ascend so slow?")
    assert not _CUDA_ONLY.search(a.answer)
    assert "HCCL" in a.answer


# --- Apple -----------------------------------------------------------------------------------------------

def test_mac_large_mlx_model_collapse_names_the_wired_limit():
    # lmstudio-ai/mlx-engine issues 101 and 34: 72B 8-bit MLX at 0.4 tok/s on a 192 GB M2 Ultra, GPU near idle
    a = _advise("On my Mac Studio M2 Ultra with 192GB, Qwen2.5-72B 8-bit does 7.7 tok/s as GGUF but only 0.4 tok/s "
                "as MLX, and Mistral Large 4-bit MLX is under 0.5 tok/s. What's going on?",
                {"hardware": "Mac Studio M2 Ultra, 76-core GPU, 192GB unified memory, macOS 14",
                 "concurrency": "just me"})
    assert "iogpu.wired_limit_mb" in a.answer and "macOS 15" in a.answer
    assert "--gpu-memory-utilization" not in a.answer
    assert "exllamav2" not in [a.decision.primary, *a.decision.alternatives]


def test_mac_long_prompt_team_hears_the_wired_limit_in_zh():
    # 51haodu: M3 Ultra 512GB running R1 after raising the usable VRAM limit to 448GB
    a = _advise("新的 Mac Studio（M3 Ultra、512GB 統一記憶體）號稱能跑滿血 DeepSeek R1，有人把可用 VRAM 上限調到 448GB "
                "才跑起來。我們 5 個人，長文件摘要輸入常 10K tokens 以上，實際速度大概多少？",
                {"concurrency": "5 人，偶爾 2-3 個請求同時", "context_length": "32K"})
    assert "iogpu.wired_limit_mb" in a.answer
    assert "--gpu-memory-utilization" not in a.answer


# --- the user's own device -------------------------------------------------------------------------------

def test_7900xtx_owner_gets_the_igpu_and_build_target_checks():
    # ggml-org/llama.cpp issue 3422: 7900 XTX slower than the CPU; a 4070 Ti does 56 tok/s
    a = _advise("With llama.cpp built for ROCm, my Radeon RX 7900 XTX generates only about 5.6 tokens/s, slower than "
                "the CPU, while an RTX 4070 Ti does about 56 tokens/s on the same model. What's going wrong?",
                {"hardware": "RX 7900 XTX 24GB, Ryzen 9 7950X (has an iGPU), 64GB DDR5, Ubuntu 22.04, ROCm 5.7",
                 "model": "Llama-2-7B Q4_K_M GGUF", "concurrency": "single user"})
    assert a.profile.summary.hardware == "rx7900xtx"
    assert "HIP_VISIBLE_DEVICES" in a.answer and "gfx1100" in a.answer and "Vulkan" in a.answer


def test_a770_owner_is_not_planned_on_the_3090():
    # intel/ipex-llm issue 13110: A770 at 14-16 tok/s on 8B; an RTX 3090 does 60-70
    a = _advise("I can't reproduce 50-60 tokens/s on my Intel Arc A770: I get 14-16 tok/s on 7-8B. An RTX 3090 with "
                "similar TFLOPS does 60-70 tok/s on 7-8B. Is my setup wrong, and what is the best way to run LLMs on this card?",
                {"model": "Llama-3.1-8B-Instruct", "quantization": "INT4 is fine", "concurrency": "single user"})
    assert a.profile.summary.hardware.startswith("arc_a770")
    assert not {"exllamav2", "exllamav3", "tensorrt-llm"} & {a.decision.primary, *a.decision.alternatives}


# --- model names -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,allowed", [
    ("Mistral Large 4-bit MLX is under 0.5 tok/s", {None, "mistral-large-2407", "mistral-large-2411"}),
    ("I run Mistral Small on a 4090", {None, "mistral-small-24b", "mistral-small-3.1-24b", "mistral-small-22b"}),
    ("Mistral Medium 3 on 2x H100", {None}),
    ("Qwen2.5 Max on our server", {None}),
    ("Phi-3 medium on a 3060", {"phi-3-medium"}),
])
def test_a_tier_word_never_resolves_to_another_size(text, allowed):
    hits = find(text)
    got = hits[0].id if hits else None
    assert got in allowed, (text, got)


def test_tier_word_whole_name():
    assert resolve("Llama 3.2 Vision") is None or "vision" in resolve("Llama 3.2 Vision").id


# --- FP8 on Ampere ---------------------------------------------------------------------------------------

def test_fp8_on_a100_is_weight_only_not_unoptimized():
    # vllm-project/vllm issue 6979 and PR 5975 (FP8 Marlin)
    a = _advise("8x A100 80GB SXM with NVLink, DeepSeek-R1 FP8 checkpoint with SGLang or vLLM for 30 concurrent users.")
    assert "no optimized kernel for it on nvidia-cuda" not in a.answer
    assert not any("fp8" in w and "no optimized kernel" in w for w in a.decision.warnings)


def test_fp8_on_a800_zh_says_weight_only():
    a = _advise("8 張 A800 80GB SXM，想用 vLLM 跑 Qwen3-235B-A22B-FP8，100 個併發。")
    assert "沒有最佳化 kernel" not in a.answer and "no optimized kernel" not in a.answer


def test_an_unknown_tier_is_named_whole_in_the_note():
    from agent.api import ask
    r = ask("Qwen2.5 Max on 2x H100 for 20 users")
    assert r["profile"]["model"] is None and "Qwen2.5 Max" in r.get("not_understood", [])


def test_ascend_servers_are_said_to_use_hccs_not_ethernet():
    # the 8 NPUs of an Atlas 800 A2 are joined by HCCS inside the server (RoCE only between servers)
    a = _advise("Atlas 800 伺服器，每台 8x Ascend 910B2 64GB，用 vLLM-Ascend 跑 Qwen2.5-72B，50 個併發。")
    assert "HCCS" in a.answer and "乙太網路" not in a.answer
    assert "NVLink 等級的互連（只有 PCIe 或網路）" not in a.answer
