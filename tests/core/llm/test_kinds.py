"""Backend kinds from plugins: the registry the backends pool builds on."""

from __future__ import annotations

from typing import Any

import pytest
from plugin_kit import host_with, registers

from ctx.core import BackendKind, PluginError
from ctx.core.llm import backend_kinds


def Kinds(*kinds: Any) -> object:
    return registers("register_backend_kinds", *kinds)


def _kinds(*plugins: tuple[str, object]) -> dict[str, BackendKind]:
    return backend_kinds(host_with(*plugins))


def test_a_kind_builds_a_client_from_a_row() -> None:
    echo = BackendKind("echo", lambda row: ("client", row["base_url"]), roles=("chat",))
    kinds = _kinds(("p", Kinds(echo)))
    assert kinds["echo"].factory({"base_url": "http://127.0.0.1:9"}) == (
        "client",
        "http://127.0.0.1:9",
    )


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        ([("p", Kinds("openai"))], "plugin p must call register(BackendKind(...))"),
        ([("p", Kinds(BackendKind("Open AI", dict)))], "invalid backend kind 'Open AI'"),
        (
            [("a", Kinds(BackendKind("x", dict))), ("b", Kinds(BackendKind("x", dict)))],
            "backend kind 'x' registered twice: by a and by b",
        ),
    ],
)
def test_bad_kinds_stop_start_up(plugins: list[tuple[str, object]], message: str) -> None:
    with pytest.raises(PluginError) as caught:
        _kinds(*plugins)
    assert message in caught.value.message
