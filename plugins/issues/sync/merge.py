"""Snapshots of an issue or comment in one canonical shape, their hashes, and the three-way merge.

Both sides are reduced to the same fields (``ISSUE_FIELDS`` / ``COMMENT_FIELDS``) so a hash
compares content only. The merge works per field against the base (the last synced version): a
field one side changed is taken from that side; a field both sides changed to different values
is a conflict, and nothing of that record is written until someone picks a side.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ctx.plugins.issues.sync.forge import RemoteComment, RemoteIssue
from ctx.plugins.issues.types import plain_title

ISSUE_FIELDS = ("title", "body", "state", "state_reason", "labels", "assignees")
COMMENT_FIELDS = ("body",)
Snapshot = dict[str, Any]


def _issue_snapshot(
    title: str, body: str | None, state: str, reason: str | None, labels: Any, assignees: Any
) -> Snapshot:
    """Both sides in one shape. A body that only repeats the title counts as empty on both
    sides alike (a title-only issue is stored here with its title as content)."""
    title, body = title.strip(), (body or "").strip()
    return {
        "title": title,
        "body": "" if body == title else body,
        "state": state,
        # only a closed issue's reason is content; "reopened" on an open issue is history
        "state_reason": (reason or "completed") if state == "closed" else None,
        "labels": sorted(set(labels)),
        "assignees": sorted(set(assignees)),
    }


def remote_issue(issue: RemoteIssue) -> Snapshot:
    return _issue_snapshot(
        issue.title, issue.body, issue.state, issue.state_reason, issue.labels, issue.assignees
    )


def local_issue(block: dict[str, Any]) -> Snapshot:
    """An issue block as a snapshot."""
    meta = block["metadata"]
    return _issue_snapshot(
        plain_title(block["title"]),
        block.get("content") or "",
        meta.get("state", "open"),
        meta.get("state_reason"),
        meta.get("labels", []),
        meta.get("assignees", []),
    )


def remote_comment(comment: RemoteComment) -> Snapshot:
    return {"body": comment.body.strip()}


def local_comment(block: dict[str, Any]) -> Snapshot:
    return {"body": (block.get("content") or "").strip()}


def digest(snapshot: Snapshot) -> str:
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Merge:
    merged: Snapshot
    conflicts: tuple[str, ...]  # fields both sides changed to different values

    @property
    def clean(self) -> bool:
        return not self.conflicts


def _set_merge(was: list[Any], mine: list[Any], theirs: list[Any]) -> list[Any]:
    """Sets (labels, assignees) merge by element: what either side added is in, what either side
    removed is out; they never conflict."""
    before, ours, others = set(was), set(mine), set(theirs)
    return sorted((before & ours & others) | (ours - before) | (others - before))


def three_way(base: Snapshot | None, local: Snapshot, remote: Snapshot) -> Merge:
    """Merge per field; without a base (never synced) the sides must agree or it is a conflict."""
    merged: Snapshot = {}
    conflicts = []
    for name in local.keys() | remote.keys():
        mine, theirs = local.get(name), remote.get(name)
        was = base.get(name) if base is not None else None
        if base is not None and isinstance(was, list) and isinstance(mine, list):
            merged[name] = _set_merge(was, mine, theirs or [])
        elif mine == theirs:
            merged[name] = mine
        elif base is not None and mine == was:
            merged[name] = theirs
        elif base is not None and theirs == was:
            merged[name] = mine
        else:
            merged[name] = mine
            conflicts.append(name)
    return Merge(merged, tuple(sorted(conflicts)))


def changed_fields(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before``."""
    return {k: v for k, v in after.items() if before.get(k) != v}
