"""Block types as policy data: plugins propose rows, the database holds the truth.

A type row says how the mechanism treats blocks of that type (retrieval policy and factor, Guard
dedup and thresholds, Dream, embedding, temporal extraction, default sensitivity, owning workflow).
Code asks the row, never the type's name.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

import psycopg

from ctx.core.errors import NotFound, PluginError, ValidationError
from ctx.core.runtime import PluginHost, unique_by_name
from ctx.core.validation import as_real, check_input

SENSITIVITIES = ("public", "internal", "personal", "credentials")
Context = Literal["query", "listing", "graph", "digest", "vectors"]
Reach = Literal["all", "category", "none"]
CONTEXTS: tuple[Context, ...] = ("query", "listing", "graph", "digest", "vectors")
#: Where the blocks of a type are seen, by its retrieval policy and the context:
#:   all       wherever the request's other filters let them in;
#:   category  only where the request names the block's category (a governed thread's records
#:             reach only its own desk); a context that names no category never sees them;
#:   none      never.
#: The contexts: ``query`` the fused query (ctx_rrf); ``listing`` listings, facets and the light
#: search; ``graph`` the neighbours the graph stage pulls into a query; ``digest`` the daily
#: digest's sources; ``vectors`` the blocks the context vectors blend and the neighbours stage
#: pairs. The factor a query applies is ``BlockTypeSpec.effective_factor``.
#:
#: This is the rule for code that decides in Python (``BlockTypeSpec.seen_in``); SQL reads its twin,
#: the view ``context_type_reach`` (migrations/functions/context_type_reach.sql).
#: tests/core/blocks/test_type_reach.py keeps the two equal and fails when the policy is read
#: anywhere else.
_REACH: dict[str, tuple[Reach, ...]] = {
    #            query       listing     graph       digest  vectors
    "normal":   ("all",      "all",      "all",      "all",  "all"),
    "damped":   ("all",      "all",      "all",      "all",  "all"),
    "excluded": ("none",     "all",      "none",     "none", "none"),
    "private":  ("category", "category", "category", "all",  "all"),
}  # fmt: skip
TYPE_REACH: dict[str, dict[Context, Reach]] = {
    policy: dict(zip(CONTEXTS, reach, strict=True)) for policy, reach in _REACH.items()
}
RETRIEVAL_POLICIES = tuple(TYPE_REACH)
MAX_CONTENT_CHARS = 900_000  # what any request may carry (ctx.core.blocks.schemas.Content)


@dataclass
class BlockTypeSpec:
    name: str
    description: str = ""
    retrieval_policy: str = "normal"
    retrieval_factor: float = 1.0
    guard_dedup: bool = True
    guard_duplicate: float = 0.98
    guard_review: float = 0.92
    dream_linkable: bool = True
    embed: bool = True
    temporal_extract: bool = True
    default_sensitivity: str = "internal"
    workflow: str | None = None
    max_content_chars: int = MAX_CONTENT_CHARS

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> BlockTypeSpec:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known - {"source", "created_at", "updated_at"}
        if unknown:
            raise ValidationError(f"unknown block type fields: {', '.join(sorted(unknown))}")
        spec = cls(**{k: v for k, v in data.items() if k in known})
        spec.validate()
        return spec

    def validate(self) -> None:
        problems = []
        if not re.fullmatch(r"[a-z][a-z0-9_-]{0,49}", self.name or ""):
            problems.append("name must be lowercase letters, digits, '-' or '_' (max 50)")
        if self.retrieval_policy not in RETRIEVAL_POLICIES:
            problems.append(f"retrieval_policy must be one of {', '.join(RETRIEVAL_POLICIES)}")
        if not 0 <= float(self.retrieval_factor) <= 1:
            problems.append("retrieval_factor must be between 0 and 1")
        if not 0 <= self.guard_review <= self.guard_duplicate <= 1:
            problems.append("need 0 <= guard_review <= guard_duplicate <= 1")
        chars = self.max_content_chars
        if (
            isinstance(chars, bool)
            or not isinstance(chars, int)
            or not 1 <= chars <= MAX_CONTENT_CHARS
        ):
            problems.append(f"max_content_chars must be between 1 and {MAX_CONTENT_CHARS}")
        if self.default_sensitivity not in SENSITIVITIES:
            problems.append(f"default_sensitivity must be one of {', '.join(SENSITIVITIES)}")
        if problems:
            raise ValidationError(f"block type {self.name!r}: " + "; ".join(problems))

    def seen_in(
        self, context: Context, category: str | None = None, named: str | None = None
    ) -> bool:
        """Whether ``context`` sees a block of this type in ``category`` when the request names
        the category ``named`` (None: it names none); see ``TYPE_REACH``."""
        reach = TYPE_REACH[self.retrieval_policy][context]
        return reach == "all" or (reach == "category" and named is not None and category == named)

    @property
    def effective_factor(self) -> float:
        """The multiplier a query applies to the block's score (``context_type_reach.factor``):
        the factor when damped, 0 when excluded (never seen), else 1."""
        if self.retrieval_policy == "damped":
            return float(self.retrieval_factor)
        return 0.0 if self.retrieval_policy == "excluded" else 1.0


TYPE_COLUMNS = [f.name for f in fields(BlockTypeSpec)]
# Declared types as written (the module uses postponed annotations): "str", "float", "bool", …
FIELD_TYPES = {f.name: str(f.type) for f in fields(BlockTypeSpec)}


def registered_types(host: PluginHost) -> list[tuple[str, BlockTypeSpec]]:
    """Every type the plugins propose, as (plugin, spec); duplicates stop start-up."""
    regs = host.registrations("register_block_types")
    problems = []
    out = []
    for reg in regs:
        raw = reg.args[0]
        try:
            spec = raw if isinstance(raw, BlockTypeSpec) else BlockTypeSpec.from_mapping(dict(raw))
            spec.validate()
        except ValidationError as exc:
            problems.append(f"{reg.plugin}: {exc.message}")
            continue
        out.append((reg.plugin, spec))
    if problems:
        raise PluginError("; ".join(problems))
    unique_by_name(regs, lambda r: _name_of(r.args[0]), "block type")
    return out


def _name_of(raw: Any) -> str:
    return raw.name if isinstance(raw, BlockTypeSpec) else str(dict(raw).get("name"))


def seed_types(conn: psycopg.Connection[Any], proposals: list[tuple[str, BlockTypeSpec]]) -> int:
    """Insert proposed types that have no row yet; existing rows (operator policy) stay."""
    added = 0
    for plugin, spec in proposals:
        values = asdict(spec)
        cols = ", ".join([*TYPE_COLUMNS, "source"])
        marks = ", ".join(["%s"] * (len(TYPE_COLUMNS) + 1))
        cur = conn.execute(
            f"INSERT INTO context_block_types ({cols}) VALUES ({marks}) "
            "ON CONFLICT (name) DO NOTHING",
            [*[values[c] for c in TYPE_COLUMNS], plugin],
        )
        added += cur.rowcount
    return added


def load_types(conn: psycopg.Connection[Any]) -> dict[str, BlockTypeSpec]:
    rows = conn.execute(f"SELECT {', '.join(TYPE_COLUMNS)} FROM context_block_types").fetchall()
    return {r["name"]: BlockTypeSpec(**r) for r in rows}


def get_type(conn: psycopg.Connection[Any], name: str) -> BlockTypeSpec:
    row = conn.execute(
        f"SELECT {', '.join(TYPE_COLUMNS)} FROM context_block_types WHERE name = %s", (name,)
    ).fetchone()
    if row is None:
        raise NotFound(f"unknown block type {name!r}; see `ctx types list`")
    return BlockTypeSpec(**row)


def update_type(conn: psycopg.Connection[Any], name: str, changes: dict[str, Any]) -> BlockTypeSpec:
    """Change fields of an existing type row after validating the result as a whole."""
    check_input(changes)
    current = get_type(conn, name)
    if "name" in changes and changes["name"] != name:
        raise ValidationError("a block type cannot be renamed")
    data = asdict(current)
    for key, value in changes.items():
        if key not in data:
            raise ValidationError(
                f"unknown block type field {key!r}; fields: {', '.join(TYPE_COLUMNS[1:])}"
            )
        data[key] = _coerce_field(key, value)
    spec = BlockTypeSpec(**data)
    spec.validate()
    sets = ", ".join(f"{c} = %s" for c in TYPE_COLUMNS[1:])
    conn.execute(
        f"UPDATE context_block_types SET {sets}, updated_at = now() WHERE name = %s",
        [*[data[c] for c in TYPE_COLUMNS[1:]], name],
    )
    return spec


def _coerce_field(key: str, value: Any) -> Any:
    """Turn a JSON or CLI value into the field's declared type; a wrong type is a 422."""
    kind = FIELD_TYPES[key]
    text = value.strip().lower() if isinstance(value, str) else None
    if kind == "str | None" and (value is None or text in ("", "none", "null")):
        return None
    if kind.startswith("str"):
        if not isinstance(value, str):
            raise ValidationError(f"{key} must be a string", field=key)
        return value
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if text in {"true", "1", "yes", "on"}:
            return True
        if text in {"false", "0", "no", "off"}:
            return False
        raise ValidationError(f"{key} must be true or false", field=key)
    if kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if text is not None and re.fullmatch(r"[0-9]{1,9}", text):
            return int(text)
        raise ValidationError(f"{key} must be a whole number", field=key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return as_real(float(value))  # a real column
    if text is not None:
        try:
            return as_real(float(text))
        except ValueError:
            pass
    raise ValidationError(f"{key} must be a number", field=key)
