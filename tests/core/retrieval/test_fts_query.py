"""ctx_fts_query: OR-ed lexemes, and common words left out of queries in large stores."""

from __future__ import annotations

from ctx.core import App, StoreRequest, access, blocks


def _fts(app: App, text: str, cutoff: float, min_blocks: float) -> set[str]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT ctx_fts_query('english', %s::text, 'ts_en', %s::real, %s::real)::text AS q",
            (text, cutoff, min_blocks),
        ).fetchone()
    assert row is not None
    return {part.strip().strip("'") for part in row["q"].split("|") if part.strip()}


def test_lexemes_are_ored_and_common_ones_dropped_in_large_stores(app: App) -> None:
    with app.connection() as conn:
        _, token = access.create_key(conn, name="t", home_scope="team")
        who = access.authenticate(conn, token)
    for i in range(40):
        extra = " kangaroo" if i == 0 else ""
        req = StoreRequest(title=f"Note {i}", content=f"The server restarted again{extra}.")
        blocks.store_block(app, who, req)
    with app.connection() as conn:
        conn.execute("ANALYZE context_blocks")

    # Small store (below min_blocks): every word stays.
    assert _fts(app, "server kangaroo", 0.05, 1e9) == {"server", "kangaroo"}
    # Large store: "server" is in every block, so only the rare word is searched.
    assert _fts(app, "server kangaroo", 0.05, 0) == {"kangaroo"}
    # Only common words: the rarest one is kept rather than an empty query.
    assert len(_fts(app, "server restarted", 0.05, 0)) == 1
    # Cutoff 1 keeps every word whatever the size.
    assert _fts(app, "server kangaroo", 1.0, 0) == {"server", "kangaroo"}
    # Stopwords only: an empty query, no error.
    assert _fts(app, "the and of", 0.05, 0) == set()
