"""The version the server reports (/health, OpenAPI)."""

from __future__ import annotations

import importlib.metadata

try:
    VERSION = importlib.metadata.version("ctx-brain")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - not installed
    VERSION = "unknown"
