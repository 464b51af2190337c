"""The one rule every value entering ctx obeys, whatever the field or the surface.

PostgreSQL text cannot hold NUL, UTF-8 cannot encode a lone surrogate, jsonb and float columns
cannot hold NaN or infinity, and bigint stops at 2^63. Rather than a check per field, every request
model (``Strict``) walks its whole input before field validation, dict keys and nested metadata
included, and the HTTP layer applies the same rule to the path and the query string. A value that
breaks it is a 422 naming where it is (``metadata.notes[2]``), never a 500 from the database.

The same rule is stated in each request model's JSON schema (``state_the_rule``), so
``/openapi.json`` allows nothing the server refuses: text without NUL, whole numbers within 64
bits, free-form values (metadata) made of such text and numbers. JSON has one kind of number, so
a whole number written ``20.0`` is a whole number (``whole_numbers``).
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterator
from datetime import date, datetime
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, model_validator

from ctx.core.errors import ValidationError
from ctx.core.text import text_problem

INT_LIMIT = 2**63 - 1
MAX_DEPTH = 64  # levels of nested objects and lists in one value
#: text without NUL, as a JSON schema pattern (lone surrogates cannot be written in JSON text)
NO_NUL = r"^[^\x00]*$"
#: how deep the schema describes a free-form value (the server takes up to ``MAX_DEPTH``)
SCHEMA_DEPTH = 3
#: the bounds of a whole number as the schema states them: OpenAPI documents carry numbers as
#: doubles written in their shortest form, and 2^63 - 1 would be read back as 9223372036854776000,
#: out of range; these are doubles whose shortest form reads back within range
SCHEMA_INT_MIN, SCHEMA_INT_MAX = -(2**63 - 1024), 2**63 - 1024


def _scalar_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return text_problem(value)
    if isinstance(value, float):
        return None if math.isfinite(value) else "must be a finite number"
    if isinstance(value, int) and not isinstance(value, bool):
        return None if -INT_LIMIT - 1 <= value <= INT_LIMIT else "is out of range"
    return None


def _path(parts: list[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def value_problem(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first place in ``value`` (with its path) that breaks the rule, and why.

    The walk is iterative and stops at ``MAX_DEPTH`` levels of nesting, so a deeply nested body is
    a clear error rather than a stack overflow; the path is only built for the answer."""
    base: list[str | int] = [path] if path else []
    parts: list[str | int] = []  # the keys from ``value`` down to the item in hand
    stack: list[Iterator[tuple[Any, Any]]] = []  # one per open container; len(parts) + 1 of them

    def where() -> str:
        return _path(base + parts) or "body"

    current: Any = value
    while True:
        if isinstance(current, dict | list | tuple):
            if len(stack) >= MAX_DEPTH:
                top = _path(base + parts[:1]) or "body"
                return (top, f"is nested more than {MAX_DEPTH} levels deep")
            stack.append(iter(current.items() if isinstance(current, dict) else enumerate(current)))
        else:
            if problem := _scalar_problem(current):
                return (where(), problem)
            if parts:
                parts.pop()
        while stack:
            step = next(stack[-1], None)
            if step is not None:
                break
            stack.pop()
            if parts:
                parts.pop()
        else:
            return None
        key, current = step
        if isinstance(key, str) and (problem := text_problem(key)):
            return (where(), f"has a key that {problem}")
        parts.append(key if isinstance(key, int) else str(key))


def check_input(value: Any, path: str = "") -> None:
    """Raise a ``ValidationError`` naming the first part of ``value`` that ctx cannot store."""
    found = value_problem(value, path)
    if found:
        where, problem = found
        raise ValidationError(f"{where or 'body'} {problem}", field=where or "body")


#: text with something other than spaces in it (and, as all text, no NUL); the separators
#: \x1c-\x1f and \x85 are spaces to Python's \s and str.strip, not to a schema reader's \s
NOT_BLANK = r"^[^\x00]*[^\x00\s\x1c-\x1f\x85][^\x00]*$"
#: one line with something other than spaces in it
ONE_LINE = r"^[^\x00\r\n]*[^\x00\s\x1c-\x1f\x85][^\x00\r\n]*$"
#: the name of a secret or a backend
NAME = r"^[a-z0-9][a-z0-9_.-]{0,63}$"
NAME_RULE = (
    "must be 1-64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit"
)
#: bytes as base64 text (standard alphabet, '=' padding), as ``base64.b64decode`` checks them
BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
#: the same, of one byte at least
SOME_BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"
#: what a refusal says for each pattern a field is ``shaped`` by (one wording per pattern)
_SHAPES: dict[str, str] = {
    NOT_BLANK: "must not be empty or only spaces",
    NAME: NAME_RULE,
    ONE_LINE: "must be one line, not empty or only spaces",
    BASE64: "is not base64 (standard alphabet, '=' padding)",
    SOME_BASE64: "is empty or not base64 (standard alphabet, '=' padding)",
}
#: a field's ``json_schema_extra`` when it may be left out but never null
NOT_NULL: dict[str, Any] = {"not": {"type": "null"}}


def shaped(pattern: str, says: str | None = None, **field: Any) -> Any:
    """A field constraint whose ``pattern`` is the rule (so the schema states it) and the words a
    refusal says: ``shaped(SCOPE_RE.pattern, "must be 1-50 lowercase letters, ...")``; the
    patterns above have theirs. A pattern (which is all a refusal knows) has one wording."""
    known = _SHAPES.setdefault(pattern, says or "")
    if not known or (says is not None and says != known):
        raise ValueError(f"pattern {pattern!r} needs one wording, not {known!r} and {says!r}")
    return Field(pattern=pattern, **field)


def _json_value(depth: int) -> dict[str, Any]:
    """The schema of a free-form value that obeys the rule, described ``depth`` levels deep."""
    kinds: list[dict[str, Any]] = [
        {"type": "string", "pattern": NO_NUL},
        {"type": "number", "minimum": SCHEMA_INT_MIN, "maximum": SCHEMA_INT_MAX},
        {"type": "boolean"},
        {"type": "null"},
    ]
    if depth > 0:
        inner = _json_value(depth - 1)
        kinds.append({"type": "array", "items": inner})
        kinds.append(
            {"type": "object", "additionalProperties": inner, "propertyNames": {"pattern": NO_NUL}}
        )
    return {"anyOf": kinds}


def _state(node: Any) -> None:
    """Add the rule to one JSON schema node and what it contains (not to other models: a
    ``$ref`` is stated by its own model)."""
    if not isinstance(node, dict) or "$ref" in node:
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for option in node.get(key, ()):
            _state(option)
    kind = node.get("type")
    if kind == "string" and not {"pattern", "enum", "const", "format"} & set(node):
        node["pattern"] = NO_NUL
    elif kind == "string" and "pattern" in node and "\\x00" not in node["pattern"]:
        # a field's own pattern that lets NUL through: no text holds one all the same
        node.setdefault("allOf", []).append({"pattern": NO_NUL})
    elif kind == "integer":
        node["minimum"] = max(node.get("minimum", SCHEMA_INT_MIN), SCHEMA_INT_MIN)
        node["maximum"] = min(node.get("maximum", SCHEMA_INT_MAX), SCHEMA_INT_MAX)
    elif kind == "array":
        _state(node.get("items"))
    elif kind == "object":
        for prop in node.get("properties", {}).values():
            _state(prop)
        names = [node["propertyNames"]] if "propertyNames" in node else []
        patterns = node.get("patternProperties", {})
        if patterns:  # a dict whose keys have a pattern: every key has it, and the key's rules
            for key, value in patterns.items():
                patterns[key] = _json_value(SCHEMA_DEPTH - 1) if value == {} else value
                _state(patterns[key])
            node["additionalProperties"] = False
            node["propertyNames"] = {"allOf": [*names, {"pattern": NO_NUL}]}
            return
        extra = node.get("additionalProperties", "properties" not in node)
        if extra is True or extra == {}:
            node["additionalProperties"] = _json_value(SCHEMA_DEPTH - 1)
            node["propertyNames"] = (
                {"allOf": [*names, {"pattern": NO_NUL}]} if names else {"pattern": NO_NUL}
            )
        else:
            _state(extra)
            if names:
                node["propertyNames"] = {"allOf": [*names, {"pattern": NO_NUL}]}
    elif kind is None and not {"anyOf", "oneOf", "allOf", "enum", "const", "not"} & set(node):
        node.update(_json_value(SCHEMA_DEPTH))  # any value at all: a free-form one


def state_the_rule_of_field(schema: dict[str, Any]) -> None:
    """One field's JSON schema with the rule stated (a field's ``json_schema_extra``): for
    fields that leave their model, as a query string's parameters do."""
    _state(schema)


def state_the_rule(schema: dict[str, Any], model: type[BaseModel] | None = None) -> None:
    """A request model's JSON schema with the rule stated (pydantic's ``json_schema_extra``)."""
    for prop in schema.get("properties", {}).values():
        _state(prop)


def some_field(schema: dict[str, Any], model: type[BaseModel] | None = None) -> None:
    """A ``json_schema_extra`` for a model of changes: the rule above, and one field at least."""
    state_the_rule(schema, model)
    schema["minProperties"] = 1


def alternatives(*groups: tuple[str, ...]) -> Any:
    """A ``json_schema_extra`` for a model that takes exactly one group of its fields (``id``,
    or ``category`` and ``title``): the rule above, and each group as an alternative of the
    schema whose fields are given (not null) and no other group's. The model's validator still
    says what is wrong; this states it for the schema's readers."""

    def extra(schema: dict[str, Any], model: type[BaseModel] | None = None) -> None:
        state_the_rule(schema, model)
        options = []
        for group in groups:
            others = sorted({f for g in groups for f in g} - set(group))
            option: dict[str, Any] = {
                "required": list(group),
                "properties": {f: {"not": {"type": "null"}} for f in group},
            }
            if others:
                option["not"] = {"anyOf": [{"required": [f]} for f in others]}
            options.append(option)
        schema["anyOf"] = options

    return extra


def _int_shape(annotation: Any) -> str | None:
    """``"int"`` for a whole-number field, ``"list"`` for a list of them, else None."""
    if annotation is int:
        return "int"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (list, tuple) and args and args[0] is int:
        return "list"
    if origin is Union or type(annotation).__name__ == "UnionType":
        shapes = {_int_shape(a) for a in args if a is not type(None)}
        return shapes.pop() if len(shapes) == 1 else None
    return None


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def whole_numbers(model: type[BaseModel], data: Any) -> Any:
    """``data`` with ``20.0`` read as ``20`` where ``model`` takes a whole number: JSON has one
    kind of number, and the schema's ``integer`` includes it. Other floats stay as they are, to
    be refused as no whole number."""
    if not isinstance(data, dict):
        return data
    out = data
    for name, field in model.model_fields.items():
        shape = _int_shape(field.annotation)
        key = field.alias if field.alias in data else name
        value = data.get(key)
        if shape is None or value is None:
            continue
        if shape == "list" and isinstance(value, list):
            fixed: Any = [_whole(v) for v in value]
            changed = any(a is not b for a, b in zip(fixed, value, strict=True))
        else:
            fixed = _whole(value)
            changed = fixed is not value
        if changed:
            out = {**out, key: fixed}
    return out


class Strict(BaseModel):
    """Base of every request model: unknown fields are refused, the whole input obeys the rule
    above before any field validator runs, and types are strict (``true`` is no number, ``0`` is
    no date, ``"5"`` is no limit, ``20.0`` is 20). Dates and times arrive as ISO 8601 strings:
    declare them with ``IsoDate`` / ``IsoDateTime``. The JSON schema states the rule."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        strict=True,
        regex_engine="python-re",  # a pattern means what it means to the schema's readers
        json_schema_extra=state_the_rule,
    )

    @model_validator(mode="before")
    @classmethod
    def _storable(cls, data: Any) -> Any:
        check_input(data)
        return whole_numbers(cls, data)


_DATE = TypeAdapter(date)
_DATETIME = TypeAdapter(datetime)


# pydantic's lax parsing also reads "1700000000" as Unix time; ctx takes ISO 8601 text only.
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}([T ].*)?", re.DOTALL)


def _iso(adapter: TypeAdapter[Any], what: str) -> Any:
    shape = _ISO_DATE if what == "date" else _ISO_DATETIME
    hint = "date (YYYY-MM-DD)" if what == "date" else "date-time"

    def parse(value: Any) -> Any:
        if isinstance(value, str):
            if not shape.fullmatch(value.strip()):
                raise ValueError(f"must be an ISO 8601 {hint}")
            return adapter.validate_python(value.strip())  # lax here: ISO text becomes the type
        if isinstance(value, date) or value is None:
            return value
        raise ValueError(f"must be an ISO 8601 {what} string")

    return BeforeValidator(parse)


IsoDate = Annotated[date, _iso(_DATE, "date")]
IsoDateTime = Annotated[datetime, _iso(_DATETIME, "date-time")]


def as_real(value: float) -> float:
    """``value`` for a ``real`` (single precision) column: a number so small that it is 0 in
    one (1e-300) is 0, where PostgreSQL would refuse it ("value out of range: underflow");
    anything else is left to the column's own rounding (and a number too large to the field's
    bounds)."""
    try:
        single = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return value
    return 0.0 if single == 0.0 else value


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def error_message(error: dict[str, Any]) -> str:
    """One pydantic error in ctx's words ("must be a whole number", not "Input should be ...")."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this request"
    if kind == "string_too_short":
        n = ctx.get("min_length", 1)
        return "must not be empty" if n == 1 else f"must be at least {_plural(n, 'character')}"
    if kind == "string_too_long":
        return f"must be at most {_plural(ctx.get('max_length'), 'character')}"
    if kind == "too_long":
        return f"must have at most {_plural(ctx.get('max_length'), 'item')}"
    if kind == "too_short":
        return f"must have at least {_plural(ctx.get('min_length'), 'item')}"
    if kind in ("greater_than_equal", "greater_than"):
        word = "at least" if kind == "greater_than_equal" else "more than"
        return f"must be {word} {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("less_than_equal", "less_than"):
        word = "at most" if kind == "less_than_equal" else "less than"
        return f"must be {word} {ctx.get('le', ctx.get('lt'))}"
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        return _SHAPES.get(pattern, f"must match the pattern {pattern}")
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected', '')}".replace("'", "")
    simple = {
        "int_type": "must be a whole number",
        "int_parsing": "must be a whole number",
        "float_type": "must be a number",
        "float_parsing": "must be a number",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "string_type": "must be text",
        "list_type": "must be a list",
        "dict_type": "must be an object",
        "model_type": "must be an object",
        "model_attributes_type": "must be an object",
        "date_from_datetime_parsing": "must be an ISO 8601 date (YYYY-MM-DD)",
        "date_parsing": "must be an ISO 8601 date (YYYY-MM-DD)",
        "date_type": "must be an ISO 8601 date (YYYY-MM-DD)",
        "date_from_datetime_inexact": "must be an ISO 8601 date (YYYY-MM-DD)",
        "datetime_parsing": "must be an ISO 8601 date-time",
        "datetime_from_date_parsing": "must be an ISO 8601 date-time",
        "datetime_type": "must be an ISO 8601 date-time",
    }
    if kind in simple:
        return simple[kind]
    message = str(error.get("msg", "is invalid"))
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
