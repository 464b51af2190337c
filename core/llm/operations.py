"""The model backend operations, each declared once (``ctx.core.operations``): list, create,
show, change, delete and test the backends, and read the log of model calls. Admin keys only.
Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.llm.schemas import (
    BackendChange,
    BackendCreate,
    BackendFields,
    BackendName,
    CallLogRequest,
    ProbeInput,
    ProbeRequest,
)
from ctx.core.operations import Operation, Rest

SERVICE = "ctx.core.llm.service"
NO_BACKEND = {404: "No backend of that name."}

LIST_BACKENDS = Operation(
    name="llm.backends",
    summary="Every backend, highest priority first, with its cooldown; and the kinds installed.",
    service=f"{SERVICE}:backends",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/backends", tags=("backends",)),
)

CREATE_BACKEND = Operation(
    name="llm.create-backend",
    summary="Add a backend.",
    description="Add a backend; 422 names the field at fault (an unknown kind, role or secret, "
    "a role without a model, a bad URL), 409 when the name is taken.",
    service=f"{SERVICE}:create",
    input=BackendCreate,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest(
        "POST",
        "/api/backends",
        status=201,
        errors={409: "A backend of that name exists."},
        tags=("backends",),
    ),
)

SHOW_BACKEND = Operation(
    name="llm.backend",
    summary="One backend, with its cooldown.",
    service=f"{SERVICE}:show",
    input=BackendName,
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/backends/{name}", errors=NO_BACKEND, tags=("backends",)),
)

UPDATE_BACKEND = Operation(
    name="llm.update-backend",
    summary='Change the fields given (``"secret": null`` drops the secret).',
    service=f"{SERVICE}:update",
    input=BackendChange,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest(
        "PATCH",
        "/api/backends/{name}",
        body=BackendFields,
        errors=NO_BACKEND,
        tags=("backends",),
    ),
)

DELETE_BACKEND = Operation(
    name="llm.delete-backend",
    summary="Remove a backend (its secret stays).",
    service=f"{SERVICE}:delete",
    input=BackendName,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("DELETE", "/api/backends/{name}", errors=NO_BACKEND, tags=("backends",)),
)

TEST_BACKEND = Operation(
    name="llm.test-backend",
    summary="One real request per role of a backend, with its latency.",
    description="One real request per role (those given, else all the backend has), with its "
    "latency; a failed role is a result with ``ok: false``, not an error status.",
    service=f"{SERVICE}:probe",
    input=ProbeInput,
    kind="model",
    access="admin",
    reach="none",
    rest=Rest(
        "POST",
        "/api/backends/{name}/test",
        body=ProbeRequest,
        optional_body=True,
        errors=NO_BACKEND,
        tags=("backends",),
    ),
)

CALL_LOG = Operation(
    name="llm.call-log",
    summary="The model calls, newest first, and the last 24 hours per backend and role.",
    description="The model calls (role, backend, model, outcome, tokens, latency), newest first, "
    "and the last 24 hours summed up per backend and role. Request and answer text appear only "
    "while ``llm.log_content`` is on.",
    service=f"{SERVICE}:call_log",
    input=CallLogRequest,
    access="admin",
    reach="read",  # with llm.log_content on, the text of requests: the operator's
    rest=Rest("GET", "/api/llmlog", tags=("observe",)),
)
