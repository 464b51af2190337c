"""The same calls against a real llama.cpp server, where one can be started here.

Needs ``llama-cpp-python`` with its server extra (``pip install 'llama-cpp-python[server]'``) and
a chat GGUF model at ``CTX_TEST_GGUF``; skipped, not failed, elsewhere. The server is started on a
loopback port for the module and stopped after it.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ctx.core import llm

pytestmark = pytest.mark.llama_cpp
MODEL = os.environ.get("CTX_TEST_GGUF", "")


def _missing() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed"
    if importlib.util.find_spec("llama_cpp.server") is None:
        return "llama-cpp-python has no server extra"
    if not MODEL or not Path(MODEL).is_file():
        return "CTX_TEST_GGUF does not name a GGUF model file"
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    why = _missing()
    if why:
        pytest.skip(why)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", MODEL, "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "2048", "--embedding", "true"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.skip("the llama.cpp server did not start")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def client(server: str) -> Iterator[llm.OpenAIClient]:
    with httpx.Client() as http:
        yield llm.OpenAIClient(server, http=http, name="llama.cpp",
                               limits=llm.Limits(read=300, total=600))  # fmt: skip


MSG = [{"role": "user", "content": "Reply with the single word: yes"}]


def test_chat(client: llm.OpenAIClient) -> None:
    out = client.chat("local", MSG, {"max_tokens": 8, "temperature": 0})
    assert isinstance(out.text, str) and out.text.strip()
    assert out.completion_tokens is not None and out.completion_tokens > 0


def test_stream(client: llm.OpenAIClient) -> None:
    items = list(client.stream_chat("local", MSG, {"max_tokens": 8, "temperature": 0}))
    *pieces, last = items
    assert isinstance(last, llm.ChatResult) and last.text == "".join(str(p) for p in pieces)
    assert last.finish_reason in ("stop", "length")


def test_embeddings(client: llm.OpenAIClient) -> None:
    vectors = client.embed("local", ["one text", "another text"], {})
    assert len(vectors) == 2 and len(vectors[0]) == len(vectors[1]) > 0
