"""Prompt and output lengths said through what the prompt carries or how it is sent, in English and
Traditional Chinese ("each question comes with ~30K tokens of retrieved documents", "平均 2K 輸入 /
400 輸出", "2K/400 tokens"), and the numbers that are not lengths (model-name sizes, context windows,
monthly/daily token volumes). A length the extractor read must not be quoted back as not understood.

Phrasings are modelled on forum and issue threads (vLLM/SGLang issues, r/LocalLLaMA, PTT); the
held-out group (test_lengths_heldout) was written before the fix and not looked at while fixing."""
from __future__ import annotations

import pytest

from agent.extract import extract


def check(text: str, expected: dict, absent: tuple = ()) -> None:
    ex = extract(text)
    got = ex.values
    for words in ex.evidence.values():
        assert words in text, (words, text)
    for field, value in expected.items():
        assert got.get(field) == value, (text, field, got)
    for field in absent:
        assert field not in got, (text, field, got)
    if got.get("context_length") and got.get("input_tokens"):
        assert got["context_length"] >= got["input_tokens"], (text, got)
    quoted = [u.text for u in ex.not_understood if u.kind == "number"]
    if "input_tokens" in expected or "output_tokens" in expected:   # no length said back as not understood
        lengths = [ex.evidence[f] for f in ("input_tokens", "output_tokens", "context_length") if f in ex.evidence]
        assert not [w for w in quoted if "token" in w.lower() or any(w in e or e in w for e in lengths)], (text, quoted)


DEV = [
    ("Each question comes with ~30K tokens of retrieved documents, Llama 3.1 8B on one L40S",
     {"input_tokens": 30000}, ()),
    ("RAG bot: every query carries about 12k tokens of retrieved chunks, answers are short",
     {"input_tokens": 12000}, ()),
    ("We send 16-32K tokens of code context per request to Qwen2.5 Coder 32B",
     {"input_tokens": 32000}, ()),
    ("avg 3K in / 400 out, 20 concurrent users", {"input_tokens": 3000, "output_tokens": 400}, ()),
    ("~1.5K tokens in, ~300 out, on 2x A100", {"input_tokens": 1500, "output_tokens": 300}, ()),
    ("typical request is 2K/400 tokens", {"input_tokens": 2000, "output_tokens": 400}, ()),
    ("prompts of 8k and answers of 1k on H100", {"input_tokens": 8000, "output_tokens": 1000}, ()),
    ("we generate summaries of ~300 tokens from long reports", {"output_tokens": 300}, ()),
    ("GLM-4-32K on 2x 4090 for chat", {}, ("input_tokens", "output_tokens")),
    ("128k context on 4x H100, Llama 3.3 70B", {"context_length": 128000}, ("input_tokens",)),
    ("about 300M tokens per month through Qwen3 32B", {}, ("input_tokens", "output_tokens")),
    ("input 4096 tokens, output 512 tokens, 8 concurrent", {"input_tokens": 4096, "output_tokens": 512}, ()),
    ("ISL 2048 OSL 256 on a single H200", {"input_tokens": 2048, "output_tokens": 256}, ()),
    ("each agent step sends roughly 20K tokens of tool output back to the model",
     {"input_tokens": 20000}, ()),
    ("每次問題會帶 6K 左右的檢索內容，用 Qwen3 14B", {"input_tokens": 6000}, ()),
    ("平均 2K 輸入 / 400 輸出，同時 30 人", {"input_tokens": 2000, "output_tokens": 400}, ()),
    ("每個請求大約 1.5K 輸入、300 輸出", {"input_tokens": 1500, "output_tokens": 300}, ()),
    ("輸入約 8K tokens，輸出 1K 左右", {"input_tokens": 8000, "output_tokens": 1000}, ()),
    ("每筆查詢會附上約 20K token 的文件內容", {"input_tokens": 20000}, ()),
    ("摘要大概 300 字，原文很長", {"output_tokens": 300}, ()),
    ("每天 5 億 token 的量，跑 Llama 3.1 70B", {}, ("input_tokens", "output_tokens")),
    ("上下文 128K，兩張 H100", {"context_length": 128000}, ("input_tokens",)),
    ("用 GLM-4-9B-Chat-1M 做長文件", {}, ("input_tokens", "output_tokens")),
    ("prompt 長度 4K，回答 500 tokens 左右", {"input_tokens": 4000, "output_tokens": 500}, ()),
    # Each number labelled before it: the label after the first number belongs to the second.
    ("input 3K output 300 on one A10G", {"input_tokens": 3000, "output_tokens": 300}, ()),
    ("輸入 1.5K，輸出 200，上下文 32K", {"input_tokens": 1500, "output_tokens": 200, "context_length": 32000}, ()),
    ("每輪對話帶入 10K 的歷史紀錄", {"input_tokens": 10000}, ()),
    ("程式碼上下文 16-32K tokens，四張 4090", {"input_tokens": 32000}, ()),
    ("系統提示 4K 共用，使用者問題很短", {"shared_prefix": True}, ()),
    ("每月大約 3 億 tokens", {}, ("input_tokens", "output_tokens")),
    # Volumes per period are not lengths, even written as in/out; a request rate does not make them one.
    ("about 500M tokens in, 50M out per month", {}, ("input_tokens", "output_tokens")),
    ("2K in / 400 out, 50 requests per minute", {"input_tokens": 2000, "output_tokens": 400}, ()),
    ("每天 5 億 token，輸入 2K", {"input_tokens": 2000}, ()),
    # Labels before each number, as benchmark logs print them (vllm-project/vllm#8244).
    ("Input Tokens: 1024 Output Tokens: 512 on 8xH100", {"input_tokens": 1024, "output_tokens": 512}, ()),
]


@pytest.mark.parametrize("text, expected, absent", DEV)
def test_lengths_dev(text, expected, absent):
    check(text, expected, absent)


HELDOUT = [
    ("Every request ships with around 40K tokens of retrieved passages", {"input_tokens": 40000}, ()),
    ("avg 6K in / 800 out on Llama 3.1 8B", {"input_tokens": 6000, "output_tokens": 800}, ()),
    ("~4K tokens in, ~250 out per call", {"input_tokens": 4000, "output_tokens": 250}, ()),
    ("requests are about 1K/200 tokens", {"input_tokens": 1000, "output_tokens": 200}, ()),
    ("prompts of 2k and responses of 512 tokens", {"input_tokens": 2000, "output_tokens": 512}, ()),
    ("Yi-34B-200K on 2x A100 for contracts", {}, ("input_tokens", "output_tokens")),
    ("we push 1B tokens per day through the cluster", {}, ("input_tokens", "output_tokens")),
    ("每次請求會帶 12K 左右的程式碼內容", {"input_tokens": 12000}, ()),
    ("平均 3K 輸入 / 600 輸出", {"input_tokens": 3000, "output_tokens": 600}, ()),
    ("每個問題附帶約 8K token 的檢索結果", {"input_tokens": 8000}, ()),
    ("輸出摘要約 200 tokens", {"output_tokens": 200}, ()),
    ("每月 10 億 tokens 的用量", {}, ("input_tokens", "output_tokens")),
    ("每個 prompt 約 5K，回覆約 300", {"input_tokens": 5000, "output_tokens": 300}, ()),
    ("context 64K，輸入 2K 輸出 500", {"context_length": 64000, "input_tokens": 2000, "output_tokens": 500}, ()),
]


@pytest.mark.parametrize("text, expected, absent", HELDOUT)
def test_lengths_heldout(text, expected, absent):
    check(text, expected, absent)


@pytest.mark.parametrize("text, quoted", [
    ("2x L40S serving Qwen3 32B, how should I lay out the two GPUs?", []),
    ("兩張 4090 跑 Qwen3 32B，這兩張要怎麼配置？", []),
    ("8x H100 node; should the 8 GPUs all go to one model?", []),
    ("4x H100 but we only use two GPUs for this model", ["two GPUs"]),   # a different count is still said back
])
def test_count_restated_is_not_quoted_back(text, quoted):
    assert [u.text for u in extract(text).not_understood if u.kind == "number"] == quoted


def test_a_monthly_volume_split_into_in_and_out_is_not_a_prompt_length():
    # "250M in" after "tokens/month" splits the volume; reading it as one prompt failed the turn
    from agent.extract import extract
    values = extract("Our volume is about 300M tokens/month (250M in, 50M out). What's our cost per 1M tokens?").values
    assert "input_tokens" not in values and "output_tokens" not in values


def test_a_batch_jobs_item_count_is_not_its_concurrency():
    # "Batch job: classify 5 million tickets" read "batch … 5 million" as 5M requests at once and failed the turn
    from agent.extract import extract
    assert "concurrency" not in extract("Batch job: classify 5 million support tickets into a JSON schema").values
    assert extract("batch size 64 on vLLM").values["concurrency"] == 64
