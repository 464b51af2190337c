"""The log of model calls (``context_llm_log``): role, backend, model, tokens, latency, outcome.

Block content (messages, answers) is kept only when ``llm.log_content`` is on. Old rows go after
``llm.log_keep_days``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from ctx.core.errors import CtxError, ValidationError, error_text
from ctx.core.llm.schemas import OUTCOMES, ROLES

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.llm")


#: how a call ended, as the log records it
@dataclass
class CallRecord:
    role: str
    backend: str
    model: str
    operation: str
    outcome: str
    latency_ms: float
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    withheld: int = 0
    request: Any = None
    response: str | None = None


def record_call(app: App, rec: CallRecord, *, prune: bool = False) -> None:
    """Write one row (and, with ``prune``, drop rows past their days); a log that cannot be
    written never fails the call it describes."""
    keep = bool(app.settings["llm.log_content"])
    try:
        with app.connection() as conn:
            conn.execute(
                "INSERT INTO context_llm_log (role, backend, model, operation, outcome, error,"
                " prompt_tokens, completion_tokens, latency_ms, withheld, request, response)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (rec.role, rec.backend, rec.model, rec.operation, rec.outcome,
                 (rec.error or None) and rec.error[:1000], rec.prompt_tokens,
                 rec.completion_tokens, round(rec.latency_ms, 2), rec.withheld,
                 Jsonb(rec.request) if keep and rec.request is not None else None,
                 rec.response if keep else None),
            )  # fmt: skip
            if prune:
                conn.execute(
                    "DELETE FROM context_llm_log WHERE at < now() - make_interval(days => %s)",
                    (int(app.settings["llm.log_keep_days"]),),
                )
    except (psycopg.Error, CtxError) as exc:  # CtxError: the database unavailable or full
        log.warning("could not write the model call log: %s", error_text(exc, str))


def check_log_filters(role: str | None = None, outcome: str | None = None) -> None:
    """Refuse a filter of the log that can match nothing: a role or outcome ctx does not have."""
    if role is not None and role not in ROLES:
        raise ValidationError(
            f"role: unknown role {role!r}; roles: {', '.join(ROLES)}", field="role"
        )
    if outcome is not None and outcome not in OUTCOMES:
        raise ValidationError(
            f"outcome: must be one of {', '.join(OUTCOMES)}, not {outcome!r}", field="outcome"
        )


def read_log(
    conn: psycopg.Connection[Any],
    *,
    limit: int = 50,
    role: str | None = None,
    backend: str | None = None,
    outcome: str | None = None,
    before: int | None = None,
) -> list[dict[str, Any]]:
    """Newest first; ``before`` pages by id."""
    where: list[str] = ["true"]
    args: list[Any] = []
    for column, value in (("role", role), ("backend", backend), ("outcome", outcome)):
        if value:
            where.append(f"{column} = %s")
            args.append(value)
    if before is not None:
        where.append("id < %s")
        args.append(before)
    rows = conn.execute(
        "SELECT id, at, role, backend, model, operation, outcome, error, prompt_tokens,"
        " completion_tokens, latency_ms, withheld, request, response FROM context_llm_log"
        f" WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT %s",
        (*args, limit),
    ).fetchall()
    out = []
    for r in rows:
        row = dict(r)
        for key in ("request", "response"):
            if row[key] is None:
                row.pop(key)
        out.append(row)
    return out


def log_summary(conn: psycopg.Connection[Any], hours: int = 24) -> list[dict[str, Any]]:
    """Per backend and role over the last ``hours``: calls, failures, median latency."""
    return [
        dict(r)
        for r in conn.execute(
            "SELECT backend, role, count(*) AS calls,"
            " count(*) FILTER (WHERE outcome <> 'ok') AS failures,"
            " round((percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms))::numeric, 1)"
            "   AS p50_ms, max(at) AS last_at"
            " FROM context_llm_log WHERE at > now() - make_interval(hours => %s)"
            " GROUP BY backend, role ORDER BY backend, role",
            (hours,),
        ).fetchall()
    ]
