"""Which counter an envelope is counted with: the tokenizer of the chat backends' models (or of
the model the caller names), the estimate, saying why, when a model's tokenizer is not known
(``/api/status`` shows the choice for every role: ``tests/ui/api/test_observe.py``)."""

from __future__ import annotations

from typing import Any

from backend_kit import add_backend

from ctx.core import App, Principal
from ctx.core.governor import PrepareRequest, count_messages

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a2", name="a", home_scope="alpha")
TEXT = "The courier for depot 7 leaves at dawn; Река поднималась уже три дня."


def prepare(app: App, **extra: Any) -> dict[str, Any]:
    body = {"thread": {"session_id": "s1"}, "event": {"content": TEXT}, "budget": 300, **extra}
    return app.governor.prepare(WHO, PrepareRequest.model_validate(body))


def test_without_a_chat_backend_the_estimate_counts_and_says_why(app: App) -> None:
    env = prepare(app)
    assert env["counter"]["name"] == "estimate" and env["counter"]["exact"] is False
    assert "no model is known" in env["counter"]["fallback"]
    named = prepare(app, model="llama3.1:8b")
    assert named["counter"] == {"name": "llama3", "exact": True, "fallback": None}


def test_the_chat_backends_model_picks_the_tokenizer(app: App, srv: Any) -> None:
    add_backend(app, srv, roles=["chat"], model_map={"default": "gpt-4o-mini"})
    env = prepare(app, desk=False)
    assert env["counter"] == {"name": "o200k", "exact": True, "fallback": None}
    o200k = app.governor.counters["o200k"]
    assert env["tokens"] == count_messages(o200k, env["messages"]) <= 300
    # the caller's own model wins over the backends'
    assert prepare(app, model="qwen3:8b", desk=False)["counter"]["name"] == "qwen"


def test_chat_backends_of_two_families_get_a_bound_on_both(app: App, srv: Any) -> None:
    add_backend(app, srv, roles=["chat"], model_map={"default": "gpt-4o"})
    add_backend(app, srv, roles=["chat"], name="local", model_map={"chat": "llama3.2:3b"})
    env = prepare(app, desk=False)
    assert env["counter"] == {"name": "llama3+o200k", "exact": False, "fallback": None}
    for name in ("o200k", "llama3"):
        assert count_messages(app.governor.counters[name], env["messages"]) <= env["tokens"]
