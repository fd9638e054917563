"""`guidellm run` commands for a spec (GuideLLM 0.7.2 renamed `guidellm benchmark` to `guidellm run`).

Options checked against GuideLLM's docs (docs/getting-started/benchmark.md, docs/guides/
{backends,datasets,outputs}.md, v0.7.0 migration guide) and source (src/guidellm/cli/run.py,
backends/openai/http.py `OpenAIHTTPBackendArgs`, data/deserializers/synthetic.py
`SyntheticTextDataArgs`, benchmark/profiles/concurrent.py, benchmark/schemas/base.py
`TransientPhaseConfig`), release 0.7.3: `--backend kind=openai_http,target=,model=,
request_format=/v1/completions` (nested `extras.body` needs JSON), `--data kind=synthetic_text,
prompt_tokens=,prompt_tokens_min=,prompt_tokens_max=` (uniform when min/max are given without a
stdev), `output_tokens=`, `prefix_tokens=,prefix_count=` (prefix added before the prompt),
`--profile` concurrent with `streams` and `warmup` `{"mode":"requests","value":N}` (warm-up
requests come out of the request budget), `--constraint kind=max_requests,count=`,
`--tokenizer kind=huggingface_auto,model=`, `--seed kind=static,value=`, `--label key=value`,
`--output kind=json,path=`. With an output length set, the HTTP backend sends `ignore_eos: true`.
"""
from __future__ import annotations

import json

from rules.benchspec.exports.common import SEED, as_json, command, header, lit, run_comment, stem, suffix
from rules.benchspec.spec import BenchSpec, Level, Run

PROGRAM = "guidellm run"


def _backend(run: Run) -> str:
    if not run.structured_output:
        fmt = "/v1/chat/completions" if run.endpoint == "chat" else "/v1/completions"
        return f'"kind=openai_http,target=${{BASE_URL}},model=${{MODEL}},request_format={fmt}"'
    body = {"ignore_eos": False, "response_format": {"type": "json_object"}}
    spec = {"kind": "openai_http", "target": "@BASE@", "model": "@MODEL@",
            "request_format": "/v1/chat/completions", "extras": {"body": body}}
    text = json.dumps(spec, separators=(",", ":")).replace('"', '\\"')
    return '"' + text.replace("@BASE@", "${BASE_URL}").replace("@MODEL@", "${MODEL}") + '"'


def _data(run: Run) -> str:
    part = suffix(run)
    fields = [f"prompt_tokens={part.mean}"]
    if part.max > part.min:
        fields += [f"prompt_tokens_min={part.min}", f"prompt_tokens_max={part.max}"]
    fields.append(f"output_tokens={run.output.mean}")
    if run.shared_prefix_tokens:
        fields += [f"prefix_tokens={run.shared_prefix_tokens}", "prefix_count=1"]
    return lit("kind=synthetic_text," + ",".join(fields))


def level_command(run: Run, level: Level) -> str:
    """The command for one run at one concurrency level."""
    profile = {"kind": "concurrent", "streams": [level.concurrency],
               "warmup": {"mode": "requests", "value": level.warmup}}
    name = stem(run, level)
    args: list[tuple[str, str | None]] = [
        ("--backend", _backend(run)), ("--data", _data(run)),
        ("--tokenizer", '"kind=huggingface_auto,model=${TOKENIZER}"'),
        ("--profile", as_json(profile)),
        # Warm-up requests are taken out of the budget, so add them to keep `requests` measured.
        ("--constraint", lit(f"kind=max_requests,count={level.requests + level.warmup}")),
        ("--seed", lit(f"kind=static,value={SEED}")),
        ("--label", '"engine=${ENGINE}"'), ("--label", lit(f"run={run.id}")),
        ("--output", f'"kind=json,path=${{OUT}}/{name}.guidellm.json"'),
    ]
    return command(PROGRAM, args)


def export(spec: BenchSpec) -> str:
    """The whole `guidellm run` plan as a shell script."""
    lines = header(spec, PROGRAM, "One command per run and level so every harness sends the same "
                   "request counts (a `streams` list would run all levels in one call).",
                   ["GuideLLM 0.7.2 and later; older releases called this `guidellm benchmark`."])
    for run in spec.workload.runs:
        lines += run_comment(run)
        if run.lora_adapters:
            lines.append("# GuideLLM cannot rotate requests over LoRA adapters: use the vLLM, "
                         "SGLang or AIPerf plan for this run.")
            continue
        lines += [level_command(run, lv) for lv in run.levels]
    return "\n".join(lines) + "\n"
