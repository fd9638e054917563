"""`python -m sglang.bench_serving` commands for a spec.

Flags checked against SGLang's docs (docs/developer_guide/bench_serving.md) and source
(python/sglang/bench_serving.py; since 2026 a shim over sglang.benchmark.serving that keeps the
module path working): `--backend sglang-oai|sglang-oai-chat` (OpenAI-compatible completions /
chat), `--base-url`, `--model`, `--tokenizer`, `--dataset-name random|generated-shared-prefix`,
`--num-prompts`, `--random-input-len`, `--random-output-len`, `--random-range-ratio` (samples
[len*r, len], the SAME ratio for input and output), `--gsp-num-groups`, `--gsp-prompts-per-group`,
`--gsp-system-prompt-len`, `--gsp-question-len`, `--gsp-output-len`, `--max-concurrency`,
`--request-rate`, `--warmup-requests`, `--seed`, `--output-file` (JSONL, one line per call),
`--extra-request-body`, `--disable-ignore-eos` (EOS is ignored by default) and `--lora-name`.
"""
from __future__ import annotations

from rules.benchspec.exports.common import (
    SEED, adapter_names, as_json, command, header, lit, run_comment, stem, suffix, var,
)
from rules.benchspec.spec import BenchSpec, Level, Run

PROGRAM = "python -m sglang.bench_serving"


def _dataset_args(run: Run, level: Level) -> list[tuple[str, str | None]]:
    if run.shared_prefix_tokens:
        # One group whose system prompt is the shared prefix; lengths are fixed in this dataset.
        return [("--dataset-name", "generated-shared-prefix"), ("--gsp-num-groups", "1"),
                ("--gsp-prompts-per-group", lit(level.requests)),
                ("--gsp-system-prompt-len", lit(run.shared_prefix_tokens)),
                ("--gsp-question-len", lit(suffix(run).mean)),
                ("--gsp-output-len", lit(run.output.mean))]
    # One range ratio applies to input and output: ratio 1.0 keeps both at the stated length.
    return [("--dataset-name", "random"), ("--random-input-len", lit(run.input.mean)),
            ("--random-output-len", lit(run.output.mean)), ("--random-range-ratio", "1.0")]


def level_command(run: Run, level: Level) -> str:
    """The command for one run at one concurrency level."""
    chat = run.endpoint == "chat"
    args: list[tuple[str, str | None]] = [
        ("--backend", "sglang-oai-chat" if chat else "sglang-oai"), ("--base-url", var("$BASE_URL")),
        ("--model", var("$MODEL")), ("--tokenizer", var("$TOKENIZER")),
    ]
    args += _dataset_args(run, level)
    if not run.fixed_output:
        args.append(("--disable-ignore-eos", None))
    if run.structured_output:
        args.append(("--extra-request-body", as_json({"response_format": {"type": "json_object"}})))
    if run.lora_adapters:
        args.append(("--lora-name", " ".join(adapter_names(run.lora_adapters))))
    args += [
        ("--num-prompts", lit(level.requests)), ("--max-concurrency", lit(level.concurrency)),
        ("--request-rate", "inf"), ("--warmup-requests", lit(level.warmup)), ("--seed", lit(SEED)),
        ("--output-file", var(f"$OUT/{stem(run, level)}.sglang.jsonl")),
    ]
    return command(PROGRAM, args)


def export(spec: BenchSpec) -> str:
    """The whole `sglang.bench_serving` plan as a shell script."""
    varied = any(r.input.kind == "uniform" for r in spec.workload.runs)
    extra = ["One command per run and concurrency level: each call measures one level."]
    if varied:
        extra.append("Prompt lengths are fixed at the typical length here: this tool draws input "
                     "and output with one range ratio, and the output must stay fixed.")
    if any(r.shared_prefix_tokens for r in spec.workload.runs):
        extra.append("Shared-prefix runs use the generated-shared-prefix dataset (fixed lengths).")
    lines = header(spec, PROGRAM, extra[0], extra[1:])
    for run in spec.workload.runs:
        lines += run_comment(run)
        lines += [level_command(run, lv) for lv in run.levels]
    return "\n".join(lines) + "\n"
