"""What a data command says when ctxd is not there, or goes away mid-answer (ctx.core.client)."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from ctxd import clean_env, ctx, free_port


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**clean_env(tmp_path / "home"), "CTX_API_KEY": "ctx_anything"}


@pytest.mark.parametrize(
    "argv",
    [
        ["stats"],  # a call
        ["query", "what did we decide?"],  # the answer stream
        ["query", "what did we decide?", "--no-answer"],
        ["export"],  # JSON lines
    ],
    ids=["call", "stream", "query-call", "lines"],
)
def test_nobody_listening_is_one_line_saying_how_to_start_ctx(
    env: dict[str, str], argv: list[str], tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    done = ctx({**env, "CTX_URL": url}, *argv)
    assert done.returncode == 2
    assert (
        done.stderr == f"ctx: cannot reach ctx at {url}: start it with ctx serve or set CTX_URL\n"
    )


def test_blob_upload_and_health_say_the_same(env: dict[str, str], tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    said = f"cannot reach ctx at {url}: start it with ctx serve or set CTX_URL"
    file = tmp_path / "notes.txt"
    file.write_text("a file to upload\n")
    upload = ctx({**env, "CTX_URL": url}, "blob", "put", str(file))
    assert (upload.returncode, upload.stderr) == (2, f"ctx: {said}\n")
    health = ctx({**env, "CTX_URL": url}, "health")
    assert (health.returncode, health.stdout.strip()) == (1, said)


@pytest.fixture
def cut_stream() -> Iterator[str]:
    """A peer that starts an answer stream (one event) and then drops the connection."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        with server:
            conn, _ = server.accept()
            with conn:
                request = b""
                while b"\r\n\r\n" not in request:
                    request += conn.recv(65536)
                head, body = request.split(b"\r\n\r\n", 1)
                given = re.search(rb"(?i)content-length: *(\d+)", head)
                length = int(given[1]) if given else 0
                while len(body) < length:  # read it all: unread bytes would make the close a reset
                    body += conn.recv(65536)
                event = b'event: token\ndata: {"text": "Half an ans"}\n\n'
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    b"transfer-encoding: chunked\r\n\r\n"
                    + f"{len(event):x}\r\n".encode()
                    + event
                    + b"\r\n"
                )

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    thread.join(timeout=30)


def test_a_stream_cut_after_it_started_keeps_its_own_message(
    env: dict[str, str], cut_stream: str
) -> None:
    done = ctx({**env, "CTX_URL": cut_stream}, "query", "what did we decide?")
    assert done.returncode == 2
    assert "Half an ans" in done.stdout  # what arrived was shown
    # the class is httpx's name for how the connection ended (a clean close or a reset)
    said = re.fullmatch(
        rf"ctx: lost the answer stream from {re.escape(cut_stream)} \((\w+)\); "
        r"is the server still running\?\n",
        done.stderr,
    )
    assert said is not None, done.stderr
