"""The command line as a plugin of ctx: the settings of the agent hooks (``hooks.*``).

``hooks.py`` in a ctx package is always that package's pluggy plugin; the Claude Code hook
commands (``ctx brief|recall|persist|statusline``) live in ``agent_hooks``.
"""

from __future__ import annotations

from collections.abc import Callable

from ctx.core import Setting, hookimpl
from ctx.ui.cli.agent_settings import SETTINGS


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)
