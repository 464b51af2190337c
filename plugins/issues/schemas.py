"""Request shapes of the issue operations, shared by the REST routes, MCP tools and the CLI: the
bodies, and the inputs that add the issue's number (a path parameter of the route, an argument
of the tool) to them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints

from ctx.core import NOT_BLANK, ONE_LINE, Strict, shaped

# the patterns say what stripping would leave empty, so the schema states the rule
Title = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=400), shaped(ONE_LINE)
]
Body = Annotated[str, Field(max_length=200_000)]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), shaped(ONE_LINE)
]
Reason = Literal["completed", "not_planned", "duplicate"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]
#: ``all`` (what the workbench's filter offers) is no filter on the state, as is leaving it out.
State = Annotated[
    Literal["open", "closed", "all"] | None,
    AfterValidator(lambda value: None if value == "all" else value),
]
CommentBody = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=200_000),
    shaped(NOT_BLANK),
]


class Request(Strict):
    """Base of the issue requests: ctx's input rule, unknown fields refused, strict types."""


class IssueCreate(Request):
    title: Title = Field(description="One line saying what is wrong or wanted.")
    body: Body = Field(default="", description="The description (Markdown).")
    labels: list[Name] = Field(default_factory=list, max_length=50, description="Label names.")
    assignees: list[Name] = Field(
        default_factory=list, max_length=20, description="Who works on it."
    )
    milestone: Name | None = Field(default=None, description="A milestone name.")


class IssueEdit(Request):
    """Fields to change; those left out (or null) stay as they are; a null milestone clears it."""

    title: Title | None = Field(default=None, description="A new title.")
    body: Body | None = Field(default=None, description="A new description.")
    labels: list[Name] | None = Field(default=None, max_length=50, description="All labels.")
    assignees: list[Name] | None = Field(default=None, max_length=20, description="All assignees.")
    milestone: Name | None = Field(default=None, description="A milestone; null clears it.")


class CommentCreate(Request):
    body: CommentBody = Field(description="The comment (Markdown).")


class CloseRequest(Request):
    reason: Reason = Field(default="completed", description="Why it is closed.")


class IssueFilter(Request):
    # Read from the query string (GET /api/issues), where every value is text: "5" is a limit.
    model_config = ConfigDict(strict=False)

    state: State = Field(default=None, description="open, closed or all (the default).")
    label: Name | None = Field(default=None, description="Only issues with this label.")
    assignee: Name | None = Field(default=None, description="Only issues assigned to this name.")
    text: Text | None = Field(default=None, description="Words in the title or body.")
    scope: str | None = Field(default=None, description="One readable scope (default: all).")
    limit: int = Field(default=50, ge=1, le=200, description="At most this many issues.")


class SuggestRequest(Request):
    title: Title = Field(description="The title of the issue about to be filed.")
    body: Body = Field(default="", description="Its description.")
    limit: int = Field(default=5, ge=1, le=20, description="Suggestions of each kind.")


# -- inputs with the issue's number: the route's path parameter, the tool's argument -------------


class NumberInput(Request):
    number: int = Field(ge=1, description="The issue's number in its scope.")
    scope: str | None = Field(default=None, description="Default: the key's home scope.")


class IssueShow(NumberInput):
    """``GET /api/issues/{number}``: ``scope`` comes from the query string, where other
    parameters are ignored (as they always were)."""

    model_config = ConfigDict(extra="ignore")


class CommentInput(CommentCreate):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class CloseInput(Request):
    number: int = Field(ge=1, description="The issue's number in your home scope.")
    reason: Reason = Field(default="completed", description="completed, not_planned, duplicate.")


class EditInput(IssueEdit):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class ReopenInput(Request):
    number: int = Field(ge=1, description="The issue's number in your home scope.")
