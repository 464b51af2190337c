"""Read typed values from an embedder's options dict, with errors that name the option.

Factories receive plain dicts (from settings, a config file or a test); values may arrive as
strings, so numbers are parsed here, once, with a message a user can act on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ctx.core.errors import ConfigError


def option_str(
    options: Mapping[str, Any], key: str, default: str | None = None, *, embedder: str
) -> str | None:
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ConfigError(
            f"embedder {embedder!r}: option {key!r} must be a string, got {value!r}", field=key
        )
    return value


def require_str(options: Mapping[str, Any], key: str, *, embedder: str) -> str:
    value = option_str(options, key, embedder=embedder)
    if not value:
        raise ConfigError(f"embedder {embedder!r}: option {key!r} is required", field=key)
    return value


def option_int(
    options: Mapping[str, Any],
    key: str,
    default: int | None = None,
    *,
    embedder: str,
    minimum: int = 1,
) -> int | None:
    value = options.get(key)
    if value is None or value == "":
        return default
    try:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError
        number = int(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"embedder {embedder!r}: option {key!r} must be a whole number, got {value!r}",
            field=key,
        ) from None
    if number < minimum:
        raise ConfigError(
            f"embedder {embedder!r}: option {key!r} must be at least {minimum}, got {number}",
            field=key,
        )
    return number


def option_float(
    options: Mapping[str, Any], key: str, default: float | None = None, *, embedder: str
) -> float | None:
    value = options.get(key)
    if value is None or value == "":
        return default
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"embedder {embedder!r}: option {key!r} must be a number, got {value!r}", field=key
        ) from None
    if number < 0:
        raise ConfigError(
            f"embedder {embedder!r}: option {key!r} must not be negative, got {number}", field=key
        )
    return number
