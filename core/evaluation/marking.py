"""Marks: which source answered a question and which did not, kept per scope as its gold set.

A mark is about a block the key reads and lives in that block's scope, so it obeys the block's
scope rules: readers of the scope see it, only a key whose home is that scope writes it (a mark
is a write like any other), and it goes when the block is deleted. ``gold_set`` hands the
evaluation the questions of some scopes with their answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import resolve_id
from ctx.core.errors import NotFound

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.evaluation.schemas import MarkRequest, MarksRequest, UnmarkRequest

_UPSERT = """
INSERT INTO context_eval_marks (scope, question, block_id, verdict, asked_on, marked_by)
VALUES (%(scope)s, %(question)s, %(block_id)s, %(verdict)s, coalesce(%(now)s, current_date),
        %(key)s)
ON CONFLICT (scope, md5(question), block_id) DO UPDATE SET verdict = EXCLUDED.verdict,
    asked_on = EXCLUDED.asked_on, marked_by = EXCLUDED.marked_by, marked_at = now()
RETURNING id, (xmax = 0) AS created
"""

_COLUMNS = """m.id, m.scope, m.question, m.block_id::text AS block_id, m.verdict, m.asked_on,
       m.marked_at, b.title, b.category"""


def _mark_row(conn: psycopg.Connection[Any], mark_id: int) -> dict[str, Any]:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM context_eval_marks m JOIN context_blocks b ON b.id = m.block_id "
        "WHERE m.id = %s",
        (mark_id,),
    ).fetchone()
    assert row is not None
    return dict(row)


def mark(app: App, who: Principal, req: MarkRequest) -> dict[str, Any]:
    """Mark block ``req.id`` as answering ``req.question`` or not (again: the verdict changes)."""
    with app.connection() as conn:
        block_id = resolve_id(conn, who, req.id)  # a block outside the key's scopes is not found
        block = conn.execute(
            "SELECT scope FROM context_blocks WHERE id = %s", (block_id,)
        ).fetchone()
        assert block is not None
        who.require_write(block["scope"])
        saved = conn.execute(
            _UPSERT,
            {
                "scope": block["scope"],
                "question": req.question.strip(),
                "block_id": block_id,
                "verdict": req.verdict,
                "now": req.now,
                "key": who.key_id,
            },
        ).fetchone()
        assert saved is not None
        row = _mark_row(conn, saved["id"])
    return {**row, "action": "created" if saved["created"] else "updated"}


def marks(app: App, who: Principal, req: MarksRequest) -> dict[str, Any]:
    """The marks of the key's readable scopes (or one of them), newest first, with how many
    marks and questions those scopes hold."""
    scopes = who.scopes_for([req.scope] if req.scope else None)
    params = {"scopes": scopes, "question": req.question, "limit": req.limit}
    where = (
        "m.scope = ANY(%(scopes)s) AND (%(question)s::text IS NULL OR m.question = %(question)s)"
    )
    with app.connection() as conn:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM context_eval_marks m "
            f"JOIN context_blocks b ON b.id = m.block_id WHERE {where} "
            "ORDER BY m.marked_at DESC, m.id DESC LIMIT %(limit)s",
            params,
        ).fetchall()
        counts = conn.execute(
            "SELECT count(*) AS marks, count(DISTINCT question) AS questions "
            f"FROM context_eval_marks m WHERE {where}",
            params,
        ).fetchone()
    assert counts is not None
    return {"marks": [dict(r) for r in rows], "total": counts["marks"],
            "questions": counts["questions"]}  # fmt: skip


def unmark(app: App, who: Principal, req: UnmarkRequest) -> dict[str, Any]:
    """Remove a mark of a scope the key reads and writes."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT scope FROM context_eval_marks WHERE id = %s AND scope = ANY(%s)",
            (req.id, list(who.read_scopes)),
        ).fetchone()
        if row is None:
            raise NotFound(f"no mark {req.id} in your scopes")
        who.require_write(row["scope"])
        conn.execute("DELETE FROM context_eval_marks WHERE id = %s", (req.id,))
    return {"id": req.id, "deleted": True}


@dataclass(frozen=True)
class Question:
    """A marked question: its text, the day it was last asked, the blocks marked as answering it
    and those marked as not."""

    text: str
    asked_on: date
    answers: frozenset[str]
    wrong: frozenset[str]


_GOLD = """
SELECT question, max(asked_on) AS asked_on, max(marked_at) AS last,
       coalesce(array_agg(block_id::text) FILTER (WHERE verdict = 'answered'), '{}') AS answers,
       coalesce(array_agg(block_id::text) FILTER (WHERE verdict = 'not_answered'), '{}') AS wrong
  FROM context_eval_marks
 WHERE scope = ANY(%(scopes)s)
 GROUP BY question
 ORDER BY last DESC, question
 LIMIT %(limit)s
"""


def gold_set(app: App, scopes: list[str], most: int) -> tuple[list[Question], int]:
    """The marked questions of ``scopes`` (at most ``most``, the most recently marked first) and
    how many questions those scopes hold in all."""
    with app.connection() as conn:
        rows = conn.execute(_GOLD, {"scopes": scopes, "limit": most}).fetchall()
        total = conn.execute(
            "SELECT count(DISTINCT question) AS n FROM context_eval_marks WHERE scope = ANY(%s)",
            (scopes,),
        ).fetchone()
    assert total is not None
    questions = [
        Question(r["question"], r["asked_on"], frozenset(r["answers"]), frozenset(r["wrong"]))
        for r in rows
    ]
    return questions, int(total["n"])
