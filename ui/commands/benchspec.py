"""`advisor benchspec`: a benchmark plan for your workload, and `benchspec reconcile` for results.

    advisor benchspec (--profile FILE | TEXT) [--format yaml|json|markdown] [--harness NAME]
    advisor benchspec reconcile RESULTS... [--profile FILE | TEXT] [--json]

Both forms go through the agent (`agent.api.advise` / `advise_profile`, knowledge retrieval left
out): the plan is the one `advisor ask` gives for the same words, at the same layout and fit.
Import-light at top level: the real work is imported inside `run`.
"""
from __future__ import annotations

import argparse

USAGE = ("advisor benchspec (--profile FILE | TEXT) [--format yaml|json|markdown] "
         "[--harness all|vllm|sglang|guidellm|aiperf]\n"
         "       advisor benchspec reconcile RESULTS... [--profile FILE | TEXT] [--json]")


def add_parser(sub) -> None:
    """Register `advisor benchspec`."""
    p = sub.add_parser(
        "benchspec", usage=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter,
        help="benchmark plan for your workload (vLLM, SGLang, GuideLLM, AIPerf) or reconcile results",
        description="Write a benchmark plan for your real workload: scenario, workload runs, metrics, "
                    "SLOs, pass/fail criteria from the roofline prediction, the benchmarking "
                    "checklist, and equivalent command lines for vllm bench serve, "
                    "python -m sglang.bench_serving, guidellm run and aiperf profile.\n\n"
                    "With 'reconcile', read the JSON results those harnesses wrote (files, or folders "
                    "such as aiperf's --artifact-dir) and compare them with the prediction and the SLOs.")
    p.add_argument("text", nargs="*", metavar="TEXT",
                   help="your situation in words (needs the extractor); after 'reconcile': result "
                        "files or folders (an aiperf --artifact-dir), optionally followed by TEXT")
    p.add_argument("--profile", metavar="FILE", help="a profile as YAML or JSON (flat profile fields, "
                   "or an `advisor ask --json` object)")
    p.add_argument("--format", choices=("yaml", "json", "markdown"), default="yaml",
                   help="output format of the plan (default: yaml)")
    p.add_argument("--harness", choices=("all", "vllm", "sglang", "guidellm", "aiperf"), default="all",
                   help="which harness commands to include (default: all)")
    p.add_argument("--json", action="store_true", help="reconcile: print the report as JSON")


def run(args) -> int:
    """Build the plan, or reconcile results with it."""
    from rules.errors import InputError

    words = list(args.text or [])
    if words and words[0] == "reconcile":
        return _reconcile(args, words[1:])
    if args.json:
        raise InputError("--json belongs to 'benchspec reconcile'; use --format json for the plan")
    advice = _advise(args.profile, " ".join(words))
    from ui.present import spec as spec_text
    from ui.output import print_text
    print_text(_dump(spec_text.with_harness(_spec(advice), args.harness), args.format, advice))
    return 0


def _spec(advice):
    """The advice's benchmark spec, or one line saying why there is none."""
    from rules.errors import InputError
    if advice.benchmark is None:
        raise InputError("no benchmark plan for this situation: " + ("; ".join(advice.tool_notes) or "too little known"))
    return advice.benchmark


def _reconcile(args, words: list[str]) -> int:
    from pathlib import Path

    from rules.benchspec import read_results, reconcile
    from rules.benchspec.render import reconcile_markdown
    from rules.errors import InputError

    # Existing files and folders (an AIPerf --artifact-dir is a folder) are results; the rest is TEXT.
    paths = [w for w in words if Path(w).exists()]
    for w in words:
        if w not in paths and (w.endswith((".json", ".jsonl", ".aiperf")) or "/" in w):
            raise InputError(f"{w}: no such result file or folder")
    text = " ".join(w for w in words if w not in paths)
    if not paths:
        raise InputError("reconcile needs at least one result file (JSON or JSONL) or result folder")
    results = read_results(paths)
    spec = profile = None
    if args.profile or text:
        from agent.sweep import profile_of
        advice = _advise(args.profile, text)
        spec, profile = _spec(advice), profile_of(advice)
    report = reconcile(results, spec=spec, profile=profile)
    from ui.output import print_text
    print_text(report.model_dump_json(indent=2) if args.json else reconcile_markdown(report))
    return 0


def _advise(path: str | None, text: str):
    """The Advice for --profile FILE or TEXT (one of them, not both), without knowledge retrieval."""
    from agent import api
    from rules.errors import InputError

    if path and text:
        raise InputError("give either --profile FILE or TEXT, not both")
    if path:
        return api.advise_profile(_load_profile(path), knowledge=False)
    if text:
        return api.advise(text, knowledge=False)
    raise InputError("describe your situation as TEXT or pass --profile FILE")


def _load_profile(path: str):
    from rules.errors import InputError
    from rules.inputs import load_yaml, read_text
    from rules.profile import build_profile

    data = load_yaml(read_text(path, "profile"), f"profile file {path}")
    if isinstance(data, dict) and isinstance(data.get("profile"), dict):
        data = data["profile"]  # an `advisor ask --json` object
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping of profile fields")
    data = {k: v for k, v in data.items() if k != "assumed"}
    return build_profile(data)


def _dump(spec, fmt: str, advice=None) -> str:
    from ui.present import spec as spec_text
    if fmt == "markdown":   # for people: in the language of the conversation
        return spec_text.advice_markdown(advice, spec) if advice is not None else spec_text.markdown_text(spec)
    return {"json": spec_text.json_text}.get(fmt, spec_text.yaml_text)(spec)
