"""Side by side: this roofline against a naive bandwidth calculator and, where they install, peer tools
(llm-analysis, NVIDIA AIConfigurator) on the same published rows (evals/data, held-out split by default).

The peers are NOT dependencies of the project: install them in a separate virtualenv and name its
python with --peer-python; this script then runs itself there with `--worker` (that process imports
only the peer tools) and feeds it the rows as JSON.

    python3 -m venv /tmp/cmpvenv && /tmp/cmpvenv/bin/pip install llm-analysis aiconfigurator
    .venv/bin/python -m evals.compare_estimators --peer-python /tmp/cmpvenv/bin/python \\
        --out evals/compare_estimators.md

How each tool is asked (its own defaults otherwise):
- naive: decode tokens/s = devices x bandwidth / weight bytes; prefill = devices x peak 16-bit FLOPS
  / (2 x params); at load each of min(users, sequences whose full-context 16-bit KV fits) gets the
  single-stream speed (no queue, no batching cost).
- llm-analysis 0.2.2: `infer()` with its default efficiencies (1.0), a model JSON built from the catalog
  (its Llama support needs ffn_dim divisible by hidden: rounded up, +14 % MLP params on Llama 3);
  static batch = the row's concurrency per replica, halved until it fits; its GPU list has no H200,
  B200, GB200, GB10, RTX PRO 6000, Apple or Radeon parts; no MoE.
- AIConfigurator 0.12.0: `cli_estimate` (agg mode; static mode for static-batch rows) with the row's
  backend, parallelism and quantization, batch = concurrency halved until its memory check passes
  (it does not model a queue); TensorRT-LLM / vLLM / SGLang on its NVIDIA systems only.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

AIC_SYSTEMS = {"h100_sxm": "h100_sxm", "h200_sxm": "h200_sxm", "b200": "b200_sxm", "gb200": "gb200",
               "a100_80g_sxm": "a100_sxm", "l40s": "l40s", "rtxpro6000_bw": "rtx_pro_6000_server"}
AIC_MODELS = {"llama-3.1-8b": "meta-llama/Meta-Llama-3.1-8B", "llama-3.1-70b": "meta-llama/Meta-Llama-3.1-70B",
              "llama-3.1-405b": "meta-llama/Meta-Llama-3.1-405B", "qwen3-30b-a3b": "Qwen/Qwen3-30B-A3B",
              "qwen3-235b-a22b": "Qwen/Qwen3-235B-A22B"}
AIC_BACKENDS = {"tensorrt-llm": "trtllm", "vllm": "vllm", "sglang": "sglang"}
LA_GPUS = {"h100_sxm": "h100-sxm-80gb", "h100_pcie": "h100-pcie-80gb", "a100_80g_sxm": "a100-sxm-80gb",
           "a100_40g_sxm": "a100-sxm-40gb", "a100_80g_pcie": "a100-pcie-80gb", "a10g": "a10g-pcie-24gb"}
LA_DTYPES = {"bf16": "w16a16e16", "f16": "w16a16e16", "fp8": "w8a8e16", "int8": "w8a8e16", "q8_0": "w8a16e16",
             "q4_0": "w4a16e16", "q4_k_m": "w4a16e16", "awq": "w4a16e16", "gptq-4bit": "w4a16e16", "int4": "w4a16e16"}
METRICS = [("single", "decode_tps"), ("single", "prefill_tps"), ("load", "output_tps"), ("load", "tpot_ms"),
           ("load", "ttft_s"), ("load", "decode_agg_tps"), ("load", "total_tps")]


# ---------------------------------------------------------------- rows and the project's own estimators
def rows_for(split: str) -> list[dict]:
    from evals.suites import estimator as E
    jobs = [dict(r, kind="single") for p in (E.MEASUREMENTS, E.DEPTH, E.BENCH) for r in E.read_rows(p)]
    jobs += [dict(r, kind="load") for r in E.read_rows(E.LOAD)]
    for i, r in enumerate(jobs):
        r["id"] = i
        r["split"] = E.split_of(r)
    return [r for r in jobs if split == "all" or r["split"] == split]


def ours(row: dict) -> float | None:
    from evals.suites import estimator as E
    case = E.evaluate_row(row["id"], row, row["kind"])
    return case.result.get("predicted") if case.result else None


def naive(row: dict) -> float | None:
    """Bandwidth / weights per stream; peak FLOPS for prompts; no batching limits, no queue."""
    from rules import catalog
    from rules.quant import bits_per_weight
    spec, hw = catalog.model(row["model"]), catalog.hardware(row["hardware"])
    n = int(row.get("count") or 1)
    weights = spec.params_b * 1e9 * bits_per_weight((row["quant"] or spec.native_dtype).lower()) / 8
    if spec.architecture == "moe":
        weights *= spec.active_params_b / spec.params_b
    decode = n * hw.mem_bw_gbs * 1e9 / weights
    peak = (hw.tflops.bf16 or hw.tflops.fp16 or 0) * 1e12 * n
    prefill = peak / (2 * spec.active_params_b * 1e9) if peak else None
    from rules.roofline.memory import kv_bytes_per_token
    metric = row["metric"]
    inp, out = int(row.get("input") or 0), int(row.get("output") or 0)
    room = n * hw.memory_gb * 1e9 - weights
    fit = max(1, int(room / (kv_bytes_per_token(spec).value * max(1, inp + out))))
    conc = min(int(row.get("concurrency") or 1), fit)
    if metric == "decode_tps":
        return decode
    if metric == "prefill_tps":
        return prefill
    if metric == "tpot_ms":
        return 1000 / decode
    if metric == "ttft_s":
        return inp / prefill if prefill else None
    if metric == "decode_agg_tps":
        return conc * decode
    if metric in ("output_tps", "total_tps"):
        tps = conc * out / (out / decode + (inp / prefill if prefill else 0))
        return tps if metric == "output_tps" else tps * (inp + out) / max(1, out)
    return None


# ---------------------------------------------------------------- peer tools (run in their own venv)
def peer_jobs(rows: list[dict], use_aic: bool) -> list[dict]:
    """What to ask llm-analysis and AIConfigurator for each row they can take."""
    from rules import catalog
    jobs = []
    for r in rows:
        spec = catalog.model(r["model"])
        count = int(r.get("count") or 1)
        par = (r.get("parallelism") or "").lower()
        tp, pp = (1, count) if par == "pp" else (count, 1)
        inp, out = int(r.get("input") or 0), int(r.get("output") or 0)
        depth = int(r.get("depth") or 0)
        base = dict(id=r["id"], metric=r["metric"], kind=r["kind"], isl=max(1, inp + depth), osl=max(1, out),
                    conc=int(r.get("concurrency") or 1), mode=r.get("mode") or "single", tp=tp, pp=pp)
        quant = (r["quant"] or spec.native_dtype).lower()
        if (r["hardware"] in LA_GPUS and spec.architecture != "moe" and spec.intermediate and quant in LA_DTYPES
                and not depth):
            hidden = spec.hidden
            ffn = math.ceil(spec.intermediate / hidden) * hidden
            cfg = {"name": spec.id, "num_layers": spec.layers, "n_head": spec.q_heads, "hidden_dim": hidden,
                   "vocab_size": spec.vocab, "max_seq_len": spec.max_context, "num_key_value_heads": spec.kv_heads,
                   "ffn_embed_dim": ffn, "model_type": "llama"}
            jobs.append(dict(base, tool="llm-analysis", gpu=LA_GPUS[r["hardware"]], dtype=LA_DTYPES[quant], model=cfg))
        if (use_aic and r["kind"] == "load" and r["hardware"] in AIC_SYSTEMS and r["model"] in AIC_MODELS
                and r.get("engine") in AIC_BACKENDS):
            gemm = {"fp8": "fp8", "nvfp4": "nvfp4", "bf16": "bfloat16"}.get(quant)
            if gemm:
                jobs.append(dict(base, tool="aiconfigurator", system=AIC_SYSTEMS[r["hardware"]],
                                 model=AIC_MODELS[r["model"]], backend=AIC_BACKENDS[r["engine"]], gemm=gemm,
                                 moe=spec.architecture == "moe", kv=(r.get("kv_dtype") or "fp8")))
    return jobs


def _halving(conc: int, run):
    """Call run(batch) from the concurrency down by halves until the tool accepts it."""
    b = max(1, conc)
    while b >= 1:
        try:
            return run(b), b
        except Exception:  # noqa: BLE001 - a peer's refusal (memory check) means: try a smaller batch
            b //= 2
    return None, 0


def _la(job: dict) -> float | None:
    import tempfile

    from llm_analysis.analysis import infer
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(job["model"], fh)
    gen = 1 if job["metric"] == "prefill_tps" else job["osl"]

    def run(b):
        return infer(model_name=fh.name, gpu_name=job["gpu"], dtype_name=job["dtype"], batch_size_per_gpu=b,
                     tp_size=job["tp"], pp_size=job["pp"], seq_len=job["isl"], num_tokens_to_generate=gen,
                     log_level="ERROR")
    conc = 1 if job["kind"] == "single" else job["conc"]
    res, b = _halving(conc, run)
    if res is None:
        return None
    m = job["metric"]
    if m == "decode_tps":
        return 1 / res["decode_latency"]
    if m == "prefill_tps":
        return job["isl"] / res["prefill_latency"]
    if m == "tpot_ms":
        return 1000 * res["decode_latency"]
    if m == "ttft_s":
        return res["prefill_latency"]
    if m == "decode_agg_tps":
        return b / res["decode_latency"]
    return b * job["osl"] / res["total_latency"]


def _aic(job: dict) -> float | None:
    import logging
    logging.disable(logging.WARNING)
    from aiconfigurator.cli.api import cli_estimate
    static = job["mode"] == "batch"

    def run(b):
        kw = dict(backend_name=job["backend"], isl=job["isl"], osl=job["osl"], batch_size=b, tp_size=job["tp"],
                  pp_size=job["pp"], gemm_quant_mode=job["gemm"], kvcache_quant_mode=job["kv"],
                  mode="static" if static else "agg")
        if job["moe"]:
            kw.update(moe_quant_mode=job["gemm"], moe_tp_size=1, moe_ep_size=job["tp"])
        return cli_estimate(job["model"], job["system"], **kw)
    res, b = _halving(min(job["conc"], 2048), run)
    if res is None:
        return None
    m = job["metric"]
    if m == "ttft_s":
        return res.ttft / 1000 if b >= job["conc"] else None  # no queue model: only without one
    if m == "tpot_ms":
        return res.tpot
    if m == "decode_agg_tps":
        return b * 1000 / res.tpot
    return res.tokens_per_second


def worker(cache: str | None) -> None:
    """Run inside the peer venv: JSON jobs on stdin, {id|tool: value} on stdout. With a cache file
    (JSON lines), answers already there are reused and new ones appended as they come: a long
    AIConfigurator run (seconds per call) can be resumed."""
    done = {}
    if cache and Path(cache).exists():
        for line in Path(cache).read_text(encoding="utf-8").splitlines():
            done.update(json.loads(line))
    out = {}
    for job in json.load(sys.stdin):
        key = f"{job['id']}|{job['tool']}|{job['metric']}|{job['isl']}|{job['osl']}|{job['conc']}"
        if key not in done:
            try:
                value = _la(job) if job["tool"] == "llm-analysis" else _aic(job)
            except Exception as exc:  # noqa: BLE001 - a peer failing on a row is a result ('n/a'), not a crash
                print(f"{job['tool']} row {job['id']}: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)
                value = None
            done[key] = value
            if cache:
                with open(cache, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({key: value}) + "\n")
        out[f"{job['id']}|{job['tool']}"] = done[key]
    json.dump(out, sys.stdout)


# ---------------------------------------------------------------- table
def ape(pred: float | None, measured: float) -> float | None:
    return None if pred is None or pred <= 0 else abs(pred - measured) / measured


def table(rows: list[dict], preds: dict[str, dict[int, float | None]]) -> str:
    lines = ["| estimator | rows covered | decode median / p90 | prefill median | at-load throughput median | "
             "TPOT median | TTFT median | batched decode median | total throughput median |",
             "|---|---|---|---|---|---|---|---|---|"]
    for tool, by_id in preds.items():
        def errs(kind, metric):
            return [e for r in rows if r["kind"] == kind and r["metric"] == metric
                    for e in [ape(by_id.get(r["id"]), float(r["value"]))] if e is not None]

        def cell(vals, p90=False):
            if not vals:
                return "n/a"
            text = f"{100 * statistics.median(vals):.0f} % ({len(vals)})"
            if p90:
                ordered = sorted(vals)
                text = f"{100 * statistics.median(vals):.0f} / {100 * ordered[round(0.9 * (len(ordered) - 1))]:.0f} % ({len(vals)})"
            return text
        covered = sum(1 for r in rows if by_id.get(r["id"]) is not None)
        lines.append(f"| {tool} | {covered} of {len(rows)} | {cell(errs('single', 'decode_tps'), True)} | "
                     f"{cell(errs('single', 'prefill_tps'))} | {cell(errs('load', 'output_tps'))} | "
                     f"{cell(errs('load', 'tpot_ms'))} | {cell(errs('load', 'ttft_s'))} | "
                     f"{cell(errs('load', 'decode_agg_tps'))} | {cell(errs('load', 'total_tps'))} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--peer-python", help="python of a venv with llm-analysis / aiconfigurator installed")
    ap.add_argument("--no-aic", action="store_true", help="skip AIConfigurator (about 4 s per call)")
    ap.add_argument("--split", choices=("held-out", "fit", "all"), default="held-out")
    ap.add_argument("--out", help="write the Markdown table here")
    ap.add_argument("--cache", help="JSON-lines file keeping the peers' answers between runs")
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.cache)
        return
    rows = rows_for(args.split)
    preds: dict[str, dict[int, float | None]] = {"this roofline": {r["id"]: ours(r) for r in rows},
                                                 "naive bandwidth calculator": {r["id"]: naive(r) for r in rows}}
    if args.peer_python:
        jobs = peer_jobs(rows, not args.no_aic)
        cmd = [args.peer_python, __file__, "--worker"] + (["--cache", args.cache] if args.cache else [])
        proc = subprocess.run(cmd, input=json.dumps(jobs), text=True,
                              capture_output=True, check=True, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
        got = json.loads(proc.stdout)
        for tool in ("llm-analysis", "aiconfigurator"):
            by_id = {int(k.split("|")[0]): v for k, v in got.items() if k.endswith("|" + tool)}
            if by_id:
                preds[tool] = by_id
    text = table(rows, preds)
    ours_by_id = preds["this roofline"]
    for tool in ("llm-analysis", "aiconfigurator"):
        if tool in preds:
            same = [r for r in rows if preds[tool].get(r["id"]) is not None]
            text += (f"\n\nOn the {len(same)} rows {tool} covers:\n\n"
                     + table(same, {tool: preds[tool], "this roofline": ours_by_id}))
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
