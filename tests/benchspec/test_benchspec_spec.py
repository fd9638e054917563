"""The spec builder: workload, sweep, metrics, SLOs, criteria, checklist and assumptions."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from benchspec_helpers import DECISION, load_profile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.benchspec import build_spec
from rules.benchspec.scenario import weights_info
from rules.benchspec.workload import concurrency_sweep
from rules.ids import METRICS, SERVING_MODES, WORKLOADS
from rules.profile import build_profile


@pytest.mark.parametrize("peak,sweep", [
    (60, [1, 8, 32, 60, 120]), (50, [1, 8, 32, 50, 100]), (8, [1, 4, 8, 16]), (5, [1, 5, 10]),
    (2, [1, 2, 4]), (1, [1, 2]), (1000, [1, 128, 512, 1000, 2000]),
])
def test_sweep_examples(peak, sweep):
    """Levels: 1, up to two steps below the peak, the peak and twice the peak."""
    assert concurrency_sweep(peak) == sweep


@given(st.integers(min_value=1, max_value=1_000_000))
def test_sweep_always_holds_the_peak(peak):
    """Whatever the peak, the sweep is sorted, starts at 1 and holds peak and 2x peak."""
    s = concurrency_sweep(peak)
    assert s == sorted(set(s)) and s[0] == 1 and peak in s and 2 * peak in s and len(s) <= 5


def test_eval_contract_peak_60(fixed_roofline):
    """The eval checks concurrency_includes 60 and metrics_include [ttft, p99]."""
    spec = build_spec(build_profile({"concurrency": 60, "workload": "coding"}), decision=DECISION)
    summary = spec.summary()
    assert 60 in summary["concurrency"] and {"ttft", "p99"} <= set(summary["metrics"])
    data = spec.model_dump(mode="json")
    assert 60 in data["workload"]["concurrency"]
    assert set(data) >= {"scenario", "workload", "metrics", "slos", "checklist", "exports"}
    assert set(data["exports"]) == {"vllm", "sglang", "guidellm", "aiperf"}


def test_every_metric_defined_once(fixed_roofline):
    """All contract metrics are recorded and defined; TPOT has one explicit definition."""
    spec = build_spec(load_profile("agent-8xh100"), decision=DECISION)
    assert spec.metrics == list(METRICS) and set(spec.metric_definitions) == set(METRICS)
    assert spec.metric_definitions["tpot"] == spec.tpot_definition
    assert "(end-to-end latency - TTFT) / (output tokens - 1)" in spec.tpot_definition


def test_missing_facts_become_assumptions(no_roofline):
    """An empty profile still builds; every default is reported as an assumption."""
    spec = build_spec(build_profile({}), decision={})
    text = " ".join(spec.assumptions)
    for phrase in ("Workload shape not stated", "Peak concurrency not stated", "prompt length not stated",
                   "answer length not stated", "Shared prefix not stated", "No engine shortlist",
                   "Model not stated", "Hardware not stated", "roofline estimator is not available"):
        assert phrase in text
    assert spec.workload.peak_concurrency in spec.workload.concurrency
    assert spec.scenario.engines == [] and spec.prediction is None


def test_profile_assumptions_are_carried(fixed_roofline):
    """Fields the interview assumed appear in the spec's assumptions with their note."""
    p = build_profile({"hardware": "h100_sxm", "concurrency": 40,
                       "provenance": {"concurrency": {"assumed": True, "note": "team default"}}})
    spec = build_spec(p, decision=DECISION)
    assert "concurrency = 40 was assumed: team default" in spec.assumptions


def test_peak_from_serving_mode(fixed_roofline):
    """Without a number, the serving mode sets the peak and says so."""
    spec = build_spec(load_profile("minimal-m3"), decision=DECISION)
    assert spec.workload.peak_concurrency == 8
    assert any("serving mode 'demo'" in a for a in spec.assumptions)


def test_runs_follow_the_profile(fixed_roofline):
    """Prefill and decode always; long-context, structured and LoRA only when the profile asks."""
    rag = build_spec(load_profile("rag-4x4090"), decision=DECISION)
    assert [r.id for r in rag.workload.runs] == ["main", "prefill", "decode", "long-context",
                                                  "structured", "lora"]
    assert rag.run("long-context").input.mean == 16000 - 300
    assert rag.run("structured").fixed_output is False and rag.run("structured").concurrency == [20]
    agent = build_spec(load_profile("agent-8xh100"), decision=DECISION)
    assert [r.id for r in agent.workload.runs] == ["main", "prefill", "decode", "long-context"]
    pre, dec = agent.run("prefill"), agent.run("decode")
    assert pre.output.mean == 1 and pre.shared_prefix_tokens == 0 and pre.concurrency == [1, 60]
    assert dec.input.mean == 128 and dec.output.mean == 400


def test_shared_prefix_targets_hit_rate(fixed_roofline):
    """The planned prefix gives the target hit rate and leaves a unique part in every prompt."""
    spec = build_spec(load_profile("rag-4x4090"), decision=DECISION)
    main = spec.run("main")
    assert main.shared_prefix_tokens == 1200 and spec.workload.target_kv_hit_rate == 0.4
    assert main.shared_prefix_tokens < main.input.min


def test_slos_by_use_case_and_priority(fixed_roofline):
    """Latency priority halves the use-case targets; the basis says they are defaults."""
    rag = build_spec(load_profile("rag-4x4090"), decision=DECISION).slos[0]
    assert (rag.ttft_p99_ms, rag.tpot_p99_ms, rag.at_concurrency) == (1000, 50, 20)
    assert "not a measurement" in rag.basis and "Halved" in rag.basis
    agent = build_spec(load_profile("agent-8xh100"), decision=DECISION).slos[0]
    assert (agent.ttft_p99_ms, agent.tpot_p99_ms) == (3000, 50)


def test_criteria_from_prediction(fixed_roofline):
    """Thresholds follow the prediction: half the bound, 80 % of expected, 1.5x TTFT, 1.25x TPOT."""
    spec = build_spec(load_profile("agent-8xh100"), decision=DECISION)
    c = {x.id: x for x in spec.criteria}
    assert c["decode-vs-bound"].threshold == pytest.approx(0.5 * 200 / 1.02, abs=0.1)
    assert c["decode-vs-prediction"].threshold == pytest.approx(0.8 * 100 / 1.02, abs=0.1)
    assert c["prefill-vs-prediction"].threshold == 300.0
    assert c["peak-tpot-vs-prediction"].threshold == pytest.approx(1.25 * 1000 / (100 / 2.2), abs=0.1)
    assert c["slo-tpot"].threshold == 50 and c["slo-tpot"].concurrency == 60
    assert "investigate before buying" in c["decode-vs-bound"].if_fails.lower()


def test_capacity_criteria(monkeypatch):
    """A roofline that says 'does not fit' or 'too few sequences' adds blocking criteria."""
    from rules.benchspec import prediction

    def tight(profile, engine, concurrency, notes, layout=None):
        return {"fits": False, "max_concurrency": 12, "binding_constraint": "memory capacity",
                "tpot_ms": 80.0, "ttft_s": 1.0}
    monkeypatch.setattr(prediction, "estimate_at", tight)
    spec = build_spec(load_profile("agent-8xh100"), decision=DECISION)
    c = {x.id: x for x in spec.criteria}
    assert c["fits"].run == "long-context" and "memory capacity" in c["fits"].basis
    assert c["kv-capacity"].threshold == 0 and "12 sequences" in c["kv-capacity"].basis
    assert c["decode-vs-bound"].threshold is None and "No roofline prediction" in c["decode-vs-bound"].basis
    assert "predicts a TPOT of 80 ms" in c["slo-tpot"].basis and "already above" not in c["slo-ttft"].basis


def test_criteria_without_roofline(no_roofline):
    """Without predictions the SLO criteria remain and the others say to record the value."""
    spec = build_spec(load_profile("agent-8xh100"), decision=DECISION)
    c = {x.id: x for x in spec.criteria}
    assert c["slo-ttft"].threshold == 3000
    assert all(c[i].threshold is None for i in ("decode-vs-bound", "prefill-vs-prediction"))


def test_checklist_binds_the_iron_rules(fixed_roofline):
    """Each iron rule of the article is present and phrased with this workload's numbers."""
    spec = build_spec(load_profile("rag-4x4090"), decision=DECISION)
    items = {i.id: i for i in spec.checklist}
    assert set(items) >= {"no-single-user-tps", "real-lengths", "real-concurrency", "prefill-decode-apart",
                          "tails-not-means", "prefix-reuse", "separate-features", "retest-on-upgrade"}
    assert "20" in items["real-concurrency"].how and "1200 tokens" in items["prefix-reuse"].how
    assert "'structured' run" in items["separate-features"].how and "'lora' run" in items["separate-features"].how


@pytest.mark.parametrize("quant,group,calib", [
    ("bf16", "n/a", "n/a"), ("q4_k_m", "256-weight super-blocks (GGUF k-quant)", "fill in"),
    ("q4_0", "32-weight blocks (GGUF)", "none needed"), ("awq", "fill in", "fill in"),
    ("exl2-4.0", "n/a (bit width varies per layer)", "fill in"), (None, "fill in", "fill in"),
])
def test_weights_fields(quant, group, calib):
    """Known formats fill group size; unknown facts stay 'fill in'."""
    w = weights_info(build_profile({"quantization": quant}), [])
    assert w.group_size.startswith(group) and w.calibration.startswith(calib)


def test_scenario_from_catalog(fixed_roofline):
    """Model and hardware facts come from the catalog; build facts are left to fill in."""
    sc = build_spec(load_profile("agent-8xh100"), decision=DECISION).scenario
    assert sc.model.params_b and sc.model.architecture == "dense" and sc.hardware.mem_bw_gbs
    assert sc.hardware.interconnect == "nvlink" and sc.hardware.count == 8
    assert [e.id for e in sc.engines] == ["vllm", "sglang"] and sc.engines[0].version == "fill in"


def test_unknown_catalog_id_is_noted(fixed_roofline):
    """An id the catalog does not know becomes a note, not a crash."""
    spec = build_spec(build_profile({"hardware": "quantum_tpu_9000"}), decision=DECISION)
    assert any("No catalog entry for hardware 'quantum_tpu_9000'" in a for a in spec.assumptions)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(WORKLOADS), peak=st.integers(1, 5000), n_in=st.integers(1, 200_000),
       n_out=st.integers(1, 4000), shared=st.sampled_from([True, False, None]),
       mode=st.sampled_from(SERVING_MODES), lora=st.integers(0, 50), structured=st.booleans())
def test_any_profile_builds(fixed_roofline, kind, peak, n_in, n_out, shared, mode, lora, structured):
    """Random workloads always build, hold the peak, and export every level to every harness."""
    p = build_profile({"workload": kind, "concurrency": peak, "input_tokens": n_in, "output_tokens": n_out,
                       "context_length": n_in + n_out + 100, "shared_prefix": shared, "serving_mode": mode,
                       "lora_adapters": lora, "structured_output": structured})
    spec = build_spec(p, decision=DECISION)
    assert peak in spec.workload.concurrency
    for r in spec.workload.runs:
        assert r.shared_prefix_tokens < max(2, r.input.min) and r.input.min >= 1
        assert r.input.max + r.output.max <= p.context_length
        for lv in r.levels:
            assert f"-{r.id}-c{lv.concurrency}." in spec.exports["vllm"]


def test_rules_benchspec_is_pure():
    """rules/benchspec imports nothing from agent/, knowledge/ or ui/."""
    root = Path(__file__).resolve().parents[2] / "rules" / "benchspec"
    bad = re.compile(r"^\s*(from|import)\s+(agent|knowledge|ui|litellm|chromadb|gradio)\b", re.M)
    offenders = [str(f) for f in root.rglob("*.py") if bad.search(f.read_text())]
    assert not offenders
