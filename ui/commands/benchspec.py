"""`advisor benchspec`: a benchmark plan for your workload, and `benchspec reconcile` for results.

    advisor benchspec (--profile FILE | TEXT) [--format yaml|json|markdown] [--harness NAME]
    advisor benchspec reconcile RESULTS... [--profile FILE | TEXT] [--json]

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
    profile = _profile(args.profile, " ".join(words))
    from rules.benchspec import build_spec
    spec = build_spec(profile, harness=args.harness)
    print(_dump(spec, args.format))
    return 0


def _reconcile(args, words: list[str]) -> int:
    from pathlib import Path

    from rules.benchspec import build_spec, read_results, reconcile
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
    profile = _profile(args.profile, text) if (args.profile or text) else None
    spec = build_spec(profile) if profile is not None else None
    report = reconcile(results, spec=spec, profile=profile)
    print(report.model_dump_json(indent=2) if args.json else reconcile_markdown(report))
    return 0


def _profile(path: str | None, text: str):
    """The profile from --profile FILE or from TEXT (one of them, not both)."""
    from rules.errors import InputError

    if path and text:
        raise InputError("give either --profile FILE or TEXT, not both")
    if path:
        return _load_profile(path)
    if text:
        return _profile_from_text(text)
    raise InputError("describe your situation as TEXT or pass --profile FILE")


def _load_profile(path: str):
    import yaml

    from rules.errors import InputError
    from rules.profile import build_profile

    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not YAML or JSON ({str(exc).splitlines()[0]})") from None
    if isinstance(data, dict) and isinstance(data.get("profile"), dict):
        data = data["profile"]  # an `advisor ask --json` object
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping of profile fields")
    data = {k: v for k, v in data.items() if k != "assumed"}
    return build_profile(data)


def _profile_from_text(text: str):
    from rules.errors import InputError
    from rules.profile import build_profile

    try:
        from agent.extract import extract
    except ImportError:
        raise InputError("reading TEXT needs the extractor (agent/extract.py), which this build "
                         "lacks; pass --profile FILE instead") from None
    found = extract(text)
    values = dict(getattr(found, "values", {}) or {})
    if not values:
        raise InputError("no hardware, model or workload facts found in TEXT; "
                         "describe them or pass --profile FILE")
    evidence = getattr(found, "evidence", {}) or {}
    values["provenance"] = {k: {"evidence": evidence.get(k)} for k in values}
    if getattr(found, "language", None) in ("en", "zh"):
        values.setdefault("language", found.language)
    return build_profile(values)


def _dump(spec, fmt: str) -> str:
    import json

    if fmt == "json":
        return json.dumps(spec.model_dump(mode="json"), indent=2, ensure_ascii=False)
    if fmt == "markdown":
        from rules.benchspec.render import spec_markdown
        return spec_markdown(spec)
    return _yaml(spec.model_dump(mode="json"))


def _yaml(data) -> str:
    import yaml

    class _Dumper(yaml.SafeDumper):
        """Multi-line strings (the exported scripts) as literal blocks."""

    def _str(dumper, value):
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    _Dumper.add_representer(str, _str)
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
