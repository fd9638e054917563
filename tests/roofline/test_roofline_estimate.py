"""`estimate()` end to end: contract keys, fit verdicts, fixes, parallel layouts, profile entry point."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from rules import catalog
from rules.errors import AdvisorError, InputError, ProfileError, UnknownIdError
from rules.profile import build_profile
from rules.roofline import estimate, estimate_for_profile

CONTRACT = ("fits", "weights_gb", "kv_bytes_per_token", "max_concurrency", "decode_tokens_per_s",
            "decode_tokens_per_s_bound", "prefill_tokens_per_s", "ttft_s", "tpot_ms", "assumptions", "binding_constraint")


def test_contract_keys_and_known_answer_verdict():
    est = estimate("llama-3.1-70b", "h100_sxm", quant="f16")
    dump = est.model_dump()
    assert set(CONTRACT) <= set(dump)
    assert dump["fits"] is False and dump["weights_gb"] == pytest.approx(141.1, abs=0.2)
    assert dump["kv_bytes_per_token"] == 327_680
    assert "memory capacity" in dump["binding_constraint"]
    assert "fp8" in est.infeasible.fixes[0]
    assert any("2 x h100_sxm" in f for f in est.infeasible.fixes)


def test_fits_with_fp8_or_two_gpus():
    assert estimate("llama-3.1-70b", "h100_sxm", quant="fp8").fits
    two = estimate("llama-3.1-70b", "h100_sxm", count=2, quant="bf16")
    assert two.fits and two.parallelism["tp"] == 2 and two.comm_ms_per_token > 0


def test_kv_bound_setup_suggests_kv_fixes_first():
    est = estimate("llama-3.1-8b", "rtx4090", context_length=131072)
    assert not est.fits and "KV-cache" in est.binding_constraint
    assert "context" in est.infeasible.fixes[0] or "fp8" in est.infeasible.fixes[0]


def test_concurrency_trades_per_stream_speed_for_throughput():
    one = estimate("llama-3.1-8b", "h100_sxm", quant="fp8", engine="vllm", concurrency=1)
    many = estimate("llama-3.1-8b", "h100_sxm", quant="fp8", engine="vllm", concurrency=64)
    assert many.aggregate_tokens_per_s > 10 * one.aggregate_tokens_per_s
    assert many.decode_tokens_per_s < one.decode_tokens_per_s
    assert many.decode_tokens_per_s == pytest.approx(1000 / many.tpot_ms, rel=1e-3)


def test_queueing_when_concurrency_exceeds_kv_capacity():
    est = estimate("llama-3.1-70b", "h100_sxm", count=2, quant="fp8", input_tokens=5000, output_tokens=500,
                   concurrency=250, engine="tensorrt-llm")
    assert est.max_concurrency < 250 and est.queue_s > 1
    assert est.ttft_s > est.queue_s and "KV-cache capacity" in est.binding_constraint


def test_pipeline_parallel_does_not_speed_up_one_stream():
    tp = estimate("llama-3.1-8b", "h100_sxm", count=2, parallelism="tp")
    pp = estimate("llama-3.1-8b", "h100_sxm", count=2, parallelism="pp")
    one = estimate("llama-3.1-8b", "h100_sxm")
    assert pp.decode_tokens_per_s <= one.decode_tokens_per_s < tp.decode_tokens_per_s
    assert any("bubble" in a for a in pp.assumptions)


def test_tp_over_pcie_without_p2p_costs_more_than_nvlink():
    pcie = estimate("llama-3.1-70b", "rtx4090", count=4, quant="awq", parallelism="tp")
    assert pcie.comm_ms_per_token > estimate("llama-3.1-70b", "h100_sxm", count=4, quant="awq").comm_ms_per_token
    assert any("peer-to-peer" in a for a in pcie.assumptions)


def test_data_parallel_replicas_add_throughput():
    dp = estimate("llama-3.1-8b", "h100_sxm", count=4, parallelism="dp", concurrency=64)
    one = estimate("llama-3.1-8b", "h100_sxm", concurrency=16)
    assert dp.aggregate_tokens_per_s == pytest.approx(4 * one.aggregate_tokens_per_s, rel=0.01)


def test_expert_parallel_moe():
    est = estimate("deepseek-v3", "h200_sxm", count=8, parallelism="ep", concurrency=32)
    assert est.fits and est.parallelism["ep"] == 8 and est.comm_ms_per_token > 0


def test_cost_needs_a_price():
    est = estimate("llama-3.1-8b", "h100_sxm", concurrency=8)
    assert est.cost_per_1m_tokens is None and any("price" in a for a in est.assumptions)
    priced = estimate("llama-3.1-8b", "h100_sxm", concurrency=8, price_per_hour=3.0)
    assert priced.cost_per_1m_tokens == pytest.approx(3.0 / (priced.aggregate_tokens_per_s * 3600) * 1e6, rel=0.01)


def test_error_band_by_platform():
    assert estimate("llama-2-7b", "m2_max", quant="q4_0").error_band.decode_p50_pct is not None
    assert estimate("llama-3.1-8b", "xeon_spr").error_band.decode_p50_pct is None


def test_missing_tflops_gives_no_prefill_but_still_decode():
    est = estimate("llama-3.1-8b", "xeon_spr", memory_gb=256)
    assert est.prefill_tokens_per_s is None and est.ttft_s is None and est.decode_tokens_per_s > 0
    assert any("TFLOPS" in a for a in est.assumptions)


@pytest.mark.parametrize("kwargs, error", [
    ({"count": 0}, InputError), ({"concurrency": 0}, InputError), ({"context_length": 10**7}, ProfileError),
    ({"quant": "q3"}, InputError), ({"load": "burst"}, InputError), ({"price_per_hour": -1}, InputError),
    ({"input_tokens": 5000, "context_length": 1000}, InputError),
])
def test_impossible_inputs(kwargs, error):
    with pytest.raises(error):
        estimate("llama-3.1-8b", "h100_sxm", **kwargs)


def test_unknown_ids():
    with pytest.raises(UnknownIdError):
        estimate("llama-9", "h100_sxm")
    with pytest.raises(UnknownIdError):
        estimate("llama-3.1-8b", "tpu-v9")


def test_estimate_for_profile():
    profile = build_profile({"hardware": "rtx4090", "count": 2, "model": "llama-3.1-70b", "quantization": "awq",
                             "input_tokens": 2000, "output_tokens": 400, "context_length": 8000, "concurrency": 4})
    est = estimate_for_profile(profile, engine="vllm")
    assert est.fits and est.count == 2 and est.context_length == 8000 and est.engine == "vllm"
    custom = estimate_for_profile(build_profile({"hardware": "h100_sxm", "params_b": 14}))
    assert custom.model == "custom" and any("guessed" in a for a in custom.assumptions)
    assert estimate_for_profile(build_profile({"model": "llama-3.1-8b"})) is None


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(sorted(catalog.all_models())), hw=st.sampled_from(sorted(catalog.all_hardware())),
       quant=st.sampled_from(["bf16", "fp8", "q4_k_m", "awq", "mxfp4", "exl2-3.5"]),
       count=st.sampled_from([1, 2, 4, 8]), conc=st.integers(1, 300), inp=st.integers(0, 4000))
def test_never_crashes_and_bound_dominates(model, hw, quant, count, conc, inp):
    try:
        est = estimate(model, hw, count=count, quant=quant, concurrency=conc, input_tokens=inp, output_tokens=200)
    except AdvisorError:
        return
    assert est.decode_tokens_per_s_bound >= est.decode_tokens_per_s > 0
    assert est.max_concurrency >= 0 and est.binding_constraint
    assert est.fits == (est.infeasible is None)
