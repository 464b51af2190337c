"""The translate stage: a German query searched with its English translation over a real
OpenAI-compatible peer, the gates on the model's answer, and fail-open on errors."""

from __future__ import annotations

from typing import Any

import pytest
from backend_kit import add_backend

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, query
from ctx.core.retrieval import clean_translation
from ctx.core.runtime import set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
GERMAN = "Wie funktioniert der Schreibschutz?"
ENGLISH = "How does the Write Guard work"


def _backend(app: App, srv: Any) -> None:
    add_backend(app, srv, ["translate"])


def _store(app: App, title: str, content: str) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content})
    return str(blocks.store_block(app, WHO, req)["id"])


def _ask(app: App, text: str = GERMAN) -> dict[str, Any]:
    return query(app, WHO, QueryRequest(query=text, explain=True))


def _chats(srv: Any) -> list[dict[str, Any]]:
    return [r.body for r in srv.requests if r.path == "/v1/chat/completions"]


def _notes(out: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in out["stages"] if s["name"] == "translate").get("notes") or {}


def _translation_warnings(out: dict[str, Any]) -> list[str]:
    return [w for w in out["warnings"] if "translation" in w]


def test_a_german_query_is_searched_with_its_translation(app: App, srv: Any) -> None:
    guard = _store(app, "Write Guard", "Protected blocks refuse edits from agents.")
    _store(app, "Office plants", "Water the ficus on Mondays.")
    _backend(app, srv)
    set_setting(app, "query.weight_dense", 0.0)  # the text channels alone: what words find
    set_setting(app, "query.translate", False)
    alone = _ask(app)  # the German words alone find nothing English
    assert guard not in [s["id"] for s in alone["sources"]]
    assert _chats(srv) == [] and alone["language"]["language"] == "de"

    set_setting(app, "query.translate", True)
    srv.chat_replies.append(ENGLISH)
    out = _ask(app)
    assert out["language"]["translated"] == ENGLISH
    assert out["language"]["translation_backend"] == "peer"
    assert out["sources"][0]["id"] == guard
    assert out["sources"][0]["channels"]["fts_en"]["rank"] == 1
    assert out["query"] == GERMAN  # the answer side keeps the original
    assert _translation_warnings(out) == []
    (body,) = _chats(srv)
    system, user = body["messages"]
    assert "Schreibschutz | Write Guard" in system["content"]
    assert "Zugriffsschlüssel | API Key" in system["content"]
    assert user == {"role": "user", "content": GERMAN}
    assert _notes(out)["translated"] == ENGLISH


def test_an_english_query_never_calls_the_model(app: App, srv: Any) -> None:
    _backend(app, srv)
    out = _ask(app, "how does the write guard work")
    assert out["language"]["language"] == "en" and "translated" not in out["language"]
    assert _chats(srv) == []


@pytest.mark.parametrize(
    ("answer", "kept", "reason"),
    [
        ("Write Guard\nThreshold", None, "more than one line"),
        ("Write Guard " * 20, None, "longer than 3x"),
        ("Write Guard <script>", None, "unsafe characters"),
        ("Write Guard {x}", None, "unsafe characters"),
        ("<think>The user wants Schreibschutz.</think>", None, "empty answer"),
        ("   ", None, "empty answer"),
        ("'; --", None, "empty answer"),
    ],
)
def test_a_refused_answer_keeps_the_original_query(
    app: App, srv: Any, answer: str, kept: None, reason: str
) -> None:
    _backend(app, srv)
    srv.chat_replies.append(answer)
    out = _ask(app)
    assert "translated" not in out["language"]
    assert reason in _notes(out)["refused"]
    (warning,) = _translation_warnings(out)
    assert warning.startswith("translation refused (") and "searched with the original" in warning
    assert clean_translation(answer, GERMAN)[0] is kept


@pytest.mark.parametrize(
    ("answer", "translated", "cleaned"),
    [
        ("<think>Schreibschutz is the Write Guard.</think>\nWrite Guard", "Write Guard", ["think"]),
        ('"How does the Write Guard work"', ENGLISH, ["quotes"]),
        ("„Write Guard“", "Write Guard", ["quotes"]),
        ("Write Guard; DROP TABLE blocks --", "Write Guard DROP TABLE blocks", ["sql"]),
        ("Write Guard's `rules` /* x */", "Write Guards rules x", ["sql"]),
        ("Überblick: Write Guard (API-Key) & Threshold?", None, []),
    ],
)
def test_answers_are_cleaned_before_use(
    app: App, srv: Any, answer: str, translated: str | None, cleaned: list[str]
) -> None:
    _backend(app, srv)
    srv.chat_replies.append(answer)
    out = _ask(app)
    expected = translated or answer  # letters of any script and the safe punctuation pass
    assert out["language"]["translated"] == expected
    assert _notes(out).get("cleaned", []) == cleaned
    assert _translation_warnings(out) == []


@pytest.mark.parametrize("behaviour", ["error500", "hang", "malformed"])
def test_a_failing_model_leaves_the_original_query_and_a_warning(
    app: App, srv: Any, behaviour: str
) -> None:
    guard = _store(app, "Schreibschutz", "Geschützte Blöcke lehnen Änderungen ab.")
    _backend(app, srv)
    set_setting(app, "llm.read_timeout", 0.5)
    srv.reset(chat=behaviour)
    out = _ask(app)
    assert "translated" not in out["language"]
    (warning,) = _translation_warnings(out)
    assert warning.startswith("translation failed (") and warning.endswith(
        "searched with the original query"
    )
    assert guard in [s["id"] for s in out["sources"]]  # the German text still searched


def test_without_a_translate_backend_the_stage_skips_silently(app: App, srv: Any) -> None:
    out = _ask(app)
    assert "translated" not in out["language"]
    assert _translation_warnings(out) == []
    assert _notes(out)["skipped"].startswith("no translate backend")
    assert srv.requests == []


def test_the_setting_turns_translation_off(app: App, srv: Any) -> None:
    _backend(app, srv)
    set_setting(app, "query.translate", False)
    out = _ask(app)
    assert _notes(out) == {"skipped": "query.translate is off"} and _chats(srv) == []
