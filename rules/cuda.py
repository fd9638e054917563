"""Which CUDA toolkit a GPU generation needs (rules/catalog/cuda.yaml, each entry with its source).

    min_toolkit(12.0) -> Toolkit(cuda_cc=12.0, min_cuda="12.8", ...)   None when the catalog has no entry
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

CATALOG_FILE = Path(__file__).parent / "catalog" / "cuda.yaml"


class Toolkit(BaseModel):
    """The oldest CUDA toolkit that builds kernels for one compute capability."""

    model_config = ConfigDict(extra="forbid")
    cuda_cc: float
    min_cuda: str
    note: str
    source: str


@lru_cache(maxsize=1)
def _toolkits() -> tuple[Toolkit, ...]:
    data = yaml.safe_load(CATALOG_FILE.read_text(encoding="utf-8"))
    return tuple(Toolkit.model_validate(t) for t in data["toolkits"])


def min_toolkit(cuda_cc: float | str | None) -> Toolkit | None:
    """The catalog entry for exactly this compute capability (None: no documented requirement)."""
    try:
        cc = float(cuda_cc) if cuda_cc is not None else None
    except (TypeError, ValueError):
        return None
    return next((t for t in _toolkits() if cc is not None and abs(t.cuda_cc - cc) < 1e-6), None)
