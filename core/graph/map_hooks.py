"""The graph overview and the digest as a plugin of the core: settings, job kinds."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.graph.digest import DIGEST_JOBS, PROMPT
from ctx.core.graph.map_overview import OVERVIEW_JOBS
from ctx.core.hookspecs import hookimpl
from ctx.core.llm import prompt_versions
from ctx.core.runtime import Setting

if TYPE_CHECKING:
    from ctx.core.runtime import JobHandler

SETTINGS = [
    Setting(
        "digest.daily",
        bool,
        False,
        "Write a daily digest per scope: the day after a scope had writes, the workers summarise "
        "them through the digest role (needs a backend with that role).",
    ),
    Setting(
        "digest.max_sources",
        int,
        40,
        "Most blocks one daily digest summarises (the latest of the day when there are more).",
        minimum=1,
        maximum=500,
    ),
    Setting(
        "digest.source_chars",
        int,
        600,
        "Characters of each block the digest model sees (cut on a character boundary).",
        minimum=50,
        maximum=20_000,
    ),
    Setting(
        "digest.prompt_version",
        str,
        "v1",
        "Daily digest prompt: the version of policies/prompts/digest-daily.<version>.md to use.",
        choices=tuple(prompt_versions(PROMPT)),
    ),
]


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(OVERVIEW_JOBS)
    register(DIGEST_JOBS)
