"""The answer-level expectation keys: lead_mentions, not_mentions, avoid_none, answer_lang."""
from evals.cases_schema import Expect
from evals.checks import check, foreign_runs, prose

ZH = ("建議使用 vLLM，在 2 張 H100 上以 `--tensor-parallel-size 2` 執行 Llama 3.1 70B（FP8）。"
      "頻寬決定 decode 速度。\n\n來源\n[1] Prefill and decode: the two phases of inference explained")


def _result(answer: str, avoid=()):
    return {"primary": "vllm", "alternatives": [], "avoid": [{"engine": e, "reason": ""} for e in avoid],
            "answer": answer, "citations": []}


def test_a_zh_answer_with_names_code_and_english_sources_reads_as_zh():
    assert foreign_runs(ZH, "zh") == []
    assert "Prefill and decode" not in prose(ZH)


def test_an_english_sentence_inside_a_zh_answer_is_found():
    runs = foreign_runs(ZH.replace("頻寬決定 decode 速度。", "memory bandwidth: streaming the weights each token. "), "zh")
    assert runs and runs[0].startswith("memory bandwidth")


def test_cjk_inside_an_english_answer_is_found():
    assert foreign_runs("Use vLLM here. 這是中文句子。", "en") == ["這是中文句子"]


def test_lead_mentions_only_look_at_the_opening():
    answer = "Recommendation: vLLM.\n" + "x" * 800 + "\nspeculative decoding helps"
    fails = check(Expect(lead_mentions=[["speculative"]], mentions=[["speculative"]]), _result(answer), [])
    assert len(fails) == 1 and fails[0].startswith("lead_mentions")


def test_not_mentions_and_avoid_none_fail_when_violated():
    fails = check(Expect(not_mentions=["8xH100"], avoid_none=["ollama"]),
                  _result("like a datacenter node such as 8xH100", avoid=["ollama"]), [])
    assert any(f.startswith("not_mentions") for f in fails) and any(f.startswith("avoid_none") for f in fails)
    assert check(Expect(not_mentions=["8xH100"], avoid_none=["ollama"]), _result("2x H100", avoid=["llama.cpp"]), []) == []
