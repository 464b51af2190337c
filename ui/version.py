"""The version the server reports (/health, OpenAPI)."""

from __future__ import annotations

from ctx.core.runtime import installed_version

VERSION = installed_version()
