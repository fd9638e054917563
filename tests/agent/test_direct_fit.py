"""Questions answered from the numbers the tools already compute (agent.direct_fit): "is N the ceiling / how
many at once?", "will it fit / why OOM?", "are N nodes enough, what is the smallest setup?", "why does memory
grow when I raise num_ctx?", "TP=4 or two TP=2 replicas?". Each opens the answer with a verdict and the
arithmetic behind it, in the user's language; a question that asks none of these gets none of them.

Cases restated from real threads (vllm-project/vllm #8031, #5711, #2280; huggingface/text-generation-inference
#734; QwenLM/Qwen #1092; QwenLM/Qwen3-VL #924; ollama/ollama #9246, #10529, #10828; NVIDIA/TensorRT-LLM #1144;
huggingface/tgi-gaudi #196). End to end: real extractor, rules, planner, roofline, catalogs. Held-out part:
tests/agent/heldout_direct_fit.py."""
from __future__ import annotations

import re

import pytest

from agent import direct_fit
from agent.api import advise
from evals.langcheck import english_runs
from rules import catalog
from ui.present import markdown


def _answer(text: str, answers: dict | None = None) -> str:
    return markdown.answer(advise(text, answers, knowledge=False))


def _lead(answer: str) -> str:
    """What the user reads before the recommendation line (or the sizing table)."""
    cut = [m.start() for m in re.finditer(r"\*\*Recommendation|\*\*建議|\*\*Hardware for|\*\*Estimate|\*\*估算|^Recommendation:|^建議：",
                                          answer, re.M)]
    return answer[:min(cut)] if cut else answer


def _gb(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"(\d[\d,]*(?:\.\d+)?)\s*(?:GB|TB)", text)]


def _near(values: list[float], target: float, tol: float = 0.12) -> bool:
    return any(abs(v - target) <= tol * target for v in values)


# --- detectors (pure) ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind", [
    ("Is that really the ceiling for one Gaudi 2?", "ceiling"),
    ("How many concurrent requests can one L40S handle with Qwen2.5-7B?", "ceiling"),
    ("用 vLLM 在 8 張 4090 上跑 Qwen-14B-Chat，最多能支援多少併發？", "ceiling"),
    ("Can Llama 2 70B in 16-bit fit on two A100 80GB? I keep getting CUDA OOM.", "fit"),
    ("是不是代表 4 張 H20 跑不動這個模型？", "fit"),
    ("By simple parameter arithmetic, would three A100 nodes be enough?", "fit"),
    ("Why does a 35 GB model become 148 GB when I add context?", "growth"),
    ("Should I run tensor parallel 4, two replicas of tensor parallel 2, or a tensor + pipeline mix?", "layouts"),
])
def test_each_frame_is_detected(text, kind):
    assert kind in direct_fit.asked(text)


@pytest.mark.parametrize("text", [
    "Llama 3.1 70B in FP8 on 2x H100 for 50 users, which engine?",
    "We serve 16 concurrent users on one L40S with Llama 3.1 8B; which engine should we use?",
    "Qwen2.5-32B on 2x RTX 4090 with TP=2: what launch flags?",
    "我們有 4 張 H20，想跑 Qwen3-235B，推薦哪個引擎？",
    # a fit stated in passing is not a fit question (evals/cases/bandwidth-zh, evals/cases_numbers4/n4-3060-moe-offload)
    "M3 Ultra 的統一記憶體可以塞得下 70B，為什麼大家還說 H100 快很多？",
    "RTX 3060 12GB plus 64GB of DDR4. It doesn't fit in VRAM — what's the right way to split it?",
])
def test_questions_that_ask_none_of_them_raise_nothing(text):
    assert direct_fit.asked(text) == set()


# --- ceiling ---------------------------------------------------------------------------------------------

def test_stated_ceiling_is_checked_against_kv_room_and_the_ttft_target():
    text = ("We serve Llama 3.1 8B on one A100 80GB. Prompts are about 1,000 tokens, answers 200, and TTFT must stay "
            "under 2 seconds. We top out at 12 concurrent requests. Is 12 really the ceiling for this card?")
    lead = _lead(_answer(text))
    assert lead.startswith("**Is 12 the ceiling? No**"), lead[:300]
    assert re.search(r"KV cache holds about [\d,]+ sequences", lead)
    assert re.search(r"TTFT (?:≤|<=|under) 2 s", lead)


def test_how_many_at_once_without_a_stated_number_gets_a_count():
    lead = _lead(_answer("How many concurrent requests can one L40S handle with Qwen2.5-7B-Instruct at 8K context in vLLM?"))
    m = re.match(r"\*\*How many at once: about ([\d,]+)", lead)
    assert m, lead[:300]
    assert "KV cache" in lead and "8K" in lead or "8,192" in lead


def test_zh_max_concurrency_is_answered_in_zh_hant():
    lead = _lead(_answer("用 vLLM 在 8 張 4090 上跑 Qwen2.5-14B，context 4K，最多能支援多少併發？"))
    assert lead.startswith("**同時能服務多少：約"), lead[:300]
    assert "KV cache" in lead and not english_runs(lead.replace("KV cache", ""))


# --- fit / OOM -------------------------------------------------------------------------------------------

def test_16_bit_70b_on_one_a100_is_a_no_with_the_arithmetic_and_what_fits():
    lead = _lead(_answer("Running Llama 3 70B on one A100 80GB with vLLM gives CUDA out of memory. Why? Does it fit at all?"))
    assert re.match(r"\*\*Does Llama 3[^?]*70B fit (?:1× |one )?NVIDIA A100 80GB SXM4\? No", lead), lead[:300]
    gb = _gb(lead)
    assert _near(gb, 141) and _near(gb, 80, 0.1)   # 16-bit weights against the card's memory
    assert re.search(r"int4|4-bit|AWQ|GPTQ", lead, re.I)   # what fits instead


def test_16_bit_70b_on_two_a100_fits_but_barely():
    lead = _lead(_answer("Can Llama 2 70B in 16-bit fit on two A100 80GB? TGI gives me CUDA OOM even with tiny batch settings."))
    assert re.match(r"\*\*Does Llama 2 70B fit 2× NVIDIA A100 80GB SXM4\? (?:Yes|Only just)", lead), lead[:300]
    assert _near(_gb(lead), 138) and _near(_gb(lead), 160, 0.1)


def test_zh_oom_on_four_h20_is_bf16_arithmetic_then_fp8():
    text = ("4 張 H20 96GB 用 vllm serve Qwen3-235B-A22B --tensor-parallel-size 4 啟動會 OOM，換成 8 張就能跑。"
            "是不是代表 4 張 H20 跑不動這個模型？有什麼辦法可以只用 4 張卡？")
    lead = _lead(_answer(text))
    assert re.match(r"\*\*4 張 NVIDIA H20[^？]* 放得下 Qwen3-235B-A22B 嗎？", lead), lead[:300]
    assert "放不下" in lead.split("\n")[0]
    gb = _gb(lead)
    assert _near(gb, 470) and _near(gb, 384, 0.08)   # BF16 weights against 4 × 96 GB
    assert "FP8" in lead or "fp8" in lead
    assert not english_runs(re.sub(r"KV cache|Qwen3-235B-A22B|NVIDIA H20|vLLM|FP8|fp8|BF16|bf16|TP=\d", "", lead))


def test_nodes_enough_and_smallest_setup():
    text = ("Would two nodes of 8x H100 be enough for DeepSeek-R1 at its original BF16 weights? If not, what is the "
            "smallest sensible H100 setup?")
    lead = _lead(_answer(text))
    assert re.match(r"\*\*Do(?:es)? .*2 nodes.*DeepSeek-R1.*\? No", lead) or re.match(r"\*\*Does DeepSeek-R1 fit .*\? No", lead), lead[:300]
    assert _near(_gb(lead), 1340, 0.05) or "1.34 TB" in lead or "1,342 GB" in lead
    assert re.search(r"[Ss]mallest", lead) and "fp8" in lead.lower()


# --- memory growth ---------------------------------------------------------------------------------------

def test_ollama_memory_grows_with_num_ctx_times_parallel_slots():
    text = ("I pulled qwen3:32b (about 35 GB) in Ollama on 4x RTX 3090 and raised num_ctx to 65536. Now ollama ps shows "
            "~148 GB. Why does a 35 GB model become 148 GB when I add context?")
    lead = _lead(_answer(text))
    assert lead.startswith("**Why 35 GB becomes 148 GB: the KV cache**"), lead[:300]
    spec = catalog.model("qwen3-32b")
    assert "65,536" in lead or "64K" in lead
    assert "OLLAMA_NUM_PARALLEL" in lead
    assert re.search(r"256 KB|262,144 bytes|0\.25 MB", lead)   # 64 layers x 8 KV heads x 128 x 2 x 2 bytes
    assert spec.layers == 64


def test_ollama_parallel_slots_measured_by_the_user():
    text = ("gemma3:12b q8_0 with num_ctx 40000 on 2x A100 uses 65 GB with OLLAMA_NUM_PARALLEL=10 but only 19 GB with 1. "
            "Why does memory grow so much?")
    lead = _lead(_answer(text))
    assert lead.startswith("**Why 19 GB becomes 65 GB: the KV cache**"), lead[:300]
    assert "40,000" in lead and "10" in lead


# --- layouts ---------------------------------------------------------------------------------------------

def test_named_layouts_each_get_their_figures():
    text = ("Llama 2 70B on 4x RTX A6000 (PCIe), 8 concurrent users, 4K context: which is better, tp=2 pp=2, tp=4, "
            "or pp=4?")
    lead = _lead(_answer(text))
    assert lead.startswith("**The layouts you named**"), lead[:300]
    for name in ("TP=4", "TP=2 x PP=2", "PP=4"):
        line = next((ln for ln in lead.splitlines() if ln.startswith(f"- {name}")), None)
        assert line, (name, lead)
        assert re.search(r"tok/s per stream", line) and re.search(r"TTFT", line)


def test_zh_tp4_or_two_tp2_replicas():
    lead = _lead(_answer("4 張 L40S 跑 Qwen2.5-72B AWQ，16 個併發、8K context：TP=4 還是兩組 TP=2 比較好？各自速度多少？"))
    assert lead.startswith("**您提到的配置**"), lead[:300]
    assert any(ln.startswith("- TP=4") for ln in lead.splitlines())
    assert any(ln.startswith("- TP=2 x DP=2") for ln in lead.splitlines())


# --- $/1M tokens on each device the user priced (restated from the cost-per-token posts on gputracker.dev and
# aihardwareindex.com: hourly prices per GPU, "which is cheapest per million tokens?") ---------------------

def test_priced_devices_pair_each_price_with_its_device():
    text = "Prices: $2.99/hr for an H100, $0.34/hr for an RTX 4090 and $0.79 per hour for an L40S."
    assert direct_fit.priced_devices(text) == [("h100_sxm", 2.99), ("rtx4090", 0.34), ("l40s", 0.79)]
    assert direct_fit.priced_devices("H100 每小時 2.25 美元、L40S 每小時 0.87 美元") == [("h100_sxm", 2.25), ("l40s", 0.87)]


def test_cost_per_million_tokens_for_each_priced_device():
    text = ("Serving Llama 3.1 8B for a chat API. An H100 costs us $2.99/hr and an RTX 4090 $0.34/hr. Which gives the lower "
            "cost per million tokens, keeping 50 ms per output token?")
    lead = _lead(_answer(text))
    assert lead.startswith("**Lowest $/1M tokens for Llama"), lead[:300]
    assert "$2.99/h" in lead and "$0.34/h" in lead and "TPOT ≤ 50 ms" in lead
    costs = [float(x) for x in re.findall(r": \$(\d+(?:\.\d+)?) per 1M output tokens", lead)]
    assert len(costs) == 2 and costs == sorted(costs)
    assert "÷ (output tok/s × 3600 / 1M)" in lead


def test_zh_cost_comparison_in_zh_hant():
    lead = _lead(_answer("我們要用 Qwen2.5-7B 做客服，H100 每小時 2.25 美元、L40S 每小時 0.87 美元，哪個每百萬 token 成本比較低？"))
    assert lead.startswith("**Qwen2.5 7B 每百萬 token 最便宜：") or lead.startswith("**Qwen2.5-7B 每百萬 token 最便宜："), lead[:300]
    assert "每百萬輸出 token $" in lead
