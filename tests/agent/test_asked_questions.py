"""The question asked is answered first: engine-on-device/OS, model size for memory, a quoted API price."""
import pytest

from agent import extract_topics
from agent.extract_amounts import api_prices


@pytest.mark.parametrize("text, topic", [
    ("Does vLLM work on an RTX 5090? What do I need to install?", "platform-support"),
    ("vLLM 可以在 5090 上部署嗎？", "platform-support"),
    ("Which model size fits my 16 GB RTX 4080?", "model-fit"),
    ("我的 MacBook 有 24GB 統一記憶體，可以跑多大的模型？", "model-fit"),
])
def test_the_question_raises_its_topic(text, topic):
    assert topic in extract_topics.topics(text)


def test_a_device_and_an_engine_without_a_question_raise_no_platform_topic():
    assert "platform-support" not in extract_topics.topics("We have 8x H100 and vLLM, 50 users")


@pytest.mark.parametrize("text, usd", [
    ("GPT-4o-mini charges $0.60 per 1M output tokens", 0.6), ("跟 API 每百萬 token 0.8 美元比呢？", 0.8),
    ("the API is 3 USD / 1M tokens", 3.0),
])
def test_a_quoted_price_per_million_tokens_is_read(text, usd):
    assert [p[0] for p in api_prices(text)] == [usd]


@pytest.mark.parametrize("text", ["$2.50 per GPU-hour", "1 張 H100 每小時 2.5 美元"])
def test_an_hourly_device_price_is_not_a_token_price(text):
    assert api_prices(text) == []


def test_the_answers_lead_with_the_direct_answer():
    from agent.api import advise as ask
    win = ask("vLLM 支援 Windows 嗎？我有一張 4090，想在 Windows 上跑。").answer
    assert "WSL" in win[:400]
    blackwell = ask("Does vLLM work on an RTX 5090? What do I need to install?").answer
    assert "yes" in blackwell[:200] and "12.8" in blackwell[:700]
    cost = ask("2x H100 SXM at $2.20 per GPU-hour, Llama 3.1 70B FP8, 40 concurrent users. The API charges "
               "$0.60 per 1M output tokens. Is self-hosting cheaper?")
    assert "0.60" in cost.answer[:900] and not any(u.text == "0.60" for u in cost.not_understood)
