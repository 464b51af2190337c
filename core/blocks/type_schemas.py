"""The request models of the block-type operations: a type by name, and the changes to one.

``TypeChanges`` holds the editable columns of a type row (``TYPE_COLUMNS`` without the name; a
test keeps the two equal). Its fields take JSON values as they come, so ``update_type`` applies
the one rule for turning them into the column's type (``"0.8"`` is a factor, ``"true"`` a flag)
with its own messages, as the command line's ``field=value`` pairs do."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from ctx.core.errors import ValidationError
from ctx.core.validation import Strict


def _column(kind: str, text: str) -> Any:
    return Field(default=None, description=text, json_schema_extra={"type": kind})


class TypeName(Strict):
    name: str = Field(description="The block type's name.")


class TypeChanges(Strict):
    """The fields to change; the row is validated as a whole before it is stored."""

    description: Any = _column("string", "What the type is for.")
    retrieval_policy: Any = _column("string", "normal, damped, excluded or private.")
    retrieval_factor: Any = _column("number", "0 to 1: a damped type's score multiplier.")
    guard_dedup: Any = _column("boolean", "Whether Guard looks for duplicates.")
    guard_duplicate: Any = _column("number", "Similarity from which a block is a duplicate.")
    guard_review: Any = _column("number", "Similarity from which a block goes to review.")
    dream_linkable: Any = _column("boolean", "Whether Dream may link the type's blocks.")
    embed: Any = _column("boolean", "Whether the type's blocks are embedded.")
    temporal_extract: Any = _column("boolean", "Whether dates are read from the content.")
    default_sensitivity: Any = _column("string", "public, internal, personal or credentials.")
    workflow: Any = _column("string", "The workflow that owns the type (null: none).")
    max_content_chars: Any = _column("integer", "The longest content a block may have.")

    @model_validator(mode="before")
    @classmethod
    def _known(cls, data: Any) -> Any:
        """An unknown field is named, with the fields there are (the words of ``update_type``)."""
        if isinstance(data, dict):
            if "name" in data and "name" not in cls.model_fields:
                raise ValidationError(
                    "a block type cannot be renamed (its name is the path's)", field="name"
                )
            unknown = [key for key in data if key not in cls.model_fields]
            if unknown:
                fields = ", ".join(TypeChanges.model_fields)
                raise ValidationError(
                    f"unknown block type field {unknown[0]!r}; fields: {fields}",
                    field=str(unknown[0]),
                )
        return data


class TypeEdit(TypeChanges):
    name: str = Field(description="The block type's name.")
