"""``ctx backends test``: one real request per role of a backend, with its latency."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ctx.core.errors import CtxError, ValidationError, error_text
from ctx.core.llm.backends import Backend, get_backend
from ctx.core.llm.calllog import CallRecord, record_call
from ctx.core.llm.errors import ModelError

if TYPE_CHECKING:
    from ctx.core.app import App

CHAT_PROBE = [
    {"role": "system", "content": "You are a health check. Answer with the single word OK."},
    {"role": "user", "content": "Are you there?"},
]


def _probe_role(client: Any, backend: Backend, role: str) -> tuple[str, str]:
    model, params = backend.model_for(role)
    if role == "embed":
        vectors = client.embed(model, ["ctx backend test"], params)
        return model, f"{len(vectors[0])} dimensions"
    if role == "rerank":
        scores = client.rerank(
            model, "backend test", ["a backend test document", "something else"], params
        )
        return model, "scores " + ", ".join(f"{s:.2f}" for s in scores)
    reply = client.chat(model, CHAT_PROBE, {"max_tokens": 16, **params})
    text = " ".join(reply.text.split())
    return reply.model or model, repr(text[:60])


def probe_backend(
    app: App, backend: Backend, roles: list[str] | None = None
) -> list[dict[str, Any]]:
    """Each role (those given, else all the backend has) with ok, latency and what came back.
    Failures are results, not exceptions; they are logged and cool the backend down."""
    out: list[dict[str, Any]] = []
    targets = roles or list(backend.roles) or ["chat"]
    try:
        client = app.backends.client(backend)
    except ModelError as exc:
        return [{"role": r, "ok": False, "error": exc.message} for r in targets]
    for role in targets:
        started = time.perf_counter()
        try:
            model, detail = _probe_role(client, backend, role)
        except CtxError as exc:
            ms = (time.perf_counter() - started) * 1000
            outcome = getattr(exc, "outcome", "error")
            record_call(app, CallRecord(role, backend.name, backend.model_for(role)[0], "test",
                                        outcome, ms, error=exc.message))  # fmt: skip
            if getattr(exc, "cools", True):
                app.backends.failed(backend.name, exc.message, role)
            out.append({"role": role, "ok": False, "latency_ms": round(ms, 1),
                        "error": exc.message})  # fmt: skip
            continue
        except Exception as exc:  # a kind plugin's bug is a failed test, not a crash
            out.append({"role": role, "ok": False, "error": error_text(exc)})
            continue
        ms = (time.perf_counter() - started) * 1000
        record_call(app, CallRecord(role, backend.name, model, "test", "ok", ms))
        app.backends.succeeded(backend.name, role)
        out.append({"role": role, "ok": True, "latency_ms": round(ms, 1), "model": model,
                    "detail": detail})  # fmt: skip
    return out


def probe_roles(app: App, name: str, roles: list[str] | None = None) -> list[dict[str, Any]]:
    """``probe_backend`` of the backend called ``name``; a role given that it does not serve is
    refused (422) before anything is sent."""
    with app.connection() as conn:
        backend = get_backend(conn, name)
    foreign = [r for r in roles or () if r not in backend.roles]
    if foreign:
        raise ValidationError(
            f"backend {name} does not serve {foreign}; its roles: "
            f"{', '.join(backend.roles) or 'none'}",
            field="roles",
        )
    return probe_backend(app, backend, roles or None)
