"""Read harness result files (JSON or JSON Lines, or folders of them) into `RunResult`s; the
harness is detected."""
from __future__ import annotations

import json
from typing import Any

from rules.benchspec.readers import aiperf, guidellm, sglang, vllm
from rules.benchspec.readers.base import RunResult
from rules.benchspec.readers.locate import result_files
from rules.errors import InputError

# Order matters only for objects that could pass two tests; the markers are disjoint in practice.
READERS = (("aiperf", aiperf), ("guidellm", guidellm), ("vllm", vllm), ("sglang", sglang))

__all__ = ["RunResult", "read_file", "read_results"]


def _objects(path: str) -> list[Any]:
    """The JSON document, or every line of a JSON Lines file."""
    from rules.inputs import read_text
    text = read_text(path, "result", limit=512 * 2**20)   # not UTF-8, a folder, unreadable: one line
    if not text.strip():
        raise InputError(f"{path}: the file is empty")
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: not JSON or JSON Lines (line {n}: {exc.msg})") from None
            except RecursionError:
                raise InputError(f"{path}: JSON nested too deeply (line {n})") from None
    return out


def read_file(path: str) -> list[RunResult]:
    """Every result in one file; InputError names the file when it cannot be used."""
    results: list[RunResult] = []
    for obj in _objects(path):
        if not isinstance(obj, dict):
            raise InputError(f"{path}: expected a JSON object per result, found {type(obj).__name__}")
        for _name, reader in READERS:
            if reader.looks_like(obj):
                results += reader.read(path, obj)
                break
        else:
            raise InputError(
                f"{path}: not a result of vllm bench serve, sglang.bench_serving, guidellm or aiperf "
                "(expected median_ttft_ms with model_id or dataset_name, a guidellm 'benchmarks' "
                "list, or aiperf metric blocks such as time_to_first_token)")
    return results


def read_results(paths: list[str]) -> list[RunResult]:
    """Results of every file, in the order given; a folder contributes the result files inside."""
    if not paths:
        raise InputError("no result files given")
    return [r for p in paths for f in result_files(str(p)) for r in read_file(f)]
