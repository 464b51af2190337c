"""Per-key rate limits: writes, queries and model calls per minute, shared by every process.

Each interface charges a request to one or more kinds before doing the work (the REST API by
route, MCP by tool, the gateway per turn). Counts live in ``context_rate_counts`` (one row per
key, kind and minute), so several ``ctxd`` on one database enforce one limit. The rate is a
sliding-window estimate: this minute's count plus the previous minute's weighted by the part of
it still inside the last 60 seconds, which avoids the double burst of fixed windows at a minute's
edge. A refused request is not counted. Requests without a key (internal jobs) are never limited.

The same counts throttle wrong keys typed into a sign-in form (the workbench, OAuth
``/authorize``) per client address (``limits.key_guesses_per_minute``): only a failed guess
counts, and while an address is over the limit every try from it is refused, the right key
included, so guessing goes no faster; other addresses sign in as before.
"""

from __future__ import annotations

import math
import uuid
from typing import TYPE_CHECKING, Any

from ctx.core.errors import RateLimited, ValidationError
from ctx.core.runtime import Setting

if TYPE_CHECKING:
    from ctx.core.access.principals import Principal
    from ctx.core.app import App

WINDOW = 60.0  # seconds
KINDS = {
    "writes": "limits.writes_per_minute",
    "queries": "limits.queries_per_minute",
    "model": "limits.model_calls_per_minute",
}
LIMIT_KINDS = tuple(KINDS)
WHAT = {"writes": "writes", "queries": "reads and searches", "model": "model-calling requests"}
GUESSES = "limits.key_guesses_per_minute"
GUESS_KIND = "key_guesses"
#: an address's counts live under a key id of their own, derived from the address
_ADDRESSES = uuid.UUID("6f1c3e55-2b8e-4d7a-9c1f-5a1e7c0ffee5")

SETTINGS = [
    Setting(
        "limits.writes_per_minute",
        int,
        600,
        "Requests that change data (stores, edits, deletes, governor events, imports) per key "
        "and minute before HTTP 429 with Retry-After; 0: no limit.",
        minimum=0,
        maximum=1_000_000,
    ),
    Setting(
        "limits.queries_per_minute",
        int,
        1200,
        "Reads (queries, searches, listings, gets) per key and minute before HTTP 429; 0: no "
        "limit.",
        minimum=0,
        maximum=1_000_000,
    ),
    Setting(
        "limits.model_calls_per_minute",
        int,
        120,
        "Requests that ask a language model for an answer (synthesised answers, chat and gateway "
        "turns, daily synthesis, Dream runs, backend tests) per key and minute before HTTP 429; "
        "0: no limit. A query's helper stages (translation, temporal parsing, reranking) count "
        "with the query.",
        minimum=0,
        maximum=1_000_000,
    ),
    Setting(
        GUESSES,
        int,
        10,
        "Wrong API keys one client address may type into a sign-in form (the workbench's, "
        "OAuth /authorize) per minute; then every try from that address, the right key "
        "included, is refused (HTTP 429 with Retry-After) until the rate falls again. Other "
        "addresses are not affected. 0: no limit.",
        minimum=0,
        maximum=1_000_000,
    ),
]

_CHARGE = """
WITH cur AS (
    INSERT INTO context_rate_counts AS c (api_key_id, kind, window_start, n)
    VALUES (%(key)s, %(kind)s, date_bin('60 seconds', now(), timestamptz 'epoch'), 1)
    ON CONFLICT (api_key_id, kind, window_start) DO UPDATE SET n = c.n + 1
    RETURNING n, window_start
)
SELECT cur.n, cur.window_start,
       coalesce(p.n, 0) AS previous,
       extract(epoch FROM clock_timestamp() - cur.window_start)::float8 AS elapsed
  FROM cur
  LEFT JOIN context_rate_counts p
    ON p.api_key_id = %(key)s AND p.kind = %(kind)s
   AND p.window_start = cur.window_start - interval '60 seconds'
"""
_PEEK = """
WITH w AS (SELECT date_bin('60 seconds', now(), timestamptz 'epoch') AS start)
SELECT coalesce(c.n, 0) AS n, coalesce(p.n, 0) AS previous,
       extract(epoch FROM clock_timestamp() - w.start)::float8 AS elapsed
  FROM w
  LEFT JOIN context_rate_counts c
    ON c.api_key_id = %(key)s AND c.kind = %(kind)s AND c.window_start = w.start
  LEFT JOIN context_rate_counts p
    ON p.api_key_id = %(key)s AND p.kind = %(kind)s
   AND p.window_start = w.start - interval '60 seconds'
"""
_FORGET = """
DELETE FROM context_rate_counts
 WHERE api_key_id = %(key)s AND kind = %(kind)s AND window_start < %(window)s - interval '60 seconds'
"""


def estimate(count: int, previous: int, elapsed: float) -> float:
    """Requests in the last minute: this window's ``count`` plus the part of the previous
    window's that is still within 60 seconds."""
    left = max(0.0, min(1.0, 1.0 - elapsed / WINDOW))
    return count + previous * left


def retry_after(count: int, previous: int, elapsed: float, limit: int) -> int:
    """Seconds until one more request fits, with ``count`` requests (the refused one not among
    them) in this window so far and no other request in between."""
    if count + 1 <= limit and previous > 0:
        # the previous window's weight must fall to limit - count - 1 within this window
        due = WINDOW * (1.0 - (limit - count - 1) / previous)
        return max(1, math.ceil(due - elapsed))
    # this window is full: the next starts with count as its previous window
    wait = WINDOW - elapsed
    if count > 0:
        wait += max(0.0, WINDOW * (1.0 - (limit - 1) / count))
    return max(1, math.ceil(wait))


def charge_limits(app: App, who: Principal, *kinds: str, conn: Any = None) -> None:
    """Count one request of each kind for ``who``'s key; the first kind over its limit is
    refused with ``RateLimited`` (HTTP 429 with Retry-After), and then nothing is counted.
    With ``conn`` the counts join that transaction (the one that authenticated the key: one
    pooled connection per request); the caller's rollback on the error undoes them. Whether
    the call writes is noted on ``who`` (``Freshness``): a call that does not may read from a
    replica."""
    if who.key_id is None:
        return
    for kind in kinds:
        if kind not in KINDS:
            raise ValidationError(f"unknown rate limit kind {kind!r}")
    if who.freshness is not None:  # every surface charges a call here: note whether it writes
        who.freshness.charge("writes" in kinds)
    # one order for every caller, so two requests never wait on each other's rows crosswise
    wanted = [(k, int(app.settings[KINDS[k]])) for k in KINDS if k in kinds]
    wanted = [(k, limit) for k, limit in wanted if limit > 0]
    if not wanted:
        return
    if conn is not None:
        for kind, limit in wanted:
            _charge_one(conn, str(who.key_id), kind, limit)
        return
    with app.connection() as own:
        charge_limits(app, who, *kinds, conn=own)


def _count(conn: Any, key: str, kind: str) -> Any:
    """Count one request of ``kind`` for ``key``; the row says how many there are now."""
    args: dict[str, Any] = {"key": key, "kind": kind}
    row = conn.execute(_CHARGE, args).fetchone()
    if row["n"] == 1:  # a new minute: drop this key's minutes that no estimate reads any more
        conn.execute(_FORGET, {**args, "window": row["window_start"]})
    return row


def _charge_one(conn: Any, key: str, kind: str, limit: int) -> None:
    row = _count(conn, key, kind)
    if estimate(row["n"], row["previous"], row["elapsed"]) <= limit:
        return
    # raising rolls the transaction back: neither this count nor the other kinds' stay
    wait = retry_after(row["n"] - 1, row["previous"], row["elapsed"], limit)
    raise RateLimited(
        f"this key made more than {limit} {WHAT[kind]} in the last minute "
        f"({KINDS[kind]}); try again in {wait} s",
        retry_after=wait,
    )


def _address_key(address: str) -> str:
    return str(uuid.uuid5(_ADDRESSES, address))


def check_guesses(app: App, address: str) -> None:
    """Refuse (``RateLimited``, HTTP 429 with Retry-After) a sign-in from ``address`` while its
    wrong keys of the last minute have reached ``limits.key_guesses_per_minute``; nothing is
    counted here (``count_guess`` counts a wrong key)."""
    limit = int(app.settings[GUESSES])
    if limit <= 0:
        return
    with app.connection() as conn:
        row = conn.execute(_PEEK, {"key": _address_key(address), "kind": GUESS_KIND}).fetchone()
    assert row is not None  # the query always answers one row
    if estimate(row["n"] + 1, row["previous"], row["elapsed"]) <= limit:
        return
    wait = retry_after(row["n"], row["previous"], row["elapsed"], limit)
    raise RateLimited(
        f"too many wrong API keys from this address in the last minute ({GUESSES} is "
        f"{limit}); try again in {wait} s",
        retry_after=wait,
    )


def count_guess(app: App, address: str) -> None:
    """Count a wrong key typed into a sign-in form from ``address``."""
    if int(app.settings[GUESSES]) > 0:
        with app.connection() as conn:
            _count(conn, _address_key(address), GUESS_KIND)
