"""Environment switches that keep third-party libraries from reaching the internet.

Called before litellm, gradio, chromadb or huggingface code is imported; `setdefault` so a user
can still opt in explicitly.
"""
from __future__ import annotations

import os

OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "GRADIO_ANALYTICS_ENABLED": "False",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_OFFLINE": "1",
    "ANONYMIZED_TELEMETRY": "False",   # chromadb's posthog client
    "TOKENIZERS_PARALLELISM": "false",
    "OMP_WAIT_POLICY": "PASSIVE",      # OpenMP code spinning idle threads starves a 2-core box
}


def apply() -> None:
    """Set the offline defaults in this process's environment."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
