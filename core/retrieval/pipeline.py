"""The query path as an explicit, ordered list of named stages.

A stage has one contract: ``run(query, candidates) -> candidates``. It reads what earlier stages
left on the ``QueryRun`` (scopes, the parsed time, the query vector, ...), may add its own, and
hands on a candidate list (the same, filtered, re-scored, re-ordered or new). Each stage is timed;
``explain`` lists the stages with their milliseconds, candidate counts and notes, and the debug
log carries the same. A stage marked ``fail_open`` (one that calls a model) that raises becomes a
warning, and its input passes on unchanged.

Plugins add or replace stages by name through ``register_query_stages``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ctx.core.embed import vector_literal
from ctx.core.errors import PluginError, error_text
from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.confidence import NOTHING_FOUND, WordHits
from ctx.core.retrieval.fusion import channel_weights
from ctx.core.retrieval.overrides import with_settings
from ctx.core.retrieval.schemas import QueryRequest
from ctx.core.temporal import TemporalResult

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.runtime import PluginHost, Reads

log = logging.getLogger("ctx.retrieval")

T = TypeVar("T")
StageRun = Callable[["QueryRun", list[Candidate]], list[Candidate]]
#: told each stage's name and the candidates it handed on, as each finishes
StageWatch = Callable[[str, list[Candidate]], None]


@dataclass(frozen=True)
class QueryStage:
    """One named step of the query path.

    At most one of ``after``, ``before`` and ``replaces`` names the stage this one is placed
    relative to; with none, the stage is appended. ``fail_open`` marks a stage whose failure must
    not fail the query (model calls): its exception becomes a warning.
    """

    name: str
    run: StageRun
    after: str | None = None
    before: str | None = None
    replaces: str | None = None
    fail_open: bool = False
    description: str = ""

    @property
    def anchor(self) -> str | None:
        return self.after or self.before or self.replaces


@dataclass
class QueryRun:
    """Everything one query knows while it runs; stages read and extend it."""

    app: App
    who: Principal
    request: QueryRequest
    weights: dict[str, float]
    scopes: list[str] = field(default_factory=list)
    language: dict[str, Any] = field(default_factory=dict)
    #: the text the channels search (the query, or its translation); the answer uses the query
    search_text: str = ""
    temporal: TemporalResult = field(default_factory=TemporalResult.nothing)
    generation: dict[str, Any] | None = None
    embedding: str | None = None
    considered: int = 0
    confidence: str = NOTHING_FOUND
    sources: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: extra response fields a stage adds (synthesis adds its answer here)
    extra: dict[str, Any] = field(default_factory=dict)
    #: extra fields of single sources, by block id (the supersedes stage adds superseded_by)
    source_fields: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the past version a source stands for, by block id (the versions stage, for a query that
    #: names a past time): its ``content`` and ``sensitivity`` replace the block's current ones in
    #: the snippet and the answer
    versions: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the question's word hits in the blocks looked at so far (rescore, then the thresholds)
    word_hits: list[WordHits] = field(default_factory=list)
    #: per stage: what it ran, how long, what it noted
    trace: list[dict[str, Any]] = field(default_factory=list)
    #: stages may do the caller's pending work inline (embed and date fresh blocks before they
    #: are searched); a caller with its own freshness rule (the governor's recent ring) says no
    inline: bool = True
    #: how the query text becomes its vector literal; a caller may put a cache in front of it
    embed_text: Callable[[QueryRun, str], str] | None = None
    #: where the stages read (a read replica, or the primary: ``read``); None: the primary
    reads: Reads | None = None
    _notes: dict[str, Any] = field(default_factory=dict)

    def read(self, read: Callable[[psycopg.Connection[dict[str, Any]]], T]) -> T:
        """``read(conn)`` where this query reads: a replica that has the caller's writes, or
        the primary. ``read`` only reads and may run twice (``ctx.core.runtime.Reads``)."""
        return (self.reads or self.app.reads()).run(read)

    def query_vector(self, text: str) -> str:
        """The vector literal of ``text`` in the active generation (through ``embed_text``)."""
        if self.embed_text is not None:
            return self.embed_text(self, text)
        assert self.generation is not None
        return vector_literal(self.app.embedders.for_generation(self.generation).embed_query(text))

    def note(self, **values: Any) -> None:
        """Record facts about the current stage for ``explain``."""
        self._notes.update(values)

    def warn(self, message: str) -> None:
        self.warnings.append(message)


def build_pipeline(host: PluginHost) -> list[QueryStage]:
    """Order every registered stage; problems stop start-up in one error."""
    regs = host.registrations("register_query_stages")
    problems: list[str] = []
    order: list[QueryStage] = []
    owner: dict[str, str] = {}
    placed: list[tuple[str, QueryStage]] = []
    for reg in regs:
        stage = reg.args[0] if len(reg.args) == 1 and not reg.kwargs else None
        if not isinstance(stage, QueryStage) or not callable(stage.run) or not stage.name:
            problems.append(f"plugin {reg.plugin} must call register(QueryStage(name, run, ...))")
        elif sum(bool(x) for x in (stage.after, stage.before, stage.replaces)) > 1:
            problems.append(
                f"stage {stage.name!r} of {reg.plugin}: give at most one of after, before, replaces"
            )
        elif stage.anchor is None:
            if stage.name in owner:
                problems.append(
                    f"query stage {stage.name!r} registered twice: by {owner[stage.name]} and by "
                    f"{reg.plugin}"
                )
            else:
                order.append(stage)
                owner[stage.name] = reg.plugin
        else:
            placed.append((reg.plugin, stage))
    replaced: dict[str, str] = {}  # replaced stage -> plugin that replaced it
    aliases: dict[str, str] = {}  # replaced stage -> the stage now in its place
    while placed:
        progress = False
        for plugin, stage in list(placed):
            names = [s.name for s in order]
            anchor = stage.anchor
            assert anchor is not None
            if not stage.replaces:
                while anchor in aliases and anchor not in names:
                    anchor = aliases[anchor]
            if stage.replaces and stage.replaces in replaced:
                problems.append(
                    f"query stage {stage.replaces!r} replaced twice: by {replaced[stage.replaces]} "
                    f"and by {plugin}"
                )
            elif anchor not in names:
                continue
            elif stage.name in owner and stage.name != stage.replaces:
                problems.append(
                    f"query stage {stage.name!r} registered twice: by {owner[stage.name]} and by "
                    f"{plugin}"
                )
            else:
                at = names.index(anchor)
                if stage.replaces:
                    replaced[anchor] = plugin
                    aliases[anchor] = stage.name
                    owner.pop(anchor, None)
                    order[at] = stage
                else:
                    order.insert(at + 1 if stage.after else at, stage)
                owner[stage.name] = plugin
            placed.remove((plugin, stage))
            progress = True
        if not progress:
            for plugin, stage in placed:
                problems.append(
                    f"query stage {stage.name!r} of {plugin} is placed relative to "
                    f"{stage.anchor!r}, which no plugin registers"
                )
            break
    if problems:
        raise PluginError("; ".join(problems))
    return order


def run_pipeline(
    app: App,
    who: Principal,
    request: QueryRequest,
    *,
    weights: Mapping[str, float] | None = None,
    skip: Collection[str] = (),
    stop_after: str | None = None,
    inline: bool = True,
    embed_text: Callable[[QueryRun, str], str] | None = None,
    settings: Mapping[str, Any] | None = None,
    watch: StageWatch | None = None,
    reads: Reads | None = None,
) -> tuple[QueryRun, list[Candidate]]:
    """Run the stages in order (without those in ``skip``; up to ``stop_after``) and return the
    run and its final candidates. ``weights`` overrides channel weights for this query;
    ``inline=False`` leaves the caller's pending embeddings and dates to the workers;
    ``embed_text(run, text)`` replaces how the query is embedded (a cache, say); ``settings``
    (checked by ``checked_overrides``) replace setting values for this query only, never
    written; ``watch(name, candidates)`` sees what each stage hands on. The stages read where
    ``reads`` says (default: where ``who``'s call reads, ``App.reads``); on a read replica
    nothing is done inline, as with ``inline=False``: a replica takes no writes."""
    app = with_settings(app, settings)
    stages = app.query_stages
    known = {s.name for s in stages}
    unknown = sorted((set(skip) | ({stop_after} if stop_after else set())) - known)
    if unknown:
        raise ValueError(f"unknown query stage(s) {', '.join(unknown)}; stages: {sorted(known)}")
    reads = reads or app.reads(who)
    run = QueryRun(
        app,
        who,
        request,
        weights=channel_weights(app, weights),
        inline=inline and not reads.on_replica,
        embed_text=embed_text,
        reads=reads,
    )
    candidates: list[Candidate] = []
    for stage in stages:
        if stage.name not in skip:
            candidates = _run_stage(stage, run, candidates)
            if watch is not None:
                watch(stage.name, candidates)
        if stage.name == stop_after:  # skipped or not, nothing after it runs
            break
    return run, candidates


def _run_stage(stage: QueryStage, run: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    run._notes = {}
    started = time.perf_counter()
    entering = len(candidates)
    try:
        out = stage.run(run, candidates)
    except Exception as exc:
        if not stage.fail_open:
            raise
        message = error_text(exc)
        log.warning("query stage %s failed: %s", stage.name, message)
        run.warn(f"stage {stage.name} failed ({message}); it was skipped")
        out = candidates
    run.trace.append(
        {
            "name": stage.name,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "in": entering,
            "out": len(out),
            **({"notes": run._notes} if run._notes else {}),
        }
    )
    return out


def _response(run: QueryRun, took: float) -> dict[str, Any]:
    request = run.request
    response: dict[str, Any] = {
        "query": request.query,
        "confidence": run.confidence,
        "sources": run.sources,
        "language": run.language,
        "temporal": {**run.temporal.to_json(), "fallback": run.temporal.fallback},
        "warnings": run.warnings,
        "candidates": run.considered,
        **run.extra,
        "took_ms": took,
    }
    if request.explain:
        response["stages"] = run.trace
    return response


def query(app: App, who: Principal, request: QueryRequest) -> dict[str, Any]:
    """The whole query path: the response of ``/api/query``, the MCP ``query`` tool and the CLI."""
    started = time.perf_counter()
    run, _ = run_pipeline(app, who, request)
    took = round((time.perf_counter() - started) * 1000, 1)
    log.debug("query stages", extra={"stages": run.trace, "duration_ms": took})
    return _response(run, took)


def query_stream(
    app: App,
    who: Principal,
    request: QueryRequest,
    answer: Callable[[QueryRun], Iterator[tuple[str, dict[str, Any]]]],
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The query path with its answer streamed: ``("sources", response without the answer)``
    first, then what ``answer(run)`` yields (tokens, then the checked answer)."""
    started = time.perf_counter()
    run, _ = run_pipeline(app, who, request, skip=("synthesis",))
    took = round((time.perf_counter() - started) * 1000, 1)
    yield "sources", _response(run, took)
    yield from answer(run)
