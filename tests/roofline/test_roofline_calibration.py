"""The estimator against the published measurements (the issue's targets) and the reported error band."""
from __future__ import annotations

import pytest

from evals.suites import estimator
from rules.roofline.calibration import ERROR_BAND


@pytest.fixture(scope="module")
def report():
    return estimator.run()


def test_targets_on_the_measurements(report):
    m = report.metrics
    assert m["decode_median_ape"] <= 0.15
    assert m["decode_p90_ape"] <= 0.40
    assert m["prefill_median_ape"] <= 0.30
    assert m["bound_violations"] == 0
    assert estimator.targets_met(m) == []


def test_one_case_per_row_and_every_row_estimated(report):
    with estimator.MEASUREMENTS.open(encoding="utf-8") as fh:
        rows = sum(1 for _ in fh) - 1
    assert len(report.cases) == rows and report.metrics["no_estimate"] == 0


def test_bound_holds_on_every_decode_row(report):
    for case in report.cases:
        r = case.result
        if r["metric"] == "decode_tps":
            assert r["bound"] >= 0.95 * r["measured"], case.id


def test_reported_error_band_matches_the_suite(report):
    m = report.metrics
    for platform, band in ERROR_BAND.items():
        assert band["rows"] == m[f"{platform}.rows"]
        assert band["decode_p50"] == pytest.approx(100 * m[f"{platform}.decode_p50"], abs=0.15)
        assert band["decode_p90"] == pytest.approx(100 * m[f"{platform}.decode_p90"], abs=0.15)
        assert band["prefill_p50"] == pytest.approx(100 * m[f"{platform}.prefill_p50"], abs=0.15)


def test_a_wrong_estimate_fails_its_case(tmp_path):
    bad = tmp_path / "m.csv"
    bad.write_text("model,quant,hardware,count,parallelism,engine,input,output,metric,value,source,confidence\n"
                   "llama-2-7b,q4_0,rtx4090,1,none,llama.cpp,0,128,decode_tps,1000,x,low\n"
                   "llama-2-7b,q4_0,not_a_gpu,1,none,llama.cpp,0,128,decode_tps,10,x,low\n")
    rep = estimator.run(bad)
    assert rep.failed == 2 and rep.metrics["bound_violations"] == 1
    assert "no estimate" in rep.cases[1].failures[0]
