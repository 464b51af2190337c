"""The backend pool: the rows, one client per backend, cooldowns, and ``chain(role)``.

The pool reads ``context_backends`` on first use and again after ``invalidate`` (the App calls it
on every ``NOTIFY ctx_settings``, which the table's trigger fires), so a change made anywhere
applies without a restart. A backend that fails sits out a cooldown that doubles with each further
failure (``llm.cooldown_seconds`` up to ``llm.cooldown_max_seconds``); a success ends it.
Cooldowns are this process's view: each ctxd learns for itself.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from ctx.core.access import reveal_secret
from ctx.core.errors import CtxError
from ctx.core.llm.backends import (
    Backend,
    create_backend,
    delete_backend,
    host_allowed,
    list_backends,
    update_backend,
)
from ctx.core.llm.errors import ModelError
from ctx.core.llm.openai_wire import Limits

if TYPE_CHECKING:
    from ctx.core.app import App

PRUNE_EVERY = 200


@dataclass
class Cooldown:
    failures: int
    until: float
    reason: str


def operation(role: str) -> str:
    """What a role asks of a server: a chat (every generating role), an embedding or a rerank.
    Cooldowns are per backend and operation, so a server whose /v1/rerank fails still chats."""
    return role if role in ("embed", "rerank") else "chat"


class BackendPool:
    def __init__(self, app: App) -> None:
        self.app = app
        self._lock = threading.RLock()
        self._rows: list[Backend] | None = None
        self._clients: dict[str, tuple[Any, Any]] = {}
        self._cooldowns: dict[tuple[str, str], Cooldown] = {}
        self._http: httpx.Client | None = None
        self._logged = 0

    # -- rows ------------------------------------------------------------------------------------

    def invalidate(self) -> None:
        with self._lock:
            self._rows = None
            self._clients.clear()

    def backends(self) -> list[Backend]:
        with self._lock:
            if self._rows is None:
                with self.app.connection() as conn:
                    self._rows = list_backends(conn)
            return list(self._rows)

    # -- writes ---------------------------------------------------------------------------------
    # The rows through the pool: this app's kinds and allowed hosts, and the pool rebuilt after.

    def create(self, name: str, data: Mapping[str, Any], *, by: str) -> Backend:
        with self.app.connection() as conn:
            b = create_backend(conn, self.app.backend_kinds, name, data, by=by,
                               allowed_hosts=self._allowed())  # fmt: skip
        self.invalidate()
        return b

    def update(self, name: str, changes: Mapping[str, Any], *, by: str) -> Backend:
        with self.app.connection() as conn:
            b = update_backend(conn, self.app.backend_kinds, name, changes, by=by,
                               allowed_hosts=self._allowed())  # fmt: skip
        self.invalidate()
        return b

    def delete(self, name: str) -> Backend:
        with self.app.connection() as conn:
            b = delete_backend(conn, name)
        self.invalidate()
        return b

    def _allowed(self) -> list[str]:
        return [str(h) for h in self.app.settings["llm.allowed_hosts"]]

    def serving(self, role: str) -> list[Backend]:
        """Enabled backends with the role, highest priority first (cooling ones included)."""
        return [b for b in self.backends() if b.enabled and role in b.roles]

    def chain(self, role: str) -> list[Backend]:
        """The backends to try for ``role``, in order: highest priority first, those in
        cooldown left out."""
        now = time.monotonic()
        op = operation(role)
        with self._lock:
            return [
                b
                for b in self.serving(role)
                if (c := self._cooldowns.get((b.name, op))) is None or c.until <= now
            ]

    def why_empty(self, role: str) -> str:
        """Why ``chain(role)`` is empty, in words."""
        serving = self.serving(role)
        if not serving:
            configured = [b for b in self.backends() if role in b.roles]
            if configured:
                return f"every backend with the {role} role is disabled"
            return f"no backend serves the {role} role (add one with `ctx backends create`)"
        now = time.monotonic()
        op = operation(role)
        waits = [
            f"{b.name} for {max(0.0, c.until - now):.0f} s ({c.reason})"
            for b in serving
            if (c := self._cooldowns.get((b.name, op)))
        ]
        return "every backend with the role is cooling down after failures: " + "; ".join(waits)

    # -- health ----------------------------------------------------------------------------------

    def failed(self, name: str, reason: str, role: str = "chat") -> None:
        """A failure of ``name`` at ``role``'s operation: a cooldown, doubling per failure. A
        backend already cooling is not counted again (one outage seen by many calls at once), and
        the count starts over once it has worked, or stayed quiet for the longest cooldown."""
        s = self.app.settings
        key = (name, operation(role))
        now = time.monotonic()
        longest = float(s["llm.cooldown_max_seconds"])
        with self._lock:
            previous = self._cooldowns.get(key)
            if previous is not None and previous.until > now:
                return
            stale = previous is None or now - previous.until > longest
            failures = 1 if stale else previous.failures + 1  # type: ignore[union-attr]
            seconds = min(float(s["llm.cooldown_seconds"]) * 2 ** (failures - 1), longest)
            self._cooldowns[key] = Cooldown(failures, now + seconds, reason[:200])

    def succeeded(self, name: str, role: str = "chat") -> None:
        with self._lock:
            self._cooldowns.pop((name, operation(role)), None)

    def cooldowns(self) -> dict[str, dict[str, Any]]:
        """Backends cooling now: per backend the longest cooldown, and which operations."""
        now = time.monotonic()
        out: dict[str, dict[str, Any]] = {}
        with self._lock:
            for (name, op), c in sorted(self._cooldowns.items(), key=lambda kv: kv[1].until):
                if c.until <= now:
                    continue
                ops = [*out.get(name, {}).get("operations", []), op]
                out[name] = {
                    "failures": c.failures,
                    "seconds_left": round(c.until - now, 1),
                    "reason": c.reason,
                    "operations": ops,
                }
        return out

    def should_prune(self) -> bool:
        with self._lock:
            self._logged += 1
            return self._logged % PRUNE_EVERY == 1

    # -- clients ---------------------------------------------------------------------------------

    def limits(self) -> Limits:
        s = self.app.settings
        return Limits(
            connect=float(s["llm.connect_timeout"]),
            read=float(s["llm.read_timeout"]),
            total=float(s["llm.total_timeout"]),
            max_chars=int(s["llm.max_answer_chars"]),
        )

    @property
    def http(self) -> httpx.Client:
        """The one HTTP connection pool every backend client shares."""
        with self._lock:
            if self._http is None:
                n = int(self.app.settings["llm.max_connections"])
                self._http = httpx.Client(
                    limits=httpx.Limits(max_connections=n, max_keepalive_connections=n),
                    follow_redirects=False,
                    trust_env=False,
                )
            return self._http

    def client(self, backend: Backend) -> Any:
        """The kind's client for this backend (built once per version of the row)."""
        if backend.base_url and not host_allowed(backend.base_url, self._allowed()):
            raise ModelError(f"backend {backend.name}: its host is not in llm.allowed_hosts")
        limits = self.limits()
        # the secret's own version too: a rotated key must reach the next call, in every process
        secret_version = None
        if backend.secret:
            with self.app.connection() as conn:
                found = conn.execute(
                    "SELECT updated_at FROM context_secrets WHERE name = %s", (backend.secret,)
                ).fetchone()
            secret_version = found["updated_at"] if found else None
        stamp = (backend.updated_at, backend.base_url, backend.secret, secret_version, limits)
        with self._lock:
            cached = self._clients.get(backend.name)
            if cached is not None and cached[0] == stamp:
                return cached[1]
        kind = self.app.backend_kinds.get(backend.kind)
        if kind is None:
            raise ModelError(f"backend {backend.name}: kind {backend.kind!r} is not installed")
        api_key = None
        if backend.secret:
            try:
                with self.app.connection() as conn:
                    api_key = reveal_secret(conn, self.app.seal_key, backend.secret)
            except CtxError as exc:
                raise ModelError(
                    f"backend {backend.name}: its secret {backend.secret!r} cannot be opened "
                    f"({exc.message})"
                ) from None
        row = {
            **backend.as_json(),
            "api_key": api_key,
            "http": self.http,
            "limits": limits,
        }
        try:
            built = kind.factory(row)
        except CtxError as exc:
            raise ModelError(f"backend {backend.name}: {exc.message}") from None
        with self._lock:
            self._clients[backend.name] = (stamp, built)
        return built

    def close(self) -> None:
        with self._lock:
            if self._http is not None:
                self._http.close()
                self._http = None
            self._clients.clear()
