"""The Guard on a real store with the real default embedder: copies archived, close matches
flagged, unrelated notes clean, another scope never revealed, failures contained."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctx.core import App, access
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.embed import active_generation
from ctx.core.errors import Conflict, Forbidden, NotFound, ValidationError
from ctx.core.guard import (
    NEAR_DUPLICATE,
    Neighbour,
    Thresholds,
    decide,
    guard_stats,
    list_flags,
    resolve_flag,
    run_checks,
    set_thresholds,
    sweep,
    values,
    word_changes,
)
from ctx.core.runtime import drain, set_setting

BACKUP = (
    "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives in "
    "the S3 bucket ctx-backups; restores are tested on the first Monday of each month."
)
PARAPHRASE = (
    "Every night at 02:00 the db-2 host backs up Postgres. WAL archives stay for 14 days in the "
    "ctx-backups S3 bucket, and on the first Monday of every month we test a restore."
)
LASAGNE = "Layer the pasta sheets with ragu and bechamel and bake for 45 minutes at 180 degrees."


def principal(app: App, keys: Any, home: str, allowed: list[str] | None = None, admin=False) -> Any:
    with app.connection() as conn:
        return access.authenticate(conn, keys.make(home, allowed, admin))


def put(app: App, who: Any, title: str, content: str, category: str = "ops", **kw: Any) -> str:
    req = StoreRequest(title=title, content=content, category=category, **kw)
    return str(store_block(app, who, req)["id"])


def settle(app: App) -> None:
    drain(app, "embed")
    drain(app, "guard")


def status(app: App, block_id: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT b.guard_status, b.is_archived, m.match_id::text AS match_id, m.similarity, "
            "m.reason, m.cross_match_id::text AS cross_match_id FROM context_blocks b "
            "LEFT JOIN context_guard_matches m ON m.block_id = b.id WHERE b.id = %s",
            (block_id,),
        ).fetchone()
    assert row is not None
    return dict(row)


@pytest.fixture
def alpha(app: App, keys: Any) -> Any:
    return principal(app, keys, "alpha")


def test_an_exact_copy_is_archived_with_an_audit_row(app: App, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP)
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    assert status(app, first)["guard_status"] == "clean"
    got = status(app, copy)
    assert got["guard_status"] == NEAR_DUPLICATE and got["is_archived"]
    assert got["match_id"] == first and got["similarity"] > 0.999
    with app.connection() as conn:
        audit = conn.execute(
            "SELECT detail FROM context_write_log WHERE action = 'guard.decision' AND block_id = %s",
            (copy,),
        ).fetchone()
    assert audit is not None and audit["detail"]["decision"] == NEAR_DUPLICATE
    assert audit["detail"]["thresholds"]["source"] in ("embedder", "type")


def test_a_paraphrase_is_flagged_and_stays_visible(app: App, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP)
    para = put(app, alpha, "How our backups work", PARAPHRASE)
    settle(app)
    got = status(app, para)
    assert got["guard_status"] == "needs_review" and not got["is_archived"]
    assert got["match_id"] == first
    flags = list_flags(app, alpha)
    assert [f["block_id"] for f in flags] == [para]
    assert flags[0]["match_title"] == "Backup plan"


def test_an_unrelated_note_is_clean(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    food = put(app, alpha, "Lasagne", LASAGNE, category="food")
    settle(app)
    got = status(app, food)
    assert got["guard_status"] == "clean" and got["match_id"] is None


def test_a_copy_with_a_changed_value_is_flagged_not_archived(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    changed = put(app, alpha, "Backup plan v2", BACKUP.replace("02:00", "03:30"))
    settle(app)
    got = status(app, changed)
    assert got["guard_status"] == "needs_review" and not got["is_archived"]
    assert "values differ" in got["reason"]


def test_the_similarity_alone_decides_with_same_words_off(app: App, alpha: Any) -> None:
    set_setting(app, "guard.same_words", False)
    put(app, alpha, "Backup plan", BACKUP)
    changed = put(app, alpha, "Backup plan v2", BACKUP.replace("02:00", "03:30"))
    settle(app)
    assert status(app, changed)["guard_status"] == NEAR_DUPLICATE


def test_values_reads_numbers_dates_and_amounts() -> None:
    assert values("at 02:00 on 2026-03-01, 3,5 % of 1.200 EUR") == {
        "02:00", "2026-03-01", "3.5", "1.200"}  # fmt: skip


def test_a_match_in_an_unreadable_scope_is_never_revealed(app: App, keys: Any) -> None:
    beta = principal(app, keys, "beta")
    theirs = put(app, beta, "Backup plan", BACKUP)
    mine_writer = principal(app, keys, "alpha")
    mine = put(app, mine_writer, "Backup plan", BACKUP)
    settle(app)
    got = status(app, mine)
    assert got["guard_status"] == "clean" and not got["is_archived"]  # decided on alpha alone
    assert got["match_id"] is None and got["cross_match_id"] == theirs  # for admins
    assert list_flags(app, mine_writer) == []
    stats = guard_stats(app, mine_writer)
    assert stats["open"] == {} and stats["jobs"] is None
    with pytest.raises(Forbidden):
        list_flags(app, mine_writer, cross_scope=True)
    admin = principal(app, keys, "ops", ["alpha"], admin=True)
    cross = list_flags(app, admin, cross_scope=True)
    assert [(c["block_id"], c["match_scope"]) for c in cross] == [(mine, "beta")]
    assert theirs not in str(cross) and "match_title" not in cross[0]  # nothing of beta's block
    blind = principal(app, keys, "ops2", admin=True)  # an admin bit does not widen scopes
    assert list_flags(app, blind, cross_scope=True) == []


def test_a_reader_of_both_scopes_sees_matches_across_them(app: App, keys: Any) -> None:
    beta = principal(app, keys, "beta")
    put(app, beta, "Backup plan", BACKUP)
    both = principal(app, keys, "alpha", ["beta"])
    mine = put(app, both, "Backup plan", BACKUP)
    settle(app)
    assert status(app, mine)["guard_status"] == NEAR_DUPLICATE


def test_thresholds_per_type_and_generation_win(app: App, alpha: Any) -> None:
    with app.connection() as conn:
        gen = active_generation(conn)
        assert gen is not None
        set_thresholds(conn, int(gen["id"]), 0.999, 0.998, block_type="knowledge")
    put(app, alpha, "Backup plan", BACKUP)
    para = put(app, alpha, "How our backups work", PARAPHRASE)
    settle(app)
    assert status(app, para)["guard_status"] == "clean"


def test_a_block_waits_for_its_embedding(app: App, alpha: Any) -> None:
    block = put(app, alpha, "Backup plan", BACKUP)
    decisions, later = run_checks(app, [block])
    assert decisions == [] and later == [block]  # its embed job is still queued
    with app.connection() as conn:
        job = conn.execute(
            "SELECT status, run_after > now() AS later FROM context_jobs WHERE kind = 'guard'"
        ).fetchone()
    assert job is not None and job["status"] == "queued"
    drain(app, "guard")  # puts it back for a few seconds, no busy loop
    with app.connection() as conn:
        job = conn.execute(
            "SELECT status, run_after > now() AS later FROM context_jobs WHERE kind = 'guard'"
        ).fetchone()
    assert job is not None and job["later"]


def test_the_sweep_queues_blocks_no_job_asks_for(app: App, alpha: Any) -> None:
    block = put(app, alpha, "Backup plan", BACKUP)
    drain(app, "embed")
    with app.connection() as conn:
        conn.execute("DELETE FROM context_jobs WHERE kind = 'guard'")  # a lost job
    assert sweep(app) == 1
    assert sweep(app) == 0  # already queued
    drain(app, "guard")
    assert status(app, block)["guard_status"] == "clean"


def test_one_failing_block_does_not_poison_the_batch(app: App, alpha: Any) -> None:
    bad = put(app, alpha, "Backup plan", BACKUP)
    good = put(app, alpha, "Lasagne", LASAGNE, category="food")
    drain(app, "embed")
    with app.connection() as conn:  # a database error in the middle of one block's check
        conn.execute(
            "CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF NEW.block_id = '{bad}' THEN RAISE EXCEPTION 'injected'; END IF; "
            "RETURN NEW; END $$"
        )
        conn.execute(
            "CREATE TRIGGER test_fail BEFORE INSERT ON context_guard_matches "
            "FOR EACH ROW EXECUTE FUNCTION test_fail()"
        )
    decisions, _ = run_checks(app, [bad, good])
    assert [d.block_id for d in decisions] == [good]
    assert status(app, good)["guard_status"] == "clean"
    assert status(app, bad)["guard_status"] == "pending"
    with app.connection() as conn:
        err = conn.execute(
            "SELECT detail FROM context_write_log WHERE action = 'guard.error' AND block_id = %s",
            (bad,),
        ).fetchone()
        decided = conn.execute(
            "SELECT 1 FROM context_write_log WHERE action = 'guard.decision' AND block_id = %s",
            (bad,),
        ).fetchone()
    assert err is not None and "injected" in err["detail"]["error"]
    assert decided is None  # nothing of the failed check was kept


def test_keep_both_brings_an_archived_copy_back_and_sticks(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    out = resolve_flag(app, alpha, copy, "keep_both")
    assert out["resolution"] == "keep_both"
    got = status(app, copy)
    assert got["guard_status"] == "reviewed" and not got["is_archived"]
    assert list_flags(app, alpha) == []
    put(app, alpha, "Backup plan", BACKUP, category="notes")  # same content stored again
    settle(app)
    assert status(app, copy)["guard_status"] == "reviewed"


def test_archive_the_match_instead(app: App, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP)
    para = put(app, alpha, "How our backups work", PARAPHRASE)
    settle(app)
    resolve_flag(app, alpha, para, "archive", which="match")
    assert status(app, first)["is_archived"] and not status(app, para)["is_archived"]


def test_merge_appends_the_content_with_provenance(app: App, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP, tags=["ops"])
    para = put(app, alpha, "How our backups work", PARAPHRASE, tags=["backup"])
    settle(app)
    out = resolve_flag(app, alpha, para, "merge", which="match")
    assert out == {"block_id": para, "match_id": first, "resolution": "merge", "kept": first,
                   "merged": para}  # fmt: skip
    with app.connection() as conn:
        kept = conn.execute(
            "SELECT content, metadata, tags FROM context_blocks WHERE id = %s", (first,)
        ).fetchone()
    assert kept is not None and PARAPHRASE in kept["content"] and BACKUP in kept["content"]
    assert kept["metadata"]["merged_from"][0]["id"] == para
    assert set(kept["tags"]) == {"ops", "backup"}
    got = status(app, para)
    assert got["is_archived"] and got["guard_status"] == "merged"


def test_resolving_needs_a_flag_and_write_access(app: App, keys: Any, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP)
    para = put(app, alpha, "How our backups work", PARAPHRASE)
    settle(app)
    with pytest.raises(NotFound):
        resolve_flag(app, alpha, first, "keep_both")  # clean: nothing to resolve
    reader = principal(app, keys, "gamma", ["alpha"])
    with pytest.raises(Forbidden):
        resolve_flag(app, reader, para, "keep_both")
    with pytest.raises(ValidationError):
        resolve_flag(app, alpha, para, "shred")
    resolve_flag(app, alpha, para, "keep_both")
    with pytest.raises(Conflict):
        resolve_flag(app, alpha, para, "keep_both")


def test_types_without_dedup_are_not_checked(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    log = put(app, alpha, "Backup plan", BACKUP, category="log", block_type="audit-trail")
    settle(app)
    assert status(app, log)["guard_status"] == "pending"
    with app.connection() as conn:
        n = conn.execute("SELECT count(*) AS n FROM context_guard_matches WHERE block_id = %s",
                         (log,)).fetchone()  # fmt: skip
    assert n is not None and n["n"] == 0


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("The nightly backup runs at 02:00.", "- the nighlty backup runs at 02:00!", True),
        ("We drop the Redis cache.", "We drop Redis cache", True),  # a function word
        ("The backup runs on Monday.", "The backup runs on Sunday.", False),
        ("Increase the pool size.", "Decrease the pool size.", False),
        ("Set the maximum retries.", "Set the minimum retries.", False),
        ("server01 is down", "server02 is down", False),
        ("Maria called back.", "Mario called back.", False),
        ("Alice pays Bob 50 EUR.", "Bob pays Alice 50 EUR.", False),  # the order matters
        ("Backups at 02:00.", "Backups at 03:30.", False),
        # formatting only (issue 36): quotes, emphasis, code marks, spelling variants, typos
        ("The colour of the _button_ is **grey**.", "the color of teh `button` is gray", True),
        ("We keep \u201cRabbitMQ\u201d.", "We keep 'RabbitMQ'!", True),
        ("The configuration was optimised.", "The configuraiton was optimized.", True),
        ("The cancellation needs notice.", "The cancelation needs notice.", True),
        ("Die Straße für Lieferungen.", "die Strasse fuer Lieferungen", True),
        ("Der Wiederherstellungstest läuft.", "Der Wiederherstelungstest läuft.", True),
        ("Handover on Monday.", "Handover on Mondya.", True),
        ("- alpha item\n- beta item\n- gamma", "* gamma\n* alpha item\n* beta item", True),
        # changed facts, however small the edit
        ("1. Alice\n2. Bob", "1. Bob\n2. Alice", False),  # a numbered list's order is its rank
        ("Moved from Berlin to Munich.", "Moved to Berlin from Munich.", False),
        ("Wir nutzen Postgres und Redis.", "Wir nutzen Postgres oder Redis.", False),
        ("The owner is Gabriele.", "The owner is Gabriela.", False),
        ("Ansprechpartner ist Herr Schäfer.", "Ansprechpartner ist Herr Schäffer.", False),
        ("Handover on Monday.", "Handover on Mondays.", False),
        ("The feature is on.", "The feature is off.", False),
        ("We don't use Kafka.", "We use Kafka.", False),
        ("Wir führen React nicht ein.", "Wir führen React ein.", False),
        ("Es kostet drei Euro.", "Es kostet frei Euro.", False),
        ("Owner is Daniel.", "Owner is Daniela.", False),
        ("Owner: Christiane", "Owner: Christiana", False),  # a name after a colon too
        ("- Katrin\n- Lukas", "- Katrina\n- Lukas", False),
        ("Cancellation needs notice.", "the cancelation needs notice.", True),  # not a name
    ],
)
def test_the_word_check(a: str, b: str, same: bool) -> None:
    assert (word_changes(a, b) == ([], [])) is same


def test_a_heading_counts_when_it_names_something_new() -> None:
    note = "The nightly analytics job runs at 04:15.\nIt is owned by the data team."
    assert word_changes("# Analytics\n" + note, note) == ([], [])
    assert word_changes("# Nightly job\n" + note, note, "Nightly job") == ([], [])  # the title
    assert "finance" in word_changes("# Owner: finance\n" + note, note)[0]
    assert word_changes("# Job 2\n" + note, note) != ([], [])  # a number is content
    talk = "We discussed whether to keep or drop Redis."
    keep, drop = "# Decision: keep\n" + talk, "# Decision: drop\n" + talk
    assert word_changes(keep, drop, "Decision") == (["keep"], ["drop"])  # both have headings
    assert word_changes(keep, "## Decision: keep\n" + talk) == ([], [])


def test_same_words_below_the_copy_level_need_a_long_note_or_the_same_title() -> None:
    limits = Thresholds(0.995, 0.9, "test")
    long_note = "The nightly analytics job materialises the revenue tables at 04:15."
    block = {"title": "Analytics job", "content": long_note.upper()}
    match = Neighbour("m", "s", 0.95, "Revenue ETL", long_note)
    assert decide(block, match, limits)[0] == NEAR_DUPLICATE
    short = {"title": "Deploy API", "content": "Done."}
    assert decide(short, Neighbour("m", "s", 0.95, "Order pizza", "done"), limits)[0] == (
        "needs_review"
    )
    assert decide(short, Neighbour("m", "s", 0.95, "deploy API", "done"), limits)[0] == (
        NEAR_DUPLICATE
    )
    assert decide(short, Neighbour("m", "s", 0.85, "Deploy API", "done"), limits)[0] == "clean"
    assert decide(block, match, limits, same_words=False)[0] == "needs_review"


NOTE_EN = (
    "The billing database is backed up every night at 02:00 UTC with pgBackRest. Full backups "
    "are kept for 14 days in the bucket acme-pg-archive. Priya owns the restore test, which runs "
    "on the first Monday of each month. The colour of the status badge is grey."
)
NOTE_DE = (
    "- Montag bis Mittwoch: Katrin\n- Donnerstag und Freitag: Lukas\n"
    "- Wochenende: externer Dienstleister\n- Übergabe jeweils um 09:00 Uhr an der Straße"
)


def test_re_saves_that_change_only_formatting_are_archived(app: App, alpha: Any) -> None:
    """Issue 36: twenty re-saves with trivial edits, most went to review. Each of these, under
    another title and category, changes formatting only, and is archived."""
    en = put(app, alpha, "Billing DB backups", NOTE_EN)
    de = put(app, alpha, "Rufbereitschaft Plattform", NOTE_DE)
    settle(app)
    copies = {
        "case and code": NOTE_EN.lower().replace("pgbackrest", "`pgBackRest`"),
        "bullets and typo": "- " + NOTE_EN.replace(". ", ".\n- ").replace("Monday", "Mondya"),
        "variants and heading": "## Backups\n"
        + NOTE_EN.replace("colour", "color").replace("grey", "gray"),
        "quotes and punctuation": NOTE_EN.replace("pgBackRest", "\u201cpgBackRest\u201d")
        .replace(". Full", "; full")
        .rstrip(".")
        + "!",
        "Listenreihenfolge": "\n".join(reversed(NOTE_DE.splitlines())),
        "Hervorhebung und ss": NOTE_DE.replace("Katrin", "**Katrin**").replace("ß", "ss"),
    }
    ids = {
        name: put(app, alpha, f"Re-save {name}", text, category=f"c{i}")  # no digit in a title
        for i, (name, text) in enumerate(copies.items())
    }
    settle(app)
    for name, block in ids.items():
        got = status(app, block)
        assert (name, got["guard_status"], got["is_archived"]) == (name, NEAR_DUPLICATE, True)
        assert got["match_id"] in (en, de, *ids.values())


def test_a_changed_fact_is_never_archived_as_a_copy(app: App, alpha: Any) -> None:
    put(app, alpha, "Billing DB backups", NOTE_EN)
    put(app, alpha, "Rufbereitschaft Plattform", NOTE_DE)
    settle(app)
    changed = [
        NOTE_EN.replace("02:00", "03:30"),
        NOTE_EN.replace("Priya", "Tomasz"),
        NOTE_EN.replace("14 days", "7 days"),
        NOTE_EN.replace("first Monday", "first Mondays"),
        NOTE_DE.replace("Lukas", "Lukas und Nina"),
        NOTE_DE.replace("Montag bis Mittwoch", "Montag bis Dienstag"),
        NOTE_DE.replace("09:00", "10:00").replace("Katrin", "**Katrin**"),
    ]
    ids = [put(app, alpha, f"Re-save {'ab'[i % 2]}", text, category="other") for i, text in
           enumerate(changed)]  # fmt: skip
    settle(app)
    for block in ids:
        got = status(app, block)  # recorded as an update (test_updates.py) or flagged
        assert got["guard_status"] in ("update", "needs_review") and not got["is_archived"]


def test_the_guide_states_the_typo_rule_the_word_check_applies() -> None:
    """docs/guard-dream.md states the typo rule the check applies; its wording and examples hold
    here."""
    guide = " ".join((Path(__file__).parents[3] / "docs" / "guard-dream.md").read_text().split())
    for rule in (
        "two neighbouring letters swapped in a word of three letters or more",
        "one edit in a word of six letters or more, two in a word of eight or more",
        "a word capitalised on both sides (maybe a name, also at the start of a sentence or an item",
        "only one edit, from twelve letters on, with its last two letters kept",
    ):
        assert rule in guide
    assert '"recieve" / "receive" is a typo' in guide
    assert word_changes("We recieve it.", "We receive it.") == ([], [])
    assert word_changes("The backup runs, teh end.", "The backup runs, the end.") == ([], [])
    assert word_changes("The regresion suite.", "The regression suite.") == ([], [])
    assert word_changes("A configuraton change.", "A confgiuration change.") == ([], [])
    for a, b in (("server01", "server02"), ("Monday", "Sunday"), ("cat", "cut"),
                 ("Maria", "Mario")):  # fmt: skip
        assert f'"{a}" / "{b}"' in guide
        assert word_changes(f"It is {a}.", f"It is {b}.") != ([], [])
    assert word_changes("The nightly run.", "The nihgtlly run.") != ([], [])  # two, in seven
    assert word_changes("Our plans.", "Our plant.") != ([], [])  # one edit, five letters


def test_titles_must_not_name_other_values(app: App, alpha: Any) -> None:
    same = "No blockers today, all tasks on track."
    put(app, alpha, "Standup 2026-03-03", same)
    copy = put(app, alpha, "Standup 2026-03-03", same, category="notes")
    settle(app)
    assert status(app, copy)["guard_status"] == NEAR_DUPLICATE
    second = put(app, alpha, "Standup 2026-03-04", same)
    settle(app)
    got = status(app, second)
    assert got["guard_status"] == "needs_review" and not got["is_archived"]


def test_the_guard_off_checks_nothing(app: App, alpha: Any) -> None:
    set_setting(app, "guard.enabled", False)
    put(app, alpha, "Backup plan", BACKUP)
    drain(app, "embed")
    with app.connection() as conn:  # blocks from before the switch: the sweep leaves them
        conn.execute("UPDATE context_blocks SET guard_status = 'pending'")
    assert sweep(app) == 0
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    assert status(app, copy)["guard_status"] == "pending"


def test_a_check_delivered_twice_does_not_undo_a_review(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    resolve_flag(app, alpha, copy, "keep_both")
    decisions, _ = run_checks(app, [copy])  # a second delivery of the same job
    assert decisions == []
    assert status(app, copy)["guard_status"] == "reviewed" and not status(app, copy)["is_archived"]


def test_a_revived_copy_is_checked_again(app: App, alpha: Any) -> None:
    put(app, alpha, "Backup plan", BACKUP)
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    assert status(app, copy)["is_archived"]
    put(app, alpha, "Backup plan", BACKUP, category="notes")  # stored again: brought back
    assert status(app, copy)["guard_status"] == "pending"
    settle(app)
    assert status(app, copy)["guard_status"] == NEAR_DUPLICATE and status(app, copy)["is_archived"]


def test_archive_the_match_of_an_archived_copy_keeps_the_copy_visible(app: App, alpha: Any) -> None:
    first = put(app, alpha, "Backup plan", BACKUP)
    copy = put(app, alpha, "Backup plan", BACKUP, category="notes")
    settle(app)
    resolve_flag(app, alpha, copy, "archive", which="match")
    assert status(app, first)["is_archived"] and not status(app, copy)["is_archived"]
