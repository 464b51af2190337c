"""What the sync engine asks of a forge, in the engine's own words (no forge's field names).

A forge plugin provides a ``ForgeKind``: ``open(link, token)`` returns a ``Forge`` bound to one
remote repository, ``verify_webhook`` checks and reads a push delivery. Built-in forges are listed
in ``BUILTIN``; others come from the ``ctx.forges`` entry-point group (name -> ``ForgeKind``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ctx.core import NotFound

BUILTIN: Mapping[str, str] = {"github": "ctx.plugins.forge_github:FORGE"}
ENTRY_POINT_GROUP = "ctx.forges"


@dataclass(frozen=True)
class RemoteIssue:
    forge_id: int
    number: int
    title: str
    body: str
    state: str  # open | closed
    state_reason: str | None
    labels: tuple[str, ...]
    assignees: tuple[str, ...]
    milestone: str | None
    author: str | None
    url: str | None
    updated_at: datetime
    is_pull: bool = False  # forges that list merge requests among issues flag them
    comments: int = 0  # how many comments it has
    created_at: datetime | None = None


@dataclass(frozen=True)
class RemoteComment:
    forge_id: int
    issue_number: int
    body: str
    author: str | None
    url: str | None
    updated_at: datetime
    created_at: datetime | None = None


@dataclass(frozen=True)
class Page:
    """One page of a listing: ``not_modified`` when the ETag still held (nothing to read)."""

    items: list[Any] = field(default_factory=list)
    etag: str | None = None
    has_next: bool = False
    not_modified: bool = False


@dataclass(frozen=True)
class WebhookEvent:
    delivery_id: str
    repo: str  # the forge's repository name, as links name it
    kind: str  # issue | comment | ping | other
    numbers: tuple[int, ...] = ()


class ForgeError(Exception):
    """The forge refused or failed a call; the message is safe to show."""


class ForgeRateLimited(ForgeError):
    """The forge's rate limit is spent until ``until``: the run stops and syncing waits."""

    def __init__(self, until: datetime, message: str = "rate limited") -> None:
        super().__init__(message)
        self.until = until


class AuthFailed(ForgeError):
    pass


class Unreachable(ForgeError):
    """The forge did not answer (network, timeout): the run stops; nothing is the record's fault."""


class Gone(ForgeError):
    """The remote issue was deleted (a forge's "gone", never a plain "not found", which may
    only mean the token lost access)."""


class Moved(ForgeError):
    """The remote issue now lives elsewhere (transferred); ``location`` says where."""

    def __init__(self, location: str) -> None:
        super().__init__(f"moved to {location}")
        self.location = location


class BadSignature(ForgeError):
    pass


class Forge(Protocol):
    def list_issues(self, since: datetime | None, page: int, etag: str | None) -> Page: ...

    def list_comments(self, since: datetime | None, page: int, etag: str | None) -> Page: ...

    def get_issue(self, number: int) -> RemoteIssue: ...

    def issue_comments(self, number: int) -> list[RemoteComment]: ...

    def create_issue(self, fields: dict[str, Any]) -> RemoteIssue: ...

    def update_issue(self, number: int, fields: dict[str, Any]) -> RemoteIssue: ...

    def get_comment(self, forge_id: int) -> RemoteComment: ...

    def create_comment(self, number: int, body: str) -> RemoteComment: ...

    def update_comment(self, forge_id: int, body: str) -> RemoteComment: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class ForgeLink:
    """A scope's link to a remote repository, as the forge needs it."""

    id: int
    scope: str
    forge: str
    repo: str
    base_url: str | None


class ForgeKind(Protocol):
    name: str

    def check_repo(self, repo: str) -> str:
        """The repository name normalised, or ``ValueError`` with the reason."""
        ...

    def open(self, link: ForgeLink, token: str) -> Forge: ...

    def read_webhook(self, headers: Mapping[str, str], body: bytes) -> WebhookEvent:
        """The delivery's facts (unverified); ``BadSignature`` when it is not one at all."""
        ...

    def verify_webhook(self, headers: Mapping[str, str], body: bytes, secret: str) -> None:
        """``BadSignature`` unless the delivery is signed with ``secret``."""
        ...


def _load(target: str) -> ForgeKind:
    module, _, attr = target.partition(":")
    kind: ForgeKind = getattr(importlib.import_module(module), attr)
    return kind


def forge_kinds() -> dict[str, str]:
    """Known forge names -> where they load from (built-ins first, entry points may add)."""
    found = dict(BUILTIN)
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def forge_kind(name: str) -> ForgeKind:
    target = forge_kinds().get(name)
    if target is None:
        known = ", ".join(sorted(forge_kinds()))
        raise NotFound(f"no forge {name!r} (known: {known})")
    return _load(target)
