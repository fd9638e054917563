"""A benchmark client's run (users started together, synchronised waves) and engine builds older than
DeepGEMM-class kernels for block-FP8 MoE checkpoints."""
from __future__ import annotations

import csv

import pytest

from evals.suites import estimator as suite
from rules import catalog
from rules.errors import InputError
from rules.roofline import calibration as cal, estimate, prefill
from rules.roofline.serving import Load, benchmark_run, wave

H200 = "h200_sxm"
R1 = dict(model="deepseek-r1", hardware=H200, count=8, parallelism="tp", engine="sglang", quant="fp8",
          input_tokens=3200, output_tokens=800)


def test_a_wave_waits_for_its_earlier_prompts_and_decodes_together():
    w = wave(users=4, in_service=4, wave_prefill_s=2.0, step_s=0.05, output_tokens=100)
    assert w.ttft_s == pytest.approx(2.0 * 5 / 8)                     # P (N + 1) / 2N
    assert w.tpot_s == pytest.approx(0.05 + 2.0 * 3 / (2 * 4 * 100))  # + the wave's prefill stall per token
    assert w.output_tokens_per_s == pytest.approx(4 * 100 / (2.0 + 100 * 0.05))
    assert w.queue_s == 0


def test_users_beyond_the_slots_wait_for_a_wave_to_finish():
    full = wave(users=8, in_service=8, wave_prefill_s=1.0, step_s=0.05, output_tokens=100)
    short = wave(users=8, in_service=4, wave_prefill_s=0.5, step_s=0.05, output_tokens=100)
    assert short.queue_s > 0 and short.ttft_s > full.ttft_s


def test_varied_lengths_keep_only_the_first_wave():
    steady = Load(8, 0.2, 0.03, 0.0, 1.0, 100.0, 0.03, 10.0, "steady")
    waves = Load(8, 2.0, 0.04, 0.0, 0.8, 80.0, 0.03, 0.0, "waves")
    assert benchmark_run(steady, waves, 8, 500, equal_lengths=True).ttft_s == pytest.approx(2.0)
    mixed = benchmark_run(steady, waves, 8, 80, equal_lengths=False)  # one request in ten in the first wave
    assert mixed.ttft_s == pytest.approx(0.1 * 2.0 + 0.9 * 0.2)
    assert mixed.output_tokens_per_s == pytest.approx(100 / (0.1 / 0.8 + 0.9 / 1.0))


def test_ttft_of_a_run_of_equal_requests_grows_with_the_users():
    runs = {c: estimate(**R1, concurrency=c, requests=500, equal_lengths=True) for c in (8, 32)}
    steady = estimate(**R1, concurrency=32)
    assert runs[32].ttft_s == pytest.approx(4 * runs[8].ttft_s, rel=0.25)
    assert runs[32].ttft_s > 5 * steady.ttft_s
    # the same work either way: waves move the prompts' time into TTFT, throughput stays close
    assert runs[32].aggregate_tokens_per_s == pytest.approx(steady.aggregate_tokens_per_s, rel=0.2)


def test_no_request_count_means_a_long_steady_run():
    a, b = estimate(**R1, concurrency=32), estimate(**R1, concurrency=32, requests=None, equal_lengths=True)
    assert (a.ttft_s, a.tpot_ms, a.aggregate_tokens_per_s) == (b.ttft_s, b.tpot_ms, b.aggregate_tokens_per_s)


def test_a_run_needs_at_least_one_request():
    with pytest.raises(InputError, match="--requests"):
        estimate(**R1, concurrency=8, requests=0)


def test_batched_prompts_share_gemms_but_attend_only_to_themselves():
    spec, hw = catalog.model("deepseek-r1"), catalog.hardware(H200)
    one = prefill.prefill_seconds(spec, hw, "fp8", 3200, 8, "sglang", "server").value
    four = prefill.prefill_seconds(spec, hw, "fp8", 3200, 8, "sglang", "server", prompts=4).value
    long = prefill.prefill_seconds(spec, hw, "fp8", 12800, 8, "sglang", "server").value
    assert four < 4 * one      # bigger GEMMs per expert
    assert four < long         # four 3,200-token prompts attend over less than one 12,800-token prompt


def test_early_block_fp8_builds_are_slower_only_for_block_fp8_moe():
    old, new = (estimate(**R1, concurrency=16, engine_build=b) for b in ("2025-02", "2025-06"))
    now = estimate(**R1, concurrency=16)
    assert (new.tpot_ms, new.ttft_s) == (now.tpot_ms, now.ttft_s)
    assert old.tpot_ms > 1.5 * now.tpot_ms and old.ttft_s > 2 * now.ttft_s
    assert any("DeepGEMM" in a for a in old.assumptions)
    dense = dict(model="llama-3.1-70b", hardware=H200, count=2, engine="vllm", quant="fp8", concurrency=16)
    assert estimate(**dense, engine_build="2025-02").tpot_ms == estimate(**dense).tpot_ms
    bf16 = dict(model="qwen3-30b-a3b", hardware=H200, engine="vllm", quant="bf16", concurrency=16)
    assert estimate(**bf16, engine_build="2025-02").tpot_ms == estimate(**bf16).tpot_ms


def test_early_build_rule_follows_the_documented_date():
    assert cal.early_block_fp8("fp8", "fp8", "moe", "server", "2025-04-21")
    assert not cal.early_block_fp8("fp8", "fp8", "moe", "server", cal.EARLY_BLOCK_FP8_BEFORE)
    assert not cal.early_block_fp8("fp8", "fp8", "moe", "local", "2025-02")
    assert not cal.early_block_fp8("fp8", "fp8", "moe", "server", None)


def test_rows_that_state_their_run_and_build_pass_them_to_the_estimator():
    rows = list(csv.DictReader(suite.LOAD.open(encoding="utf-8", newline="")))
    dstack = [r for r in rows if "dstackai/benchmarks" in r["source"]]
    online = [r for r in dstack if r["mode"] == "closed"]
    assert online and all(r["requests"] in ("499", "500") for r in online)
    assert all(r["range_ratio"] == "1" for r in dstack)
    assert all(r["requests"] == r["concurrency"] for r in dstack if r["mode"] == "offline")  # all at once
    assert all(r["engine_build"] < cal.EARLY_BLOCK_FP8_BEFORE for r in dstack)
    kw = suite._serving(dstack[0])
    assert kw["requests"] in (499, 500) and kw["equal_lengths"] and kw["engine_build"] == dstack[0]["engine_build"]
    ix = [r for r in rows if "InferenceX" in r["source"]]
    assert ix and all(int(r["requests"]) == 10 * int(r["concurrency"]) and not suite._serving(r)["equal_lengths"]
                      for r in ix)
    plain = next(r for r in rows if "perf-overview" in r["source"])
    assert suite._serving(plain)["requests"] is None and suite._serving(plain)["engine_build"] is None


def test_total_throughput_rows_count_prompt_and_output_tokens():
    rows = list(csv.DictReader(suite.LOAD.open(encoding="utf-8", newline="")))
    row = next(r for r in rows if r["metric"] == "total_tps")
    est = estimate(**suite._common(row), **suite._serving(row), input_tokens=int(row["input"]),
                   output_tokens=int(row["output"]), concurrency=int(row["concurrency"]))
    inp, out = int(row["input"]), int(row["output"])
    assert suite._load_prediction(row) == pytest.approx(est.aggregate_tokens_per_s * (inp + out) / out)
    assert suite.evaluate_row(0, row, "load").result["ape"] is not None
