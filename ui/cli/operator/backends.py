"""``ctx backends``: the model servers ctx calls (list, create, update, delete, test), and
``ctx llmlog``: the log of those calls. Both work on the local store, like ``ctx secrets``."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.text import Text

from ctx.core import llm
from ctx.core.errors import ValidationError
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.operator.app import opened_app
from ctx.ui.cli.present import local

backends_app = typer.Typer(
    help="Model backends: the servers each LLM role (synthesis, rerank, embed, ...) calls.",
    no_args_is_help=True,
)

LIST_COLUMNS = ["name", "kind", "url", "roles", "trust", "priority", "enabled"]
LOG_COLUMNS = ["at", "role", "backend", "model", "outcome", "tokens", "ms", "error"]

NameArg = Annotated[str, typer.Argument(help="The backend's name (a-z 0-9 . _ -).")]
KindOpt = Annotated[
    str | None, typer.Option("--kind", help="The kind of server (openai is built in).")
]
UrlOpt = Annotated[str | None, typer.Option("--url", help="Base URL, e.g. http://host:8000/v1.")]
RoleOpt = Annotated[
    list[str] | None,
    typer.Option("--role", help=f"A role it serves (repeat): {', '.join(llm.ROLES)}."),
]
ModelOpt = Annotated[
    list[str] | None,
    typer.Option("--model", help="ROLE=MODEL (repeat); ROLE may be 'default'."),
]
ModelMapOpt = Annotated[
    str | None,
    typer.Option(
        "--model-map",
        help='The whole model map as JSON, with params: {"default": {"model": "m", '
        '"temperature": 0.2}}.',
    ),
]
PriorityOpt = Annotated[
    int | None, typer.Option("--priority", help="Higher is tried first (-1000..1000).")
]
TrustOpt = Annotated[
    str | None,
    typer.Option("--trust", help=f"What it may see: {', '.join(llm.TRUST_LEVELS)}."),
]
SecretOpt = Annotated[
    str | None,
    typer.Option("--secret", help="The sealed secret holding its API key ('' for none)."),
]
DescriptionOpt = Annotated[str | None, typer.Option("--description", help="A note for lists.")]
EnabledOpt = Annotated[
    bool | None, typer.Option("--enable/--disable", help="Use it, or keep it but skip it.")
]


def _model_entries(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or ():
        role, sep, model = item.partition("=")
        if not sep or not role.strip() or not model.strip():
            raise ValidationError(f"--model expects ROLE=MODEL, got {item!r}", field="model_map")
        out[role.strip()] = model.strip()
    return out


def _model_map_json(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ValidationError(f"--model-map is not valid JSON ({exc})", field="model_map") from None
    if not isinstance(value, dict):
        raise ValidationError("--model-map must be a JSON object", field="model_map")
    return value


def _fields(
    *,
    kind: str | None,
    url: str | None,
    roles: list[str] | None,
    model_map: dict[str, Any] | None,
    priority: int | None,
    trust: str | None,
    secret: str | None,
    description: str | None,
    enabled: bool | None,
) -> dict[str, Any]:
    """The options given, as backend fields (those not given are left out)."""
    given = {
        "kind": kind,
        "base_url": url,
        "roles": roles or None,
        "model_map": model_map,
        "priority": priority,
        "trust": trust,
        "secret": secret,
        "description": description,
        "enabled": enabled,
    }
    return {k: v for k, v in given.items() if v is not None}


def _say(backend: llm.Backend, verb: str) -> None:
    roles = ", ".join(backend.roles) or "no roles"
    console.print(
        f"backend {backend.name} {verb}: {backend.kind} at {backend.base_url or '-'} ({roles}; "
        f"trust {backend.trust}, priority {backend.priority}"
        + ("" if backend.enabled else ", disabled")
        + ")"
    )


@backends_app.command("list")
@local
def backends_list(as_json: JsonOpt = False) -> None:
    """Every backend, highest priority first."""
    with opened_app() as app, app.connection() as conn:
        rows = [b.as_json() for b in llm.list_backends(conn)]
    if as_json:
        dump_json(rows)
    else:
        table([{**r, "url": r["base_url"]} for r in rows], LIST_COLUMNS)


@backends_app.command("create")
@local
def backends_create(
    name: NameArg,
    kind: KindOpt = "openai",
    url: UrlOpt = None,
    role: RoleOpt = None,
    model: ModelOpt = None,
    model_map: ModelMapOpt = None,
    priority: PriorityOpt = None,
    trust: TrustOpt = None,
    secret: SecretOpt = None,
    description: DescriptionOpt = None,
    enabled: EnabledOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Add a backend, e.g. `ctx backends create local --url http://127.0.0.1:8000/v1 --role
    synthesis --role rerank --model default=qwen --model rerank=bge --trust full-trust`."""
    models = {**(_model_map_json(model_map) or {}), **_model_entries(model)}
    data = _fields(
        kind=kind,
        url=url,
        roles=role,
        model_map=models or None,
        priority=priority,
        trust=trust,
        secret=secret or None,
        description=description,
        enabled=enabled,
    )
    with opened_app() as app:
        backend = app.backends.create(name, data, by="cli")
    if as_json:
        dump_json(backend.as_json())
    else:
        _say(backend, "created")


@backends_app.command("update")
@local
def backends_update(
    name: NameArg,
    kind: KindOpt = None,
    url: UrlOpt = None,
    role: RoleOpt = None,
    model: ModelOpt = None,
    model_map: ModelMapOpt = None,
    priority: PriorityOpt = None,
    trust: TrustOpt = None,
    secret: SecretOpt = None,
    description: DescriptionOpt = None,
    enabled: EnabledOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Change the options given and nothing else: --role replaces the roles, --model-map the
    whole map, --model ROLE=MODEL one entry of it; --secret '' drops the secret."""
    replaced = _model_map_json(model_map)
    entries = _model_entries(model)
    with opened_app() as app:
        models: dict[str, Any] | None = replaced
        if entries and replaced is None:
            with app.connection() as conn:
                replaced = llm.get_backend(conn, name).model_map
        if entries:
            models = {**(replaced or {}), **entries}
        changes = _fields(
            kind=kind,
            url=url,
            roles=role,
            model_map=models,
            priority=priority,
            trust=trust,
            secret=secret,
            description=description,
            enabled=enabled,
        )
        if not changes:
            raise ValidationError("nothing to change: give at least one option (see --help)")
        backend = app.backends.update(name, changes, by="cli")
    if as_json:
        dump_json(backend.as_json())
    else:
        _say(backend, "updated")


@backends_app.command("delete")
@local
def backends_delete(name: NameArg) -> None:
    """Remove a backend (its secret stays; `ctx secrets delete` removes that)."""
    with opened_app() as app:
        app.backends.delete(name)
    console.print(f"backend {name} deleted")


@backends_app.command("test")
@local
def backends_test(
    name: NameArg,
    role: Annotated[
        list[str] | None, typer.Option("--role", help="Test only this role (repeat).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Send one real request per role and show what came back and how long it took; exits 1
    when any role failed."""
    problem = llm.unknown_roles(role or ())
    if problem:
        raise ValidationError(problem)
    with opened_app() as app:
        results = llm.probe_roles(app, name, role or None)
    if as_json:
        dump_json({"backend": name, "results": results})
    else:
        for r in results:
            took = f"{r['latency_ms']:.0f} ms" if r.get("latency_ms") is not None else "-"
            line = Text()
            line.append("ok    " if r["ok"] else "failed", style="green" if r["ok"] else "red")
            line.append(f"  {r['role']}  {took}  ")
            line.append(f"{r.get('model')}: {r.get('detail')}" if r["ok"] else str(r["error"]))
            console.print(line)
    if not all(r["ok"] for r in results):
        raise typer.Exit(1)


@local
def llmlog(
    limit: Annotated[int, typer.Option("--limit", min=1, max=500, help="Rows, newest first.")] = 20,
    role: Annotated[str | None, typer.Option("--role", help="Only this role.")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="Only this backend.")] = None,
    outcome: Annotated[
        str | None, typer.Option("--outcome", help="ok, error, timeout or invalid.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The model calls: when, role, backend, model, outcome, tokens in/out, milliseconds, error
    (text of requests only while llm.log_content is on)."""
    llm.check_log_filters(role)  # --outcome stays a plain filter here, as it always was
    with opened_app() as app, app.connection() as conn:
        rows = llm.read_log(conn, limit=limit, role=role, backend=backend, outcome=outcome)
    if as_json:
        dump_json(rows)
        return
    shown = [
        {
            **r,
            "tokens": f"{_n(r['prompt_tokens'])}/{_n(r['completion_tokens'])}",
            "ms": f"{r['latency_ms']:.0f}",
        }
        for r in rows
    ]
    table(shown, LOG_COLUMNS)


def _n(value: int | None) -> str:
    return "-" if value is None else str(value)


def register(cli: typer.Typer) -> None:
    cli.add_typer(backends_app, name="backends")
    cli.command("llmlog")(llmlog)
