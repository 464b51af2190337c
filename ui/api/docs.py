"""Interactive API docs at /docs, served entirely from this server (Swagger UI is vendored under
``static/swagger-ui-<version>/``), so they work offline and under a strict CSP."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

STATIC = Path(__file__).resolve().parent / "static"  # resolved: editable installs link files
SWAGGER = "swagger-ui-5.35.0"
STATIC_URL = "/-/static/api"
# Swagger UI sets inline styles on its elements; scripts still come from this server only.
DOCS_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)

PAGE = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>ctx API</title>
  <link rel="stylesheet" href="{STATIC_URL}/{SWAGGER}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{STATIC_URL}/{SWAGGER}/swagger-ui-bundle.js"></script>
  <script src="{STATIC_URL}/docs.js"></script>
</body>
</html>
"""

router = APIRouter(tags=["docs"])


@router.get("/docs", include_in_schema=False)
def docs() -> HTMLResponse:
    return HTMLResponse(PAGE, headers={"content-security-policy": DOCS_CSP})
