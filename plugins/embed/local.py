"""The in-process embedders as a plugin: ``minilm`` and ``e5`` (``local_models``), and the
``local`` backend kind that serves them to the embed role.

Registering them loads nothing: their code (numpy, ONNX Runtime, the weights) loads when an
embedder is first built, so a process that never embeds (a command talking to ctxd) never pays.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ctx.core import BackendKind, hookimpl

MODELS = "ctx.plugins.embed.local_models"


def _on_first_use(name: str) -> Callable[..., Any]:
    """A factory that imports the implementation when it is first called."""

    def factory(options: Any) -> Any:
        return getattr(importlib.import_module(MODELS), name)(options)

    factory.__name__ = name
    return factory


@hookimpl
def register_embedders(register: Callable[..., None]) -> None:
    register("minilm", _on_first_use("minilm_factory"))
    register("e5", _on_first_use("e5_factory"))


@hookimpl
def register_backend_kinds(register: Callable[..., None]) -> None:
    register(
        BackendKind(
            "local",
            _on_first_use("local_backend"),
            roles=("embed",),
            description="In-process models (no server): the e5 and minilm embedders.",
            needs_url=False,
        )
    )
