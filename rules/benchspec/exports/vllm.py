"""`vllm bench serve` commands for a spec.

Flags checked against vLLM's source (vllm/benchmarks/serve.py `add_cli_args` and
vllm/benchmarks/datasets/arg_utils.py `add_dataset_parser`, main branch, 2026):
`--backend openai|openai-chat`, `--base-url`, `--endpoint`, `--model`, `--tokenizer`,
`--dataset-name random`, `--num-prompts`, `--random-input-len`, `--random-output-len`,
`--random-range-ratio` (samples [len*(1-r), len*(1+r)] for input AND output alike; the parser
types it as one float, and no separate input/output option exists there, although newer dataset
code accepts an {input, output} pair internally), `--random-prefix-len` (a fixed prefix added
before the sampled part), `--ignore-eos`, `--max-concurrency`, `--request-rate`,
`--num-warmups`, `--percentile-metrics`, `--metric-percentiles`, `--seed`, `--save-result`,
`--result-dir`, `--result-filename`, `--metadata KEY=VALUE...` (written into the result JSON),
`--lora-modules` (one adapter picked at random per request) and `--extra-body` (merged into each
request after `ignore_eos`, so it can switch it off).
"""
from __future__ import annotations

from rules.benchspec.exports.common import (
    SEED, adapter_names, as_json, command, header, lit, run_comment, stem, suffix, var,
)
from rules.benchspec.spec import BenchSpec, Level, Run

PROGRAM = "vllm bench serve"


def level_command(run: Run, level: Level) -> str:
    """The command for one run at one concurrency level."""
    part = suffix(run)
    chat = run.endpoint == "chat"
    args: list[tuple[str, str | None]] = [
        ("--backend", "openai-chat" if chat else "openai"), ("--base-url", var("$BASE_URL")),
        ("--endpoint", "/v1/chat/completions" if chat else "/v1/completions"),
        ("--model", var("$MODEL")), ("--tokenizer", var("$TOKENIZER")),
        ("--dataset-name", "random"), ("--random-input-len", lit(part.mean)),
        # One ratio spreads input and output alike; the output must stay fixed, so 0.
        ("--random-range-ratio", "0"),
        ("--random-prefix-len", lit(run.shared_prefix_tokens)),
        ("--random-output-len", lit(run.output.mean)),
    ]
    if run.fixed_output:
        args.append(("--ignore-eos", None))
    if run.structured_output:
        # The random dataset turns ignore_eos on; a grammar must be allowed to end the answer.
        args.append(("--extra-body", as_json({"ignore_eos": False,
                                              "response_format": {"type": "json_object"}})))
    if run.lora_adapters:
        args.append(("--lora-modules", " ".join(adapter_names(run.lora_adapters))))
    name = stem(run, level)
    args += [
        ("--num-prompts", lit(level.requests)), ("--max-concurrency", lit(level.concurrency)),
        ("--request-rate", "inf"), ("--num-warmups", lit(level.warmup)),
        ("--percentile-metrics", "ttft,tpot,itl,e2el"), ("--metric-percentiles", "50,90,95,99"),
        ("--seed", lit(SEED)), ("--save-result", None), ("--result-dir", var("$OUT")),
        ("--result-filename", var(f"{name}.vllm.json")),
        ("--metadata", f'engine="$ENGINE" run={run.id} concurrency={level.concurrency}'),
    ]
    return command(PROGRAM, args)


def export(spec: BenchSpec) -> str:
    """The whole `vllm bench serve` plan as a shell script."""
    extra = []
    if any(r.input.kind == "uniform" for r in spec.workload.runs):
        extra.append("Prompt lengths are fixed at the typical length here: this tool draws input "
                     "and output with one range ratio, and the output must stay fixed.")
    lines = header(spec, PROGRAM, "One command per run and concurrency level: each call measures "
                   "one level (vllm bench sweep exists, but takes its own parameter files).", extra)
    for run in spec.workload.runs:
        lines += run_comment(run)
        if run.lora_adapters > len(adapter_names(run.lora_adapters)):
            lines.append(f"# Only the first {len(adapter_names(run.lora_adapters))} adapter "
                         "names are listed; add the rest.")
        lines += [level_command(run, lv) for lv in run.levels]
    return "\n".join(lines) + "\n"
