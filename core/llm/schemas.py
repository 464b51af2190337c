"""The roles, and the request models of the backend and call-log operations
(``ctx.core.llm.operations``). Models only: the declarations import them without the database
and HTTP code of the backends."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import Field, field_validator

from ctx.core.llm.gate import TRUST_LEVELS
from ctx.core.validation import NAME, NOT_BLANK, Strict, shaped

ROLES = ("synthesis", "chat", "translate", "classify", "dream", "digest", "embed", "rerank")
#: how a model call ended, as the call log records it
OUTCOMES = ("ok", "error", "timeout", "invalid")
#: a backend's name (the rule of secrets' names)
NAME_RE = re.compile(NAME)


#: what the model_map validator below accepts, stated for the schema's readers: per role (or
#: "default") a model name, or {"model": name, ...parameters}
MODEL_MAP_SCHEMA: dict[str, Any] = {
    "propertyNames": {"enum": [*ROLES, "default"]},
    "additionalProperties": {
        "anyOf": [
            {"type": "string", "pattern": NOT_BLANK},
            {
                "type": "object",
                "required": ["model"],
                "properties": {"model": {"type": "string", "minLength": 1}},
                "additionalProperties": True,
            },
        ]
    },
}


def unknown_roles(roles: Iterable[str]) -> str | None:
    """What is wrong with ``roles`` when some are no role ctx has, else None."""
    unknown = [r for r in roles if r not in ROLES]
    return f"unknown role(s) {unknown}; roles: {', '.join(ROLES)}" if unknown else None


class BackendFields(Strict):
    """Everything but the name; every field optional (an update names what changes)."""

    kind: str | None = None
    base_url: str | None = Field(default=None, max_length=2000)
    # the schema states the values; the validators below say which, when one is not among them
    roles: list[str] | None = Field(
        default=None, max_length=len(ROLES), json_schema_extra={"items": {"enum": list(ROLES)}}
    )
    model_map: dict[str, Any] | None = Field(default=None, json_schema_extra=MODEL_MAP_SCHEMA)
    priority: int | None = Field(default=None, ge=-1000, le=1000)
    trust: str | None = Field(default=None, json_schema_extra={"enum": [*TRUST_LEVELS, None]})
    secret: str | None = None
    enabled: bool | None = None
    description: str | None = Field(default=None, max_length=500)

    @field_validator("roles")
    @classmethod
    def _roles(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        problem = unknown_roles(v)
        if problem:
            raise ValueError(problem)
        return sorted(set(v), key=ROLES.index)

    @field_validator("trust")
    @classmethod
    def _trust(cls, v: str | None) -> str | None:
        if v is not None and v not in TRUST_LEVELS:
            raise ValueError(f"trust must be one of {', '.join(TRUST_LEVELS)}")
        return v

    @field_validator("model_map")
    @classmethod
    def _model_map(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is None:
            return v
        for key, entry in v.items():
            if key != "default" and key not in ROLES:
                raise ValueError(f"model_map: {key!r} is neither a role nor 'default'")
            if isinstance(entry, str):
                problem = None if entry.strip() else "is empty"
            elif isinstance(entry, dict):
                model = entry.get("model")
                problem = None if isinstance(model, str) and model else 'needs a "model" name'
            else:
                problem = 'must be a model name or {"model": name, ...params}'
            if problem:
                raise ValueError(f"model_map.{key} {problem}")
        return v


class BackendName(Strict):
    """A backend by name (the path's ``{name}``)."""

    name: str


class BackendCreate(BackendFields):
    """A new backend: its name and fields (kind is required; the rest have defaults)."""

    name: str = shaped(NAME, description="1-64 of a-z 0-9 . _ -.")
    kind: str = shaped(NOT_BLANK, description="The backend's kind (e.g. openai).")


class BackendChange(BackendFields):
    """The fields to change (those sent) of the backend ``name``."""

    name: str


class ProbeRequest(Strict):
    roles: list[str] | None = Field(
        default=None,
        max_length=len(ROLES),
        description="Roles to test (default: all).",
        json_schema_extra={"items": {"enum": list(ROLES)}},
    )

    @field_validator("roles")
    @classmethod
    def _roles(cls, v: list[str] | None) -> list[str] | None:
        problem = unknown_roles(v or ())
        if problem:
            raise ValueError(problem)
        return v


class ProbeInput(ProbeRequest):
    """The roles to test of the backend ``name``."""

    name: str


class CallLogRequest(Strict):
    limit: int = Field(default=50, ge=1, le=500, description="Rows, newest first.")
    # the schema states the values (check_log_filters says which, when one is not among them)
    role: str | None = Field(
        default=None,
        description="Only calls for this role.",
        json_schema_extra={"enum": [*ROLES, None]},
    )
    backend: str | None = Field(default=None, max_length=64, description="Only this backend.")
    outcome: str | None = Field(
        default=None,
        description="ok, error, timeout or invalid.",
        json_schema_extra={"enum": [*OUTCOMES, None]},
    )
    before: int | None = Field(default=None, ge=1, description="Rows with a smaller id.")
