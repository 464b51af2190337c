"""Backend kinds registered by plugins (``register_backend_kinds``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ctx.core.runtime import PluginHost, registered_objects

NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,49}$")
BackendFactory = Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class BackendKind:
    """``factory(row)`` returns a client for one backend row (a plain dict: the row's fields, plus
    ``api_key`` (the opened secret or None), ``http`` (the shared pooled ``httpx.Client``) and
    ``limits`` (timeouts from the settings)); ``roles`` lists the roles the kind can serve
    (empty: any); ``needs_url`` says whether rows must give an http(s) base URL.

    The client offers what its roles need: ``chat(model, messages, params)`` and
    ``stream_chat(...)`` for the chat roles, ``embed(model, texts, params)``,
    ``rerank(model, query, documents, params)``; failures raise ``ModelError``."""

    name: str
    factory: BackendFactory
    roles: tuple[str, ...] = ()
    description: str = ""
    needs_url: bool = True


def _check_kind(kind: BackendKind) -> str | None:
    if not callable(kind.factory):
        return f"backend kind {kind.name!r} needs a callable factory"
    if not NAME_RE.match(kind.name):
        return f"invalid backend kind {kind.name!r}"
    return None


def backend_kinds(host: PluginHost) -> dict[str, BackendKind]:
    """Every registered kind by name; malformed or duplicate registrations stop start-up."""
    return registered_objects(
        host,
        "register_backend_kinds",
        BackendKind,
        name=lambda k: k.name,
        what="backend kind",
        check=_check_kind,
    )
