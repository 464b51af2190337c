"""A process's lease on the jobs it claims: a session advisory lock on its own connection.

Each ``App`` that claims jobs takes a random lease id and holds ``pg_advisory_lock(LEASE_CLASS,
id)`` on a dedicated connection for as long as it lives. Claimed jobs record the id
(``context_jobs.locked_by``). When the process dies (kill -9, a crash, a lost host), PostgreSQL
ends its session and releases the lock; from then on ``OWNER_GONE`` is true for its jobs and the
next claim of any worker takes them back, instead of waiting for a timeout. A lost lease
connection is re-opened with the same id when it is free, else with a new one.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from typing import Any

import psycopg
import psycopg.errors

from ctx.core.runtime.db import unavailable_error

log = logging.getLogger("ctx.jobs")

LEASE_CLASS = 0x63746A6C  # "ctjl"
CONNECT_TIMEOUT = 5  # seconds


def owner_gone(column: str) -> str:
    """An SQL fragment, true when the lease id in ``column`` is no longer held."""
    return f"""
    NOT EXISTS (SELECT 1 FROM pg_locks l
                 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                   AND l.classid = {LEASE_CLASS}::oid AND l.objid = ({column})::oid
                   AND l.database = (SELECT oid FROM pg_database
                                      WHERE datname = current_database()))
"""


# True for a running job whose lease is no longer held (an SQL fragment over ``j``).
OWNER_GONE = owner_gone("j.locked_by")


class Lease:
    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self._id: int | None = None

    def id(self) -> int:
        """The lease id, (re)acquiring the lock when its connection is gone."""
        with self._lock:
            if self._conn is not None and self._alive(self._conn):
                assert self._id is not None
                return self._id
            self._acquire()
            assert self._id is not None
            return self._id

    @staticmethod
    def _alive(conn: psycopg.Connection[Any]) -> bool:
        if conn.closed:
            return False
        try:
            conn.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def _acquire(self) -> None:
        if self._conn is not None:
            self._conn.close()
        # Bounded: queries wait on this when the lease must be re-taken during an outage.
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.OperationalError as exc:  # a worker logs it as the outage it is
            raise unavailable_error(exc) from exc
        # A server-wide idle_session_timeout would end the lease while the process lives
        # (PostgreSQL before 14 has no such setting).
        with contextlib.suppress(psycopg.errors.UndefinedObject):
            conn.execute("SET idle_session_timeout = 0")
        wanted = [self._id] if self._id is not None else []
        for candidate in [*wanted, *(secrets.randbelow(2**31 - 2) + 1 for _ in range(20))]:
            row = conn.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (LEASE_CLASS, candidate)
            ).fetchone()
            if row and row[0]:
                if self._id is not None and candidate != self._id:
                    log.warning("job lease %s was lost; continuing as %s", self._id, candidate)
                self._conn, self._id = conn, candidate
                return
        conn.close()
        raise RuntimeError("no free job lease id after 20 tries")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
