"""Requests of the governor's operations (REST, MCP and the Python API take the same models)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator

from ctx.core.access import ScopeName
from ctx.core.blocks import BlockRef, Category, Sensitivity, StoredTime, Tags, Title, required_text
from ctx.core.validation import (
    NOT_BLANK,
    ONE_LINE,
    IsoDate,
    Strict,
    alternatives,
    shaped,
    state_the_rule,
)

Role = Literal["system", "user", "assistant", "tool"]
Visibility = Literal["thread", "project", "team"]


class ThreadRef(Strict):
    """A thread: the collection (a scope; default the key's home scope) and the session id."""

    session_id: str = shaped(
        r"^[^\x00-\x1f]*[^\x00-\x20\s][^\x00-\x1f]*$",
        "must not be empty or contain control characters",
        min_length=1,
        max_length=200,
        description="The conversation's id within the collection.",
    )
    collection: ScopeName | None = Field(
        default=None, description="The thread's scope; defaults to the key's home scope."
    )

    @field_validator("session_id")
    @classmethod
    def _session(cls, v: str) -> str:
        v = required_text(v, "session_id")
        if any(ord(c) < 32 for c in v):
            raise ValueError("session_id must not contain control characters")
        return v


class EventIn(Strict):
    role: Role = Field(default="user", description="user, assistant, tool or system.")
    content: str = shaped(NOT_BLANK, max_length=900_000, description="The event's text.")
    name: str | None = shaped(
        ONE_LINE,
        default=None,
        max_length=100,
        description="Speaker or tool name.",
    )
    occurred_at: StoredTime | None = Field(
        default=None, description="When it happened (default: now); ISO 8601."
    )
    sensitivity: Sensitivity | None = Field(
        default=None,
        description="public, internal, personal or credentials (default: the event type's).",
    )
    meta: dict[str, Any] = Field(
        default_factory=dict, alias="metadata", description="Free-form data kept with the event."
    )

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.strip()
        if not v or "\n" in v:
            raise ValueError("name must be one non-empty line")
        return v


THREAD = "The thread: session_id, and collection (a scope; default the key's home scope)."


class PrepareRequest(Strict):
    thread: ThreadRef = Field(description=THREAD)
    event: EventIn = Field(description="The incoming event; stored before anything else.")
    budget: int | None = Field(
        default=None, ge=64, le=2_000_000, description="Token budget (governor.default_budget)."
    )
    system: str | None = Field(default=None, max_length=200_000, description="System prompt.")
    focus: str | None = Field(
        default=None,
        max_length=2000,
        description="What the desk retrieves for (default: the event's content).",
    )
    strict: bool = Field(
        default=False, description="Wait for the thread's indexed watermark before building."
    )
    timeout_s: float | None = Field(
        default=None, ge=0, le=600, description="Longest strict wait (governor.strict_timeout_s)."
    )
    desk: bool = Field(default=True, description="Retrieve a reading desk (false: ring only).")
    counter: str | None = Field(default=None, max_length=100, description="Token counter name.")
    model: str | None = Field(
        default=None,
        max_length=200,
        description="The model the envelope is for: with the counter 'auto' its own tokenizer "
        "counts (default: the models of the chat backends).",
    )
    now: IsoDate | None = Field(
        default=None, description="Reference day for times the focus names (default: the event's)."
    )


class CommitRequest(Strict):
    thread: ThreadRef = Field(description=THREAD)
    event: EventIn = Field(description="The model's answer (assistant) or a tool's result.")


class PinIn(Strict):
    """One protected item: an event of the thread (seq), a block (block_id) or text."""

    model_config = ConfigDict(json_schema_extra=alternatives(("seq",), ("block_id",), ("content",)))

    seq: int | None = Field(default=None, ge=1, description="An event of the thread.")
    block_id: BlockRef | None = Field(default=None, description="A readable block.")
    content: str | None = shaped(
        NOT_BLANK, default=None, max_length=100_000, description="Pinned text."
    )
    label: str | None = Field(default=None, max_length=200, description="Shown before it.")


class ProtectRequest(Strict):
    thread: ThreadRef = Field(description=THREAD)
    items: list[PinIn] = Field(
        min_length=1, max_length=100, description="What to pin: seq, block_id or content each."
    )


def _release_schema(schema: dict[str, Any], model: Any = None) -> None:
    """Pins to release, or all of them: stated for the schema's readers."""
    state_the_rule(schema, model)
    schema["anyOf"] = [
        {"required": ["pins"], "properties": {"pins": {"minItems": 1}}},
        {"required": ["all"], "properties": {"all": {"const": True}}},
    ]


class ReleaseRequest(Strict):
    model_config = ConfigDict(json_schema_extra=_release_schema)

    thread: ThreadRef = Field(description=THREAD)
    pins: list[int] = Field(default_factory=list, max_length=1000, description="Pin ids.")
    all: bool = Field(default=False, description="Release every pin of the thread.")


class StatusRequest(Strict):
    thread: ThreadRef = Field(description=THREAD)


class FlushRequest(Strict):
    thread: ThreadRef = Field(description=THREAD)
    timeout_s: float | None = Field(
        default=None, ge=0, le=3600, description="Longest wait (governor.flush_timeout_s)."
    )


class PromoteRequest(Strict):
    """Copy a record (by event seq or record id) to a wider visibility, keeping its provenance."""

    model_config = ConfigDict(json_schema_extra=alternatives(("seq",), ("record_id",)))

    thread: ThreadRef = Field(description=THREAD)
    seq: int | None = Field(default=None, ge=1, description="The event's sequence number.")
    record_id: str | None = Field(default=None, max_length=64, description="Or its record's id.")
    visibility: Literal["project", "team"] = "project"
    scope: ScopeName | None = Field(
        default=None, description="The team scope (team visibility); it must be your home scope."
    )
    title: Title | None = None
    category: Category = "memory"
    tags: Tags = Field(default_factory=list, max_length=50)


class IngestRequest(Strict):
    """A document into a thread (its desk only) or its project (the collection scope)."""

    thread: ThreadRef = Field(description=THREAD)
    title: Title
    content: str = Field(max_length=900_000, description="The document's text.")
    visibility: Literal["thread", "project"] = "thread"
    format: Literal["markdown", "text"] = "markdown"
    chunk_chars: int = Field(default=1500, ge=200, le=20_000)
    sensitivity: Sensitivity | None = None


class ThreadsRequest(Strict):
    """The threads a key can see: one collection's, or those of all its readable scopes."""

    collection: ScopeName | None = Field(default=None, description="Only this scope.")
    limit: int = Field(default=50, ge=1, le=500, description="Most threads.")


# -- chat -------------------------------------------------------------------------------------------

#: the role whose backends take the governor's envelopes (the gateway's and the workbench chat's)
CHAT_ROLE = "chat"
CHAT_PREFIX = "chat-"
SESSION_RE = re.compile(r"^chat-[A-Za-z0-9_-]{1,64}$")
SessionText = Annotated[
    str,
    shaped(
        SESSION_RE.pattern,
        "must be 'chat-' followed by 1-64 letters, digits, '-' or '_' (leave it out to start a "
        "new session)",
        max_length=69,
    ),
]


class ChatTurnRequest(Strict):
    """One chat turn: the session (a new one when left out), the user's message, the budget."""

    session: SessionText | None = Field(
        default=None,
        description="The chat session: `chat-` and up to 64 letters, digits, `-` or `_`; a new "
        "session when left out.",
    )
    message: str = shaped(NOT_BLANK, max_length=100_000, description="The user's message.")
    budget: int | None = Field(
        default=None,
        ge=64,
        le=2_000_000,
        description="Token budget of the envelope (default governor.default_budget); tool "
        "definitions and tool results come on top.",
    )

    @field_validator("message")
    @classmethod
    def _message(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("message must not be empty")
        return v

    @field_validator("session")
    @classmethod
    def _session(cls, v: str | None) -> str | None:
        if v is not None and not SESSION_RE.match(v):
            raise ValueError(
                "session must be 'chat-' followed by 1-64 letters, digits, '-' or '_' (leave it "
                "out to start a new session)"
            )
        return v


class ChatSessionsRequest(Strict):
    limit: int = Field(default=50, ge=1, le=500, description="Most sessions.")


class ChatSessionRequest(Strict):
    session: SessionText = Field(
        description="The chat session's id (`chat-` and up to 64 characters)."
    )
    limit: int = Field(default=200, ge=1, le=1000, description="The last this many turns.")
