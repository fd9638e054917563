"""Helpers for the benchspec tests: profiles, a fixed roofline stand-in, script parsing.

The roofline and the rule engine belong to other areas and are recalibrated over time; these
tests pin benchspec's own logic, so predictions and the engine shortlist are fixed here.
"""
from __future__ import annotations

import shlex
from pathlib import Path

import yaml

from rules.profile import Profile, build_profile

HERE = Path(__file__).parent
PROFILES = HERE / "profiles"
RESULTS = HERE / "results"
GOLDEN = HERE / "golden"
DECISION = {"primary": "vllm", "alternatives": ["sglang"]}


def load_profile(name: str) -> Profile:
    """A profile from tests/benchspec/profiles/<name>.yaml."""
    return build_profile(yaml.safe_load((PROFILES / f"{name}.yaml").read_text()))


def fake_estimate(profile: Profile, engine: str | None, concurrency: int, notes: list[str], layout=None) -> dict:
    """A deterministic stand-in for the roofline: per-stream decode falls with concurrency."""
    bound = 200.0 / (1 + concurrency / 50)
    return {"fits": True, "decode_tokens_per_s_bound": round(bound, 2),
            "decode_tokens_per_s": round(0.5 * bound, 2), "prefill_tokens_per_s": 20000.0,
            "ttft_s": 0.2, "tpot_ms": round(1000 / (0.5 * bound), 2), "max_concurrency": 100,
            "binding_constraint": "memory bandwidth", "weights_gb": 40.0, "kv_bytes_per_token": 1000}


def commands(script: str) -> list[list[str]]:
    """Each command of an exported script as argv words (comments and variables lines skipped)."""
    out, current = [], ""
    for line in script.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        current += line[:-1] + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            words = shlex.split(current)
            if words and words[0] in ("vllm", "python", "guidellm", "aiperf"):
                out.append(words)
            current = ""
    return out


def options(argv: list[str]) -> dict[str, list[str]]:
    """Flag → the words after it, up to the next flag (repeated flags accumulate)."""
    out: dict[str, list[str]] = {}
    flag = None
    for word in argv:
        if word.startswith("--"):
            flag = word
            out.setdefault(flag, [])
        elif flag:
            out[flag].append(word)
    return out
