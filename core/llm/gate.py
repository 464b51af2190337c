"""The trust gate: which block content a backend may receive. The only place that decides it.

A backend's trust level names the sensitivities it may see; every piece of block content that a
model call carries passes through ``admit`` first, and the call is built from what was admitted.

    full-trust      public, internal, personal, credentials
    no-credentials  public, internal, personal
    non-personal    public, internal
    public          public
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SENSITIVITY_ORDER = ("public", "internal", "personal", "credentials")
TRUST_LEVELS = ("full-trust", "no-credentials", "non-personal", "public")
VISIBLE: dict[str, frozenset[str]] = {
    "full-trust": frozenset(SENSITIVITY_ORDER),
    "no-credentials": frozenset(SENSITIVITY_ORDER[:3]),
    "non-personal": frozenset(SENSITIVITY_ORDER[:2]),
    "public": frozenset(SENSITIVITY_ORDER[:1]),
}


@dataclass(frozen=True)
class Piece:
    """Block content a model call may carry: its sensitivity and whatever the caller builds the
    request from (a source dict, a document text, ...)."""

    sensitivity: str
    value: Any


def may_see(trust: str, sensitivity: str) -> bool:
    """Unknown trust levels see nothing; unknown sensitivities are seen by full trust only."""
    visible = VISIBLE.get(trust, frozenset())
    if sensitivity in SENSITIVITY_ORDER:
        return sensitivity in visible
    return trust == "full-trust"


def admit(trust: str, pieces: Sequence[Piece]) -> tuple[list[Piece], int]:
    """The pieces a backend of this trust level may receive, in order, and how many were held
    back."""
    admitted = [p for p in pieces if may_see(trust, p.sensitivity)]
    return admitted, len(pieces) - len(admitted)
