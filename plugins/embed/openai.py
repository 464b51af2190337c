"""The ``openai`` embedder (an OpenAI-compatible ``/v1/embeddings`` server, ``openai_embedder``)
as a plugin; its code (httpx, numpy) loads when the embedder is first built."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from ctx.core import hookimpl

NAME = "openai"


def openai_factory(options: Mapping[str, Any]) -> Any:
    return importlib.import_module("ctx.plugins.embed.openai_embedder").openai_factory(options)


@hookimpl
def register_embedders(register: Callable[..., None]) -> None:
    register(NAME, openai_factory)
