"""The ``translate`` stage: a German query is searched with an English translation.

Runs after ``language``. When the query is German, ``query.translate`` is on and the translate
chain has a backend, the model is asked for an English search query (prompt
``policies/prompts/translate.v1.md``). Its answer passes hard gates before it is used: reasoning
blocks and surrounding quotes are dropped, SQL metacharacters removed; a multi-line, empty, too
long or otherwise unsafe answer is refused and the original query is searched. A translation that
passes becomes ``q.search_text`` (what the channels and the query embedding search); the answer
still uses the original query, so it is written in the user's language.

The stage is fail-open: a model that fails or stalls leaves the original query and a warning.
"""

from __future__ import annotations

import re

from ctx.core.errors import error_text
from ctx.core.llm import NoBackend, available, chat, render_prompt, strip_reasoning
from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.pipeline import QueryRun, QueryStage

PROMPT = ("translate", "v1")
#: an answer may be at most this many times as long as the query
MAX_GROWTH = 3

_QUOTES = "\"'`“”„‟‘’‚‛«»‹›"
_SQL_META = re.compile(r"--|/\*|\*/|[;'\"\\`]")
# letters and digits of any script, "_" (all of them \w), the space and - . , : ? ! ( ) / & +
_SAFE = re.compile(r"[\w \-.,:?!()/&+]+")


def _unquote(text: str) -> str:
    while True:
        stripped = text.strip()
        if len(stripped) >= 2 and stripped[0] in _QUOTES and stripped[-1] in _QUOTES:
            stripped = stripped[1:-1]
        if stripped == text:
            return text
        text = stripped


def clean_translation(answer: str, original: str) -> tuple[str | None, str, list[str]]:
    """Run the gates over a model's answer.

    Returns ``(translation, reason, cleaned)``: the translation (None when a gate refused the
    answer), why it was refused (or ``"ok"``), and what was removed on the way (``think``,
    ``quotes``, ``sql``)."""
    cleaned: list[str] = []
    text = strip_reasoning(answer)
    if text != answer:
        cleaned.append("think")
    before = text.strip()
    text = _unquote(text)
    if text != before:
        cleaned.append("quotes")
    if not text:
        return None, "empty answer", cleaned
    if "\n" in text or "\r" in text:
        return None, "answer has more than one line", cleaned
    stripped = _SQL_META.sub("", text)
    if stripped != text:
        cleaned.append("sql")
        text = " ".join(stripped.split())
    text = text.replace("\t", " ").strip()
    if not text:
        return None, "empty answer", cleaned
    limit = MAX_GROWTH * max(len(original.strip()), 1)
    if len(text) > limit:
        return (
            None,
            f"answer longer than {MAX_GROWTH}x the query ({len(text)} > {limit} chars)",
            cleaned,
        )
    if not _SAFE.fullmatch(text):
        bad = sorted({ch for ch in text if not _SAFE.fullmatch(ch)})
        return None, "answer has unsafe characters " + " ".join(repr(c) for c in bad[:5]), cleaned
    return text, "ok", cleaned


def _messages(query: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": render_prompt(*PROMPT)},
        {"role": "user", "content": query},
    ]


def translate(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Translate a German query into an English search query (the answer keeps the original)."""
    query = q.request.query
    if q.language.get("language") != "de":
        return candidates
    if not q.app.settings["query.translate"]:
        q.note(skipped="query.translate is off")
        q.language["translation"] = "skipped: query.translate is off"
        return candidates
    why = available(q.app, "translate")
    if why is not None:
        q.note(skipped=f"no translate backend: {why}")
        q.language["translation"] = f"skipped: {why}"
        return candidates
    try:
        reply = chat(q.app, "translate", lambda _pieces: _messages(query),
                         params={"temperature": 0})  # fmt: skip
    except NoBackend as exc:  # the chain emptied between the check and the call
        q.note(skipped=f"no translate backend: {exc.reason}")
        q.language["translation"] = f"skipped: {exc.reason}"
        return candidates
    except Exception as exc:
        message = error_text(exc, str)
        q.note(failed=message)
        q.language["translation"] = f"failed: {message}"
        q.warn(f"translation failed ({message}); searched with the original query")
        return candidates
    translated, reason, cleaned = clean_translation(reply.text, query)
    if cleaned:
        q.note(cleaned=cleaned)
    if translated is None:
        q.note(refused=reason)
        q.language["translation"] = f"refused: {reason}"
        q.warn(f"translation refused ({reason}); searched with the original query")
        return candidates
    q.search_text = translated
    q.language["translated"] = translated
    q.language["translation"] = "translated"
    q.language["translation_backend"] = reply.backend
    q.note(translated=translated, backend=reply.backend, model=reply.model)
    return candidates


TRANSLATE_STAGE = QueryStage(
    "translate", translate, after="language", fail_open=True, description=translate.__doc__ or ""
)
