"""ctxd's HTTP app served by uvicorn on a free loopback port, in a thread: a real server for
clients that speak HTTP themselves (the MCP SDK, OAuth libraries, the fuzzer)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from ctx.core import App
from ctx.ui import create_app


@contextmanager
def live_server(app: App) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL (lifespan included)."""
    config = uvicorn.Config(
        create_app(app), host="127.0.0.1", port=0, log_config=None, access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the live server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
