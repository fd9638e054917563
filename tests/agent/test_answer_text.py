"""What the user reads: their language throughout, the asked topic first, a short summary before details.

Run end to end (real extractor, rules, roofline, knowledge store) over generated questions; the
English-sentence detector ignores what stays as written in any language (ids, engine and device
names, numbers, units, code, links, the source list).
"""
from __future__ import annotations

import itertools
import re

import pytest

from agent.api import ask

_STOPWORDS = {"the", "of", "a", "an", "to", "is", "are", "for", "on", "in", "with", "and", "not", "at", "by", "from",
              "only", "this", "that", "it", "be", "as", "or", "per", "each", "but", "can", "has", "have", "no", "its",
              "than", "into", "when", "which", "after", "was", "were", "will", "would", "should", "does", "do", "so",
              "your", "you", "their", "they", "them", "there", "one", "all", "any", "more", "most"}
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)|https?://\S+|\[\d+\]")
_SOURCES = re.compile(r"^\*\*(?:Sources|來源)\s*[:：]\*\*", re.M)
_SPLIT = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e\n]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\S+")


def english_sentences(answer: str) -> list[str]:
    """Runs of Latin-script words that read as an English sentence (at least four words, two of them
    English function words) in the prose of an answer: names, ids, numbers and units never qualify."""
    m = _SOURCES.search(answer)
    text = _LINK.sub(lambda x: x.group(1) or " ", _CODE.sub(" ", answer[:m.start()] if m else answer))
    found = []
    for piece in _SPLIT.split(text):
        run: list[str] = []
        for token in _WORD.findall(piece) + ["|"]:
            word = token.strip("()*:;,.!?\"'")
            if re.fullmatch(r"[A-Za-z][A-Za-z'’-]*", word):
                run.append(word)
                continue
            if any(ch.isdigit() for ch in word):   # 70B, H100, 4090 stay inside a run
                continue
            if len(run) >= 4 and sum(w.lower() in _STOPWORDS for w in run) >= 2:
                found.append(" ".join(run))
            run = []
    return found


def test_the_detector_finds_english_sentences_and_leaves_names_alone():
    assert english_sentences("限制因素：memory bandwidth: streaming the weights each token（97%）")
    assert english_sentences("- 在 x 上 the weights need 70 GB per device but only 60 GB are usable")
    assert not english_sentences("**建議：vLLM** — 2 × NVIDIA GeForce RTX 4090 上 PP=2 · 放得下（權重 34.8 GB）")
    assert not english_sentences("記錄：ttft、tpot、p99、output_tokens_per_s；`vllm serve --tensor-parallel-size 2`")
    assert not english_sentences("用 Qwen2.5 Coder 32B 與 Llama 3.1 70B Instruct 做 RAG，prefix caching 與 continuous batching")
    assert not english_sentences("一段\n\n**來源:**\n[1] The one-page decision list: hardware, then workload, then serving mode")


HARDWARE = ["一張 RTX 4090", "兩張 RTX 3090（沒有 NVLink）", "8 張 H100 SXM", "一台 Mac Studio M2 Ultra 192GB",
            "兩張 Tesla P40", "一台沒有 GPU 的 Xeon 伺服器", "4 張 A100 80GB", "一張 L40S", "兩張 MI300X", "一台 DGX Spark"]
MODELS = ["Llama 3.1 70B", "Qwen2.5 32B AWQ", "Qwen3-30B-A3B", "gpt-oss-120b", "Llama 3.1 8B"]
LOADS = ["自己用", "給 8 個人用", "給 50 人的內部團隊", "對外服務 300 個併發"]
ASKS = ["", "要用 TP 還是 PP？", "推測解碼值得開嗎？", "KV cache 量化成 FP8 可以嗎？", "每百萬 token 成本大概多少？",
        "能把 MoE 專家卸載到 CPU 嗎？", "需要結構化輸出（JSON schema）", "30 個客戶各有一個 LoRA adapter",
        "prefix caching 有用嗎？", "vLLM 支援這個平台嗎？", "需要 PD 分離嗎？"]


def _zh_questions(n: int) -> list[str]:
    """`n` different zh-Hant questions: every device, model, load and topic phrasing appears."""
    combos = zip(itertools.cycle(HARDWARE), itertools.cycle(MODELS), itertools.cycle(LOADS), itertools.cycle(ASKS))
    return [f"{hw}，跑 {model}，{load}。{q}" for hw, model, load, q in itertools.islice(combos, n)]


EXPLAIN_ZH = ["PagedAttention 是什麼？為什麼長 context 需要它？", "prefill 和 decode 差在哪？", "什麼是 KV cache 量化？",
              "TP 和 PP 差在哪？", "SGLang 的 RadixAttention 跟 vLLM 的 prefix caching 差在哪？", "推測解碼是什麼？"]


@pytest.mark.parametrize("text", _zh_questions(33) + EXPLAIN_ZH)
def test_a_zh_answer_has_no_english_sentence(text):
    r = ask(text)
    found = english_sentences(r["answer"])
    assert not found, (text, found[:3])
    assert all(not english_sentences(q["question"]) for q in r["questions"]), r["questions"]
    assert all(not english_sentences(a["reason"]) for a in r["avoid"])


TOPIC_FIRST = [
    ("Is speculative decoding worth it on one RTX 4090 with Qwen2.5 32B AWQ, just me?", "Speculative decoding"),
    ("一張 4090 跑 Qwen2.5 32B AWQ，自己用，推測解碼值得開嗎？", "推測解碼"),
    ("8x H100 SXM, Llama 3.1 70B, 200 users, long shared system prompt. Does prefix caching help?", "Prefix caching"),
    ("8 張 H100，Llama 3.1 70B，200 人，共用很長的 system prompt，前綴快取有幫助嗎？", "前綴快取"),
    ("One A100 80GB, Llama 3.1 8B, 30 customers each with their own LoRA adapter. Which engine?", "Multi-LoRA"),
    ("Two L40S, Qwen2.5 32B, 20 concurrent extraction requests with a JSON schema (structured output).", "Structured output"),
    ("One RTX 3090 with 128GB RAM, Qwen3-235B-A22B just for me: can I offload the experts to CPU?", "CPU / MoE offload"),
    ("兩張 4090 跑 Qwen2.5 32B，128K context 自己用，KV cache 量化成 FP8 可以嗎？", "KV cache 量化"),
    ("2 nodes of 8x H100, DeepSeek V3, 500 users. Should we use prefill/decode disaggregation?", "Prefill/decode disaggregation"),
    ("8 張 H100 SXM，每張每小時 2.5 美元，Llama 3.1 70B FP8，100 個併發，每百萬 token 成本多少？", "每百萬 token 成本"),
    ("Four RTX 3090 without NVLink, Llama 3.1 70B AWQ for 10 people: tensor parallel or pipeline parallel?", "TP, PP or EP"),
    ("Does vLLM support ROCm on a Radeon RX 7900 XTX? Qwen2.5 14B for me.", "Platform support"),
]


@pytest.mark.parametrize("text,title", TOPIC_FIRST)
def test_the_asked_topic_opens_the_answer_before_the_recommendation(text, title):
    answer = ask(text)["answer"]
    body = [line for line in answer.splitlines() if line.strip() and not line.startswith(">")]
    assert body[0].startswith(f"**{title}**"), body[0][:120]
    opening = re.sub(r"\[[^\]]*\]\([^)]*\)", "", body[0])
    assert 2 <= len(re.findall(r"[.。](?:\s|$)|。", opening)) <= 6, opening   # two to five sentences (and a note)
    rec = re.search(r"^\*\*(?:Recommendation|建議)", answer, re.M)
    assert rec is None or answer.index(body[0]) < rec.start()


SUMMARY_MAX_CHARS = 900
SUMMARY_MAX_LINES = 8


@pytest.mark.parametrize("text", [
    "8x H100 SXM, Llama 3.1 70B FP8, 300 internal users, chat.",
    "Two RTX 3090 on PCIe, Qwen2.5 32B AWQ, 10 people.",
    "One Mac Studio M2 Ultra 192GB, Llama 3.1 70B, just me.",
    *_zh_questions(12)[::3],
])
def test_the_summary_is_short_and_names_engine_fit_speed_and_what_to_measure(text):
    r = ask(text)
    answer = r["answer"]
    start = re.search(r"^\*\*(?:Recommendation|建議)", answer, re.M)
    assert start, answer[:300]
    end = re.search(r"^### (?:Details|細節)", answer, re.M)
    summary = answer[start.start(): end.start() if end else None].strip()
    assert len(summary) <= SUMMARY_MAX_CHARS and summary.count("\n") + 1 <= SUMMARY_MAX_LINES, summary
    head = summary.splitlines()[0]
    if r["primary"]:
        from agent.names import display
        assert display(r["primary"]) in head
    if r["estimate"]:
        assert "fits" in head or "放得下" in head or "放不下" in head, head
        assert "tok/s" in head or not r["estimate"]["fits"], head   # no speed for a setup that does not fit
    if r["benchmark"]:
        assert "Measure first" in summary or "先實測" in summary


@pytest.mark.parametrize("text", ["What is the difference between prefill and decode?", "prefill 和 decode 差在哪？"])
def test_an_explain_answer_quotes_sentences_on_the_question_not_whole_excerpts(text):
    r = ask(text)
    lines = [x for x in r["answer"].splitlines() if x.startswith("- ")]
    assert lines, r["answer"][:400]
    for line in lines:
        assert re.search(r"prefill|decode|預填充|解碼", line, re.I), line
        assert len(line) < 600


def test_a_long_reason_is_cut_at_a_sentence_end_in_the_summary():
    from agent.compose import REASON_CHARS, _short
    long = "First point holds here. " * 6 + "Second part runs on; " * 6 + "end"
    cut = _short(long)
    assert len(cut) <= REASON_CHARS and cut.endswith(".") and long.startswith(cut[:-1])
    zh = "第一點成立。" * 20 + "第二點；" * 40
    assert _short(zh).endswith("。") and len(_short(zh)) <= REASON_CHARS
    assert _short("short enough") == "short enough"


@pytest.mark.parametrize("n, shown", [(131072, "128K"), (128000, "128K"), (32768, "32K"), (1500, "1,500"), (8192, "8K")])
def test_token_counts_read_as_people_write_them(n, shown):
    from agent.topic_lead import _tokens
    assert _tokens(n) == shown
