"""The runtime's operations, each declared once (``ctx.core.operations``): settings, the loaded
plugins, liveness, the version, and the live stream of what a running ctx is doing. Only models
are imported here; the services are named."""

from __future__ import annotations

from ctx.core.operations import Operation, Rest
from ctx.core.runtime.schemas import SettingChange, SettingKey, SettingValue

SERVICE = "ctx.core.runtime.service"
ADMIN = ("admin",)
NO_SETTING = {
    404: "No such setting.",
    422: "A value the setting does not take; `field` names the problem.",
}

LIST_SETTINGS = Operation(
    name="runtime.list-settings",
    summary="Every setting with its value and where the value comes from (default < env < "
    "database); a secret's value is left out.",
    service=f"{SERVICE}:list_settings",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/settings", tags=ADMIN),
)

SHOW_SETTING = Operation(
    name="runtime.show-setting",
    summary="One setting, with its value, source, type and rules.",
    service=f"{SERVICE}:show_setting",
    input=SettingKey,
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/settings/{key}", errors=NO_SETTING, tags=ADMIN),
)

SET_SETTING = Operation(
    name="runtime.set-setting",
    summary="Store a setting's value in the database layer; hot settings apply at once, here and "
    "on every server.",
    service=f"{SERVICE}:change_setting",
    input=SettingChange,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("PUT", "/api/settings/{key}", body=SettingValue, errors=NO_SETTING, tags=ADMIN),
)

UNSET_SETTING = Operation(
    name="runtime.unset-setting",
    summary="Remove a setting's database value, so the environment or the default applies again.",
    service=f"{SERVICE}:reset_setting",
    input=SettingKey,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("DELETE", "/api/settings/{key}", errors=NO_SETTING, tags=ADMIN),
)

LIST_PLUGINS = Operation(
    name="runtime.list-plugins",
    summary="Loaded plugins with version, source and the hooks they implement.",
    service=f"{SERVICE}:list_plugins",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/plugins", tags=ADMIN, also=("/-/plugins",)),
)

HEALTH = Operation(
    name="runtime.health",
    summary="Whether the server and its database answer; no key needed, and nothing else told.",
    description='``{"status": "ok"}``; ``{"status": "warming"}`` (also 200) while a freshly '
    "started ctxd loads its embedder (queries wait for it); or 503 "
    '``{"status": "unavailable"}`` when the database does not answer. The version is behind a '
    "key, at /api/version.",
    service=f"{SERVICE}:health",
    access="public",
    reach="none",
    rest=Rest(
        "GET",
        "/health",
        errors={503: 'The database does not answer: {"status": "unavailable"}.'},
        tags=("health",),
    ),
    cli=True,
)

SERVER_VERSION = Operation(
    name="runtime.version",
    summary="The server's version (behind a key: anonymous callers learn nothing about the "
    "server).",
    service=f"{SERVICE}:server_version",
    reach="none",
    rest=Rest("GET", "/api/version", tags=("blocks",)),
    cli=True,
)

EVENT_STREAM = Operation(
    name="runtime.events",
    summary="Server-sent events: a job queued, a block written (no titles, no content).",
    description='Server-Sent Events: ``ctx_jobs`` (data ``{"kind"}``) when a job is queued and '
    "``ctx_events`` (data ``{action, id, scope, category, block_type}``) when a block is "
    "written; no titles, no content. A comment every 15 s keeps idle connections open.",
    service="ctx.core.runtime.notices:listen_notices",
    access="admin",
    reach="read",  # block ids and scopes of every scope: the operator's
    # An endpoint of its own: the stream is asynchronous (it watches for the client leaving) and
    # sends comments (": listening", ": keep-alive") that are no events. Left out of the OpenAPI
    # schema: a stream that never ends is no call for generated clients (or the fuzzer) to wait on.
    rest=Rest(
        "GET",
        "/api/events",
        answer="events",
        endpoint="ctx.ui.api.events:events",
        in_schema=False,
        tags=("observe",),
    ),
)
