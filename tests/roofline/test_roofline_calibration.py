"""The estimator against the published measurements (the issue's targets) and the reported error bands."""
from __future__ import annotations

import csv

import pytest

from evals.suites import estimator
from rules.roofline.calibration import ERROR_BAND, LOAD_ERROR_BAND


@pytest.fixture(scope="module")
def report():
    return estimator.run()


def test_held_out_targets(report):
    """The issue's targets on rows never used to choose a constant (see the suite's docstring).
    At load they hold on the dense-model sources (TensorRT-LLM perf overview, NIM, vLLM on MI300X); the
    DeepSeek-R1 rows (dstack: early-2025 vLLM/SGLang/TensorRT-LLM on 8 x H200 / MI300X) are far off
    (TTFT ~98 %, TPOT ~62 %, throughput ~190 % held-out): guarded at their present level so they cannot
    get worse unnoticed, and reported as missed."""
    m = report.metrics
    assert m["held-out.single.decode_p90_ape"] <= 0.15
    assert m["held-out.single.prefill_median_ape"] <= 0.10
    for metric in ("output_tps", "tpot_ms", "ttft_s"):
        assert m[f"held-out.load.dense.{metric}_median_ape"] <= 0.20, metric
    for source in ("nvidia-nim", "trtllm-perf-overview", "oci-mi300x-vllm"):
        assert m[f"held-out.source.{source}.output_tps_median_ape"] <= 0.20, source
    assert m["held-out.source.nvidia-nim.ttft_s_median_ape"] <= 0.20
    assert m["held-out.source.nvidia-nim.tpot_ms_median_ape"] <= 0.20
    assert m["held-out.source.dstack-deepseek-r1.ttft_s_median_ape"] <= 1.0
    assert m["held-out.source.dstack-deepseek-r1.tpot_ms_median_ape"] <= 0.65
    assert m["held-out.source.dstack-deepseek-r1.output_tps_median_ape"] <= 2.0
    assert m["held-out.load.moe.ttft_s_rows"] >= 10 and m["held-out.load.moe.tpot_ms_rows"] >= 10
    assert m["bound_violations"] == 0


def test_every_source_is_split_and_the_held_out_part_is_sizeable(report):
    by_source: dict[str, set[str]] = {}
    for case in report.cases:
        by_source.setdefault(case.result["source"], set()).add(case.result["split"])
    for source, splits in by_source.items():
        if sum(1 for c in report.cases if c.result["source"] == source) >= 6:
            assert splits == {"fit", "held-out"}, source
    assert report.metrics["held-out.load.rows"] >= 100 and report.metrics["held-out.single.rows"] >= 40


def test_no_published_row_errors(report):
    """Every row of every data file gets a figure: no error, no missing estimate."""
    rows = sum(len(estimator.read_rows(p)) for p in estimator.DATA_FILES)
    assert len(report.cases) == rows and report.metrics["no_estimate"] == 0


def test_every_row_names_its_source():
    for path in estimator.DATA_FILES:
        with path.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                assert len(row["source"]) >= 10, (path.name, row)
                if path != estimator.MEASUREMENTS:  # the rows this suite added carry a URL
                    assert row["source"].startswith("https://"), (path.name, row)


def test_bound_holds_on_every_decode_row(report):
    for case in report.cases:
        r = case.result
        if r["metric"] == "decode_tps":
            assert r["bound"] >= 0.95 * r["measured"], case.id


def test_reported_error_bands_match_the_suite(report):
    m = report.metrics
    for platform, band in ERROR_BAND.items():
        assert band["rows"] == m[f"{platform}.rows"]
        assert band["decode_p50"] == pytest.approx(100 * m[f"{platform}.decode_p50"], abs=0.15)
        assert band["decode_p90"] == pytest.approx(100 * m[f"{platform}.decode_p90"], abs=0.15)
        assert band["prefill_p50"] == pytest.approx(100 * m[f"{platform}.prefill_p50"], abs=0.15)
    for arch, band in LOAD_ERROR_BAND.items():
        p = f"held-out.load.{arch}."
        assert band["rows"] == sum(m.get(p + f"{k}_rows", 0) for k in estimator.LOAD_METRICS), arch
        assert band["throughput_p50"] == pytest.approx(100 * m[p + "output_tps_median_ape"], abs=0.15)
        assert band["tpot_p50"] == pytest.approx(100 * m[p + "tpot_ms_median_ape"], abs=0.15)
        assert band["ttft_p50"] == pytest.approx(100 * m[p + "ttft_s_median_ape"], abs=0.15)


def test_a_wrong_estimate_fails_its_case(tmp_path):
    bad = tmp_path / "m.csv"
    bad.write_text("model,quant,hardware,count,parallelism,engine,input,output,metric,value,source,confidence\n"
                   "llama-2-7b,q4_0,rtx4090,1,none,llama.cpp,0,128,decode_tps,1000,x,low\n"
                   "llama-2-7b,q4_0,not_a_gpu,1,none,llama.cpp,0,128,decode_tps,10,x,low\n")
    rep = estimator.run(bad)
    assert rep.failed == 2 and rep.metrics["bound_violations"] == 1
    assert "no estimate" in rep.cases[1].failures[0]


def test_split_is_stable_and_about_a_third():
    row = {"source": "s", "model": "m", "metric": "decode_tps", "value": "1"}
    assert estimator.split_of(row) == estimator.split_of(dict(row))
    rows = estimator.read_rows(estimator.LOAD)
    held = sum(estimator.split_of(r) == "held-out" for r in rows)
    assert 0.25 < held / len(rows) < 0.42
