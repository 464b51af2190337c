"""``ctx serve`` / ``ctxd``: run the HTTP server in the foreground until SIGINT or SIGTERM."""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
from typing import Annotated

import typer

from ctx.core.app import App
from ctx.core.errors import CtxError


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop()


def configure_logging(level: str) -> None:
    from ctx.ui.middleware import JsonLogFormatter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn.access",):
        logging.getLogger(name).disabled = True  # ctx.access logs every request with its id


def serve(
    host: Annotated[
        str | None, typer.Option("--host", help="Default: server.host setting.")
    ] = None,
    port: Annotated[
        int | None, typer.Option("--port", help="Default: server.port setting.")
    ] = None,
) -> None:
    """Run ctxd in the foreground; stops cleanly (embedded database included) on SIGINT/SIGTERM."""
    import uvicorn

    from ctx.core.listener import Listener
    from ctx.core.worker import Worker
    from ctx.ui.server import create_app

    app = App()
    configure_logging(str(app.settings["log.level"]))
    app.open()
    worker = Worker(app)
    listener = Listener(
        app, {"ctx_settings": lambda _payload: app.reload(), "ctx_jobs": worker.notify}
    )
    try:
        listener.start()
        worker.start()
        bind_host = host or str(app.settings["server.host"])
        bind_port = port or int(app.settings["server.port"])
        if port is not None and not 1 <= port <= 65535:
            raise CtxError("--port must be between 1 and 65535")
        sys.stderr.write(f"ctx listening on http://{bind_host}:{bind_port}\n")
        sys.stderr.flush()
        config = uvicorn.Config(
            create_app(app),
            host=bind_host,
            port=bind_port,
            log_config=None,
            access_log=False,
            server_header=False,
            timeout_graceful_shutdown=10,
        )
        # uvicorn re-raises the signal it caught after a graceful shutdown; with these handlers
        # that becomes an exception here, so the finally block still stops the database.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _raise_stop)
        with contextlib.suppress(_Stop):
            uvicorn.Server(config).run()
    finally:
        worker.stop()
        listener.stop()
        app.close()
