"""Who reads which KV cache and attention weights: MLA under TP, attention data-parallel, chunked prefill off."""
from __future__ import annotations

import pytest

from rules import catalog
from rules.roofline import estimate
from rules.roofline.decode import decode_step, kv_read_split
from rules.roofline.layout import Layout
from rules.roofline.memory import attention_params

H200 = "h200_sxm"


def _kv_ms(model: str, tp: int) -> float:
    spec, hw = catalog.model(model), catalog.hardware(H200)
    layout = Layout("tp", tp=tp) if tp > 1 else Layout("none")
    return decode_step(spec, hw, "fp8", 64, 4000, layout, family="server").kv_s * 1e3


def test_mla_latent_is_read_whole_by_every_tp_device():
    # one latent head, replicated on every TP rank: 8 devices read it no faster than one
    assert kv_read_split(catalog.model("deepseek-r1"), Layout("tp", tp=8)) == 1
    assert _kv_ms("deepseek-r1", 8) == pytest.approx(_kv_ms("deepseek-r1", 1))


def test_gqa_kv_read_splits_up_to_the_kv_heads():
    assert _kv_ms("llama-3.1-70b", 8) == pytest.approx(_kv_ms("llama-3.1-70b", 1) / 8)
    qwen = catalog.model("qwen3-235b-a22b")  # 4 KV heads: at TP8 each head's cache sits on two devices
    assert kv_read_split(qwen, Layout("tp", tp=8)) == 4
    assert kv_read_split(qwen, Layout("tp", tp=8), attention_dp=True) == 8


def test_attention_params_match_the_gqa_projection_shapes():
    spec = catalog.model("llama-3.1-70b")
    shapes = spec.layers * spec.hidden * (2 * spec.q_heads * spec.head_dim + 2 * spec.kv_heads * spec.head_dim)
    assert attention_params(spec) == pytest.approx(shapes, rel=0.01)
    assert 10e9 < attention_params(catalog.model("deepseek-r1")) < 13e9  # MLA projections, ~11.5B


def _r1(**kw):
    return estimate("deepseek-r1", H200, count=8, quant="fp8", engine="sglang", parallelism="tp",
                    input_tokens=3200, output_tokens=800, **kw)


def test_attention_dp_trades_weight_memory_for_kv_capacity():
    tp, dp = _r1(concurrency=64), _r1(concurrency=64, attention_dp=True)
    assert dp.memory.weights_gb > tp.memory.weights_gb  # full attention weights on every device
    assert dp.max_concurrency > 4 * tp.max_concurrency   # each device keeps only its own requests' latent
    assert dp.step.kv_ms < tp.step.kv_ms
    assert any("attention data-parallel" in a for a in dp.assumptions)


def test_attention_dp_runs_one_prompts_attention_on_one_device():
    assert _r1(concurrency=1, attention_dp=True).ttft_s > _r1(concurrency=1).ttft_s


def test_attention_dp_needs_a_group():
    one = estimate("llama-3.1-8b", H200, quant="fp8", engine="sglang", concurrency=8, attention_dp=True)
    assert not any("attention data-parallel" in a for a in one.assumptions)


def test_chunked_prefill_off_runs_prompts_as_separate_passes():
    kw = dict(count=8, quant="fp8", engine="vllm", parallelism="tp", input_tokens=3200, output_tokens=800,
              concurrency=32)
    on, off = estimate("deepseek-r1", H200, **kw), estimate("deepseek-r1", H200, chunked_prefill=False, **kw)
    assert any("chunked prefill off" in a for a in off.assumptions)
    assert not any("chunked prefill off" in a for a in on.assumptions)
    assert off.tpot_ms != on.tpot_ms
