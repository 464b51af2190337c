"""The three-way merge and the snapshots it compares."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from ctx.plugins.issues.sync import merge
from ctx.plugins.issues.sync.forge import RemoteIssue

BASE = {
    "title": "T",
    "body": "B",
    "state": "open",
    "state_reason": None,
    "labels": [],
    "assignees": [],
}


def test_a_field_changed_on_one_side_is_taken_from_that_side() -> None:
    local = {**BASE, "labels": ["bug"]}
    remote = {**BASE, "title": "T2"}
    result = merge.three_way(BASE, local, remote)
    assert result.clean
    assert result.merged == {**BASE, "labels": ["bug"], "title": "T2"}


def test_the_same_change_on_both_sides_is_no_conflict() -> None:
    both = {**BASE, "state": "closed", "state_reason": "completed"}
    assert merge.three_way(BASE, both, both) == merge.Merge(both, ())


def test_different_changes_to_one_field_conflict_and_keep_the_local_value() -> None:
    result = merge.three_way(BASE, {**BASE, "body": "mine"}, {**BASE, "body": "theirs"})
    assert result.conflicts == ("body",)
    assert result.merged["body"] == "mine"


def test_without_a_base_any_difference_is_a_conflict() -> None:
    result = merge.three_way(None, {**BASE, "title": "a"}, {**BASE, "title": "b"})
    assert result.conflicts == ("title",)


def test_snapshots_of_both_sides_agree_on_the_same_issue() -> None:
    block = {
        "title": "#7 Crash on start",
        "content": "Crash on start",  # a title-only issue stores its title as content
        "metadata": {
            "number": 7,
            "state": "open",
            "state_reason": "reopened",
            "labels": ["b", "a", "a"],
            "assignees": [],
        },
    }
    remote = RemoteIssue(
        1,
        3,
        "Crash on start",
        "",
        "open",
        "reopened",
        ("a", "b"),
        (),
        None,
        "mona",
        None,
        datetime.now(UTC),
    )
    assert merge.local_issue(block) == merge.remote_issue(remote)
    assert merge.digest(merge.local_issue(block)) == merge.digest(merge.remote_issue(remote))


def test_a_closed_issue_without_a_reason_counts_as_completed() -> None:
    closed = merge.remote_issue(
        RemoteIssue(1, 1, "t", "", "closed", None, (), (), None, None, None, datetime.now(UTC))
    )
    assert closed["state_reason"] == "completed"


values = st.sampled_from(["x", "y", "z"])


@given(values, values, values)
def test_the_merge_never_loses_a_one_sided_change(base: str, local: str, remote: str) -> None:
    result = merge.three_way({"f": base}, {"f": local}, {"f": remote})
    if local == remote:
        assert result.merged == {"f": local} and result.clean
    elif local == base:
        assert result.merged == {"f": remote} and result.clean
    elif remote == base:
        assert result.merged == {"f": local} and result.clean
    else:
        assert result.conflicts == ("f",)
