"""The golden case format, the evaluators and the runner's output (no agent needed)."""
from __future__ import annotations

import io
import json

import pytest

from evals import runner
from evals.cases_schema import Expect, load_case, load_cases
from evals.checks import check
from evals.simulate import DONT_KNOW, simulated_reply
from evals.suite import CaseOutcome, SuiteReport
from evals.suites.golden import CASES_DIR
from rules.errors import DataError

RESULT = {
    "primary": "vllm", "alternatives": ["sglang"], "avoid": [{"engine": "ollama", "reason": "demo tool"}],
    "bottleneck": "interconnect", "parallelism": {"strategy": "pp"}, "estimate": {"fits": True},
    "benchmark": {"workload": {"concurrency": [1, 8, 60]}, "metrics": ["ttft", "p99"]},
    "citations": [{"id": "faq#x", "text": "Without NVLink, try pipeline parallelism."}],
    "answer": "Use vLLM with PP across the PCIe cards.",
}


def test_shipped_cases_are_valid_and_enough():
    cases = load_cases(CASES_DIR)
    assert len(cases) >= 35
    assert sum(c.lang == "zh" for c in cases) * 3 >= len(cases)
    assert len({c.id for c in cases}) == len(cases)


def test_all_expectations_hold_on_matching_result():
    expect = Expect(recommend_any=["vllm"], consider_all=["sglang"], not_recommend=["tensorrt-llm"],
                    avoid_any=["ollama"], bottleneck_any=["interconnect"], parallelism_any=["pp"], fits=True,
                    mentions=[["pipeline", "PP"]], cites=[["NVLink"]],
                    benchmark={"concurrency_includes": 60, "metrics_include": ["ttft", "p99"]},
                    min_questions=1, max_questions=2, not_asked=["model"], asks_any=["interconnect"])
    assert check(expect, RESULT, [{"question": "?", "fields": ["interconnect"]}]) == []


@pytest.mark.parametrize("expect, needle", [
    (Expect(recommend_any=["sglang"]), "primary was vllm"),
    (Expect(consider_all=["tensorrt-llm"]), "tensorrt-llm not in"),
    (Expect(not_recommend=["sglang"]), "sglang was recommended"),
    (Expect(avoid_any=["mlx-lm"]), "avoid was ['ollama']"),
    (Expect(bottleneck_any=["decode"]), "got interconnect"),
    (Expect(parallelism_any=["tp"]), "got pp"),
    (Expect(fits=False), "got True"),
    (Expect(mentions=[["tensor parallel"]]), "tensor parallel"),
    (Expect(cites=[["RadixAttention"]]), "RadixAttention"),
    (Expect(benchmark={"concurrency_includes": 50}), "levels were [1, 8, 60]"),
    (Expect(benchmark={"metrics_include": ["tpot"]}), "tpot missing"),
    (Expect(min_questions=2), "asked 1"),
    (Expect(max_questions=0), "asked 1"),
    (Expect(not_asked=["interconnect"]), "'interconnect' was asked"),
    (Expect(asks_any=["model"]), "asked ['interconnect']"),
])
def test_each_expectation_can_fail(expect, needle):
    failures = check(expect, RESULT, [{"question": "?", "fields": ["interconnect"]}])
    assert len(failures) == 1 and needle in failures[0]


def test_no_result_is_a_failure():
    assert check(Expect(), None, []) == ["no result: the conversation ended without an answer"]


def test_simulated_user_joins_known_answers_or_says_dont_know():
    answers = {"interconnect": "PCIe only.", "model": "Llama 3.3 70B"}
    assert simulated_reply(["model", "interconnect"], answers) == "Llama 3.3 70B PCIe only."
    assert simulated_reply(["concurrency"], answers) == DONT_KNOW


def test_bad_case_files_name_file_case_and_field(tmp_path):
    (tmp_path / "a.yaml").write_text("id: x\nlang: fr\nturns: [hi]\n")
    with pytest.raises(DataError, match=r"a.yaml:x:lang"):
        load_case(tmp_path / "a.yaml")
    (tmp_path / "a.yaml").write_text("id: x\nlang: en\nturns: [hi]\nexpect: {recommend_any: [vllmm]}\n")
    with pytest.raises(DataError, match=r"expect.recommend_any: unknown id 'vllmm'"):
        load_case(tmp_path / "a.yaml")
    (tmp_path / "a.yaml").write_text("id: x\nlang: en\nturns: [hi]\nanswers: {gpu: H100}\n")
    with pytest.raises(DataError, match=r"'gpu' is not an askable field"):
        load_case(tmp_path / "a.yaml")


def test_report_prints_lines_table_and_closing_line(tmp_path):
    rep = SuiteReport("golden", [CaseOutcome("ok-case", True), CaseOutcome("bad|case", False, ["fits True: got False"])],
                      {"pass_rate": 0.5})
    out = io.StringIO()
    runner.print_report([rep], out, 1.0)
    text = out.getvalue()
    assert "PASS golden/ok-case" in text and "FAIL golden/bad|case" in text
    assert "| golden | bad\\|case | fits True: got False |" in text
    assert text.strip().splitlines()[-1] == "1 passed, 1 failed"
    data = runner.to_json([rep])
    assert data["passed"] == 1 and data["failed"] == 1
    assert data["cases"][1] == {"id": "bad|case", "suite": "golden", "passed": False,
                                "failures": ["fits True: got False"], "questions": [], "result": None}
    json.dumps(data)
