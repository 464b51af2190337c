"""The one rule every value entering ctx obeys, whatever the field or the surface.

PostgreSQL text cannot hold NUL, UTF-8 cannot encode a lone surrogate, jsonb and float columns
cannot hold NaN or infinity, and bigint stops at 2^63. Rather than a check per field, every request
model (``Strict``) walks its whole input before field validation, dict keys and nested metadata
included, and the HTTP layer applies the same rule to the path and the query string. A value that
breaks it is a 422 naming where it is (``metadata.notes[2]``), never a 500 from the database.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ConfigDict, model_validator
from sqlmodel import SQLModel

from ctx.core.errors import ValidationError

INT_LIMIT = 2**63 - 1


def text_problem(text: str) -> str | None:
    """Why a string cannot be stored, or None."""
    if "\x00" in text:
        return "must not contain NUL characters"
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return "must be valid Unicode (it contains a lone surrogate)"
    return None


def value_problem(value: Any, path: str) -> tuple[str, str] | None:
    """The first place in ``value`` (with its path) that breaks the rule, and why."""
    if isinstance(value, str):
        problem = text_problem(value)
        return (path, problem) if problem else None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, "must be a finite number")
    if isinstance(value, int):
        return None if -INT_LIMIT - 1 <= value <= INT_LIMIT else (path, "is out of range")
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and (problem := text_problem(key)):
                return (path or "body", f"has a key that {problem}")
            if found := value_problem(item, where):
                return found
        return None
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if found := value_problem(item, f"{path}[{i}]"):
                return found
    return None


def check_input(value: Any, path: str = "") -> None:
    """Raise a ``ValidationError`` naming the first part of ``value`` that ctx cannot store."""
    found = value_problem(value, path)
    if found:
        where, problem = found
        raise ValidationError(f"{where or 'body'} {problem}", field=where or "body")


class Strict(SQLModel):
    """Base of every request model: unknown fields are refused, and the whole input obeys the
    rule above before any field validator runs."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)  # type: ignore[assignment]

    @model_validator(mode="before")
    @classmethod
    def _storable(cls, data: Any) -> Any:
        check_input(data)
        return data
