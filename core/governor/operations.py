"""The governor's operations and chat, each declared once: the REST routes, the MCP tools a client
that owns its model call governs with, and the commands derive from these declarations
(``ctx.core.operations``). Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.governor.schemas import (
    ChatSessionRequest,
    ChatSessionsRequest,
    ChatTurnRequest,
    CommitRequest,
    FlushRequest,
    IngestRequest,
    PrepareRequest,
    PromoteRequest,
    ProtectRequest,
    ReleaseRequest,
    StatusRequest,
    ThreadsRequest,
)
from ctx.core.operations import Answer, Operation, Rest, Tool

SERVICE = "ctx.core.governor.service"
GOVERNOR_ERRORS = {
    400: "The token counter named is unknown or cannot be used here.",
    404: "No such thread in the key's scopes, or no such event or block.",
}
CHAT_ERRORS = {
    404: "No such chat session for this key.",
    409: "No model backend serves the chat role now; the message names the fix.",
}


def _governor(path: str, method: str = "POST") -> Rest:
    return Rest(method, f"/api/governor/{path}", errors=GOVERNOR_ERRORS)


def _chat(path: str, method: str = "GET", answer: Answer = "json") -> Rest:
    return Rest(method, f"/api/chat/{path}", answer=answer, errors=CHAT_ERRORS, tags=("chat",))


GOVERNOR_PREPARE = Operation(
    name="governor.prepare",
    summary="Record a thread's incoming event and build the envelope to send to the model.",
    description="Store the incoming event (before anything else), then return the messages to "
    "send to the model: system prompt, protected items, a reading desk retrieved for the focus "
    "and the recent ring, never more than ``budget`` tokens (framing included). With "
    "``strict``, first wait (up to ``timeout_s``) until everything recorded in the thread is "
    "indexed.",
    service=f"{SERVICE}:prepare_envelope",
    input=PrepareRequest,
    kind=("write", "read"),  # stores the event, builds a desk
    rest=_governor("prepare"),
    tool=Tool(
        "governor_prepare",
        "Record the incoming turn of a thread (collection + session_id) and get back the "
        "messages to send to your model: system prompt, protected items, relevant memory and "
        "the recent turns, never more than `budget` tokens. Send exactly `messages`; then call "
        "governor_commit with the model's answer.",
    ),
)

GOVERNOR_COMMIT = Operation(
    name="governor.commit",
    summary="Store the model's answer or a tool's result in the thread.",
    service=f"{SERVICE}:commit_event",
    input=CommitRequest,
    kind="write",
    reach="home",
    rest=_governor("commit"),
    tool=Tool(
        "governor_commit",
        "Store the model's answer (role assistant) or a tool's result (role tool) in the thread.",
    ),
)

GOVERNOR_PROTECT = Operation(
    name="governor.protect",
    summary="Pin items (an event, a block, text) so every envelope of the thread keeps them.",
    service=f"{SERVICE}:protect_items",
    input=ProtectRequest,
    kind="write",
    rest=_governor("protect"),
    tool=Tool(
        "governor_protect",
        "Pin items to a thread so every envelope keeps them: an event (seq), a block "
        "(block_id) or text (content, label).",
    ),
)

GOVERNOR_RELEASE = Operation(
    name="governor.release",
    summary="Unpin items of the thread (by pin id, or all).",
    service=f"{SERVICE}:release_pins",
    input=ReleaseRequest,
    kind="write",
    reach="home",
    rest=_governor("release"),
    tool=Tool(
        "governor_release",
        "Unpin protected items of a thread (by pin id, or all).",
        destructive=True,
    ),
)

GOVERNOR_STATUS = Operation(
    name="governor.status",
    summary="A thread's watermarks, index queue, work ring, cache, pins and last envelope.",
    description="Watermarks (recorded, indexed, embedded), the index queue's health, the work "
    "ring, the cache, the pins and what filled the last envelope.",
    service=f"{SERVICE}:thread_status",
    input=StatusRequest,
    rest=_governor("status"),
    tool=Tool(
        "governor_status",
        "A thread's watermarks (recorded, indexed, embedded), indexing queue, pins and what "
        "filled its last envelope.",
    ),
    cli=True,
)

GOVERNOR_FLUSH = Operation(
    name="governor.flush",
    summary="Wait until everything recorded in the thread is indexed, up to ``timeout_s``.",
    description="Wait until everything recorded in the thread is indexed, up to ``timeout_s``; "
    "the answer says whether the timeout was hit.",
    service=f"{SERVICE}:flush_thread",
    input=FlushRequest,
    # it writes nothing (it waits for the index), as its tool always said
    kind="read",
    rest=_governor("flush"),
    tool=Tool(
        "governor_flush",
        "Wait until everything recorded in a thread is indexed (bounded by timeout_s).",
        idempotent=True,
    ),
    cli=True,
)

GOVERNOR_PROMOTE = Operation(
    name="governor.promote",
    summary="Copy a record of the thread to the project (its collection) or a team scope, "
    "keeping its provenance.",
    service=f"{SERVICE}:promote_record",
    input=PromoteRequest,
    kind="write",
    rest=_governor("promote"),
)

GOVERNOR_INGEST = Operation(
    name="governor.ingest",
    summary="A document into the thread (records only its desk reads) or into its project.",
    service=f"{SERVICE}:ingest_document",
    input=IngestRequest,
    kind="write",
    reach="home",
    rest=_governor("ingest"),
)

GOVERNOR_THREADS = Operation(
    name="governor.threads",
    summary="Threads in the key's readable scopes (or one collection), most recently active first.",
    service=f"{SERVICE}:governed_threads",
    input=ThreadsRequest,
    rest=_governor("threads", "GET"),
    cli=True,
)

CHAT_TURN = Operation(
    name="governor.chat",
    summary="One governed chat turn in which the model may call ctx's tools, streamed as "
    "server-sent events.",
    description="One chat turn of the key's session (a new one when ``session`` is left out), "
    "governed (the envelope stays within ``budget``) and answered by the chat backend, which may "
    "call the tools query, search, get and store as the key. Events: ``session`` (``{id}``), "
    "then per tool call ``tool_call`` (``{name, arguments}``) and ``tool_result`` (``{name, ok, "
    "summary}``), ``token`` (``{text}``) as the model writes, and ``done`` (``{backend, model, "
    "citations, usage, seq, text}``) once the answer is stored in the session, or ``error`` "
    "(``{message}``).",
    service=f"{SERVICE}:chat_turn",
    input=ChatTurnRequest,
    kind=("write", "model"),
    rest=_chat("stream", "POST", "events"),
)

CHAT_SESSIONS = Operation(
    name="governor.chat-sessions",
    summary="The key's chat sessions, most recently active first.",
    description="The key's chat sessions (threads of its home scope with a ``chat-`` id), most "
    "recently active first, with their first message as title and the time of the last message.",
    service=f"{SERVICE}:list_chat_sessions",
    input=ChatSessionsRequest,
    reach="home",
    rest=_chat("sessions"),
)

CHAT_SESSION = Operation(
    name="governor.chat-session",
    summary="A chat session's turns, oldest first.",
    description="A session's turns, oldest first: the user's messages and the answers, each "
    "answer with the backend and model, the blocks it was shown and its tool calls.",
    service=f"{SERVICE}:read_chat_session",
    input=ChatSessionRequest,
    reach="home",
    rest=_chat("sessions/{session}"),
)
