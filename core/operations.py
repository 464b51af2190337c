"""Operations: what ctx does, each declared once.

An operation is a name, an input model, an output model, the service function that does it, its
kind (a read, a write, a model call, or several), who may call it (any key, an admin key, anyone)
and which surfaces offer it: a REST route, an MCP tool, the command line. Everything else is
derived from the declaration: ``ctx.ui.api`` builds the route (its rate-limit kinds, OpenAPI entry
and error answers), ``ctx.ui.mcp`` lists the tool, ``ctx.ui.cli`` binds the commands that present
it, and the isolation tests read ``reach``. A test fails when a route, tool or command exists
without a declaration, so nothing is registered twice and no list elsewhere must be remembered.

A capability declares its operations in its ``operations`` module, next to its service, and
registers them through ``register_operations``; plugins do the same. A declaration names its
service (and any other function) as ``"module:function"`` text, so declarations import only their
models: a thin client (the CLI, the hooks) reads them without loading the code behind them.

The service is called ``service(app, who, input)``: ``who`` is the caller's principal (``None``
for a public operation), ``input`` an instance of the input model (``None`` when there is none);
it returns what the REST route answers (a dict, a list or a model).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

Kind = Literal["read", "write", "model"]
#: what an operation's kind counts against (``limits.*_per_minute``)
KIND_LIMITS: Mapping[str, str] = {"read": "queries", "write": "writes", "model": "model"}
#: who may call: any valid key, an admin key, or anyone (no key at all)
Access = Literal["key", "admin", "public"]
#: which data an operation can show or change: the caller's read scopes, its home scope only, or
#: none of any scope (a version, a liveness answer); an admin operation is the operator's
Reach = Literal["read", "home", "none"]

NAME_RE = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$")
TOOL_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
PATH_PARAM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def resolve(ref: str | Callable[..., Any]) -> Callable[..., Any]:
    """The function ``"package.module:function"`` names (a callable is returned as it is)."""
    if callable(ref):
        return ref
    module, _, name = ref.partition(":")
    target = getattr(importlib.import_module(module), name, None) if name else None
    if not callable(target):
        raise LookupError(f"{ref!r} names no function")
    return target


#: how a route answers: JSON (the service's return value), server-sent events (the service
#: returns an iterator of ``(event, data)``), JSON lines (an iterator of JSON-able records) or
#: bytes (a ``Download``)
Answer = Literal["json", "events", "lines", "bytes"]


@dataclass(frozen=True)
class Download:
    """What a ``bytes`` route's service returns: the chunks, their type and extra headers."""

    chunks: Iterator[bytes]
    media_type: str
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """A JSON answer with a status of its own (``/health`` answers 503 with a body when the
    database does not answer); anything else a service returns is the route's status."""

    status: int
    body: Any


@dataclass(frozen=True)
class Rest:
    """The operation as a REST route.

    Path parameters (``{number}``) are fields of the operation's input; a GET or DELETE reads the
    other fields from the query string, any other method from the JSON body. ``body`` is the
    body's model when the input has path fields (the input without them); ``optional_body`` lets
    the body be left out. ``answer`` says how the route answers (``Answer``); ``errors`` documents
    the errors particular to it (status -> when). ``endpoint`` names a FastAPI endpoint written by
    hand, for what a declaration cannot say (a multipart upload, a signed webhook): the route
    around it still gets the declaration's access, kinds and OpenAPI entry. ``also`` are further
    paths the same route answers at. ``in_schema=False`` leaves the route out of
    ``/openapi.json``: a stream that never ends is no call for generated clients to wait on.
    ``body_limit`` names the setting that bounds the request body of a route that takes files
    (every other route has ``server.body_limit``).
    """

    method: str
    path: str
    status: int = 200
    body: type[BaseModel] | None = None
    optional_body: bool = False
    answer: Answer = "json"
    endpoint: str | None = None
    exclude_unset: bool = False
    errors: Mapping[int, str] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    body_limit: str | None = None
    in_schema: bool = True

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(PATH_PARAM.findall(self.path))

    @property
    def reads_query(self) -> bool:
        """Whether the non-path fields come from the query string (else the JSON body)."""
        return self.method in ("GET", "DELETE")


@dataclass(frozen=True)
class Tool:
    """The operation as an MCP tool: an agent reads ``description`` to decide when to call it.

    ``input`` is the tool's own argument model when it is not the operation's input, and ``run``
    (``run(app, who, arguments)``) its compact view of the operation: ids, titles and snippets
    rather than the REST answer. ``charges`` (``charges(app, arguments) -> kinds``) when the tool's
    arguments decide on a model call differently from the operation's input."""

    name: str
    description: str
    input: type[BaseModel] | None = None
    run: str | None = None
    charges: str | None = None
    destructive: bool = False
    idempotent: bool = False


@dataclass(frozen=True)
class Operation:
    """One operation, declared once. ``kind`` is what every call counts against (``read``,
    ``write``, ``model``, or a tuple of them); ``charges`` (``charges(app, input) -> kinds``) adds
    what one call's input decides (an answer asked for, a delete among the actions). ``cli`` says
    the command line presents it: a command bound to it with ``ctx.ui.presents``. ``summary`` is
    one line (the REST summary, the command's help); ``description`` what more the REST
    documentation says."""

    name: str
    summary: str
    service: str
    description: str = ""
    input: type[BaseModel] | None = None
    output: type[BaseModel] | None = None
    kind: Kind | tuple[Kind, ...] = "read"
    charges: str | None = None
    access: Access = "key"
    reach: Reach = "read"
    rest: Rest | None = None
    tool: Tool | None = None
    cli: bool = False

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return (self.kind,) if isinstance(self.kind, str) else tuple(self.kind)

    @property
    def limits(self) -> tuple[str, ...]:
        """The per-key rate limits every call counts against (none for a public operation)."""
        if self.access == "public":
            return ()
        return tuple(KIND_LIMITS[k] for k in self.kinds)

    @property
    def writes(self) -> bool:
        return "write" in self.kinds

    @property
    def details(self) -> str:
        """What the REST documentation says about it: the description, else the summary."""
        return self.description or self.summary

    def service_function(self) -> Callable[..., Any]:
        return resolve(self.service)

    def extra_limits(self, app: Any, value: Any, ref: str | None) -> tuple[str, ...]:
        """The limits one call adds by its input, as limit names: what ``ref`` (the operation's
        ``charges``, or its tool's) answers for ``value``."""
        if ref is None or self.access == "public":
            return ()
        kinds = resolve(ref)(app, value)
        return tuple(KIND_LIMITS[k] for k in kinds)

    def problems(self) -> list[str]:
        """What is wrong with the declaration (an empty list when nothing)."""
        out = []
        if not NAME_RE.match(self.name):
            out.append(f"operation name {self.name!r} must look like 'capability.verb'")
        if not self.summary.strip():
            out.append(f"operation {self.name!r} needs a summary")
        if any(k not in KIND_LIMITS for k in self.kinds) or not self.kinds:
            out.append(f"operation {self.name!r}: kind must be read, write and/or model")
        for model in (self.input, self.output):
            if model is not None and not (isinstance(model, type) and issubclass(model, BaseModel)):
                out.append(f"operation {self.name!r}: input and output must be pydantic models")
        refs = [self.service, self.charges]
        if self.rest is not None:
            out += self._rest_problems(self.rest)
            refs.append(self.rest.endpoint)
        if self.tool is not None:
            if not TOOL_RE.match(self.tool.name):
                out.append(f"operation {self.name!r}: invalid tool name {self.tool.name!r}")
            if not self.tool.description.strip():
                out.append(f"operation {self.name!r}: its tool needs a description")
            refs += [self.tool.run, self.tool.charges]
        if self.rest is None and self.tool is None and not self.cli:
            out.append(f"operation {self.name!r} is offered on no surface")
        for ref in refs:
            if ref is None:
                continue
            try:
                resolve(ref)
            except (ImportError, LookupError) as exc:
                out.append(f"operation {self.name!r}: {ref!r} cannot be loaded ({exc})")
        return out

    def _rest_problems(self, rest: Rest) -> list[str]:
        out = []
        if rest.method not in METHODS:
            out.append(f"operation {self.name!r}: method {rest.method!r} is not one of {METHODS}")
        if not rest.path.startswith("/"):
            out.append(f"operation {self.name!r}: path {rest.path!r} must start with /")
        if rest.endpoint is None:
            model = self.input
            pydantic = isinstance(model, type) and issubclass(model, BaseModel)
            fields = set(model.model_fields) if model is not None and pydantic else set()
            missing = [p for p in rest.path_params if p not in fields]
            if missing:
                out.append(
                    f"operation {self.name!r}: path parameters {missing} are no input fields"
                )
        return out


def declared(namespace: Mapping[str, Any]) -> list[Operation]:
    """The operations a module declares (its globals that are ``Operation``s, in order): what
    its ``register_operations`` registers, so no list of them is kept by hand."""
    return [value for value in namespace.values() if isinstance(value, Operation)]
