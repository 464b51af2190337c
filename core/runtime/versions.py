"""Installed versions of distributions: what ``ctx --version`` prints, without loading the plugin
host (pluggy, the async bridge) to find it."""

from __future__ import annotations

import importlib.metadata


def installed_version(dist: str = "ctx-brain") -> str:
    """The installed version of a distribution (ctx itself by default), or "unknown"."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
