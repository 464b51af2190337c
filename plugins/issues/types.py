"""The block types of the issue workflow: their policy rows and where their blocks live."""

from __future__ import annotations

from ctx.core import BlockTypeSpec

WORKFLOW = "issues"
ISSUE = "issue"
COMMENT = "issue-comment"
ISSUE_CATEGORY = "issues"
COMMENT_CATEGORY = "issue-comments"

ISSUE_TYPE = BlockTypeSpec(
    name=ISSUE,
    description="An issue of a repository scope: a bug, a task or a proposal, with its state.",
    retrieval_policy="normal",
    retrieval_factor=1.0,
    guard_dedup=True,
    guard_duplicate=0.97,
    guard_review=0.88,
    dream_linkable=True,
    embed=True,
    temporal_extract=True,
    workflow=WORKFLOW,
)

COMMENT_TYPE = BlockTypeSpec(
    name=COMMENT,
    description="A comment on an issue (metadata.issue_id names the issue).",
    retrieval_policy="damped",
    retrieval_factor=0.7,
    guard_dedup=False,
    dream_linkable=False,
    embed=True,
    temporal_extract=False,
    workflow=WORKFLOW,
)


def issue_title(number: int, title: str) -> str:
    """The block title: numbered, so two issues with one title never share a block key."""
    return f"#{number} {title}"


def plain_title(block_title: str) -> str:
    """The issue's own title, without the ``#N`` prefix."""
    head, _, rest = block_title.partition(" ")
    return rest if head.startswith("#") and rest else block_title
