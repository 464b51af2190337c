"""One Guard check: the nearest neighbour of a block in the active generation, and the decision.

The neighbour is sought among blocks of dedup types that are not archived and were written before
this one (or were checked already), so of two copies the later one is the copy. Candidates come
from the generation's HNSW index (the context vectors) and are re-scored by the raw embeddings,
so a copy scores as a copy whatever its neighbours in writing order are.

- similarity >= review and the same words in both contents, formatting aside (case,
  punctuation, Markdown, bullet order, spelling variants, function words, typos;
  ctx.core.guard.wording): ``near_duplicate``, the block is archived. The similarity of a
  copy with its bullets reordered or its case changed can fall below *duplicate*; the words
  tell. Below *duplicate* a short note must also have the same title (``_says_enough``);
- similarity >= review and the two are written in different languages (English and German;
  ctx.core.guard.language): ``translation``, a ``translation`` link between them
  (``guard.translations``);
- similarity >= review and the only differences are changed values or an added follow-up
  ("backup at 02:00" / "backup at 03:30", "we keep it" / "we drop it"; ctx.core.guard.update):
  ``update``, a ``supersedes`` link from the newer block to the older one, which stays as
  history (``guard.updates``);
- any other difference at similarity >= review: ``needs_review`` (visible, flagged);
- else ``clean``.

The details of a decision carry the change (``changes``: before / after stretches).

Only blocks in scopes the writer can read decide. The nearest block in a scope the writer cannot
read is recorded beside the decision for admins and changes nothing the writer sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.guard.language import note_language
from ctx.core.guard.thresholds import Thresholds, thresholds_for
from ctx.core.guard.update import is_update, shown
from ctx.core.guard.wording import changed_stretches, word_changes

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

NEAR_DUPLICATE, NEEDS_REVIEW, CLEAN = "near_duplicate", "needs_review", "clean"
UPDATE, TRANSLATION = "update", "translation"
#: Every decision, in the order the lists show them.
DECISIONS = (NEAR_DUPLICATE, UPDATE, TRANSLATION, NEEDS_REVIEW, CLEAN)
#: The decisions that write a link, and its type.
LINKED = {UPDATE: "supersedes", TRANSLATION: "translation"}
CANDIDATES = 20  # index candidates re-scored by the raw embeddings
_VALUE = re.compile(r"\d+(?:[.,:/-]\d+)*")
_WORDS = re.compile(r"[^\W_]+")


def values(text: str) -> set[str]:
    """The numbers, dates, times and amounts a text names (3,5 and 3.5 alike)."""
    return {v.replace(",", ".") for v in _VALUE.findall(text)}


@dataclass(frozen=True)
class Neighbour:
    block_id: str
    scope: str
    similarity: float
    title: str = ""
    content: str = ""
    occurred_at: Any = None


@dataclass
class Decision:
    block_id: str
    decision: str
    thresholds: Thresholds
    generation: int
    match: Neighbour | None = None
    cross: Neighbour | None = None
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)


def _nearest_sql(generation: int, dims: int) -> str:
    # Literals for the generation and the dimension: the partial HNSW index of the generation is
    # only usable when the planner sees its predicate and its expression.
    vec = f"halfvec({int(dims)})"
    gen = int(generation)
    return f"""
    SELECT n.block_id::text AS id, n.scope, n.title, n.content, n.occurred_at,
           1 - (n.embedding::{vec} <=> q.embedding::{vec}) AS similarity
      FROM (SELECT e.embedding, b.created_at, b.id
              FROM context_block_embeddings e JOIN context_blocks b ON b.id = e.block_id
             WHERE e.block_id = %(id)s AND e.generation = {gen}) q
     CROSS JOIN LATERAL (
           SELECT e.block_id, e.embedding, b.scope, b.title, b.content, b.occurred_at
             FROM context_block_embeddings e
             JOIN context_blocks b ON b.id = e.block_id
             JOIN context_block_types t ON t.name = b.block_type AND t.guard_dedup
            WHERE e.generation = {gen} AND e.block_id <> q.id AND NOT b.is_archived
              AND ((b.created_at, b.id) < (q.created_at, q.id) OR b.guard_checked_at IS NOT NULL)
              AND (b.scope = ANY(%(scopes)s)) = %(inside)s
              -- a match outside the writer's scopes is sought in the block's own tenant only:
              -- no tenant's Guard learns of another tenant's blocks
              AND (%(inside)s OR ctx_scope_tenant(b.scope) = ctx_scope_tenant(%(own)s))
            ORDER BY e.context::{vec} <=> q.embedding::{vec}
            LIMIT {CANDIDATES}) n
     ORDER BY similarity DESC LIMIT 1
    """


def nearest(
    conn: psycopg.Connection[Any],
    generation: dict[str, Any],
    block_id: str,
    scopes: list[str],
    inside: bool,
    own_scope: str | None = None,
) -> Neighbour | None:
    """The most similar earlier block inside ``scopes``, or outside them but in the tenant of
    ``own_scope``."""
    row = conn.execute(
        _nearest_sql(generation["id"], generation["dimensions"]),
        {"id": block_id, "scopes": scopes, "inside": inside, "own": own_scope or ""},
    ).fetchone()
    if row is None:
        return None
    return Neighbour(row["id"], row["scope"], float(row["similarity"]), row["title"],
                     row["content"], row["occurred_at"])  # fmt: skip


def writer_scopes(conn: psycopg.Connection[Any], block: dict[str, Any]) -> list[str]:
    """The scopes the block's last writer can read (its key's read scopes as the tenant rules
    resolve them); just the block's own scope when the key is gone or revoked."""
    row = conn.execute(
        "SELECT ctx_key_read_scopes(k.id) AS scopes FROM context_write_log w "
        "JOIN context_api_keys k ON k.id = w.api_key_id AND k.revoked_at IS NULL "
        "WHERE w.block_id = %s AND w.action IN ('block.created', 'block.updated') "
        "ORDER BY w.id DESC LIMIT 1",
        (block["id"],),
    ).fetchone()
    scopes = [str(block["scope"])]
    if row is not None:
        scopes += list(row["scopes"] or [])
    return list(dict.fromkeys(scopes))


COPY_MIN_WORDS = 8


def _says_enough(block: dict[str, Any], match: Neighbour) -> bool:
    """Below the duplicate threshold the same words make a copy only when they are the note:
    "Done." under "Deploy API" and "Done." under "Order pizza" say the same words, not the
    same thing. So the titles say the same too, or the content has COPY_MIN_WORDS words."""
    if word_changes(block["title"], match.title) == ([], []):
        return True
    return len(_WORDS.findall(block["content"])) >= COPY_MIN_WORDS


def _translation(block: dict[str, Any], match: Neighbour) -> list[str] | None:
    """The two languages when ``block`` and ``match`` are written in different ones."""
    mine = note_language(block["title"] + "\n" + block["content"])
    theirs = note_language(match.title + "\n" + match.content)
    return [mine, theirs] if mine and theirs and mine != theirs else None


def decide(
    block: dict[str, Any],
    match: Neighbour | None,
    limits: Thresholds,
    same_words: bool = True,
    *,
    updates: bool = True,
    translations: bool = True,
) -> tuple[str, str, dict[str, Any]]:
    """The decision for ``block`` given its nearest readable neighbour: (decision, reason,
    details). ``same_words``: a copy must also say the same in the same words
    (``guard.same_words``; ctx.core.guard.wording); ``updates``: changed values make an update
    (``guard.updates``); ``translations``: another language makes a translation
    (``guard.translations``). Both need the word check."""
    if match is None:
        return CLEAN, "no earlier block to compare with", {}
    if match.similarity < limits.review:
        return CLEAN, "no block similar enough", {}
    at_copy = match.similarity >= limits.duplicate
    if not same_words:
        if at_copy:
            return NEAR_DUPLICATE, "a copy of an earlier block", {}
        return NEEDS_REVIEW, "very similar to an earlier block", {}
    if translations and (languages := _translation(block, match)):
        return TRANSLATION, "a translation of an earlier block", {"languages": languages}
    titles = block["title"] + "\n" + match.title
    here, there = word_changes(block["content"], match.content, titles)
    # Titles may be worded differently ("Copy of ..."), but not name other values
    # ("Standup 2026-03-03" / "Standup 2026-03-04" with the same content are two days).
    mine, theirs = values(block["title"]), values(match.title)
    other_titles = bool(mine ^ theirs)
    here += sorted(mine - theirs)
    there += sorted(theirs - mine)
    if not (here or there):
        if at_copy or _says_enough(block, match):
            return NEAR_DUPLICATE, "a copy of an earlier block", {}
        return NEEDS_REVIEW, "very similar to an earlier block", {}
    stretches = changed_stretches(match.content, block["content"], titles)
    details: dict[str, Any] = {"only_here": here[:10], "only_there": there[:10]}
    if stretches:
        details["changes"] = shown(stretches)
    if updates and not other_titles and is_update(stretches, match.content):
        return UPDATE, "an update of an earlier block: values changed", details
    if at_copy:
        what = "values" if values(" ".join(here + there)) else "words"
        return NEEDS_REVIEW, f"as similar as a copy, but the {what} differ", details
    return NEEDS_REVIEW, "very similar to an earlier block", details


def check_block(
    app: App, conn: psycopg.Connection[Any], block: dict[str, Any], generation: dict[str, Any]
) -> Decision:
    """Decide about one block (its embedding in ``generation`` is current), write the decision,
    the match row and the audit row; archive a near duplicate. Runs in the caller's savepoint."""
    spec = app.block_type(block["block_type"])
    assert spec is not None
    limits = thresholds_for(app, conn, spec, generation)
    scopes = writer_scopes(conn, block)
    match = nearest(conn, generation, block["id"], scopes, inside=True)
    cross = nearest(conn, generation, block["id"], scopes, inside=False, own_scope=block["scope"])
    if cross is not None and cross.similarity < limits.review:
        cross = None
    s = app.settings
    decision, reason, details = decide(block, match, limits, bool(s["guard.same_words"]),
                                       updates=bool(s["guard.updates"]),
                                       translations=bool(s["guard.translations"]))  # fmt: skip
    _unlink_earlier_check(conn, block["id"])
    if decision in LINKED and match is not None and _link(conn, block, match, decision) is None:
        # a person undid this link before: theirs to decide again
        said = "an update" if decision == UPDATE else "a translation"
        decision, reason = NEEDS_REVIEW, f"{said} of a block a person unlinked before"
    shown_match = match if decision != CLEAN else None
    conn.execute(
        """
        INSERT INTO context_guard_matches
            (block_id, match_id, similarity, decision, reason, generation, duplicate_at,
             review_at, cross_match_id, cross_similarity, checked_at, resolution, resolved_at,
             resolved_by, details)
        VALUES (%(id)s, %(match)s, %(sim)s, %(decision)s, %(reason)s, %(gen)s, %(dup)s,
                %(review)s, %(cross)s, %(cross_sim)s, now(), NULL, NULL, NULL, %(details)s)
        ON CONFLICT (block_id) DO UPDATE SET
            match_id = EXCLUDED.match_id, similarity = EXCLUDED.similarity,
            decision = EXCLUDED.decision, reason = EXCLUDED.reason,
            generation = EXCLUDED.generation, duplicate_at = EXCLUDED.duplicate_at,
            review_at = EXCLUDED.review_at, cross_match_id = EXCLUDED.cross_match_id,
            cross_similarity = EXCLUDED.cross_similarity, checked_at = now(),
            resolution = NULL, resolved_at = NULL, resolved_by = NULL,
            details = EXCLUDED.details
        """,
        {
            "id": block["id"],
            "match": shown_match.block_id if shown_match else None,
            "sim": match.similarity if match else None,
            "decision": decision,
            "reason": reason,
            "gen": generation["id"],
            "dup": limits.duplicate,
            "review": limits.review,
            "cross": cross.block_id if cross else None,
            "cross_sim": cross.similarity if cross else None,
            "details": Jsonb(details),
        },
    )
    conn.execute(
        "UPDATE context_blocks SET guard_status = %s, guard_checked_at = now(), "
        "is_archived = is_archived OR %s WHERE id = %s",
        (decision, decision == NEAR_DUPLICATE, block["id"]),
    )
    audit_detail = {
        "decision": decision,
        "reason": reason,
        "similarity": round(match.similarity, 4) if match else None,
        "match_id": shown_match.block_id if shown_match else None,
        "thresholds": limits.as_dict(),
        "generation": generation["id"],
        "cross_scope": cross is not None,
        **details,
    }
    conn.execute(
        "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
        "VALUES (NULL, 'guard.decision', %s, %s, %s)",
        (block["id"], block["scope"], Jsonb(audit_detail)),
    )
    return Decision(block["id"], decision, limits, int(generation["id"]), match, cross, reason,
                    details)  # fmt: skip


def _newer_first(block: dict[str, Any], match: Neighbour) -> tuple[str, str]:
    """(newer, older): the block being checked was written later, unless both name when they
    happened and the match happened later."""
    mine, theirs = block.get("occurred_at"), match.occurred_at
    if mine is not None and theirs is not None and theirs > mine:
        return match.block_id, block["id"]
    return block["id"], match.block_id


def _link(
    conn: psycopg.Connection[Any], block: dict[str, Any], match: Neighbour, decision: str
) -> int | None:
    """The Guard's link for an update (newer supersedes older) or a translation; None when a
    person rejected that link before."""
    source, target = _newer_first(block, match)
    if decision == TRANSLATION:
        source, target = block["id"], match.block_id
    note = "guard: an update" if decision == UPDATE else "guard: a translation"
    row = conn.execute(  # the links' own rule (migrations/functions/ctx_write_link.sql)
        "SELECT ctx_write_link(%s::uuid, %s::uuid, %s::text, 1.0, 'guard', NULL, %s::text) AS id",
        (source, target, LINKED[decision], note),
    ).fetchone()
    return int(row["id"]) if row and row["id"] is not None else None


def _unlink_earlier_check(conn: psycopg.Connection[Any], block_id: str) -> None:
    """A block checked again (its content changed) drops the links its earlier check wrote and
    nobody reviewed since; a confirmed or rejected one stays a person's word."""
    conn.execute(
        "DELETE FROM context_links l USING context_guard_matches m "
        "WHERE m.block_id = %(id)s AND m.decision = ANY(%(linked)s) "
        "AND l.origin = 'guard' AND l.status = 'active' AND l.link_type = ANY(%(types)s) "
        "AND ((l.source_id, l.target_id) = (m.block_id, m.match_id) "
        "     OR (l.source_id, l.target_id) = (m.match_id, m.block_id))",
        {"id": block_id, "linked": list(LINKED), "types": list(LINKED.values())},
    )
