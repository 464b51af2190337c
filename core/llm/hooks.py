"""Model backends as a plugin of the core: the settings, the built-in ``openai`` kind, the
backend and call-log operations and the backends' section of the admin export."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ctx.core.hookspecs import hookimpl
from ctx.core.llm import operations
from ctx.core.llm.backend_transfer import BACKENDS_SECTION
from ctx.core.llm.kinds import BackendKind
from ctx.core.llm.openai_wire import OpenAIClient
from ctx.core.llm.schemas import ROLES
from ctx.core.llm.settings import SETTINGS
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting, TransferSection


def openai_client(row: Mapping[str, Any]) -> OpenAIClient:
    return OpenAIClient(
        str(row.get("base_url") or ""),
        http=row["http"],
        limits=row["limits"],
        api_key=row.get("api_key"),
        name=str(row.get("name") or ""),
    )


OPENAI = BackendKind(
    "openai",
    openai_client,
    roles=ROLES,
    description="The OpenAI wire protocol (llama.cpp, vLLM, Ollama, OpenAI-compatible clouds): "
    "/v1/chat/completions with SSE, /v1/embeddings, /v1/rerank.",
)


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_backend_kinds(register: Callable[[BackendKind], None]) -> None:
    register(OPENAI)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(BACKENDS_SECTION)
