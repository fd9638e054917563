"""Harness exports: golden files, every flag against the harness's documented options, and the
four plans sending the same work.

Regenerate the golden files after an intended change with ADVISOR_UPDATE_GOLDEN=1 and review
the diff: a flag typo shows up there and in `test_flags_are_documented`.
"""
from __future__ import annotations

import json
import os
import re

import pytest

from rules.benchspec import build_spec
from rules.benchspec.exports import export_all
from rules.errors import InputError

from benchspec_helpers import DECISION, GOLDEN, commands, load_profile, options

CASES = ("agent-8xh100", "rag-4x4090", "minimal-m3")
HARNESSES = ("vllm", "sglang", "guidellm", "aiperf")

# Options read in each harness's own documentation or argument parser (see the exporter
# modules' docstrings for the files): a flag that is not listed here fails the test.
DOCUMENTED = {
    "vllm": {  # vllm/benchmarks/serve.py add_cli_args + datasets/arg_utils.py add_dataset_parser
        "--backend", "--base-url", "--endpoint", "--model", "--tokenizer", "--dataset-name",
        "--random-input-len", "--random-range-ratio", "--random-prefix-len", "--random-output-len",
        "--ignore-eos", "--extra-body", "--lora-modules", "--num-prompts", "--max-concurrency",
        "--request-rate", "--num-warmups", "--percentile-metrics", "--metric-percentiles", "--seed",
        "--save-result", "--result-dir", "--result-filename", "--metadata",
    },
    "sglang": {  # docs/developer_guide/bench_serving.md + python/sglang/bench_serving.py parser
        "--backend", "--base-url", "--model", "--tokenizer", "--dataset-name", "--random-input-len",
        "--random-output-len", "--random-range-ratio", "--gsp-num-groups", "--gsp-prompts-per-group",
        "--gsp-system-prompt-len", "--gsp-question-len", "--gsp-output-len", "--disable-ignore-eos",
        "--extra-request-body", "--lora-name", "--num-prompts", "--max-concurrency", "--request-rate",
        "--warmup-requests", "--seed", "--output-file",
    },
    "guidellm": {  # src/guidellm/cli/run.py + BenchmarkArgs argument aliases (0.7.3)
        "--backend", "--data", "--tokenizer", "--profile", "--constraint", "--seed", "--label",
        "--output",
    },
    "aiperf": {  # docs/cli-options.md (aiperf profile)
        "--model", "--model-selection-strategy", "--url", "--endpoint-type", "--streaming",
        "--tokenizer", "--isl", "--isl-stddev", "--osl", "--osl-stddev", "--prefix-prompt-length",
        "--num-prefix-prompts", "--extra-inputs", "--concurrency", "--request-count",
        "--warmup-request-count", "--random-seed", "--artifact-dir",
    },
}
# GuideLLM key=value fields per option, from the pydantic models the options validate into.
GUIDELLM_KEYS = {
    "--backend": {"kind", "target", "model", "request_format"},  # OpenAIHTTPBackendArgs
    "--data": {"kind", "prompt_tokens", "prompt_tokens_min", "prompt_tokens_max", "output_tokens",
               "prefix_tokens", "prefix_count"},  # SyntheticTextDataArgs (+ prefix extras)
    "--tokenizer": {"kind", "model"},
    "--constraint": {"kind", "count"},
    "--seed": {"kind", "value"},
    "--output": {"kind", "path"},
}
PROGRAMS = {"vllm": ["vllm", "bench", "serve"], "sglang": ["python", "-m", "sglang.bench_serving"],
            "guidellm": ["guidellm", "run"], "aiperf": ["aiperf", "profile"]}


@pytest.fixture(params=CASES)
def case(request, fixed_roofline):
    """(case name, spec) for each golden profile."""
    return request.param, build_spec(load_profile(request.param), decision=DECISION)


def test_golden_exports(case):
    """Every export matches its golden file byte for byte."""
    name, spec = case
    for harness, text in spec.exports.items():
        path = GOLDEN / name / f"{harness}.sh"
        if os.environ.get("ADVISOR_UPDATE_GOLDEN"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        assert text == path.read_text(), f"{name}/{harness}.sh differs from the golden file"


def test_golden_spec(case):
    """The spec body (without exports and catalog source strings) matches its golden JSON."""
    name, spec = case
    data = spec.model_dump(mode="json", exclude={"exports": True, "scenario": {
        "model": {"source"}, "hardware": {"source"}}})
    path = GOLDEN / name / "spec.json"
    if os.environ.get("ADVISOR_UPDATE_GOLDEN"):
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    assert data == json.loads(path.read_text())


def test_flags_are_documented(case):
    """No export uses an option its harness does not document."""
    _, spec = case
    for harness, text in spec.exports.items():
        cmds = commands(text)
        assert cmds, f"{harness}: no commands"
        for argv in cmds:
            assert argv[:len(PROGRAMS[harness])] == PROGRAMS[harness]
            used = {w for w in argv if w.startswith("--")}
            assert used <= DOCUMENTED[harness], f"{harness}: undocumented {used - DOCUMENTED[harness]}"


def test_guidellm_option_fields(case):
    """GuideLLM key=value fields exist on the models the options validate into."""
    _, spec = case
    for argv in commands(spec.exports["guidellm"]):
        for flag, words in options(argv).items():
            for word in words:
                if flag in GUIDELLM_KEYS and not word.startswith("{"):
                    keys = set(re.findall(r"(?:^|,)(\w+)=", word))
                    assert keys <= GUIDELLM_KEYS[flag], f"{flag}: unknown fields {keys - GUIDELLM_KEYS[flag]}"
                elif word.startswith("{"):
                    json.loads(word)  # nested options must be valid JSON


def _measured(harness: str, argv: list[str]) -> dict:
    """What one command sends: level, requests, warm-up, prompt mean, prefix, output."""
    o = {k: v[0] if len(v) == 1 else v for k, v in options(argv).items()}
    if harness == "vllm":
        prefix = int(o["--random-prefix-len"])
        return dict(c=int(o["--max-concurrency"]), n=int(o["--num-prompts"]), w=int(o["--num-warmups"]),
                    prefix=prefix, prompt=prefix + int(o["--random-input-len"]), out=int(o["--random-output-len"]))
    if harness == "sglang":
        gsp = o["--dataset-name"] == "generated-shared-prefix"
        prefix = int(o["--gsp-system-prompt-len"]) if gsp else 0
        prompt = prefix + int(o["--gsp-question-len"]) if gsp else int(o["--random-input-len"])
        out = int(o["--gsp-output-len"] if gsp else o["--random-output-len"])
        return dict(c=int(o["--max-concurrency"]), n=int(o["--num-prompts"]), w=int(o["--warmup-requests"]),
                    prefix=prefix, prompt=prompt, out=out)
    if harness == "guidellm":
        prof = json.loads(o["--profile"])
        data = dict(kv.split("=") for kv in o["--data"].split(","))
        count = int(o["--constraint"].split("count=")[1])
        prefix = int(data.get("prefix_tokens", 0))
        return dict(c=prof["streams"][0], n=count - prof["warmup"]["value"], w=prof["warmup"]["value"],
                    prefix=prefix, prompt=prefix + int(data["prompt_tokens"]), out=int(data["output_tokens"]))
    prefix = int(o.get("--prefix-prompt-length", 0))
    return dict(c=int(o["--concurrency"]), n=int(o["--request-count"]), w=int(o["--warmup-request-count"]),
                prefix=prefix, prompt=prefix + int(o["--isl"]), out=int(o["--osl"]))


def test_harnesses_send_the_same_work(case):
    """Per run and level, all four plans send the same counts, prefix, prompt mean and output."""
    _, spec = case
    expected = [dict(c=lv.concurrency, n=lv.requests, w=lv.warmup, prefix=r.shared_prefix_tokens,
                     prompt=r.input.mean, out=r.output.mean)
                for r in spec.workload.runs for lv in r.levels]
    for harness in HARNESSES:
        got = [_measured(harness, argv) for argv in commands(spec.exports[harness])]
        want = expected if harness != "guidellm" else \
            [e for e, (r, _) in zip(expected, _levels(spec)) if not r.lora_adapters]
        assert got == want, harness


def _levels(spec):
    return [(r, lv) for r in spec.workload.runs for lv in r.levels]


def _output_spread(harness: str, argv: list[str]) -> float:
    """How far a command lets output length stray from its mean (0 = fixed)."""
    o = options(argv)
    if harness == "vllm":  # one ratio r: [len*(1-r), len*(1+r)] for input and output
        return float(o["--random-range-ratio"][0])
    if harness == "sglang":  # generated-shared-prefix is fixed; random draws [len*r, len]
        return 0.0 if "--gsp-output-len" in o else 1.0 - float(o["--random-range-ratio"][0])
    if harness == "aiperf":
        return float(o["--osl-stddev"][0])
    fields = {kv.split("=")[0] for d in o["--data"] for kv in d.split(",")}
    return float(bool(fields & {"output_tokens_stdev", "output_tokens_min", "output_tokens_max"}))


def test_output_length_is_fixed_everywhere(case):
    """Every harness keeps output at the planned length (the spec's fixed-output promise)."""
    _, spec = case
    for harness in HARNESSES:
        spreads = {_output_spread(harness, argv) for argv in commands(spec.exports[harness])}
        assert spreads == {0.0}, (harness, spreads)


def test_result_names_carry_engine_run_level(case):
    """Every command writes to `${ENGINE}-<run>-c<level>`, which reconcile parses back."""
    _, spec = case
    for harness in HARNESSES:
        text = spec.exports[harness]
        for r, lv in _levels(spec):
            if harness == "guidellm" and r.lora_adapters:
                continue
            assert f"${{ENGINE}}-{r.id}-c{lv.concurrency}." in text, (harness, r.id, lv.concurrency)


def test_structured_and_lora_runs(fixed_roofline):
    """Structured output frees EOS and asks for JSON; LoRA rotates adapters where the harness can."""
    spec = build_spec(load_profile("rag-4x4090"), decision=DECISION)
    vllm = [a for a in commands(spec.exports["vllm"]) if "--extra-body" in a]
    assert vllm and json.loads(options(vllm[0])["--extra-body"][0]) == {
        "ignore_eos": False, "response_format": {"type": "json_object"}}
    assert "--ignore-eos" not in vllm[0]
    sgl = [a for a in commands(spec.exports["sglang"]) if "--extra-request-body" in a]
    assert sgl and "--disable-ignore-eos" in sgl[0] and "sglang-oai-chat" in sgl[0]
    lora = [a for a in commands(spec.exports["aiperf"]) if "--model-selection-strategy" in a]
    assert lora and options(lora[0])["--model"] == ["lora-1,lora-2,lora-3"]
    assert "cannot rotate requests over LoRA adapters" in spec.exports["guidellm"]
    assert options([a for a in commands(spec.exports["vllm"]) if "--lora-modules" in a][0])[
        "--lora-modules"] == ["lora-1", "lora-2", "lora-3"]


def test_export_one_harness(fixed_roofline):
    """--harness NAME keeps one export; an unknown name is an input error."""
    spec = build_spec(load_profile("minimal-m3"), decision=DECISION, harness="aiperf")
    assert list(spec.exports) == ["aiperf"]
    with pytest.raises(InputError, match="unknown harness 'jmeter'"):
        export_all(spec, "jmeter")
