"""``ctx serve`` / ``ctxd``: run the HTTP server in the foreground until SIGINT or SIGTERM."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Annotated

import typer

from ctx.core import CtxError, runtime
from ctx.ui.cli import current_app, local, run

log = logging.getLogger("ctx.serve")
GRACEFUL_S = 10  # open requests may finish for this long after a SIGTERM
STOP_S = 15  # then the background threads for this long, all together
ABANDON_S = 2  # then requests still running on worker threads for this long


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
    # before anything else holds the cluster: a changed shared_buffers needs a restart
    memory = runtime.size_embedded(app) if init else None
    watch = runtime.ClusterWatch(app.db.embedded)  # an embedded cluster killed is started again
    watch.start()
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
            welcome(app, f"http://{bind_host}:{bind_port}", memory)
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
            timeout_graceful_shutdown=GRACEFUL_S,
        )
        # uvicorn re-raises the signal it caught after a graceful shutdown; with these handlers
        # that becomes an exception here, so the finally block still stops the database.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _raise_stop)
        with contextlib.suppress(_Stop):
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        watch.stop()  # before the cluster is stopped on purpose
        _stop_together([app.governor.stop, dreamer.stop, worker.stop, listener.stop], STOP_S)
        app.close()
    _exit_past_running_requests(ABANDON_S)


def _stop_together(stops: list[Callable[[], None]], wait_s: float) -> None:
    """Run the background parts' ``stop`` side by side and wait for them ``wait_s`` seconds in
    all: one busy with a model call must not add its own wait to everyone else's. Their threads
    are daemons: one still busy afterwards does not hold the process."""
    running = [threading.Thread(target=stop, name="ctx-stop", daemon=True) for stop in stops]
    for thread in running:
        thread.start()
    deadline = time.monotonic() + wait_s
    for thread in running:
        thread.join(max(0.0, deadline - time.monotonic()))


def _exit_past_running_requests(wait_s: float) -> None:
    """Exit now, even past requests still running on worker threads.

    A request whose handler outlives the graceful shutdown (a model call that stalls) was
    cancelled and answered, but its worker thread goes on, and Python waits for every such
    (non-daemon) thread before it exits: ctxd stopped its database and then lived on until the
    call returned. Wait ``wait_s`` seconds for them, then leave without them.
    """
    main = threading.main_thread()
    deadline = time.monotonic() + wait_s
    left = [t for t in threading.enumerate() if t is not main and not t.daemon]
    for thread in left:
        thread.join(max(0.0, deadline - time.monotonic()))
    left = [t for t in left if t.is_alive()]
    if not left:
        return
    log.warning(
        "stopping with %d request thread(s) still running (%s): their requests were cancelled",
        len(left),
        ", ".join(sorted({t.name for t in left})),
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def ctxd() -> None:
    """``ctxd``: the server alone, same options as ``ctx serve``."""
    sys.exit(run(["serve", *sys.argv[1:]]))
