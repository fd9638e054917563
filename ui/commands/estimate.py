"""`advisor estimate`: roofline estimate of one model on one hardware setup (table or --json)."""
from __future__ import annotations

import argparse

EPILOG = """examples:
  advisor estimate --model llama-3.1-70b --hardware h100_sxm --quant fp8
  advisor estimate --model "Llama 3.3 70B" --hardware 4090 --count 4 --quant awq --parallelism pp
  advisor estimate --model qwen3-30b-a3b --hardware m3_ultra --input 8000 --output 500 --concurrency 4 --json
  advisor estimate --model-config ./my-model/config.json --hardware h100_sxm --quant fp8
Ids: hardware ids/aliases from rules/catalog/hardware.yaml, model ids/names from rules/catalog/models/
(`advisor catalog models` lists them); any other model from its Hugging Face config.json."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be above 0")
    return value


def add_parser(sub) -> None:
    """Register `advisor estimate`."""
    p = sub.add_parser("estimate", help="roofline estimate: fit, memory, decode/prefill speed, concurrency, cost",
                       description="Estimate whether a model fits a hardware setup and how fast it decodes and "
                                   "prefills, from a roofline calibrated on published measurements.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--model", help="model id or common name (e.g. llama-3.1-70b, 'Llama 3.3 70B', qwen2.5:14b)")
    which.add_argument("--model-config", metavar="CONFIG.json",
                       help="a Hugging Face config.json: estimate a model the catalog does not know")
    p.add_argument("--hardware", required=True, help="hardware id or common name (e.g. h100_sxm, H100, 4090, 'M3 Ultra')")
    p.add_argument("--count", type=_positive_int, default=1, help="devices per node (default 1); total devices = --count x --nodes")
    p.add_argument("--nodes", type=_positive_int, default=1, help="machines the devices are spread over (default 1)")
    p.add_argument("--quant", help="weight quantization id: bf16, f16, fp8, int8, q8_0, q6_k, q5_k_m, q4_k_m, q4_0, "
                                   "int4, awq, gptq-4bit, mxfp4, nvfp4, exl2-<bpw>, exl3-<bpw> "
                                   "(default: the model's native format)")
    p.add_argument("--kv-cache-dtype", help="KV-cache quantization (e.g. fp8, q8_0); default 16-bit")
    p.add_argument("--engine", help="engine id (llama.cpp, vllm, sglang, tensorrt-llm, ...): sets the runtime "
                                    "memory reserve and warns when the engine cannot run the setup")
    p.add_argument("--parallelism", help="none, tp, pp, tp+pp, ep, dp or tp+dp (default: the layout the planner "
                                         "chooses for this load, the same one `advisor ask` recommends)")
    p.add_argument("--interconnect", help="override the link between devices: nvlink, pcie, infinity-fabric, "
                                          "infiniband, ethernet")
    p.add_argument("--input", type=_positive_int, help="prompt tokens per request (default 1024)")
    p.add_argument("--output", type=_positive_int, help="output tokens per request (default 256)")
    p.add_argument("--context", type=_positive_int, help="context length each sequence may reach "
                                                         "(KV cache is sized for it; default input + output)")
    p.add_argument("--concurrency", type=_positive_int, default=1, help="concurrent requests/users (default 1)")
    p.add_argument("--memory-gb", type=_positive_float, help="memory per device when it differs from the catalog "
                                                    "(e.g. a 192 GB M2 Ultra)")
    p.add_argument("--price-per-hour", type=_positive_float, help="USD per device-hour, for cost per 1M output tokens")
    p.add_argument("--json", action="store_true", help="print the estimate as one JSON object")


def _num(x: float | None, unit: str = "", digits: int = 1) -> str:
    return "n/a" if x is None else f"{x:,.{digits}f}{unit}"


def render(est) -> str:
    """A short human-readable table of an Estimate."""
    m, lay = est.memory, est.parallelism
    layout = "" if lay["strategy"] == "none" else f" ({lay['strategy']})"
    head = (f"{est.model} ({est.quantization}) on {est.count} x {est.hardware}{layout}: "
            + ("fits" if est.fits else "does NOT fit"))
    rows = [
        ("Binding constraint", est.binding_constraint),
        ("Weights", f"{est.weights_gb:,.1f} GB total; {m.weights_gb:,.1f} GB per device of {m.usable_gb:,.1f} GB usable "
                    f"({m.reserve_gb:,.1f} GB reserve)"),
        ("KV cache", f"{est.kv_bytes_per_token:,} B/token; {est.kv_gb_per_sequence:,.2f} GB per sequence at "
                     f"{est.context_length:,} tokens"),
        ("Max concurrency", f"{est.max_concurrency:,} sequences at {est.context_length:,} tokens"),
        ("Decode", f"{_num(est.decode_tokens_per_s)} tok/s per stream (bound {_num(est.decode_tokens_per_s_bound)}); "
                   f"{_num(est.aggregate_tokens_per_s)} tok/s total at concurrency {est.concurrency}"),
        ("Prefill", f"{_num(est.prefill_tokens_per_s, '', 0)} tok/s; TTFT {_num(est.ttft_s, ' s', 3)}; "
                    f"TPOT {_num(est.tpot_ms, ' ms')}"),
        ("Interconnect", f"{est.comm_ms_per_token:.2f} ms per decode step"),
        ("Cost", f"${est.cost_per_1m_tokens:,.2f} per 1M output tokens" if est.cost_per_1m_tokens is not None
                 else "n/a (give --price-per-hour)"),
        ("Error band", _band(est.error_band)),
    ]
    if est.infeasible:
        rows.insert(1, ("Fixes", "; ".join(est.infeasible.fixes)))
    if est.count == 1:
        rows = [r for r in rows if r[0] != "Interconnect"]
    width = max(len(k) for k, _ in rows)
    lines = [head] + [f"  {k:<{width}}  {v}" for k, v in rows] + ["Assumptions:"]
    lines += [f"  - {a}" for a in est.assumptions]
    return "\n".join(lines)


def _band(band) -> str:
    if band.decode_p50_pct is None:
        return band.basis
    return (f"decode median {band.decode_p50_pct:g} % / p90 {band.decode_p90_pct:g} %, prefill median "
            f"{_num(band.prefill_p50_pct, ' %')} off on published measurements of this platform")


def run(args) -> int:
    """Run the estimate and print it."""
    from rules.roofline import estimate

    from rules.model_config import load_model_config
    from rules.profile import check_range

    # The profile's bounds, named by option ("--count 1000000000" is an error, not a setup that "fits").
    for option, field, value in (("--count", "count", args.count), ("--nodes", "nodes", args.nodes),
                                 ("--input", "input_tokens", args.input), ("--output", "output_tokens", args.output),
                                 ("--context", "context_length", args.context),
                                 ("--concurrency", "concurrency", args.concurrency),
                                 ("--memory-gb", "memory_gb", args.memory_gb),
                                 ("--price-per-hour", "device_hour_usd", args.price_per_hour)):
        check_range(field, value, name=option)
    setup = dict(count=args.count, nodes=args.nodes, quant=args.quant, engine=args.engine,
                 input_tokens=args.input, output_tokens=args.output, context_length=args.context,
                 concurrency=args.concurrency, kv_cache_dtype=args.kv_cache_dtype,
                 price_per_hour=args.price_per_hour, memory_gb=args.memory_gb, interconnect=args.interconnect)
    plan = None
    if args.parallelism is None and args.count * args.nodes > 1:   # the planner's layout, as `ask` uses
        from rules.plan import plan_for_setup
        plan, est = plan_for_setup(None if args.model_config else args.model, args.hardware,
                                   model_config=args.model_config, **setup)
    else:
        model = load_model_config(args.model_config) if args.model_config else args.model
        est = estimate(model, args.hardware, parallelism=args.parallelism, **setup)
    if args.json:
        out = est.model_dump() | ({"plan": plan.model_dump(mode="json")} if plan else {})
        from ui.output import print_json
        print_json(out)
    else:
        print(render(est) + (_plan_text(plan) if plan else ""))
    return 0


def _plan_text(plan) -> str:
    """The plan's lines under the table (why this layout, the runner-up, the launch command)."""
    lines = ["Plan (chosen by scoring every legal layout at this load):"]
    lines += [f"  {w}" for w in plan.why["en"]]
    lines += [f"  launch ({e}): {cmd}" for e, cmd in plan.flags.items()]
    return "\n" + "\n".join(lines)
