"""The side-by-side script runs without the peer tools and scores the naive calculator on the same rows."""
from __future__ import annotations

from evals import compare_estimators as cmp


def test_table_without_peers(tmp_path, capsys):
    out = tmp_path / "t.md"
    cmp.main(["--split", "held-out", "--out", str(out)])
    text = out.read_text(encoding="utf-8")
    n = len(cmp.rows_for("held-out"))
    assert f"| this roofline | {n} of {n} |" in text and "| naive bandwidth calculator |" in text
    assert text.strip() == capsys.readouterr().out.strip()


def test_naive_calculator_is_bandwidth_over_weights():
    row = {"model": "llama-2-7b", "hardware": "rtx4090", "count": "1", "quant": "q4_0", "metric": "decode_tps",
           "input": "0", "output": "128"}
    # 6.74e9 params x 4.5 bits / 8 = 3.79 GB; 1008 GB/s / 3.79 GB = 266 tokens/s
    assert abs(cmp.naive(row) - 1008e9 / (6.74e9 * 4.5 / 8)) < 1e-6


def test_peer_jobs_only_where_the_peer_has_the_hardware_and_model():
    rows = cmp.rows_for("held-out")
    jobs = cmp.peer_jobs(rows, use_aic=True)
    assert {j["tool"] for j in jobs} == {"llm-analysis", "aiconfigurator"}
    assert all(j["system"] in cmp.AIC_SYSTEMS.values() for j in jobs if j["tool"] == "aiconfigurator")
    assert all(j["gpu"] in cmp.LA_GPUS.values() for j in jobs if j["tool"] == "llm-analysis")
