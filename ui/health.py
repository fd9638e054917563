"""Liveness and readiness for the web app, for load balancers and orchestrators.

    GET /healthz   200 while the process serves requests (liveness: restart it when this fails)
    GET /readyz    200 when the conversation store, the checkpointer and the knowledge index all
                   answer, else 503 naming what failed (readiness: send it no users until then)

Both answer JSON: {"ok": bool, "checks": {part: "ok" | what is wrong}}. A check may pass with a
note ("ok: …"): a replica that still holds a copy of the knowledge collection keeps serving from
it while the Chroma server is away.
"""
from __future__ import annotations

from typing import Any


def readiness(advisor: Any) -> dict[str, Any]:
    """Every readiness check of this process and whether all passed."""
    from knowledge import retrieve

    checks: dict[str, str] = {}
    try:
        checks.update(advisor.store.checks())
    except Exception as exc:   # a store that cannot even report is not ready
        checks["conversation_store"] = f"{type(exc).__name__}: {exc}"[:200]
    checks["knowledge_index"] = retrieve.health()
    return {"ok": all(v == "ok" or v.startswith("ok: ") for v in checks.values()), "checks": checks}


def add_routes(app: Any, advisor: Any) -> None:
    """Register /healthz and /readyz on a FastAPI app (the one Gradio is mounted on)."""
    from fastapi.responses import JSONResponse

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> JSONResponse:
        return JSONResponse({"ok": True})

    @app.get("/readyz", include_in_schema=False)
    def readyz() -> JSONResponse:
        body = readiness(advisor)
        return JSONResponse(body, status_code=200 if body["ok"] else 503)
