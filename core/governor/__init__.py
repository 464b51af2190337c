"""The context governor: bounded prompt envelopes over durable thread events.

``prepare`` stores an event (event row and outbox job in one transaction) before anything else,
then returns a message list inside a token budget: system prompt, protected items, the recent
ring and a reading desk retrieved from the store. ``commit`` stores the model's or a tool's
result. Threads are ``(collection, session_id)``; a collection is a ctx scope, so API keys decide
who may govern, read or promote what.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.governor.cache import ByteLRU, CacheFactory, ExternalCache, TieredCache
    from ctx.core.governor.chat import ChatTurn, is_chat_session, new_session, start_turn
    from ctx.core.governor.chatlog import chat_history, chat_sessions
    from ctx.core.governor.envelope import DeskItem, Pin, build, event_message
    from ctx.core.governor.events import INDEX_KIND, Event
    from ctx.core.governor.governor import Governor
    from ctx.core.governor.indexer import INDEX_HANDLER, RECORD_TYPE, WorkRing
    from ctx.core.governor.operations import (
        CHAT_SESSION,
        CHAT_SESSIONS,
        CHAT_TURN,
        GOVERNOR_COMMIT,
        GOVERNOR_FLUSH,
        GOVERNOR_INGEST,
        GOVERNOR_PREPARE,
        GOVERNOR_PROMOTE,
        GOVERNOR_PROTECT,
        GOVERNOR_RELEASE,
        GOVERNOR_STATUS,
        GOVERNOR_THREADS,
    )
    from ctx.core.governor.promotion import chunks, ingest, promote
    from ctx.core.governor.schemas import (
        CHAT_PREFIX,
        CHAT_ROLE,
        ChatSessionRequest,
        ChatSessionsRequest,
        ChatTurnRequest,
        CommitRequest,
        EventIn,
        FlushRequest,
        IngestRequest,
        PinIn,
        PrepareRequest,
        PromoteRequest,
        ProtectRequest,
        ReleaseRequest,
        StatusRequest,
        ThreadRef,
        ThreadsRequest,
    )
    from ctx.core.governor.threads import CATEGORY_PREFIX, Thread, category_for
    from ctx.core.governor.tokens import (
        CounterChoice,
        TokenCounter,
        choose_counter,
        count_messages,
        message_tokens,
        token_counters,
        upper_bound,
    )

__all__ = [
    "CATEGORY_PREFIX",
    "CHAT_PREFIX",
    "CHAT_ROLE",
    "CHAT_SESSION",
    "CHAT_SESSIONS",
    "CHAT_TURN",
    "GOVERNOR_COMMIT",
    "GOVERNOR_FLUSH",
    "GOVERNOR_INGEST",
    "GOVERNOR_PREPARE",
    "GOVERNOR_PROMOTE",
    "GOVERNOR_PROTECT",
    "GOVERNOR_RELEASE",
    "GOVERNOR_STATUS",
    "GOVERNOR_THREADS",
    "INDEX_HANDLER",
    "INDEX_KIND",
    "RECORD_TYPE",
    "ByteLRU",
    "CacheFactory",
    "ChatSessionRequest",
    "ChatSessionsRequest",
    "ChatTurn",
    "ChatTurnRequest",
    "CommitRequest",
    "CounterChoice",
    "DeskItem",
    "Event",
    "EventIn",
    "ExternalCache",
    "FlushRequest",
    "Governor",
    "IngestRequest",
    "Pin",
    "PinIn",
    "PrepareRequest",
    "PromoteRequest",
    "ProtectRequest",
    "ReleaseRequest",
    "StatusRequest",
    "Thread",
    "ThreadRef",
    "ThreadsRequest",
    "TieredCache",
    "TokenCounter",
    "WorkRing",
    "build",
    "category_for",
    "chat_history",
    "chat_sessions",
    "choose_counter",
    "chunks",
    "count_messages",
    "event_message",
    "ingest",
    "is_chat_session",
    "message_tokens",
    "new_session",
    "promote",
    "start_turn",
    "token_counters",
    "upper_bound",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
