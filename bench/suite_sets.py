"""The retrieval sets of ``retrieval_suite.py``: what is stored, as a user stores it, and what is
asked, with the answers that count.

Each set becomes blocks in scopes of its own (``suite-<set>...``) and questions asked in one of
them. A question is a hit at k when any of its answer keys is among the first k sources; a key
names a stored item (a LoCoMo turn, a note, a documentation topic whose chunks all carry it).

- ``locomo``: the LoCoMo dev conversations of ``../shared/eval`` (read from there), each turn a
  block titled ``"Caroline D1:3"`` with the shared image's caption appended and the session's
  date as ``occurred_at``; categories 1-4, any evidence turn; conversations 1-3 are the tuning
  half, 4-5 the confirming half (as ``locomo.py``).
- ``team_notes``: a small team's dated notes (``temporal_retrieval_data``), "now" their
  Wednesday 2026-03-18; questions that name a time and controls; halves alternate.
- ``crosslang``: 62 notes in English and German (``data/crosslang_notes.json``), each language in
  its own scope; every question asked in four runs: German over English and English over German
  (cross), and both in the notes' own language (controls); halves as the file says.
- ``pydocs``: Python's language documentation as the standard library ships it
  (``pydoc_data.topics``, offline, read at run time), each topic ingested as a plain-text document
  (chunked by the ingest plugin); questions written for this set (``data/suite_pydocs.json``).
- ``technotes``: short technical notes of an invented team with keyword, paraphrase, German and
  "trap" questions (a rare word of a wrong note in the question) (``data/suite_technotes.json``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from _common import REPO_ROOT

DATA = REPO_ROOT / "bench" / "data"
LOCOMO = REPO_ROOT.parent / "shared" / "eval" / "locomo-dev.json"
HALVES = ("tune", "confirm")


@dataclass
class Item:
    """One thing stored: a block, or (``document``) a plain-text document the ingest chunks."""

    key: str
    scope: str
    title: str
    content: str
    category: str = "note"
    tags: list[str] = field(default_factory=list)
    occurred_at: datetime | None = None
    document: bool = False


@dataclass
class Ask:
    """One question, where it is asked and what answers it."""

    text: str
    answers: frozenset[str]
    scope: str
    half: str
    group: str = "all"
    now: date | None = None
    style: str = ""


@dataclass
class RetrievalSet:
    name: str
    kind: str
    items: list[Item]
    asks: list[Ask]
    #: (cross group, control group) pairs whose hit@3 ratio is a target (the cross-language set)
    ratios: dict[str, tuple[str, str]] = field(default_factory=dict)


def _half(i: int) -> str:
    return HALVES[i % 2]


def locomo_set(path: Path = LOCOMO) -> RetrievalSet:
    from locomo_data import content_for, load, title_for

    items: list[Item] = []
    asks: list[Ask] = []
    for n, conv in enumerate(load(path)):
        scope = f"suite-{conv.scope}"
        half = "tune" if n < 3 else "confirm"
        for t in conv.turns:
            items.append(
                Item(
                    key=f"{conv.sample_id}/{t.dia_id}",
                    scope=scope,
                    title=title_for(t, "user"),
                    content=content_for(t, captions=True),
                    category="conversation",
                    occurred_at=t.when,
                )
            )
        stored = {t.dia_id for t in conv.turns}
        for q in conv.questions:
            # an evidence id naming no turn of the conversation (a few in the data) is dropped
            answers = frozenset(f"{conv.sample_id}/{e}" for e in q.evidence & stored)
            if not answers:
                continue
            asks.append(Ask(q.text, answers, scope, half, style=f"category {q.category}"))
    return RetrievalSet("locomo", "conversation turns, English", items, asks)


def team_notes_set() -> RetrievalSet:
    from temporal_retrieval_data import NOTES, QUESTIONS, TODAY, expected

    scope = "suite-team-notes"
    items = [
        Item(
            key=n["key"],
            scope=scope,
            title=n["title"],
            content=n["content"],
            occurred_at=(
                datetime.fromisoformat(n["occurred_at"]).replace(tzinfo=UTC)
                if n["occurred_at"]
                else None
            ),
        )
        for n in NOTES
    ]
    asks = [
        Ask(q["q"], frozenset(expected(q)), scope, _half(i), now=TODAY, style=q["kind"])
        for i, q in enumerate(QUESTIONS)
    ]
    return RetrievalSet("team_notes", "dated team notes, questions naming a time", items, asks)


CROSS_RUNS = {"de->en": "en->en", "en->de": "de->de"}  # cross run -> its same-language control


def crosslang_set() -> RetrievalSet:
    raw = json.loads((DATA / "crosslang_notes.json").read_text())["notes"]
    scopes = {"en": "suite-crosslang-en", "de": "suite-crosslang-de"}
    items = [
        Item(
            key=note["id"],
            scope=scopes[lang],
            title=note[lang]["title"],
            content=note[lang]["content"],
            category=note[lang]["category"],
            tags=list(note["tags"]),
        )
        for lang in ("en", "de")
        for note in raw
    ]
    asks = []
    for note in raw:
        half = "tune" if note["half"] == "tune" else "confirm"
        for q in note["questions"]:
            for run in (*CROSS_RUNS, *CROSS_RUNS.values()):
                q_lang, notes_lang = run.split("->")
                asks.append(
                    Ask(q[q_lang], frozenset({note["id"]}), scopes[notes_lang], half, group=run)
                )
    return RetrievalSet(
        "crosslang",
        "notes in English and German, questions in the other language and in the same",
        items,
        asks,
        ratios={
            "German questions over English notes": ("de->en", "en->en"),
            "English questions over German notes": ("en->de", "de->de"),
        },
    )


def pydocs_set() -> RetrievalSet:
    from pydoc_data.topics import topics

    scope = "suite-pydocs"
    items = [
        Item(key=key, scope=scope, title=key, content=text, category="docs", document=True)
        for key, text in sorted(topics.items())
    ]
    raw = json.loads((DATA / "suite_pydocs.json").read_text())["questions"]
    asks = [
        Ask(q["text"], frozenset(q["answers"]), scope, q["half"], style=q.get("style", ""))
        for q in raw
        if set(q["answers"]) <= topics.keys()  # a topic a later Python renamed is left out
    ]
    return RetrievalSet("pydocs", "Python's language documentation (pydoc topics)", items, asks)


def technotes_set() -> RetrievalSet:
    raw = json.loads((DATA / "suite_technotes.json").read_text())
    scope = "suite-technotes"
    items = [
        Item(
            key=n["id"],
            scope=scope,
            title=n["title"],
            content=n["content"],
            category=n.get("category", "note"),
            tags=list(n.get("tags", [])),
        )
        for n in raw["notes"]
    ]
    asks = [
        Ask(q["text"], frozenset(q["answers"]), scope, q["half"], style=q.get("style", ""))
        for q in raw["questions"]
    ]
    return RetrievalSet("technotes", "short technical notes of a team", items, asks)


SETS: dict[str, Callable[[], RetrievalSet]] = {
    "locomo": locomo_set,
    "team_notes": team_notes_set,
    "crosslang": crosslang_set,
    "pydocs": pydocs_set,
    "technotes": technotes_set,
}


def check(s: RetrievalSet) -> None:
    """Fail loudly on an answer that names nothing stored, or a half with no name."""
    keys = {i.key for i in s.items}
    for a in s.asks:
        if not a.answers <= keys:
            raise ValueError(f"{s.name}: {a.text!r} answers {sorted(a.answers - keys)}: not stored")
        if a.half not in HALVES:
            raise ValueError(f"{s.name}: {a.text!r}: half {a.half!r}")


def describe(s: RetrievalSet) -> dict[str, Any]:
    return {
        "kind": s.kind,
        "items": len(s.items),
        "questions": len(s.asks),
        "scopes": len({i.scope for i in s.items}),
    }
