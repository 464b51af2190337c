"""The embedding tests' loopback model: an OpenAI-wire server on 127.0.0.1 (which a test can make
hang or fail) as the active generation's embedder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai_server
import pytest

from ctx.core import App, embed


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer(native_dimensions=32) as srv:
        yield srv


@pytest.fixture
def loopback(app: App, server: Any) -> Any:
    """The active generation embeds through the loopback server; its request log starts empty."""
    server.reset("ok")
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    options = {"base_url": server.base_url, "model": "m", "dimensions": 16}
    embed.create_generation(app, "openai", options, active=True)
    server.requests.clear()
    return server
