"""``ctx serve`` / ``ctxd``: run the HTTP server in the foreground until SIGINT or SIGTERM."""

from __future__ import annotations

import contextlib
import errno
import signal
import socket
import sys
from typing import Annotated

import typer

from ctx.core import CtxError, runtime
from ctx.ui.cli import current_app, local, run


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop()


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a busy port is one clear line, not a log."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CtxError(f"cannot listen on {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        reason = (
            "is already in use"
            if exc.errno == errno.EADDRINUSE
            else f"cannot be used ({exc.strerror})"
        )
        raise CtxError(
            f"port {port} on {host} {reason}: is another ctxd running? Choose one with --port "
            "or CTX_SERVER_PORT"
        ) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@local
def serve(
    host: Annotated[
        str | None, typer.Option("--host", help="Default: server.host setting.")
    ] = None,
    port: Annotated[
        int | None, typer.Option("--port", help="Default: server.port setting.")
    ] = None,
    init: Annotated[
        bool,
        typer.Option(
            "--init",
            help="Do what ctx init does, once the port is bound, and print its URL and key "
            "(make run).",
        ),
    ] = False,
) -> None:
    """Run ctxd in the foreground; stops cleanly (embedded database included) on SIGINT/SIGTERM."""
    import uvicorn

    from ctx.core.graph import DreamWorker
    from ctx.ui.app import create_app
    from ctx.ui.cli import welcome

    if port is not None and not 1 <= port <= 65535:
        raise CtxError("--port must be between 1 and 65535")
    app = current_app()
    bind_host = host or str(app.settings["server.host"])
    bind_port = port or int(app.settings["server.port"])
    sock = _bind(bind_host, bind_port)  # before anything claims to listen
    runtime.configure_logging(str(app.settings["log.level"]))
    app.open()
    app.warmup.start()  # the embedder loads while the server already answers
    worker = runtime.Worker(app)
    dreamer = DreamWorker(app)
    listener = runtime.Listener(
        app, {"ctx_settings": lambda _payload: app.reload(), "ctx_jobs": worker.notify}
    )
    try:
        listener.start()
        worker.start()
        dreamer.start()
        app.governor.start()
        if init:  # only now: a busy port or a failed start has said so instead
            welcome(app, f"http://{bind_host}:{bind_port}")
            sys.stdout.flush()  # a long-running process: a piped log must not hold it back
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
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        app.governor.stop()
        dreamer.stop()
        worker.stop()
        listener.stop()
        app.close()


def ctxd() -> None:
    """``ctxd``: the server alone, same options as ``ctx serve``."""
    sys.exit(run(["serve", *sys.argv[1:]]))
