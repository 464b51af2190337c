"""Streaming read replicas: which reads a hot standby may serve, and where each call's go.

``CTX_DATABASE_READ_URL`` names hot standbys of the primary (``CTX_DATABASE_URL``), one or more
URLs separated by commas or spaces. The read paths of a call that writes nothing (a query, a
search, a get, a listing) and the governor's desk run on one of them; writes, jobs, LISTEN, the
lease and migrations stay on the primary. A replica serves a call only once it has replayed the
primary's WAL up to a position (an LSN) the call needs:

- the key's last write: after a call that wrote commits, ctxd records the primary's WAL insert
  position for the key (``context_key_lsns``); authentication reads it back in its one
  statement, so a key reads its own writes through any ctxd of the deployment;
- the primary's position when the call was authenticated, less ``db.replica_max_lag_mb``: a
  replica that fell far behind serves nobody. Positions, not timestamps: an idle primary makes
  replay timestamps look old.

A replica that has not got that far within ``db.replica_wait_ms`` leaves the call to the
primary. One that does not answer (refused, gone in the middle of a statement) is left alone for
``db.replica_retry_s`` and the read runs again on the primary within the same request: a
replica's trouble never fails one. A call that writes reads from the primary throughout, where
what it wrote is at once.
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row

from ctx.core.errors import ConfigError, DatabaseError
from ctx.core.runtime.db import _reason, is_unavailable, redact

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.runtime.settings import Settings

log = logging.getLogger("ctx.replicas")

T = TypeVar("T")
Connection = psycopg.Connection[dict[str, Any]]
Read = Callable[[Connection], T]
#: a connection to the primary in a transaction (``App.connection``)
Connect = Callable[[], AbstractContextManager[Connection]]

MB = 1024 * 1024
# A read waits this long for a replica host that does not answer before it goes to the primary
# (the primary's connections wait longer: they have nowhere else to go); ``connect_timeout`` in
# the URL overrides it.
CONNECT_TIMEOUT_S = 2
POLL_S = 0.005  # between two looks at a replica's replay position while a read waits for it
# A replica that made a read wait in vain is not waited for again this long: a stuck or paused
# replica costs one read the wait, not every read.
BEHIND_S = 1.0
# A standby refuses what a read path must never do: write (25006), or read a temporary or
# unlogged table (0A000). Either is a defect of that path, answered by the primary meanwhile.
REFUSED_STATES = frozenset({"25006", "0A000"})
# Replay cancelled a statement that held back what it must remove (a recovery conflict): the
# same read runs at once on the primary.
CONFLICT_STATES = frozenset({"40001", "40P01", "57P04"})
URL_SPLIT = re.compile(r"[\s,]+")
REPLAY_SQL = "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint AS replayed"
RECORD_SQL = (
    "INSERT INTO context_key_lsns (key_id, lsn) VALUES (%s, pg_current_wal_insert_lsn()) "
    "ON CONFLICT (key_id) DO UPDATE SET lsn = greatest(context_key_lsns.lsn, excluded.lsn)"
)
STATUS_SQL = """
SELECT pg_is_in_recovery() AS standby,
       pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint AS replayed,
       CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END AS lag_s
"""


def read_urls(raw: str | None) -> list[str]:
    """The replica URLs of ``CTX_DATABASE_READ_URL``; one that is no PostgreSQL URL stops
    start-up with a ``ConfigError`` naming it."""
    urls = [u for u in URL_SPLIT.split(raw or "") if u]
    for url in urls:
        problem = None
        if not url.startswith(("postgresql://", "postgres://")):
            problem = "it must start with postgresql://"
        else:
            try:
                conninfo_to_dict(url)
            except psycopg.ProgrammingError as exc:
                problem = str(exc).splitlines()[0]
        if problem:
            raise ConfigError(f"CTX_DATABASE_READ_URL: {redact(url)!r} is no URL ({problem})")
    return list(dict.fromkeys(urls))


class Unserved(Exception):
    """A read a replica could not serve (``reason``: down, busy, conflict, refused); it runs
    on the primary instead."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _unserved(exc: psycopg.Error, conn: Connection | None) -> Unserved | None:
    """What a replica's error means for the read, or None when it is the read's own (a bad
    statement, a timeout): that one passes through as the primary's would."""
    if is_unavailable(exc, conn):
        return Unserved("down", _reason(exc))
    if exc.sqlstate in CONFLICT_STATES:
        return Unserved("conflict", _reason(exc))
    if exc.sqlstate in REFUSED_STATES:
        return Unserved("refused", _reason(exc))
    return None


class Replica:
    """One hot standby: a few connections opened on demand, whether it answers, how far it has
    replayed, what it served.

    Its connections are a small pool of its own rather than a ``psycopg_pool`` pool: a read
    must learn at once that a replica is full or gone (and go to the primary), where a pool
    would make it wait for a connection."""

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        self.name = redact(url)
        self.size = size
        self.replayed = -1  # the highest replay position seen (-1: not asked yet)
        self.down_until = 0.0
        self.behind_until = 0.0
        self.error: str | None = None
        self.served = 0
        self.unserved: Counter[str] = Counter()
        self._idle: list[Connection] = []
        self._open = 0
        self._lock = threading.Lock()
        self._kwargs: dict[str, Any] = {"autocommit": True, "row_factory": dict_row}
        if "connect_timeout" not in conninfo_to_dict(url):
            self._kwargs["connect_timeout"] = CONNECT_TIMEOUT_S

    def _take(self) -> tuple[Connection, bool]:
        """A connection, and whether it was idle (it may have died since)."""
        with self._lock:
            if self._idle:
                return self._idle.pop(), True
            if self._open >= self.size:
                raise Unserved("busy", f"all {self.size} connections are in use")
            self._open += 1
        try:
            return psycopg.connect(self.url, **self._kwargs), False
        except psycopg.Error as exc:
            with self._lock:
                self._open -= 1
            raise Unserved("down", _reason(exc)) from exc

    def _give(self, conn: Connection) -> None:
        if conn.closed or conn.broken or self.down_until > time.monotonic():
            conn.close()
            with self._lock:
                self._open -= 1
            return
        with self._lock:
            self._idle.append(conn)

    def run(self, read: Read[T]) -> T:
        """``read(conn)`` on one of its connections (autocommit: each statement sees what the
        replica has replayed when it starts, and a standby writes nothing anyway). An idle
        connection found dead (the replica restarted meanwhile) is dropped with the other idle
        ones, and the read tried once on a new connection before the replica counts as down."""
        conn, idle = self._take()
        try:
            return read(conn)
        except psycopg.Error as exc:
            unserved = _unserved(exc, conn)
            if unserved is None:
                raise
            if not (unserved.reason == "down" and idle):
                raise unserved from exc
        finally:
            self._give(conn)
        self.close()
        return self.run(read)

    def position(self) -> int:
        """How far it has replayed, asked now; ``Unserved`` when it is no standby."""
        row = self.run(lambda conn: conn.execute(REPLAY_SQL).fetchone())
        if row is None or row["replayed"] is None:
            raise Unserved("down", "not a standby (pg_is_in_recovery() is false)")
        self.replayed = max(self.replayed, int(row["replayed"]))
        return self.replayed

    def wait_for(self, need: int, seconds: float) -> bool:
        """Whether it replays up to ``need`` within ``seconds`` (looking every few ms)."""
        deadline = time.monotonic() + seconds
        while self.position() < need:
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_S)
        return True

    def set_down(self, seconds: float, detail: str) -> None:
        """Leave it alone for ``seconds``; its idle connections are dropped (likely dead)."""
        if self.down_until <= time.monotonic():
            log.warning("read replica %s is down for %.0f s: %s", self.name, seconds, detail)
        self.down_until = time.monotonic() + seconds
        self.error = detail
        self.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
        for conn in idle:
            conn.close()

    def status(self, primary_lsn: int | None) -> dict[str, Any]:
        """What ``/api/status`` and ``ctx doctor`` show of it, asked now."""
        out: dict[str, Any] = {"url": self.name, "served": self.served}
        out["unserved"] = dict(self.unserved)
        try:
            row = self.run(lambda conn: conn.execute(STATUS_SQL).fetchone())
        except (Unserved, psycopg.Error) as exc:
            return {**out, "reachable": False, "error": str(exc)}
        assert row is not None
        out |= {"reachable": True, "standby": bool(row["standby"])}
        if row["replayed"] is not None:
            self.replayed = max(self.replayed, int(row["replayed"]))
            behind = None if primary_lsn is None else max(0, primary_lsn - int(row["replayed"]))
            out |= {"lag_bytes": behind, "lag_s": round(float(row["lag_s"] or 0), 3)}
        out["down"] = self.down_until > time.monotonic()
        if out["down"]:
            out["error"] = self.error
        return out


class ReplicaSet:
    """The replicas of ``CTX_DATABASE_READ_URL``, taken in turn, with the primary behind them."""

    def __init__(
        self, urls: list[str], primary: Connect, settings: Settings, pool_size: int
    ) -> None:
        self.primary = primary
        self.settings = settings
        self.replicas = [Replica(url, pool_size) for url in urls]
        self.to_primary: Counter[str] = Counter()  # reads sent to the primary, by reason
        self._turn = itertools.count()
        self._lock = threading.Lock()

    def reads(self, who: Principal, *, own_writes: bool = True) -> Reads:
        """Where the reads of ``who``'s call go: a replica when the call writes nothing (or
        ``own_writes`` is False: the reads need not see what this very call wrote, only what
        came before it), else the primary."""
        fresh = who.freshness
        if fresh is None or fresh.writes is None or (fresh.writes and own_writes):
            return Reads(self.primary)
        lag = int(self.settings["db.replica_max_lag_mb"]) * MB
        return Reads(self.primary, self, max(fresh.key_lsn, fresh.primary_lsn - lag, 0))

    def choose(self, need: int) -> Replica | None:
        """A replica that has replayed up to ``need``, waiting for one at most
        ``db.replica_wait_ms``; None (the primary) when none gets there or none answers."""
        now = time.monotonic()
        start = next(self._turn) % len(self.replicas)
        usable = [r for r in self.replicas[start:] + self.replicas[:start] if r.down_until <= now]
        for replica in usable:
            if replica.replayed >= need:
                return replica
        reason = "down"
        waiting = [r for r in usable if r.behind_until <= now]
        if len(waiting) < len(usable):
            reason = "lag"  # one is behind: a read waited for it in vain a moment ago
        for replica in waiting:
            try:
                if replica.wait_for(need, int(self.settings["db.replica_wait_ms"]) / 1000):
                    return replica
            except Unserved as unserved:
                self.unserved(replica, unserved)
                reason = unserved.reason
                continue
            replica.behind_until = time.monotonic() + BEHIND_S
            reason = "lag"
            break  # one wait per read: its bound is spent
        self.sent_to_primary(reason)
        return None

    def served_by(self, replica: Replica) -> None:
        with self._lock:
            replica.served += 1

    def sent_to_primary(self, reason: str) -> None:
        with self._lock:
            self.to_primary[reason] += 1

    def unserved(self, replica: Replica, unserved: Unserved) -> None:
        """Count a read ``replica`` could not serve; one that is down is left alone a while."""
        with self._lock:
            replica.unserved[unserved.reason] += 1
        if unserved.reason == "down":
            replica.set_down(float(self.settings["db.replica_retry_s"]), unserved.detail)
        elif unserved.reason == "refused":
            log.warning("read replica %s refused a read: %s", replica.name, unserved.detail)

    def note_write(self, who: Principal) -> None:
        """Record the primary's WAL position as ``who``'s last write, after a call that wrote
        committed: the key's next call, on any ctxd, reads from a replica only once it has
        replayed this far."""
        if who.freshness is None or not who.freshness.writes or who.key_id is None:
            return
        with self.primary() as conn:
            conn.execute(RECORD_SQL, (who.key_id,))

    def status(self) -> dict[str, Any]:
        """``{"replicas": [...], "to_primary": {reason: reads}}``: each replica reachable or
        not, whether it is a standby, its replay lag (bytes behind the primary, seconds), the
        reads it served and could not serve; and the reads that went to the primary."""
        try:
            with self.primary() as conn:
                row = conn.execute(
                    "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS lsn"
                ).fetchone()
            primary_lsn = int(row["lsn"]) if row is not None else None
        except (psycopg.Error, DatabaseError):
            primary_lsn = None
        return {
            "replicas": [r.status(primary_lsn) for r in self.replicas],
            "to_primary": dict(self.to_primary),
        }

    def close(self) -> None:
        for replica in self.replicas:
            replica.close()


def replica_checks(replicas: ReplicaSet) -> list[dict[str, Any]]:
    """``ctx doctor``'s lines: each replica reachable, a standby, and how far behind."""
    out = []
    for line in replicas.status()["replicas"]:
        name = f"read replica {line['url']}"
        if not line["reachable"]:
            out.append({"name": name, "ok": False, "detail": f"unreachable: {line['error']}"})
        elif not line["standby"] or "lag_s" not in line:
            detail = "not a hot standby: it replays no primary's WAL (pg_last_wal_replay_lsn())"
            out.append({"name": name, "ok": False, "detail": detail})
        else:
            behind = line["lag_bytes"]
            shown = "?" if behind is None else f"{behind:,} bytes"
            detail = f"hot standby, {shown} and {line['lag_s']} s behind the primary"
            out.append({"name": name, "ok": True, "detail": detail})
    replicas.close()  # a doctor asks once
    return out


class Reads:
    """Where the reads of one read path (a query's stages, a listing) go: the replica chosen at
    its first read, kept for the rest of them so that they never go back in time, or the
    primary. ``run(read)`` runs ``read(conn)``, a function that only reads and may run twice:
    when the replica fails it, it runs again on the primary, and so do the path's later reads."""

    def __init__(self, primary: Connect, replicas: ReplicaSet | None = None, need: int = 0):
        self.primary = primary
        self.replicas = replicas
        self.need = need
        self._replica: Replica | None = None
        self._chosen = replicas is None

    @property
    def on_replica(self) -> bool:
        """Whether the reads go to a replica (choosing it now, when not yet chosen)."""
        return self._route() is not None

    def _route(self) -> Replica | None:
        if not self._chosen:
            self._chosen = True
            assert self.replicas is not None
            self._replica = self.replicas.choose(self.need)
        return self._replica

    def run(self, read: Read[T]) -> T:
        replica = self._route()
        if replica is not None:
            assert self.replicas is not None
            try:
                answer = replica.run(read)
            except Unserved as unserved:
                self.replicas.unserved(replica, unserved)
                self.replicas.sent_to_primary(unserved.reason)
                self._replica = None
            else:
                self.replicas.served_by(replica)
                return answer
        with self.primary() as conn:
            return read(conn)
