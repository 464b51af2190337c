"""The blocks capability's own settings."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.hookspecs import hookimpl
from ctx.core.runtime import Setting


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    register(
        Setting(
            "search.default_limit",
            int,
            10,
            "Results of /api/search when no limit is given.",
            minimum=1,
            maximum=100,
        )
    )
