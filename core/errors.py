"""Errors a user or operator can cause; each carries a message that says what to do."""

from __future__ import annotations

from collections.abc import Callable


class CtxError(Exception):
    """Base class: a problem with a clear message, never shown with a traceback."""

    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class ValidationError(CtxError):
    status_code = 422
    code = "invalid"


class NotFound(CtxError):
    status_code = 404
    code = "not_found"


class Ambiguous(CtxError):
    status_code = 409
    code = "ambiguous"


class Forbidden(CtxError):
    status_code = 403
    code = "forbidden"


class Unauthorized(CtxError):
    status_code = 401
    code = "unauthorized"


class PluginError(CtxError):
    """Invalid plugin set-up: stops start-up with one message listing every problem."""

    code = "plugin_error"


class ConfigError(CtxError):
    code = "config_error"


class DatabaseError(CtxError):
    """PostgreSQL cannot be reached (not started, restarting, refusing connections);
    ``retry_after`` seconds, when given, is when a retry may succeed."""

    status_code = 503
    code = "database_unavailable"

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class StorageFull(CtxError):
    """The database ran out of disk space: the write was rolled back whole."""

    status_code = 507
    code = "storage_full"


class EmbeddingError(CtxError):
    """An embedder failed or returned a vector that fails the quality gate."""

    status_code = 502
    code = "embedding_failed"


class Conflict(CtxError):
    """The change would collide with something that exists (two blocks with one key, say)."""

    status_code = 409
    code = "conflict"


class TooLarge(CtxError):
    status_code = 413
    code = "too_large"


class RateLimited(CtxError):
    """Too many requests of a kind in a window; ``retry_after`` seconds until one is allowed."""

    status_code = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))


def error_text(exc: BaseException, other: Callable[[BaseException], str] = repr) -> str:
    """What to say about an exception: a ``CtxError``'s own message, anything else through
    ``other`` (``repr`` by default: the type name helps in a log)."""
    return exc.message if isinstance(exc, CtxError) else other(exc)
