"""Marks on a real store: a key marks only blocks it reads, in its home scope; readers of a
scope see its marks, other keys neither mark nor see them; marking again changes the verdict;
a mark goes with its block."""

from __future__ import annotations

from datetime import date

import pytest

from ctx.core import App, Principal, StoreRequest, store_block
from ctx.core.blocks import delete_block
from ctx.core.errors import Forbidden, NotFound
from ctx.core.evaluation import MarkRequest, MarksRequest, UnmarkRequest, mark, marks, unmark

ALPHA = Principal(key_id="00000000-0000-4000-8000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-4000-8000-0000000000b1", name="b", home_scope="beta")
# reads alpha, writes only its own scope
READER = Principal(
    key_id="00000000-0000-4000-8000-0000000000c1",
    name="r",
    home_scope="gamma",
    allowed_scopes=("alpha",),
)
QUESTION = "When does the nightly backup run?"


def _block(app: App, who: Principal, title: str, content: str) -> str:
    return str(store_block(app, who, StoreRequest(title=title, content=content))["id"])


def test_marks_obey_scopes(app: App) -> None:
    backup = _block(app, ALPHA, "Backup plan", "The nightly backup runs at 02:00 on db-2.")
    made = mark(app, ALPHA, MarkRequest(question=QUESTION, id=backup[:8], now=date(2026, 3, 2)))
    assert made["action"] == "created" and made["scope"] == "alpha"
    assert made["verdict"] == "answered" and made["asked_on"] == date(2026, 3, 2)
    assert made["block_id"] == backup and made["title"] == "Backup plan"

    # another scope's key: the block is not found, and no mark is seen
    with pytest.raises(NotFound):
        mark(app, BETA, MarkRequest(question=QUESTION, id=backup))
    assert marks(app, BETA, MarksRequest())["marks"] == []
    with pytest.raises(Forbidden):
        marks(app, BETA, MarksRequest(scope="alpha"))
    with pytest.raises(NotFound):
        unmark(app, BETA, UnmarkRequest(id=made["id"]))

    # a key that reads alpha sees the mark but writes no mark there (a mark is a write)
    seen = marks(app, READER, MarksRequest())
    assert [m["id"] for m in seen["marks"]] == [made["id"]]
    assert seen["total"] == 1 and seen["questions"] == 1
    with pytest.raises(Forbidden):
        mark(app, READER, MarkRequest(question=QUESTION, id=backup, verdict="not_answered"))
    with pytest.raises(Forbidden):
        unmark(app, READER, UnmarkRequest(id=made["id"]))

    # marking again changes the verdict of the one mark
    again = mark(
        app, ALPHA, MarkRequest(question=f"  {QUESTION} ", id=backup, verdict="not_answered")
    )
    assert again["id"] == made["id"] and again["action"] == "updated"
    assert [m["verdict"] for m in marks(app, ALPHA, MarksRequest())["marks"]] == ["not_answered"]

    unmark(app, ALPHA, UnmarkRequest(id=made["id"]))
    assert marks(app, ALPHA, MarksRequest())["total"] == 0
    with pytest.raises(NotFound):
        unmark(app, ALPHA, UnmarkRequest(id=made["id"]))


def test_a_mark_goes_with_its_block(app: App) -> None:
    note = _block(app, ALPHA, "Lasagne", "Bake the lasagne for 45 minutes at 180 degrees.")
    mark(app, ALPHA, MarkRequest(question="How long does the lasagne bake?", id=note))
    assert marks(app, ALPHA, MarksRequest(question="How long does the lasagne bake?"))["total"] == 1
    delete_block(app, ALPHA, note)
    with app.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM context_eval_marks").fetchone()
    assert left is not None and left["n"] == 0
