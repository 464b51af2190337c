"""The calling key and the server's version."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core.access import WhoAmI
from ctx.ui.api.deps import PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES
from ctx.ui.version import VERSION

WRITE_ACTIONS = frozenset({"delete", "update", "archive", "unarchive"})

router = APIRouter(prefix="/api", tags=["blocks"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES})


@router.get("/whoami", name="whoami", response_model=WhoAmI)
def whoami(who: PrincipalDep) -> dict[str, Any]:
    """The calling key: name, home scope, read scopes, admin bit."""
    return who.as_dict()


@router.get("/version", name="version")
def version(who: PrincipalDep) -> dict[str, str]:
    """The server's version (behind a key: anonymous callers learn nothing about the server)."""
    return {"version": VERSION}
