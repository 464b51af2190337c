"""The cache tiers in front of the database: a process LRU with a byte limit, then an optional
external tier (Redis, through a plugin). The database is authoritative: every cached value can be
rebuilt from it, a miss or a failing tier only costs time, and each runtime writes its own
versioned key space, so a restart never reads what an earlier process left behind.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.governor.cache")


@runtime_checkable
class ExternalCache(Protocol):
    """A disposable shared tier. Every method may raise: the caller treats that as a miss."""

    name: str

    def get(self, key: str) -> bytes | None: ...
    def set(self, key: str, value: bytes, ttl_s: int) -> None: ...
    def delete(self, key: str) -> None: ...
    def close(self) -> None: ...


#: ``factory(app)`` returns the tier, or None when it is not configured (its setting is empty).
CacheFactory = Callable[["App"], "ExternalCache | None"]


class ByteLRU:
    """A thread-safe LRU of bytes values bounded by their total size (keys and values)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max(0, int(max_bytes))
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    @staticmethod
    def _size(key: str, value: bytes) -> int:
        return len(key) + len(value) + 64  # the entry's own bookkeeping, roughly

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def set(self, key: str, value: bytes) -> None:
        size = self._size(key, value)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= self._size(key, old)
            if size > self.max_bytes:
                return  # larger than the whole cache: not kept
            self._items[key] = value
            self._bytes += size
            while self._bytes > self.max_bytes and self._items:
                k, v = self._items.popitem(last=False)
                self._bytes -= self._size(k, v)
                self.evictions += 1

    def delete(self, key: str) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= self._size(key, old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {
                "entries": len(self._items),
                "bytes": self._bytes,
                "max_bytes": self.max_bytes,
                "hits": self.hits,
                "misses": self.misses,
                "evictions": self.evictions,
            }


class TieredCache:
    """Process LRU, then the external tier; a failing external tier is skipped for
    ``backoff_s`` seconds and its failures counted."""

    def __init__(
        self,
        max_bytes: int,
        external: ExternalCache | None = None,
        ttl_s: int = 3600,
        backoff_s: float = 5.0,
    ) -> None:
        self.local = ByteLRU(max_bytes)
        self.external = external
        self.ttl_s = ttl_s
        self.backoff_s = backoff_s
        #: each runtime has its own key space: nothing an earlier process wrote is read
        self.space = uuid.uuid4().hex[:12]
        self._down_until = 0.0
        self.external_errors = 0
        self.external_hits = 0

    def _key(self, key: str) -> str:
        return f"ctx:{self.space}:{key}"

    def _external(self) -> ExternalCache | None:
        if self.external is None or time.monotonic() < self._down_until:
            return None
        return self.external

    def _failed(self, what: str, exc: Exception) -> None:
        self.external_errors += 1
        self._down_until = time.monotonic() + self.backoff_s
        log.warning("cache tier %s failed on %s (%s); using the database", self.external, what, exc)

    def get(self, key: str) -> bytes | None:
        value = self.local.get(key)
        if value is not None:
            return value
        tier = self._external()
        if tier is None:
            return None
        try:
            value = tier.get(self._key(key))
        except Exception as exc:
            self._failed("get", exc)
            return None
        if value is not None:
            self.external_hits += 1
            self.local.set(key, value)
        return value

    def set(self, key: str, value: bytes) -> None:
        self.local.set(key, value)
        tier = self._external()
        if tier is not None:
            try:
                tier.set(self._key(key), value, self.ttl_s)
            except Exception as exc:
                self._failed("set", exc)

    def delete(self, key: str) -> None:
        self.local.delete(key)
        tier = self._external()
        if tier is not None:
            try:
                tier.delete(self._key(key))
            except Exception as exc:
                self._failed("delete", exc)

    def close(self) -> None:
        if self.external is not None:
            try:
                self.external.close()
            except Exception as exc:
                log.warning("closing cache tier failed: %s", exc)

    def stats(self) -> dict[str, object]:
        out: dict[str, object] = {"process": self.local.stats()}
        if self.external is not None:
            out["external"] = {
                "name": getattr(self.external, "name", "external"),
                "hits": self.external_hits,
                "errors": self.external_errors,
                "space": self.space,
            }
        return out
