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
