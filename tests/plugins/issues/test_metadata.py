from __future__ import annotations

from typing import Any

import pytest

from ctx.core import ValidationError
from ctx.plugins.issues.metadata import check_comment_meta, check_issue_meta


def test_valid_metadata_is_normalised() -> None:
    meta = check_issue_meta({"number": 3, "labels": [" bug "], "forge": "github", "url": None})
    assert meta == {"number": 3, "state": "open", "labels": ["bug"], "assignees": [],
                    "forge": "github"}  # fmt: skip


@pytest.mark.parametrize(
    ("meta", "field"),
    [
        ({}, "metadata.number"),
        ({"number": 0}, "metadata.number"),
        ({"number": 1, "state": "done"}, "metadata.state"),
        ({"number": 1, "labels": "bug"}, "metadata.labels"),
        ({"number": 1, "colour": "red"}, "metadata.colour"),
        ({"number": "1"}, "metadata.number"),
    ],
)
def test_invalid_metadata_names_the_field(meta: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as err:
        check_issue_meta(meta)
    assert err.value.field == field
    assert field in err.value.message


def test_a_comment_needs_its_issue() -> None:
    with pytest.raises(ValidationError, match=r"metadata\.issue_id"):
        check_comment_meta({"number": 1})


def test_any_store_of_an_issue_is_checked(client: Any, keys: Any) -> None:
    """The hook guards every write path, not only the plugin's own routes."""
    headers = {"X-Context-Key": keys.make("repo-a")}
    body = {"title": "x", "content": "y", "block_type": "issue", "metadata": {"state": "open"}}
    r = client.post("/api/store", json=body, headers=headers)
    assert r.status_code == 422
    assert "metadata.number" in r.json()["message"]
    body["metadata"] = {"number": 99, "state": "open"}
    assert client.post("/api/store", json=body, headers=headers).status_code == 200
