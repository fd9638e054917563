"""Turn a reconcile argument (a result file or a folder of results) into result files.

AIPerf writes a folder per run (`--artifact-dir`): its summary is `profile_export_aiperf.json`
(AIPerf docs, "Working with Profile Export Files"); the same folder holds per-request records
(`profile_export.jsonl`), the input dataset (`inputs.json`) and a CSV, which are not summaries
and are skipped. The other harnesses write one JSON or JSON Lines file per run, so a folder of
them (the exported plans' `$OUT`) is read file by file.
"""
from __future__ import annotations

from pathlib import Path

from rules.errors import InputError

AIPERF_SUMMARY = "profile_export_aiperf.json"
RESULT_SUFFIXES = (".json", ".jsonl")


def _aiperf_summaries(folder: Path) -> list[Path]:
    # Multi-run AIPerf layouts nest one artifact folder per run below the one given.
    return sorted(folder.rglob(AIPERF_SUMMARY))


def _direct_results(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(RESULT_SUFFIXES))


def in_folder(folder: Path) -> list[Path]:
    """The result files a folder holds; InputError (naming the folder) when there are none."""
    summaries = _aiperf_summaries(folder)
    if (folder / AIPERF_SUMMARY).is_file():
        return summaries  # an AIPerf artifact folder: its other JSON files are not summaries
    if folder.name.endswith(".aiperf") and not summaries:
        raise InputError(f"{folder}: no {AIPERF_SUMMARY} inside (the summary `aiperf profile "
                         "--artifact-dir` writes); did that run finish?")
    found = _direct_results(folder) + summaries
    if not found:
        raise InputError(f"{folder}: no result files inside (expected *.json or *.jsonl from vllm "
                         f"bench serve, sglang.bench_serving or guidellm, or an AIPerf {AIPERF_SUMMARY})")
    return found


def result_files(path: str) -> list[str]:
    """A file as given, or the result files inside a folder."""
    p = Path(path)
    if p.is_dir():
        return [str(f) for f in in_folder(p)]
    return [path]
