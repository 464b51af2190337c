"""Backend rows (``context_backends``): what each model server is, which roles it serves, with
which models, at which priority and trust. Created, changed and removed only through here.

A model map maps a role (or ``default``) to a model name or to ``{"model": name, **params}``;
params (``temperature``, ``max_tokens``, ``chat_template_kwargs``, ...) go into the request as
they are.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
import psycopg
from psycopg.types.json import Jsonb
from pydantic import ValidationError as PydanticError

from ctx.core.errors import Conflict, NotFound, ValidationError
from ctx.core.llm.schemas import NAME_RE, BackendFields
from ctx.core.validation import NAME_RULE, error_message

COLUMNS = (
    "name, kind, base_url, roles, model_map, priority, trust, secret, enabled, description, "
    "created_at, updated_at, updated_by"
)


@dataclass(frozen=True)
class Backend:
    name: str
    kind: str
    base_url: str
    roles: tuple[str, ...]
    model_map: dict[str, Any]
    priority: int
    trust: str
    secret: str | None
    enabled: bool
    description: str = ""
    updated_at: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def model_for(self, role: str) -> tuple[str, dict[str, Any]]:
        """The model and request params for ``role`` (its entry, else ``default``)."""
        entry = self.model_map.get(role, self.model_map.get("default", ""))
        if isinstance(entry, Mapping):
            params = {k: v for k, v in entry.items() if k != "model"}
            return str(entry.get("model", "")), params
        return str(entry or ""), {}

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "base_url": self.base_url,
            "roles": list(self.roles),
            "model_map": self.model_map,
            "priority": self.priority,
            "trust": self.trust,
            "secret": self.secret,
            "enabled": self.enabled,
            "description": self.description,
            **self.extra,
        }


def parse_fields(data: Mapping[str, Any]) -> BackendFields:
    try:
        return BackendFields.model_validate(dict(data))
    except PydanticError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "body"
        raise ValidationError(f"{where} {error_message(dict(first))}", field=where) from None


def _row(r: Mapping[str, Any]) -> Backend:
    return Backend(
        name=r["name"],
        kind=r["kind"],
        base_url=r["base_url"],
        roles=tuple(r["roles"]),
        model_map=dict(r["model_map"]),
        priority=r["priority"],
        trust=r["trust"],
        secret=r["secret"],
        enabled=r["enabled"],
        description=r["description"],
        updated_at=r["updated_at"],
        extra={
            "created_at": r["created_at"],
            "updated_at": r["updated_at"],
            "updated_by": r["updated_by"],
        },
    )


def host_allowed(url: str, allowed: list[str]) -> bool:
    """Whether ``url``'s host is one of ``allowed`` (names, IP addresses, networks); an empty
    list allows any host."""
    if not allowed:
        return True
    try:
        host = (httpx.URL(url).host or "").lower()
    except httpx.InvalidURL:
        return False
    for entry in allowed:
        entry = str(entry).strip().lower()
        if host == entry:
            return True
        try:
            if ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def _http_url(text: str) -> bool:
    if not text.startswith(("http://", "https://")) or any(ch.isspace() for ch in text):
        return False
    try:
        return bool(httpx.URL(text).host)
    except httpx.InvalidURL:
        return False


def list_backends(conn: psycopg.Connection[Any]) -> list[Backend]:
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM context_backends ORDER BY priority DESC, name"
    ).fetchall()
    return [_row(r) for r in rows]


def get_backend(conn: psycopg.Connection[Any], name: str) -> Backend:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM context_backends WHERE name = %s", (name,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no backend named {name!r}")
    return _row(row)


def check_backend(
    conn: psycopg.Connection[Any],
    b: Backend,
    kinds: Mapping[str, Any],
    allowed: list[str] | None = None,
) -> None:
    kind = kinds.get(b.kind)
    if kind is None:
        raise ValidationError(
            f"unknown backend kind {b.kind!r}; kinds: {', '.join(sorted(kinds)) or 'none'}",
            field="kind",
        )
    served = tuple(getattr(kind, "roles", ()) or ())
    if served:
        extra = [r for r in b.roles if r not in served]
        if extra:
            raise ValidationError(
                f"kind {b.kind!r} cannot serve {extra}; it serves {', '.join(served)}",
                field="roles",
            )
    if getattr(kind, "needs_url", True) and not _http_url(b.base_url):
        raise ValidationError(
            "base_url must be an http:// or https:// URL with a host and no spaces",
            field="base_url",
        )
    if b.base_url and not host_allowed(b.base_url, allowed or []):
        raise ValidationError(
            f"base_url's host is not in llm.allowed_hosts ({', '.join(allowed or [])})",
            field="base_url",
        )
    for role in b.roles:
        if not b.model_for(role)[0]:
            raise ValidationError(
                f"role {role!r} has no model: give model_map.{role} or model_map.default",
                field="model_map",
            )
    if b.secret is not None:
        found = conn.execute(
            "SELECT 1 FROM context_secrets WHERE name = %s", (b.secret,)
        ).fetchone()
        if found is None:
            raise ValidationError(
                f"no secret named {b.secret!r}; set it first with `ctx secrets set {b.secret}`",
                field="secret",
            )


#: What a new row has where its fields say nothing.
NEW_ROW: dict[str, Any] = {
    "base_url": "",
    "roles": (),
    "model_map": {},
    "priority": 100,
    "trust": "public",
    "secret": None,
    "enabled": True,
    "description": "",
}


def _backend(name: str, values: Mapping[str, Any]) -> Backend:
    """The row ``values`` describe, normalised (URL trimmed, no empty secret)."""
    return Backend(
        name=name,
        kind=values["kind"],
        base_url=(values["base_url"] or "").strip(),
        roles=tuple(values["roles"]),
        model_map=dict(values["model_map"]),
        priority=values["priority"],
        trust=values["trust"],
        secret=values["secret"] or None,
        enabled=values["enabled"],
        description=values["description"] or "",
    )


def create_backend(
    conn: psycopg.Connection[Any],
    kinds: Mapping[str, Any],
    name: str,
    data: Mapping[str, Any],
    *,
    by: str = "cli",
    allowed_hosts: list[str] | None = None,
) -> Backend:
    if not NAME_RE.match(name):
        raise ValidationError(f"a backend name {NAME_RULE}", field="name")
    f = parse_fields(data)
    if not f.kind:
        raise ValidationError("kind is required (e.g. openai)", field="kind")
    given = {k: v for k, v in f.model_dump(exclude_unset=True).items() if v is not None}
    b = _backend(name, {**NEW_ROW, **given})
    check_backend(conn, b, kinds, allowed_hosts)
    try:
        conn.execute(
            "INSERT INTO context_backends (name, kind, base_url, roles, model_map, priority, trust,"
            " secret, enabled, description, updated_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
            " %s, %s, %s)",
            (b.name, b.kind, b.base_url, list(b.roles), Jsonb(b.model_map), b.priority, b.trust,
             b.secret, b.enabled, b.description, by),
        )  # fmt: skip
    except psycopg.errors.UniqueViolation:
        raise Conflict(f"a backend named {name!r} exists; change it with update") from None
    return get_backend(conn, name)


def update_backend(
    conn: psycopg.Connection[Any],
    kinds: Mapping[str, Any],
    name: str,
    changes: Mapping[str, Any],
    *,
    by: str = "cli",
    allowed_hosts: list[str] | None = None,
) -> Backend:
    f = parse_fields(changes)
    current = get_backend(conn, name)
    given = f.model_dump(exclude_unset=True)
    if "secret" in given and given["secret"] == "":
        given["secret"] = None
    for key in ("kind", "trust", "enabled", "priority", "roles", "model_map"):
        if key in given and given[key] is None:
            raise ValidationError(f"{key} cannot be null", field=key)
    b = _backend(name, {**current.as_json(), **given})
    check_backend(conn, b, kinds, allowed_hosts)
    conn.execute(
        "UPDATE context_backends SET kind = %s, base_url = %s, roles = %s, model_map = %s,"
        " priority = %s, trust = %s, secret = %s, enabled = %s, description = %s,"
        " updated_at = now(), updated_by = %s WHERE name = %s",
        (b.kind, b.base_url, list(b.roles), Jsonb(b.model_map), b.priority, b.trust, b.secret,
         b.enabled, b.description, by, name),
    )  # fmt: skip
    return get_backend(conn, name)


def delete_backend(conn: psycopg.Connection[Any], name: str) -> Backend:
    b = get_backend(conn, name)
    conn.execute("DELETE FROM context_backends WHERE name = %s", (name,))
    return b
