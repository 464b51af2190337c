"""REST routes derived from the operations' declarations (``ctx.core.operations``).

Each operation with a ``rest`` surface becomes a route: its access (a key, an admin key, none) is
a route dependency, its kinds are what the request counts against (``charge_request`` finds the
operation on the route), its input is assembled from the path, the query string or the JSON body,
and its summary, description, errors and answer model make its OpenAPI entry. The answer is the
service's return value as JSON, or a stream of server-sent events, JSON lines or bytes, as the
declaration says. An operation that needs what a declaration cannot say (a multipart upload, a
signed webhook) names an endpoint written by hand; the route around it is derived all the same.
"""

from __future__ import annotations

import copy
import inspect
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any

import pydantic
from fastapi import APIRouter, Depends, Path, Query
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic.fields import FieldInfo
from starlette.concurrency import run_in_threadpool

from ctx.core import App, Principal, ValidationError
from ctx.core.access import charge_limits
from ctx.core.operations import PATH_PARAM, Download, Operation, Reply, resolve
from ctx.core.validation import SCHEMA_INT_MAX, error_message, state_the_rule_of_field
from ctx.ui.api.deps import get_admin, get_app, get_principal
from ctx.ui.api.errors import ERROR_RESPONSES, error_response
from ctx.ui.api.marks import mark_operation

log = logging.getLogger("ctx.api")

PUBLIC_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: ERROR_RESPONSES[code] for code in (413, 415, 422, 503, 507)
}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
ANSWER_CONTENT = {
    "events": ("text/event-stream", "Server-sent events."),
    "lines": ("application/x-ndjson", "JSON lines."),
    "bytes": ("application/octet-stream", "The bytes."),
}
KW = inspect.Parameter.KEYWORD_ONLY
QUERY_CONFIG = pydantic.ConfigDict(extra="ignore", populate_by_name=True, strict=False)


def path_pattern(path: str) -> re.Pattern[str]:
    """The paths a route template matches (``/api/forge/{forge}/webhook``)."""
    parts = PATH_PARAM.split(path)  # text, parameter name, text, ...
    return re.compile(
        "".join(re.escape(p) if i % 2 == 0 else "[^/]+" for i, p in enumerate(parts)) + "$"
    )


class RouteRules:
    """What the request middleware must know of a route before it reads the body, derived from
    the declarations: the setting bounding its body (``Rest.body_limit``, else
    ``server.body_limit``) and whether it takes no key (a public operation, such as a forge's
    signed webhook, which verifies each request itself)."""

    def __init__(self, operations: Iterable[Operation], settings: Any) -> None:
        self.settings = settings
        self.limits: list[tuple[re.Pattern[str], str]] = []
        self.keyless: list[re.Pattern[str]] = []
        for op in operations:
            if op.rest is None:
                continue
            for path in (op.rest.path, *op.rest.also):
                pattern = path_pattern(path)
                if op.rest.body_limit:
                    self.limits.append((pattern, op.rest.body_limit))
                if op.access == "public":
                    self.keyless.append(pattern)

    def body_limit(self, path: str) -> int:
        for pattern, key in self.limits:
            if pattern.match(path):
                return int(self.settings[key])
        return int(self.settings["server.body_limit"])

    def takes_no_key(self, path: str) -> bool:
        return any(pattern.match(path) for pattern in self.keyless)


#: Routers built, by the identities of their declarations (held, so an id is never reused).
_BUILT: dict[tuple[int, ...], tuple[tuple[Operation, ...], APIRouter]] = {}
_BUILT_MAX = 8


def operations_router(operations: Iterable[Operation]) -> APIRouter:
    """One router with the routes of every operation that has a REST surface.

    A route is derived from its declaration alone (the App comes from the request), so the same
    declarations give the same router: it is built once per process and reused by every server
    made from them. Building a hundred routes costs more than half a second of CPU, which a test
    suite that makes a server per test would otherwise pay thousands of times."""
    ops = tuple(operations)
    key = tuple(map(id, ops))
    if key in _BUILT:
        return _BUILT[key][1]
    router = APIRouter()
    for op in ops:
        if op.rest is not None:
            add_route(router, op)
    if len(_BUILT) >= _BUILT_MAX:
        _BUILT.pop(next(iter(_BUILT)))
    _BUILT[key] = (ops, router)
    return router


def _access_dependency(op: Operation) -> Callable[..., Any] | None:
    if op.access == "admin":
        return get_admin
    return get_principal if op.access == "key" else None


def _responses(op: Operation) -> dict[int | str, dict[str, Any]]:
    rest = op.rest
    assert rest is not None
    out = dict(ERROR_RESPONSES if op.access != "public" else PUBLIC_RESPONSES)
    out.update({code: error_response(text) for code, text in rest.errors.items()})
    if rest.answer in ANSWER_CONTENT:
        media, text = ANSWER_CONTENT[rest.answer]
        out[rest.status] = {"content": {media: {}}, "description": text}
    return out


def add_route(router: APIRouter, op: Operation) -> None:
    rest = op.rest
    assert rest is not None
    endpoint = resolve(rest.endpoint) if rest.endpoint else derived_endpoint(op)
    mark_operation(endpoint, op)
    access = _access_dependency(op)
    streams = {"response_class": StreamingResponse} if rest.answer != "json" else {}
    for number, path in enumerate((rest.path, *rest.also)):
        router.add_api_route(
            _routed(op, path),
            endpoint,
            methods=[rest.method],
            name=op.name if number == 0 else f"{op.name}@{path}",
            operation_id=_identifier(op.name) + (f"_{number}" if number else ""),
            summary=op.summary,
            description=op.details,
            tags=list(rest.tags or (op.name.split(".")[0],)),
            status_code=rest.status,
            response_model=op.output if rest.answer == "json" and not rest.endpoint else None,
            response_model_exclude_unset=rest.exclude_unset,
            **streams,  # type: ignore[arg-type]
            responses=_responses(op),
            dependencies=[Depends(access)] if access is not None else None,
            include_in_schema=rest.in_schema,
        )


def _routed(op: Operation, path: str) -> str:
    """The route's path with a whole-number parameter matching digits only (``{number:int}``):
    ``/api/issues/suggest`` is then no issue number but another route's path, and a method
    that route lacks is a 405 rather than a 422 on ``number``."""
    fields = op.input.model_fields if op.input is not None else {}

    def convert(found: re.Match[str]) -> str:
        field = fields.get(found.group(1))
        whole = field is not None and field.annotation is int
        return "{" + found.group(1) + (":int}" if whole else "}")

    return PATH_PARAM.sub(convert, path)


def _identifier(name: str) -> str:
    return name.replace(".", "_").replace("-", "_")


def _stated(field: FieldInfo) -> FieldInfo:
    """``field`` whose JSON schema states ctx's input rule (no NUL, whole numbers in 64 bits),
    as its model's would; its own schema additions are kept."""
    own = field.json_schema_extra
    if callable(own):
        return field

    def extra(schema: dict[str, Any]) -> None:
        schema.update(own or {})
        state_the_rule_of_field(schema)

    stated = copy.copy(field)
    stated.json_schema_extra = extra
    return stated


def _carrier(op: Operation) -> type[pydantic.BaseModel] | None:
    """The model of what the query string or the body carries: the declared body, the input
    itself, or the input without its path fields."""
    rest = op.rest
    assert rest is not None
    if op.input is None:
        return None
    if rest.body is not None:
        return rest.body
    path = set(rest.path_params)
    if not path and not rest.reads_query:
        return op.input
    fields = {n: (f.annotation, f) for n, f in op.input.model_fields.items() if n not in path}
    if not fields:
        return None
    if rest.reads_query:  # each field becomes a parameter of its own: each states the rule
        fields = {n: (kind, _stated(f)) for n, (kind, f) in fields.items()}
    # A query string is text: its values are read as the fields' types (``limit=5`` is a
    # number), and a parameter the route does not know is ignored, as a route written by hand
    # ignores it; the input model then checks the whole input as strictly as it always does.
    config = QUERY_CONFIG if rest.reads_query else op.input.model_config
    return pydantic.create_model(  # type: ignore[call-overload]
        f"{op.input.__name__}Fields", __config__=config, **fields
    )


def _parameters(op: Operation) -> list[inspect.Parameter]:
    rest = op.rest
    assert rest is not None
    params = [inspect.Parameter("app", KW, annotation=Annotated[App, Depends(get_app)])]
    access = _access_dependency(op)
    if access is not None:
        params.append(
            inspect.Parameter("who", KW, annotation=Annotated[Principal, Depends(access)])
        )
    fields = op.input.model_fields if op.input is not None else {}
    for name in rest.path_params:
        # the field's constraints (a pattern, a length) go along: a bad path parameter is the
        # 422 of ``path.<name>`` and the OpenAPI entry shows its rules
        field = fields[name]
        # a whole number within 64 bits, as every whole number in a body (ctx.core.validation)
        bound: dict[str, Any] = {"le": SCHEMA_INT_MAX} if field.annotation is int else {}
        kind: Any = Annotated[
            (field.annotation, *field.metadata, Path(description=field.description, **bound))
        ]
        params.append(inspect.Parameter(name, KW, annotation=kind))
    carrier = _carrier(op)
    if carrier is not None:
        if rest.reads_query:
            params.append(inspect.Parameter("carried", KW, annotation=Annotated[carrier, Query()]))
        elif rest.optional_body:
            params.append(inspect.Parameter("carried", KW, annotation=carrier | None, default=None))
        else:
            params.append(inspect.Parameter("carried", KW, annotation=carrier))
    return params


def derived_endpoint(op: Operation) -> Callable[..., Any]:
    """The endpoint of an operation answered by its service: the caller, the input assembled
    from the request, what this call adds to the charge, the service's answer."""
    rest = op.rest
    assert rest is not None
    service = op.service_function()
    answer = _ANSWERS[rest.answer]

    def answered(kwargs: dict[str, Any]) -> Any:
        app: App = kwargs["app"]
        who: Principal | None = kwargs.get("who")
        value = assemble(op, kwargs.get("carried"), {n: kwargs[n] for n in rest.path_params})
        extra = op.extra_limits(app, value, op.charges)
        if extra and who is not None:
            charge_limits(app, who, *extra)
        return answer(service(app, who, value))

    async def endpoint(**kwargs: Any) -> Any:
        # One worker thread for the whole call; a sync endpoint would cost a second hop, as
        # FastAPI validates a sync endpoint's answer in the thread pool too.
        return await run_in_threadpool(answered, kwargs)

    endpoint.__signature__ = inspect.Signature(_parameters(op))  # type: ignore[attr-defined]
    endpoint.__name__ = _identifier(op.name)
    endpoint.__doc__ = op.details
    return endpoint


def assemble(op: Operation, carried: pydantic.BaseModel | None, path: dict[str, Any]) -> Any:
    """The operation's input from what the request carried and its path parameters; a problem
    is a 422 naming the field (``number: must be at least 1``)."""
    if op.input is None:
        return None
    if not path and isinstance(carried, op.input):
        return carried
    data = {} if carried is None else carried.model_dump(by_alias=True, exclude_unset=True)
    try:
        return op.input.model_validate({**data, **path})
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "body"
        raise ValidationError(f"{where}: {error_message(dict(err))}", field=where) from None


# -- answers ----------------------------------------------------------------------------------------


def _json(value: Any) -> Any:
    if isinstance(value, Reply):
        return JSONResponse(jsonable_encoder(value.body), status_code=value.status)
    return value


def sse(name: str, data: Any) -> str:
    """One server-sent event."""
    payload = json.dumps(jsonable_encoder(data), ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {payload}\n\n"


def _events(events: Iterator[tuple[str, Any]]) -> StreamingResponse:
    """Server-sent events; the first is taken before the status line goes out, so bad input
    and scope errors still answer 4xx; a failure after it is an ``error`` event, never a
    traceback."""
    first = next(events)

    def body() -> Iterator[str]:
        try:
            yield sse(*first)
            for name, data in events:
                yield sse(name, data)
        except Exception:
            log.exception("event stream failed")
            yield sse("error", {"message": "internal error while answering; see the server log"})
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()

    return StreamingResponse(body(), media_type="text/event-stream", headers=STREAM_HEADERS)


def _lines(records: Iterator[Any]) -> StreamingResponse:
    """JSON lines of records that are JSON already; the first is taken before the status line
    goes out (a refused scope is a 4xx, not a broken stream)."""
    first = next(records)

    def body() -> Iterator[str]:
        yield json.dumps(first, ensure_ascii=False) + "\n"
        for record in records:
            yield json.dumps(record, ensure_ascii=False) + "\n"

    return StreamingResponse(body(), media_type="application/x-ndjson")


def _bytes(download: Download) -> StreamingResponse:
    return StreamingResponse(
        download.chunks, media_type=download.media_type, headers=dict(download.headers)
    )


_ANSWERS: dict[str, Callable[[Any], Any]] = {
    "json": _json,
    "events": _events,
    "lines": _lines,
    "bytes": _bytes,
}
