"""Model backends: the pool of servers ctx does not host, their roles, trust and the calls.

A backend row (``context_backends``) names its kind (a plugin; ``openai`` is built in), base URL,
roles, model map, priority, trust level and secret. ``BackendPool.chain(role)`` orders the
backends a role may use; ``calls`` walks that chain with the trust gate in front of every request
and logs each attempt.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.llm.answers import fence, first_json, strip_reasoning
    from ctx.core.llm.backends import (
        Backend,
        create_backend,
        delete_backend,
        get_backend,
        list_backends,
        update_backend,
    )
    from ctx.core.llm.calllog import (
        OUTCOMES,
        CallRecord,
        check_log_filters,
        log_summary,
        read_log,
        record_call,
    )
    from ctx.core.llm.calls import Reply, available, chat, embed, rerank, stream
    from ctx.core.llm.completions import ChatResult, ToolCall
    from ctx.core.llm.errors import InvalidResponse, ModelError, ModelTimeout, NoBackend
    from ctx.core.llm.gate import SENSITIVITY_ORDER, TRUST_LEVELS, Piece, admit, may_see
    from ctx.core.llm.kinds import BackendFactory, BackendKind, backend_kinds
    from ctx.core.llm.openai_wire import TIMEOUT_PARAM, Limits, OpenAIClient
    from ctx.core.llm.operations import (
        CALL_LOG,
        CREATE_BACKEND,
        DELETE_BACKEND,
        LIST_BACKENDS,
        SHOW_BACKEND,
        TEST_BACKEND,
        UPDATE_BACKEND,
    )
    from ctx.core.llm.pool import BackendPool
    from ctx.core.llm.probe import probe_backend, probe_roles
    from ctx.core.llm.prompts import prompt_versions, render_prompt
    from ctx.core.llm.schemas import (
        ROLES,
        BackendChange,
        BackendCreate,
        BackendFields,
        BackendName,
        CallLogRequest,
        ProbeInput,
        ProbeRequest,
        unknown_roles,
    )
    from ctx.core.llm.service import backend_row, backends_overview, installed_kinds
    from ctx.core.llm.toolchat import ToolChat, ToolRound

__all__ = [
    "CALL_LOG",
    "CREATE_BACKEND",
    "DELETE_BACKEND",
    "LIST_BACKENDS",
    "OUTCOMES",
    "ROLES",
    "SENSITIVITY_ORDER",
    "SHOW_BACKEND",
    "TEST_BACKEND",
    "TIMEOUT_PARAM",
    "TRUST_LEVELS",
    "UPDATE_BACKEND",
    "Backend",
    "BackendChange",
    "BackendCreate",
    "BackendFactory",
    "BackendFields",
    "BackendKind",
    "BackendName",
    "BackendPool",
    "CallLogRequest",
    "CallRecord",
    "ChatResult",
    "InvalidResponse",
    "Limits",
    "ModelError",
    "ModelTimeout",
    "NoBackend",
    "OpenAIClient",
    "Piece",
    "ProbeInput",
    "ProbeRequest",
    "Reply",
    "ToolCall",
    "ToolChat",
    "ToolRound",
    "admit",
    "available",
    "backend_kinds",
    "backend_row",
    "backends_overview",
    "chat",
    "check_log_filters",
    "create_backend",
    "delete_backend",
    "embed",
    "fence",
    "first_json",
    "get_backend",
    "installed_kinds",
    "list_backends",
    "log_summary",
    "may_see",
    "probe_backend",
    "probe_roles",
    "prompt_versions",
    "read_log",
    "record_call",
    "render_prompt",
    "rerank",
    "stream",
    "strip_reasoning",
    "unknown_roles",
    "update_backend",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
