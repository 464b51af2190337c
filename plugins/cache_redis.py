"""An optional shared cache tier in Redis, behind the governor's process LRU.

Off unless ``cache.redis_url`` is set (``redis://host:port/db`` or ``unix:///path/to/redis.sock``);
it needs the ``redis`` package (``pip install 'ctx-brain[redis]'``). PostgreSQL stays
authoritative: the governor's ``TieredCache`` writes each runtime's own key space, sets a time to
live on every key and treats any error from here as a miss, so this module only speaks the wire
protocol. It stores and returns bytes as they are; whoever reads a value validates it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from ctx.core import ConfigError, ExternalCache, Setting, SettingCheck, hookimpl

if TYPE_CHECKING:
    from ctx.core import App

NAME = "redis"
SCHEMES = ("redis", "unix")
INSTALL_HINT = "pip install 'ctx-brain[redis]'"

SETTINGS = [
    Setting(
        "cache.redis_url",
        str,
        "",
        "The shared cache tier: a redis:// or unix:// URL (empty: off, the process cache only). "
        "Tested against a Redis on loopback or a unix socket; the tier holds copies of what the "
        "database holds, so keep it as close and as private as the database.",
        hot=False,
    ),
    Setting(
        "cache.redis_timeout_s",
        float,
        0.05,
        "Seconds to connect to or read from the Redis tier before a request counts as a miss; "
        "small, so the tier never slows a prompt more than a database read would.",
        hot=False,
        minimum=0.005,
        maximum=5.0,
    ),
]


def redis_url_problem(get: Callable[[str], Any]) -> str | None:
    url = str(get("cache.redis_url"))
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        return (
            f"cache.redis_url must be a redis:// or unix:// URL (such as "
            f"redis://127.0.0.1:6379/0 or unix:///run/redis/redis.sock), not {_redacted(url)!r}"
        )
    if parts.scheme == "redis" and not parts.hostname:
        return "cache.redis_url must name a host, such as redis://127.0.0.1:6379/0"
    if parts.scheme == "unix" and not parts.path:
        return "cache.redis_url must name a socket path, such as unix:///run/redis/redis.sock"
    return None


REDIS_URL_VALID = SettingCheck("cache.redis_url is a redis:// or unix:// URL", redis_url_problem)


def _redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.netloc.rpartition('@')[2]}"
    return urlunsplit(parts._replace(netloc=netloc))


class RedisCache:
    """The ``ExternalCache`` over one ``redis.Redis`` client (thread-safe: it keeps a pool)."""

    name = NAME

    def __init__(self, client: Any, where: str = "redis") -> None:
        self._client = client
        self.where = where

    def __repr__(self) -> str:
        return f"RedisCache({self.where})"

    def get(self, key: str) -> bytes | None:
        value = self._client.get(key)
        return None if value is None else bytes(value)

    def set(self, key: str, value: bytes, ttl_s: int) -> None:
        self._client.set(key, value, ex=max(1, int(ttl_s)))  # never a key without an expiry

    def delete(self, key: str) -> None:
        self._client.delete(key)

    def close(self) -> None:
        self._client.close()


def open_redis(url: str, timeout_s: float) -> RedisCache:
    """A ``RedisCache`` for ``url``; connects lazily, on the first request."""
    problem = redis_url_problem(lambda _key: url)
    if problem:
        raise ConfigError(problem)
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        raise ConfigError(
            f"cache.redis_url is set but the redis package is missing: {INSTALL_HINT}"
        ) from None
    client = redis.Redis.from_url(
        url,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        # No retries: a failed request is a miss and the governor backs off. (Some redis-py
        # versions retry with seconds of back-off by default, longer than a database read.)
        retry=Retry(NoBackoff(), 0),
    )
    return RedisCache(client, where=_redacted(url))


def redis_cache(app: App) -> ExternalCache | None:
    """The ``register_caches`` factory: the tier, or None when ``cache.redis_url`` is empty."""
    url = app.settings["cache.redis_url"]
    if not url:
        return None
    return open_redis(url, float(app.settings["cache.redis_timeout_s"]))


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in SETTINGS:
        register(setting)
    register(REDIS_URL_VALID)


@hookimpl
def register_caches(register: Callable[[str, Callable[[App], ExternalCache | None]], None]) -> None:
    register(NAME, redis_cache)
