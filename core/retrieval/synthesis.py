"""Synthesis: an answer from the sources, with checked citations, whole or streamed.

After the thresholds (confidence class, the low-confidence cap of two sources) and the trim, the
sources are put in lost-in-the-middle order (best first, second best last), each cut to
``query.source_chars`` characters, and handed to the synthesis chain as data, never as
instructions. The trust gate decides which sources each backend may see; a backend that may see
none is passed over. The model's ``[n]`` citations are mapped back to block ids and checked.
"""

from __future__ import annotations

import logging
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.errors import CtxError
from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.citations import NO_SOURCES, check_citations, dont_know
from ctx.core.retrieval.confidence import (
    CONFIDENT,
    LOW_CONFIDENCE,
    LOW_CONFIDENCE_SOURCES,
    NOTHING_FOUND,
)
from ctx.core.retrieval.past_versions import stricter
from ctx.core.retrieval.pipeline import QueryStage, query_stream

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.retrieval.pipeline import QueryRun
    from ctx.core.retrieval.schemas import QueryRequest

log = logging.getLogger("ctx.retrieval")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def asks_model(app: App, request: QueryRequest) -> bool:
    """Does this query ask for an answer? ``auto`` means: when a synthesis backend exists."""
    ask = request.synthesize
    if ask == "auto":
        return llm.available(app, "synthesis") is None
    return bool(ask)


def wanted(q: QueryRun) -> bool:
    return asks_model(q.app, q.request)


def middle_order(items: list[Any]) -> list[Any]:
    """Best first and second best last: models read the ends of a long context best."""
    if len(items) < 3:
        return list(items)
    return [items[0], *items[2:], items[1]]


def _contents(q: QueryRun) -> dict[str, dict[str, Any]]:
    ids = [s["id"] for s in q.sources]
    with q.app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, content, sensitivity FROM context_blocks"
            " WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchall()
    found = {r["id"]: dict(r) for r in rows}
    for block_id, past in q.versions.items():  # a query naming a past time: what it said then
        if block_id in found:
            now = found[block_id]["sensitivity"]
            found[block_id] = {**past, "sensitivity": stricter(past["sensitivity"], now)}
    return found


def _fence(text: str) -> str:
    # a source cannot close its own element and speak outside it, nor open another
    return llm.fence(text, "source")


def _time_ref(q: QueryRun) -> str | None:
    t = q.temporal
    if not t.matched or t.start is None:
        return None
    if t.dates and len(t.dates) <= 7:
        return ", ".join(d.isoformat() for d in t.dates)
    if t.end is not None and t.end != t.start:
        return f"the time from {t.start.isoformat()} to {t.end.isoformat()}"
    return t.start.isoformat()


@dataclass
class Prepared:
    """What a synthesis call needs: the pieces (sources in prompt order) and the message
    builder; or why there will be no call (``answer`` set without a model, or ``skipped``)."""

    pieces: list[llm.Piece] = field(default_factory=list)
    language: str = "en"
    system: str = ""
    answer: str | None = None
    skipped: str | None = None

    def messages(self, q: QueryRun, admitted: list[llm.Piece]) -> list[dict[str, str]]:
        chars = int(q.app.settings["query.source_chars"])
        blocks = []
        for n, piece in enumerate(admitted, 1):
            src = piece.value
            title = _fence(str(src["title"])).replace('"', "'")
            body = _fence(str(src["content"])[:chars])
            when = src.get("occurred_at") or src.get("updated_at")
            dated = f' date="{when.date().isoformat()}"' if when is not None else ""
            blocks.append(f'<source n="{n}" title="{title}"{dated}>\n{body}\n</source>')
        user = "Sources:\n\n" + "\n\n".join(blocks) + f"\n\nQuestion: {q.request.query}"
        return [{"role": "system", "content": self.system}, {"role": "user", "content": user}]


def _answering(q: QueryRun) -> list[dict[str, Any]]:
    """The sources an answer is written from: those the class trusts (the sources themselves
    stay as they are: the class is a label, ``query.confidence_cut``)."""
    if q.confidence == NOTHING_FOUND:
        return []
    if q.confidence == LOW_CONFIDENCE:
        return q.sources[:LOW_CONFIDENCE_SOURCES]
    return q.sources


def prepare(q: QueryRun) -> Prepared:
    language = str(q.language.get("language") or "en")
    answering = _answering(q)
    if not answering:
        return Prepared(language=language, answer=dont_know(language))
    why = llm.available(q.app, "synthesis")
    if why is not None:
        return Prepared(language=language, skipped=why)
    found = _contents(q)
    ordered = middle_order([s for s in answering if s["id"] in found])
    pieces = [
        llm.Piece(found[s["id"]]["sensitivity"], {**s, "content": found[s["id"]]["content"] or ""})
        for s in ordered
    ]
    today: date = q.request.now or date.today()
    time_ref = _time_ref(q)
    system = llm.render_prompt(
        "synthesis",
        str(q.app.settings["query.prompt_version"]),
        language=language,
        today=f"{today.isoformat()} ({WEEKDAYS[today.weekday()]})" if time_ref else "",
        time_ref=time_ref or "",
    )
    return Prepared(pieces=pieces, language=language, system=system)


def _params(q: QueryRun) -> dict[str, Any]:
    return {"max_tokens": int(q.app.settings["query.answer_max_tokens"]), "temperature": 0.1}


def finish(q: QueryRun, prep: Prepared, reply: llm.Reply) -> dict[str, Any]:
    """The answer fields of the response from a model's reply."""
    shown = [p.value for p in reply.admitted]
    checked = check_citations(reply.text, shown, prep.language)
    if checked.removed:
        log.warning(
            "answer cited source number(s) %s, which the model was not shown; removed",
            checked.removed,
            extra={"backend": reply.backend},
        )
    if checked.no_answer and q.confidence == CONFIDENT:
        q.confidence = LOW_CONFIDENCE  # the sources looked right but did not answer it
    info = {
        **reply.about(),
        "prompt_version": str(q.app.settings["query.prompt_version"]),
        "sources_sent": len(shown),
    }
    if checked.removed:
        info["removed_citations"] = checked.removed
    return {"answer": checked.text, "citations": checked.citations, "synthesis": info}


def skipped(q: QueryRun, prep: Prepared) -> dict[str, Any]:
    if prep.answer is not None:
        return {"answer": prep.answer, "citations": [], "synthesis": {"reason": "no sources"}}
    reason = prep.skipped or "skipped"
    if q.request.synthesize is True:
        q.warn(f"no answer: {reason}")
    return {"synthesis": {"skipped": reason}}


def synthesis(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """An answer from the synthesis chain, when the query asks for one."""
    if not wanted(q):
        return candidates
    prep = prepare(q)
    if prep.answer is not None or prep.skipped is not None:
        q.extra.update(skipped(q, prep))
        return candidates
    try:
        reply = llm.chat(
            q.app,
            "synthesis",
            lambda admitted: prep.messages(q, admitted),
            pieces=prep.pieces,
            need=1,
            params=_params(q),
        )
    except llm.NoBackend as exc:
        q.extra.update(skipped(q, Prepared(skipped=exc.reason)))
        return candidates
    except CtxError as exc:
        q.warn(f"no answer: {exc.message}")
        q.extra["synthesis"] = {"failed": exc.message}
        return candidates
    q.extra.update(finish(q, prep, reply))
    q.note(backend=reply.backend, withheld=reply.withheld)
    return candidates


class _Holdback:
    """Keeps streamed text back while it may still turn out to be a reasoning block or the
    no-answer sentinel, so a client never shows either. A model that leaves out the opening
    ``<think>`` (its template opened it) is noticed only at ``</think>``: what was streamed so
    far was reasoning, and ``feed`` says so (``reset``) before the answer that follows."""

    CLOSE = "</think>"

    def __init__(self) -> None:
        self.buffer = ""
        self.open = False
        self.sent = ""

    def feed(self, piece: str) -> tuple[str, bool]:
        """``(text to send, whether the text sent before was reasoning)``."""
        if self.open:
            combined = self.sent + piece
            at = combined.lower().rfind(self.CLOSE)
            if at < 0:
                self.sent = combined
                return piece, False
            rest = combined[at + len(self.CLOSE) :]
            self.open, self.buffer, self.sent = False, "", ""
            text, _ = self.feed(rest.lstrip())
            return text, True
        self.buffer += piece
        head = self.buffer.lstrip()
        lowered = head.lower()
        if lowered.startswith("<think>") or "<think>".startswith(lowered):
            if self.CLOSE not in lowered:
                return "", False
            head = llm.strip_reasoning(head)
            self.buffer = head
            if not head:
                return "", False
        if NO_SOURCES.startswith(head.strip()) or head.strip().startswith(NO_SOURCES):
            return "", False
        self.open = True
        out, self.buffer = self.buffer, ""
        self.sent = out
        return out, False


def stream_answer(q: QueryRun) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(event, data)`` pairs after the sources: ``token`` pieces, then ``answer`` (the checked
    answer, citations and who gave it) or ``error``."""
    try:
        prep = prepare(q)
    except CtxError as exc:
        yield "error", {"message": f"no answer: {exc.message}"}
        return
    if prep.answer is not None or prep.skipped is not None:
        yield "answer", {**skipped(q, prep), "confidence": q.confidence, "warnings": q.warnings}
        return
    hold = _Holdback()
    try:
        for item in llm.stream(
            q.app,
            "synthesis",
            lambda admitted: prep.messages(q, admitted),
            pieces=prep.pieces,
            need=1,
            params=_params(q),
        ):
            if isinstance(item, llm.Reply):
                result = finish(q, prep, item)
                yield "answer", {**result, "confidence": q.confidence, "warnings": q.warnings}
                return
            text, reset = hold.feed(item)
            if reset:
                yield "reset", {"reason": "the text so far was the model's reasoning"}
            if text:
                yield "token", {"text": text}
    except llm.NoBackend as exc:
        yield "answer", {**skipped(q, Prepared(skipped=exc.reason)), "confidence": q.confidence,
                         "warnings": q.warnings}  # fmt: skip
    except CtxError as exc:
        yield "error", {"message": f"no answer: {exc.message}"}


def query_with_answer(
    app: App, who: Principal, request: QueryRequest
) -> Generator[tuple[str, dict[str, Any]], None, None]:
    """``/api/query/stream``: the sources, then the answer as it arrives (when wanted)."""

    def answer(q: QueryRun) -> Iterator[tuple[str, dict[str, Any]]]:
        if wanted(q):
            yield from stream_answer(q)

    yield from query_stream(app, who, request, answer)


SYNTHESIS_STAGE = QueryStage(
    "synthesis", synthesis, after="sources", fail_open=True, description=synthesis.__doc__ or ""
)
