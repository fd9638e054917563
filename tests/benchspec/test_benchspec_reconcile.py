"""Reading the four harnesses' result files and reconciling them with the plan.

The fixtures in results/ are shaped like each harness's documented output (see the reader
modules for the schema sources): vLLM's --save-result JSON, SGLang's JSONL (with `Infinity`, as
Python's json writes an infinite request rate), a GuideLLM report with two benchmarks and an
AIPerf profile_export_aiperf.json (schema 1.5).
"""
from __future__ import annotations

import json
import shutil

import pytest
from benchspec_helpers import DECISION, RESULTS, load_profile

from rules.benchspec import build_spec, read_results, reconcile
from rules.benchspec.readers import read_file
from rules.benchspec.readers.base import from_name
from rules.benchspec.render import reconcile_markdown
from rules.errors import InputError

ALL = ["vllm-main-c60.vllm.json", "vllm-main-c32.vllm.json", "sglang-main-c60.sglang.jsonl",
       "guidellm-decode.guidellm.json", "sglang-decode-c1.aiperf/profile_export_aiperf.json"]


def _paths(names):
    return [str(RESULTS / n) for n in names]


def test_each_harness_normalised():
    """Engine, run, level and the TTFT/TPOT percentiles land in one shape for every harness."""
    v = read_file(str(RESULTS / "vllm-main-c60.vllm.json"))[0]
    assert (v.harness, v.engine, v.run, v.concurrency) == ("vllm", "vllm", "main", 60)
    assert v.ttft_ms["p99"] == 2210.4 and v.tpot_ms["p50"] == 40.1 and v.e2e_ms["p95"] == 18900.0
    s = read_file(str(RESULTS / "sglang-main-c60.sglang.jsonl"))[0]
    assert (s.harness, s.engine, s.run, s.concurrency) == ("sglang", "sglang", "main", 60)
    assert s.tpot_ms == {"mean": 37.0, "p50": 36.1, "p99": 44.2} and s.itl_ms["p95"] == 58.0
    g = read_file(str(RESULTS / "guidellm-decode.guidellm.json"))
    assert [(x.engine, x.run, x.concurrency) for x in g] == [("vllm", "decode", 1), ("vllm", "decode", 60)]
    assert g[0].tpot_ms["p50"] == 17.2 and g[0].e2e_ms["p99"] == pytest.approx(7500)
    assert g[1].output_tokens_per_s == 1530.0 and g[1].completed == 480
    a = read_file(str(RESULTS / "sglang-decode-c1.aiperf/profile_export_aiperf.json"))[0]
    assert (a.harness, a.engine, a.run, a.concurrency) == ("aiperf", "sglang", "decode", 1)
    assert a.tpot_ms["p50"] == 16.83 and a.ttft_ms["p99"] == 81.7 and a.duration_s == 678.0


def test_name_convention():
    """`<engine>-<run>-c<level>` is parsed from file or directory names, last match wins."""
    assert from_name("out/tensorrt-llm-long-context-c120.sglang.jsonl") == {
        "engine": "tensorrt-llm", "run": "long-context", "concurrency": 120}
    assert from_name("x/llama.cpp-decode-c1.aiperf/profile_export_aiperf.json")["engine"] == "llama.cpp"
    assert from_name("benchmarks.json") == {}


def test_reconcile_against_plan(fixed_roofline):
    """Achieved vs predicted vs bound, SLO attainment and the verdict for the primary engine."""
    profile = load_profile("agent-8xh100")
    spec = build_spec(profile, decision=DECISION)
    rec = reconcile(read_results(_paths(ALL)), spec=spec, profile=profile)
    rows = {(c.engine, c.run, c.concurrency): c for c in rec.runs}
    v60 = rows[("vllm", "main", 60)]
    assert v60.decode_tokens_per_s == pytest.approx(1000 / 40.1, abs=0.01)
    assert v60.bound_decode_tokens_per_s == pytest.approx(200 / 2.2, abs=0.01)
    assert v60.bandwidth_utilisation == pytest.approx((1000 / 40.1) / (200 / 2.2), abs=0.001)
    assert v60.slo_ttft_ok and v60.slo_tpot_ok
    assert any("TTFT p99 is 4.9x" in f for f in v60.findings)
    single = rows[("sglang", "decode", 1)]
    assert single.slo_ttft_ok is None  # SLOs are judged on the main run only
    assert any("of the bandwidth bound" in f for f in single.findings)
    assert rec.primary == "vllm" and rec.stands is True and "stands" in rec.verdict
    engines = {v.engine: v for v in rec.engines}
    assert engines["vllm"].meets_slo_at_peak and engines["vllm"].highest_level_within_slo == 60


def _copy_with(tmp_path, name, **changes):
    data = json.loads((RESULTS / name).read_text())
    data.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_alternative_clearly_better_overturns(fixed_roofline, tmp_path):
    """An alternative within SLO with >= 15 % more throughput at the peak overturns the pick."""
    profile = load_profile("agent-8xh100")
    spec = build_spec(profile, decision=DECISION)
    line = json.loads((RESULTS / "sglang-main-c60.sglang.jsonl").read_text())
    line["output_throughput"] = 1800.0
    sgl = tmp_path / "sglang-main-c60.sglang.jsonl"
    sgl.write_text(json.dumps(line) + "\n")
    rec = reconcile(read_results(_paths(["vllm-main-c60.vllm.json"]) + [str(sgl)]), spec=spec, profile=profile)
    assert rec.stands is False and rec.verdict.startswith("Reconsider: sglang")


def test_primary_missing_slo(fixed_roofline, tmp_path):
    """The primary missing the SLOs at the peak: switch if another engine meets them, else the plan is the limit."""
    profile = load_profile("agent-8xh100")
    spec = build_spec(profile, decision=DECISION)
    slow = _copy_with(tmp_path, "vllm-main-c60.vllm.json", p99_tpot_ms=80.0)
    rec = reconcile(read_results([slow] + _paths(["sglang-main-c60.sglang.jsonl"])), spec=spec, profile=profile)
    assert rec.stands is False and "sglang meets them" in rec.verdict
    rec = reconcile(read_results([slow]), spec=spec, profile=profile)
    assert rec.stands is False and rec.verdict.startswith("No engine meets the SLOs at 60")


def test_not_enough_data_and_no_profile(fixed_roofline):
    """Without the peak level the verdict asks for it; without a profile nothing is judged."""
    profile = load_profile("agent-8xh100")
    spec = build_spec(profile, decision=DECISION)
    rec = reconcile(read_results(_paths(["vllm-main-c32.vllm.json"])), spec=spec, profile=profile)
    assert rec.stands is None and "run the main run of vllm at the peak (60)" in rec.verdict
    bare = reconcile(read_results(_paths(ALL)))
    assert bare.stands is None and bare.slo is None and "No profile" in bare.verdict
    assert all(c.predicted_decode_tokens_per_s is None for c in bare.runs)


def test_knee_detected(fixed_roofline, tmp_path):
    """Throughput that stops growing while concurrency rises marks the saturation knee."""
    flat = _copy_with(tmp_path, "vllm-main-c60.vllm.json", output_throughput=1050.0)
    rec = reconcile(read_results(_paths(["vllm-main-c32.vllm.json"]) + [flat]))
    assert rec.engines[0].knee == 32


def test_markdown_report(fixed_roofline):
    """The Markdown report carries the verdict, one row per result and the findings."""
    profile = load_profile("agent-8xh100")
    rec = reconcile(read_results(_paths(ALL)), spec=build_spec(profile, decision=DECISION), profile=profile)
    md = reconcile_markdown(rec)
    assert md.startswith("# Benchmark results vs plan") and "The recommendation stands" in md
    assert md.count("\n| vllm |") == 4 and "## What the gaps suggest" in md


@pytest.mark.parametrize("name,message", [
    ("bad/unknown-harness.json", "not a result of vllm bench serve, sglang.bench_serving, guidellm or aiperf"),
    ("bad/vllm-main-c8.vllm.json", "vllm bench serve result lacks output_throughput, p99_tpot_ms"),
    ("bad/not-json.json", "not JSON or JSON Lines (line 1"),
])
def test_bad_files_name_file_and_problem(name, message):
    """Unknown harness, missing fields and non-JSON are input errors naming the file."""
    with pytest.raises(InputError) as err:
        read_results([str(RESULTS / name)])
    assert str(err.value).startswith(str(RESULTS / name)) and message in str(err.value)


def test_more_bad_inputs(tmp_path):
    """Empty files, missing files, broken GuideLLM and AIPerf exports, and no files at all."""
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(InputError, match="the file is empty"):
        read_results([str(empty)])
    with pytest.raises(InputError, match="cannot read"):
        read_results([str(tmp_path / "missing.json")])
    with pytest.raises(InputError, match="no result files"):
        read_results([])
    report = json.loads((RESULTS / "guidellm-decode.guidellm.json").read_text())
    del report["benchmarks"][0]["metrics"]["inter_token_latency_ms"]
    bad = tmp_path / "g.json"
    bad.write_text(json.dumps(report))
    with pytest.raises(InputError, match="guidellm result lacks metrics.inter_token_latency_ms.successful"):
        read_results([str(bad)])
    export = json.loads((RESULTS / "sglang-decode-c1.aiperf/profile_export_aiperf.json").read_text())
    del export["inter_token_latency"]
    bad = tmp_path / "profile_export_aiperf.json"
    bad.write_text(json.dumps(export))
    with pytest.raises(InputError, match="aiperf result lacks inter_token_latency.p50"):
        read_results([str(bad)])


def test_aiperf_units_are_authoritative(tmp_path):
    """A latency block reported in seconds is converted to milliseconds."""
    src = RESULTS / "sglang-decode-c1.aiperf"
    dst = tmp_path / "sglang-decode-c1.aiperf"
    shutil.copytree(src, dst)
    path = dst / "profile_export_aiperf.json"
    data = json.loads(path.read_text())
    data["time_to_first_token"] = {"unit": "s", "avg": 0.05, "p50": 0.054, "p99": 0.08}
    path.write_text(json.dumps(data))
    r = read_file(str(path))[0]
    assert r.ttft_ms["p50"] == pytest.approx(54.0) and r.ttft_ms["p99"] == pytest.approx(80.0)


@pytest.mark.parametrize("config,run_info,expected", [
    ({"loadgen": {"concurrency": 8}}, None, 8),
    ({"phases": {"warmup": {"concurrency": 2}, "profiling": {"concurrency": 40}}}, None, 40),
    ({}, {"variation_values": {"phases.profiling.concurrency": 16}}, 16),
    ({}, None, 1),  # from the directory name sglang-decode-c1.aiperf
])
def test_aiperf_concurrency_sources(tmp_path, config, run_info, expected):
    """AIPerf's concurrency is read from old and new config layouts, sweeps, then the file name."""
    dst = tmp_path / "sglang-decode-c1.aiperf"
    shutil.copytree(RESULTS / "sglang-decode-c1.aiperf", dst)
    path = dst / "profile_export_aiperf.json"
    data = json.loads(path.read_text())
    data["input_config"] = config
    data["run_info"] = run_info
    path.write_text(json.dumps(data))
    assert read_file(str(path))[0].concurrency == expected


AIPERF_DIR = RESULTS / "sglang-decode-c1.aiperf"


def test_aiperf_artifact_folder_reads_its_summary():
    """An aiperf --artifact-dir reads as its profile_export_aiperf.json; records and inputs are skipped."""
    assert {p.name for p in AIPERF_DIR.iterdir()} >= {"profile_export.jsonl", "inputs.json"}
    via_folder = read_results([str(AIPERF_DIR)])
    via_file = read_results([str(AIPERF_DIR / "profile_export_aiperf.json")])
    assert [r.model_dump() for r in via_folder] == [r.model_dump() for r in via_file]
    assert len(via_folder) == 1 and via_folder[0].harness == "aiperf"


def test_results_folder_mixes_harnesses(tmp_path):
    """A plain results folder ($OUT) yields its JSON/JSONL files and the aiperf folders below it."""
    shutil.copy(RESULTS / "vllm-main-c60.vllm.json", tmp_path)
    shutil.copy(RESULTS / "sglang-main-c60.sglang.jsonl", tmp_path)
    shutil.copytree(AIPERF_DIR, tmp_path / AIPERF_DIR.name)
    (tmp_path / "notes.txt").write_text("not a result")
    got = [(r.harness, r.engine, r.run, r.concurrency) for r in read_results([str(tmp_path)])]
    assert got == [("sglang", "sglang", "main", 60), ("vllm", "vllm", "main", 60),
                   ("aiperf", "sglang", "decode", 1)]


@pytest.mark.parametrize("make,expected", [
    (lambda d: (d / "inputs.json").write_text("{}"), "no profile_export_aiperf.json inside"),
    (lambda d: None, "no profile_export_aiperf.json inside"),
])
def test_aiperf_folder_without_summary(tmp_path, make, expected):
    """An aiperf folder with no summary is one line naming the folder and the file expected."""
    folder = tmp_path / "vllm-main-c8.aiperf"
    folder.mkdir()
    make(folder)
    with pytest.raises(InputError) as err:
        read_results([str(folder)])
    text = str(err.value)
    assert text.startswith(str(folder)) and expected in text and "\n" not in text


def test_empty_results_folder(tmp_path):
    """A folder with no result files names the folder and what was expected."""
    (tmp_path / "readme.txt").write_text("nothing here")
    with pytest.raises(InputError) as err:
        read_results([str(tmp_path)])
    assert str(err.value).startswith(str(tmp_path)) and "no result files inside" in str(err.value)
    assert "*.json or *.jsonl" in str(err.value)
