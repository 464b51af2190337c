"""Block types as policy rows: seeded from the policies file, validated edits, operator edits kept."""

from __future__ import annotations

import json
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ctx.core import App, BlockTypeSpec, NotFound, ValidationError
from ctx.core.blocks import TYPE_COLUMNS, TypeChanges, load_types, update_type


def _policy_rows() -> list[dict[str, Any]]:
    text = resources.files("ctx.policies").joinpath("block_types.json").read_text("utf-8")
    rows: list[dict[str, Any]] = json.loads(text)
    return rows


def _row(app: App, name: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute("SELECT * FROM context_block_types WHERE name = %s", (name,)).fetchone()
    assert row is not None
    return row


def test_types_are_seeded_from_the_policies_file(app: App) -> None:
    with app.connection() as conn:
        stored = load_types(conn)
    policies = _policy_rows()
    plugin_types = {"issue", "issue-comment"}  # the built-in issues plugin's own rows
    assert set(stored) == {p["name"] for p in policies} | plugin_types
    for policy in policies:
        spec = asdict(stored[policy["name"]])
        for field, value in policy.items():
            assert spec[field] == pytest.approx(value), (policy["name"], field)
    assert _row(app, "knowledge")["source"] == "block-types"
    assert set(app.block_types) == set(stored)
    assert app.block_type("system-meta") == stored["system-meta"]
    assert app.block_type("nope") is None


def test_update_validates_the_whole_row_and_changes_nothing_on_error(app: App) -> None:
    before = _row(app, "knowledge")
    bad: list[tuple[dict[str, Any], str]] = [
        ({"guard_review": 0.99}, "guard_review <= guard_duplicate"),
        ({"guard_duplicate": 0.5}, "guard_review <= guard_duplicate"),
        ({"colour": "red"}, "unknown block type field 'colour'"),
        ({"name": "renamed"}, "cannot be renamed"),
        ({"retrieval_policy": "loud"}, "retrieval_policy must be one of"),
        ({"retrieval_factor": 1.5}, "between 0 and 1"),
        ({"retrieval_factor": "nan"}, "between 0 and 1"),
        ({"default_sensitivity": "secret"}, "default_sensitivity must be one of"),
        ({"retrieval_factor": "high"}, "must be a number"),
        ({"retrieval_factor": True}, "must be a number"),
        ({"guard_review": [0.5]}, "must be a number"),
        ({"embed": 5}, "true or false"),
        ({"embed": "sometimes"}, "true or false"),
        ({"description": None}, "must be a string"),
        ({"workflow": 7}, "must be a string"),
        ({"description": "fine", "embed": "sometimes"}, "true or false"),
    ]
    for changes, expected in bad:
        with app.connection() as conn, pytest.raises(ValidationError, match=expected):
            update_type(conn, "knowledge", changes)
    with app.connection() as conn, pytest.raises(NotFound, match="unknown block type 'ghost'"):
        update_type(conn, "ghost", {"embed": False})
    assert _row(app, "knowledge") == before


def test_update_coerces_cli_strings_and_json_values(app: App) -> None:
    with app.connection() as conn:
        spec = update_type(
            conn,
            "audit-trail",
            {"retrieval_factor": "0.3", "embed": "false", "guard_review": 0, "workflow": "dream"},
        )
    assert spec.retrieval_factor == pytest.approx(0.3)
    assert spec.embed is False and spec.guard_review == 0.0 and spec.workflow == "dream"
    row = _row(app, "audit-trail")
    assert row["retrieval_factor"] == pytest.approx(0.3) and row["embed"] is False
    assert row["workflow"] == "dream"
    assert row["updated_at"] > row["created_at"]
    with app.connection() as conn:
        assert update_type(conn, "audit-trail", {"workflow": "none"}).workflow is None


def test_operator_edits_survive_reopening_the_app(
    app: App, database_url: str, tmp_path: Path
) -> None:
    with app.connection() as conn:
        update_type(conn, "reference", {"retrieval_policy": "damped", "retrieval_factor": 0.2})
        conn.execute("DELETE FROM context_block_types WHERE name = 'system-meta'")
    app.reload()
    assert app.block_type("system-meta") is None
    with App(database_url=database_url, home=tmp_path / "again", load_entry_points=False) as again:
        edited = again.block_type("reference")
        assert edited is not None
        assert edited.retrieval_policy == "damped"
        assert edited.retrieval_factor == pytest.approx(0.2)
        assert edited.effective_factor == pytest.approx(0.2)
        assert again.block_type("system-meta") is not None  # a missing row is seeded again
    assert _row(app, "reference")["retrieval_policy"] == "damped"


def test_spec_from_mapping_and_effective_factor() -> None:
    spec = BlockTypeSpec.from_mapping({"name": "notes", "source": "x", "retrieval_factor": 0.4})
    assert spec.effective_factor == 1.0  # normal ignores the factor
    assert (
        BlockTypeSpec("d", retrieval_policy="damped", retrieval_factor=0.4).effective_factor == 0.4
    )
    assert BlockTypeSpec("e", retrieval_policy="excluded").effective_factor == 0.0
    with pytest.raises(ValidationError, match="unknown block type fields: colour"):
        BlockTypeSpec.from_mapping({"name": "notes", "colour": "red"})
    with pytest.raises(ValidationError) as caught:
        BlockTypeSpec.from_mapping(
            {"name": "Bad Name", "guard_review": 0.99, "retrieval_factor": 2}
        )
    for problem in ("name must be", "guard_review <= guard_duplicate", "retrieval_factor"):
        assert problem in caught.value.message  # every problem in one message


def test_the_rest_body_of_a_type_change_holds_every_editable_column() -> None:
    """``PATCH /api/types/{name}`` takes ``TypeChanges``: every column but the name, no more."""
    assert list(TypeChanges.model_fields) == TYPE_COLUMNS[1:]
