"""`aiperf profile` commands for a spec.

Flags checked against AIPerf's CLI reference (docs/cli-options.md, 2026; the same flags exist in
v0.1.1) and source (completions requests send `max_tokens`): `--model` (a comma-separated list
with `--model-selection-strategy random` spreads requests over names), `--url`,
`--endpoint-type completions|chat`, `--streaming`, `--tokenizer`, `--isl`/`--isl-stddev` and
`--osl`/`--osl-stddev` (normal distributions), `--prefix-prompt-length` with
`--num-prefix-prompts` (a prefix pool prepended to each prompt), `--extra-inputs key:value` or
a JSON string (merged into every request), `--concurrency`, `--request-count`,
`--warmup-request-count`, `--random-seed`, `--artifact-dir` (summary in
`profile_export_aiperf.json`). AIPerf caps output at the requested length but does not force it,
so `ignore_eos:true` is sent explicitly.
"""
from __future__ import annotations

from rules.benchspec.exports.common import (
    SEED, adapter_names, as_json, command, header, lit, run_comment, stem, suffix,
    uniform_stddev, var,
)
from rules.benchspec.spec import BenchSpec, Level, Run

PROGRAM = "aiperf profile"


def level_command(run: Run, level: Level) -> str:
    """The command for one run at one concurrency level."""
    part = suffix(run)
    if run.lora_adapters:
        models = [("--model", lit(",".join(adapter_names(run.lora_adapters)))),
                  ("--model-selection-strategy", "random")]
    else:
        models = [("--model", var("$MODEL"))]
    args: list[tuple[str, str | None]] = models + [
        ("--url", var("$BASE_URL")), ("--endpoint-type", run.endpoint), ("--streaming", None),
        ("--tokenizer", var("$TOKENIZER")),
        ("--isl", lit(part.mean)), ("--isl-stddev", lit(uniform_stddev(part))),
        ("--osl", lit(run.output.mean)), ("--osl-stddev", "0"),
    ]
    if run.shared_prefix_tokens:
        args += [("--prefix-prompt-length", lit(run.shared_prefix_tokens)),
                 ("--num-prefix-prompts", "1")]
    if run.fixed_output:
        args.append(("--extra-inputs", "ignore_eos:true"))
    if run.structured_output:
        args.append(("--extra-inputs", as_json({"response_format": {"type": "json_object"}})))
    args += [
        ("--concurrency", lit(level.concurrency)), ("--request-count", lit(level.requests)),
        ("--warmup-request-count", lit(level.warmup)), ("--random-seed", lit(SEED)),
        ("--artifact-dir", var(f"$OUT/{stem(run, level)}.aiperf")),
    ]
    return command(PROGRAM, args)


def export(spec: BenchSpec) -> str:
    """The whole `aiperf profile` plan as a shell script."""
    extra = []
    if any(r.input.kind == "uniform" for r in spec.workload.runs):
        extra.append("AIPerf draws prompt lengths from a normal distribution: the stddev given "
                     "has the same spread as the uniform range of the other harnesses.")
    if any(r.lora_adapters for r in spec.workload.runs):
        extra.append("For the LoRA run, TOKENIZER must name the base model's tokenizer.")
    lines = header(spec, PROGRAM, "One command per run and concurrency level: each call measures "
                   "one level.", extra)
    for run in spec.workload.runs:
        lines += run_comment(run)
        lines += [level_command(run, lv) for lv in run.levels]
    return "\n".join(lines) + "\n"
