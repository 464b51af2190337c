"""Anonymous liveness: whether the database answers, and nothing else (the version is behind a
key, at /api/version)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ctx.ui.api.deps import AppDep

router = APIRouter(tags=["health"])


@router.get("/health", name="health")
def health(app: AppDep) -> JSONResponse:
    try:
        with app.connection() as conn:
            conn.execute("SELECT 1")
    except Exception:
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"})
