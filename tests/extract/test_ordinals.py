"""An ordinal ("第一個字", "第 3 輪") ranks something; it is never an amount (a 1-token prompt, 3 users)."""
import pytest

from agent.extract import extract


@pytest.mark.parametrize("text", [
    "只要向量資料庫有回傳文件內容，第一個字出來要等到 12 秒；沒有檢索內容時大約 3 秒",
    "第 3 輪對話之後回應就變慢了",
    "第二個請求進來時第一個還沒結束",
])
def test_an_ordinal_is_not_an_amount(text):
    values = extract(text).values
    assert not {"input_tokens", "output_tokens", "context_length", "concurrency", "users"} & set(values), values


def test_amounts_beside_an_ordinal_are_still_read():
    values = extract("第一個字要 12 秒才出來；prompt 約 8K tokens，同時 5 個請求").values
    assert values.get("input_tokens") == 8000 and values.get("concurrency") == 5


def test_a_model_outside_the_catalog_is_launched_by_its_own_name_not_custom():
    from agent.api import advise
    # (Qwen-14B-Chat, the first example, is a catalog model now; Baichuan2-13B-Chat is not)
    advice = advise("8x RTX 4090 (PCIe, no NVLink) serving Baichuan2-13B-Chat to 300 staff, 30-50 requests at once")
    lines = [c for c in advice.answer.splitlines() if "vllm serve" in c]
    assert lines and not any("serve custom" in c for c in lines), lines
    assert all("checkpoint>" in c for c in lines), lines   # a placeholder the reader fills in
