"""``ctx serve`` / ``ctxd``: run the HTTP server in the foreground until SIGINT or SIGTERM."""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import Annotated

import typer

from ctx.core import CtxError
from ctx.core.cli import current_app, run
from ctx.core.runtime import Listener, Worker, configure_logging


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop()


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

    from ctx.ui.app import create_app

    if port is not None and not 1 <= port <= 65535:
        raise CtxError("--port must be between 1 and 65535")
    app = current_app()
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


def ctxd() -> None:
    """``ctxd``: the server alone, same options as ``ctx serve``."""
    sys.exit(run(["serve", *sys.argv[1:]]))
