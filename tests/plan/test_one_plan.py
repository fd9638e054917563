"""One plan everywhere: `ask --json`, `advisor benchspec` (from TEXT and from the ask's profile),
`advisor estimate` and the MCP tools report the same layout and the same figures for one input."""
from __future__ import annotations

import json

import pytest

from agent.api import ask
from ui.cli import main

TEXT = ("8x H100 SXM with NVLink, Llama 3.1 70B FP8, chat, 64 concurrent requests, 4K prompts and "
        "500-token answers, 8K context")
FIGURES = ("ttft_s", "tpot_ms", "max_concurrency", "fits", "decode_tokens_per_s")


def _cli(capsys, *argv) -> dict:
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def _chosen(plan: dict) -> dict:
    return {"layout": plan["chosen"]["layout"], "figures": plan["chosen"]["figures"],
            "quantization": plan["chosen"]["quantization"], "kv": plan["chosen"]["kv_cache_dtype"]}


@pytest.fixture(scope="module")
def answer() -> dict:
    return ask(TEXT)


def test_ask_fills_the_contract_parallelism_from_its_plan(answer):
    lay = answer["plan"]["chosen"]["layout"]
    assert {k: answer["parallelism"][k] for k in ("tp", "pp", "ep", "dp")} == lay
    assert {k: answer["estimate"]["parallelism"][k] for k in ("tp", "pp", "ep", "dp")} == lay
    assert answer["plan"]["flags"][answer["primary"]]
    assert "--tensor-parallel-size" in answer["plan"]["flags"]["vllm"] or lay["tp"] * lay["ep"] == 1


def test_benchspec_reports_the_same_plan(answer, capsys, tmp_path):
    from_text = _cli(capsys, "benchspec", TEXT, "--format", "json")
    path = tmp_path / "ask.json"
    path.write_text(json.dumps(answer))
    from_profile = _cli(capsys, "benchspec", "--profile", str(path), "--format", "json")
    for spec in (from_text, from_profile, answer["benchmark"]):
        assert _chosen(spec["plan"]) == _chosen(answer["plan"])
        planned = spec["prediction"]["planned"]
        assert {k: planned[k] for k in FIGURES} == {k: answer["estimate"][k] for k in FIGURES}
        for level in ("single_stream", "peak"):
            par = (spec["prediction"][level] or {}).get("parallelism") or {}
            assert {k: par.get(k) for k in ("tp", "pp", "ep", "dp")} == answer["plan"]["chosen"]["layout"]


def test_estimate_command_reports_the_same_plan(answer, capsys):
    p, e = answer["profile"], answer["estimate"]
    out = _cli(capsys, "estimate", "--model", p["model"], "--hardware", p["hardware"], "--count", str(p["count"]),
               "--quant", p["quantization"], "--engine", answer["primary"], "--input", str(p["input_tokens"]),
               "--output", str(p["output_tokens"]), "--context", str(p["context_length"]),
               "--concurrency", str(p["concurrency"]), "--json")
    assert _chosen(out["plan"]) == _chosen(answer["plan"])
    assert {k: out[k] for k in FIGURES} == {k: e[k] for k in FIGURES}


def test_mcp_tools_report_the_same_plan(answer):
    pytest.importorskip("gradio")
    from ui.mcp_tools import make_tools
    tools = make_tools(None)
    rec = json.loads(tools["recommend"](TEXT))
    spec = json.loads(tools["benchmark_spec"](TEXT))
    p = answer["profile"]
    est = json.loads(tools["estimate"](p["model"], p["hardware"], count=p["count"], quant=p["quantization"],
                                       input_tokens=p["input_tokens"], output_tokens=p["output_tokens"],
                                       concurrency=p["concurrency"], context=p["context_length"],
                                       interconnect=p["interconnect"]))
    for plan in (rec["plan"], spec["plan"], est["plan"]):
        assert _chosen(plan) == _chosen(answer["plan"])
    assert {k: est[k] for k in FIGURES} == {k: answer["estimate"][k] for k in FIGURES}


FLEET_TEXTS = [
    "4 racks of GB200 NVL72, DeepSeek V3, 1000 concurrent users, chat",
    "two nodes of 8x H100 with InfiniBand, Llama 3.1 405B FP8, 200 concurrent requests",
    "2x H100 PCIe, Llama 3.1 70B FP8, 30 users",
    "16x H100, Llama 3.1 70B BF16, 100 concurrent requests",
    "8x MI300X, Mixtral 8x22B, 300 concurrent users, throughput first",
]


@pytest.mark.parametrize("text", FLEET_TEXTS)
def test_every_surface_reports_the_plan_of_ask(text, capsys):
    """Racks, multi-node, PCIe, MoE: ask --json, benchspec and the MCP estimate tool agree."""
    answer = ask(text)
    spec = _cli(capsys, "benchspec", text, "--format", "json")
    assert _chosen(spec["plan"]) == _chosen(answer["plan"])
    pytest.importorskip("gradio")
    from ui.mcp_tools import make_tools
    p = answer["profile"]
    est = json.loads(make_tools(None)["estimate"](
        p["model"], p["hardware"], count=p["count"], nodes=p["nodes"], quant=p["quantization"] or "",
        input_tokens=p["input_tokens"] or 0, output_tokens=p["output_tokens"] or 0,
        concurrency=answer["plan"]["load"], context=p["context_length"] or 0, interconnect=p["interconnect"] or ""))
    assert _chosen(est["plan"]) == _chosen(answer["plan"])
