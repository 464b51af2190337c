"""API keys: random tokens stored only as SHA-256, one 401 for every failure, scope rules."""

from __future__ import annotations

import pytest

from ctx.core import App, Forbidden, NotFound, Unauthorized, ValidationError, access


def _tables_containing(app: App, needle: str) -> list[str]:
    """Every table in the database whose rows, rendered as text, contain ``needle``."""
    with app.connection() as conn:
        tables = [
            r["tablename"]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        ]
        return [
            t
            for t in tables
            if conn.execute(
                f'SELECT 1 FROM "{t}" AS r WHERE strpos(r::text, %s) > 0 LIMIT 1', (needle,)
            ).fetchone()
        ]


def _key_count(app: App) -> int:
    with app.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM context_api_keys").fetchone()
    assert row is not None
    return int(row["n"])


def test_token_is_random_and_only_its_hash_is_stored(app: App) -> None:
    with app.connection() as conn:
        first_id, first = access.create_key(conn, name="one", home_scope="alpha")
        _, second = access.create_key(conn, name="two", home_scope="alpha")
    assert first != second
    assert first.startswith(access.TOKEN_PREFIX) and len(first) > 40
    with app.connection() as conn:
        who = access.authenticate(conn, first)  # also stamps last_used_at
    assert who.key_id == first_id

    assert _tables_containing(app, first) == []
    assert _tables_containing(app, first[len(access.TOKEN_PREFIX) :]) == []
    assert _tables_containing(app, access.hash_token(first)) == ["context_api_keys"]
    with app.connection() as conn:
        row = conn.execute(
            "SELECT key_hash, key_prefix, last_used_at FROM context_api_keys WHERE id = %s",
            (first_id,),
        ).fetchone()
    assert row is not None
    assert row["key_hash"] == access.hash_token(first)
    assert len(row["key_hash"]) == 64
    assert first.startswith(row["key_prefix"]) and len(row["key_prefix"]) < len(first) // 2
    assert row["last_used_at"] is not None


def test_unknown_revoked_and_missing_tokens_fail_alike(app: App) -> None:
    with app.connection() as conn:
        key_id, token = access.create_key(conn, name="gone", home_scope="alpha")
        access.revoke_key(conn, key_id)
    messages = []
    for candidate in (token, "ctx_" + "x" * 43, "", None, "ctx_" + "y" * 300):
        with app.connection() as conn, pytest.raises(Unauthorized) as caught:
            access.authenticate(conn, candidate)
        messages.append(caught.value.message)
    assert set(messages) == {"missing or invalid API key"}


def test_create_key_rejects_bad_input_and_stores_nothing(app: App) -> None:
    bad = [
        {"name": "k", "home_scope": "Has Spaces"},
        {"name": "k", "home_scope": ""},
        {"name": "k", "home_scope": "a" * 51},
        {"name": "k", "home_scope": "alpha", "allowed_scopes": ["ok", "NOT OK"]},
        {"name": "", "home_scope": "alpha"},
        {"name": "n" * 201, "home_scope": "alpha"},
    ]
    for kwargs in bad:
        with app.connection() as conn, pytest.raises(ValidationError):
            access.create_key(conn, **kwargs)  # type: ignore[arg-type]
    assert _key_count(app) == 0


def test_allowed_scopes_are_deduplicated_and_exclude_home(app: App) -> None:
    with app.connection() as conn:
        _, token = access.create_key(
            conn, name="r", home_scope="alpha", allowed_scopes=["beta", "alpha", "beta", "gamma"]
        )
        who = access.authenticate(conn, token)
    assert who.home_scope == "alpha"
    assert who.allowed_scopes == ("beta", "gamma")
    assert who.read_scopes == ("alpha", "beta", "gamma")
    assert not who.is_admin


def test_principal_writes_home_only_and_gates_admin() -> None:
    who = access.Principal(key_id="k", name="n", home_scope="alpha", allowed_scopes=("beta",))
    assert who.can_read("alpha") and who.can_read("beta") and not who.can_read("gamma")
    who.require_write("alpha")
    with pytest.raises(Forbidden, match="home scope 'alpha'"):
        who.require_write("beta")
    with pytest.raises(Forbidden, match="admin"):
        who.require_admin()
    access.Principal(key_id="a", name="a", home_scope="x", is_admin=True).require_admin()


def test_revoke_by_id_or_prefix_and_refuse_unknown_or_ambiguous(app: App) -> None:
    with app.connection() as conn:
        first_id, first = access.create_key(conn, name="one", home_scope="alpha")
        second_id, second = access.create_key(conn, name="two", home_scope="alpha")
        third_id, _ = access.create_key(conn, name="three", home_scope="alpha")
        # Two keys sharing a display prefix: revoking by that prefix must touch neither.
        conn.execute(
            "UPDATE context_api_keys SET key_prefix = 'ctx_shared' WHERE id = ANY(%s::uuid[])",
            ([second_id, third_id],),
        )
    with app.connection() as conn, pytest.raises(ValidationError, match="several keys"):
        access.revoke_key(conn, "ctx_shared")
    for unknown in ("00000000-0000-0000-0000-000000000000", "not-a-key"):
        with app.connection() as conn, pytest.raises(NotFound):
            access.revoke_key(conn, unknown)
    with app.connection() as conn:
        assert len(access.list_keys(conn)) == 3
        access.revoke_key(conn, first[:10])
        access.revoke_key(conn, second_id)
        active = access.list_keys(conn)
        everything = access.list_keys(conn, include_revoked=True)
    assert [k["id"] for k in active] == [third_id]
    assert len(everything) == 3
    assert all("key_hash" not in k for k in everything)
    with app.connection() as conn, pytest.raises(NotFound):
        access.revoke_key(conn, first_id)  # already revoked
    for token in (first, second):
        with app.connection() as conn, pytest.raises(Unauthorized):
            access.authenticate(conn, token)
