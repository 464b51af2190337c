"""The ``Governor``: ``prepare``, ``commit``, ``protect``, ``release``, ``status``, ``flush``,
``promote``, ``ingest`` and ``threads``, one per ``App`` (``app.governor``).

Every operation takes the caller's ``Principal``: a thread's collection is a scope, so recording
into it needs the key's home scope and reading it a readable scope.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.embed import active_generation
from ctx.core.errors import NotFound, ValidationError
from ctx.core.governor.cache import TieredCache
from ctx.core.governor.desk import FocusVector, Retrieved, retrieve
from ctx.core.governor.envelope import Pin, build
from ctx.core.governor.events import INDEX_KIND, append_event, recent_events
from ctx.core.governor.indexer import Indexer, WorkRing, run_thread
from ctx.core.governor.pins import add_pins, load_pins, remove_pins
from ctx.core.governor.promotion import ingest, promote
from ctx.core.governor.schemas import CHAT_ROLE
from ctx.core.governor.threads import (
    Thread,
    ThreadCache,
    ensure_thread,
    find_thread,
    list_threads,
    readable_scope,
    writable_scope,
)
from ctx.core.governor.tokens import (
    CounterChoice,
    CountMemo,
    TokenCounter,
    choose_counter,
    count_messages,
    token_counters,
)
from ctx.core.governor.watermarks import queue_health, watermarks

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.governor.schemas import (
        CommitRequest,
        EventIn,
        FlushRequest,
        IngestRequest,
        PrepareRequest,
        PromoteRequest,
        ProtectRequest,
        ReleaseRequest,
        StatusRequest,
        ThreadRef,
    )

log = logging.getLogger("ctx.governor")
DESK_HEADER = (
    "Context retrieved from memory for this turn (earlier conversation and stored notes; it may "
    "be incomplete, and newer facts win). Each line starts with its block's id in brackets:"
)
PINS_HEADER = "Protected context (always kept):"


class Governor:
    def __init__(self, app: App) -> None:
        self.app = app
        self.threads = ThreadCache()
        self._changed = threading.Condition()
        self._indexer: Indexer | None = None
        self._counts: dict[str, CountMemo] = {}

    # -- parts built on first use ---------------------------------------------------------------

    @cached_property
    def counters(self) -> dict[str, TokenCounter]:
        return token_counters(self.app.host, self.app.settings)

    @cached_property
    def work_ring(self) -> WorkRing:
        return WorkRing(int(self.app.settings["governor.work_ring"]))

    @cached_property
    def cache(self) -> TieredCache:
        external = None
        for reg in self.app.host.registrations("register_caches"):
            factory = reg.args[1] if len(reg.args) == 2 else None
            if callable(factory):
                external = factory(self.app)
                if external is not None:
                    break
        s = self.app.settings
        return TieredCache(int(s["governor.cache_bytes"]), external, int(s["governor.cache_ttl_s"]))

    @cached_property
    def pool(self) -> ThreadPoolExecutor:
        """Threads for work a prepare overlaps with its database round trips (the focus's
        query vector)."""
        return ThreadPoolExecutor(max_workers=4, thread_name_prefix="ctx-governor")

    def counted(self, counter: TokenCounter) -> TokenCounter:
        """``counter`` with its counts memoised: the same records and turns are counted again
        and again by the envelopes of one thread."""
        memo = self._counts.setdefault(counter.name, CountMemo(counter.count))
        return replace(counter, count=memo)

    def counter_choice(
        self, name: str | None = None, *, model: str | None = None, role: str = CHAT_ROLE
    ) -> CounterChoice:
        """The counter named ``name`` (default: ``governor.token_counter``); with ``auto`` the
        tokenizer of ``model``, else of the models the backends serving ``role`` run (the
        envelope may go to any of them)."""
        if model:
            models: list[str] = [model]
        else:
            models = [b.model_for(role)[0] for b in self.app.backends.serving(role)]
        wanted = name or str(self.app.settings["governor.token_counter"])
        return choose_counter(self.counters, wanted, [m for m in models if m])

    def counter(self, name: str | None = None, *, model: str | None = None) -> TokenCounter:
        """The counter of the chat role's envelopes (see ``counter_choice``)."""
        return self.counter_choice(name, model=model).counter

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start this process's indexer threads (ctxd, ``ctx worker``)."""
        n = int(self.app.settings["governor.indexers"])
        if n and self._indexer is None:
            self._indexer = Indexer(self.app, self.work_ring, n)
            self._indexer.start()

    def stop(self) -> None:
        if self._indexer is not None:
            self._indexer.stop()
            self._indexer = None
        if "cache" in self.__dict__:
            self.cache.close()
        if "pool" in self.__dict__:
            self.pool.shutdown(wait=False, cancel_futures=True)

    def indexed(self) -> None:
        """Indexing advanced in this process: wake whoever waits for a watermark."""
        with self._changed:
            self._changed.notify_all()

    # -- threads ----------------------------------------------------------------------------------

    def _writable(self, who: Principal, ref: ThreadRef) -> Thread:
        scope = writable_scope(who, ref)
        found = self.threads.get(scope, ref.session_id)
        if found is None:
            with self.app.connection() as conn:
                found = self.threads.put(ensure_thread(conn, scope, ref.session_id))
        return found

    def _readable(self, who: Principal, ref: ThreadRef) -> Thread:
        scope = readable_scope(who, ref)
        found = self.threads.get(scope, ref.session_id)
        if found is None:
            with self.app.connection() as conn:
                row = find_thread(conn, scope, ref.session_id)
            if row is None:
                raise NotFound(f"no thread {ref.session_id!r} in collection {scope!r}")
            found = self.threads.put(row)
        return found

    def _check_event(self, event: EventIn) -> None:
        limit = int(self.app.settings["governor.max_event_chars"])
        if len(event.content) > limit:
            raise ValidationError(
                f"event content has {len(event.content)} characters; the limit is {limit} "
                "(governor.max_event_chars)",
                field="content",
            )
        if not event.content.strip():
            raise ValidationError("event content must not be empty", field="content")

    def _sensitivity(self, event: EventIn) -> str:
        spec = self.app.block_type("event")
        return event.sensitivity or (spec.default_sensitivity if spec else "internal")

    def _check_budget(
        self, counter: TokenCounter, budget: int, req: PrepareRequest, pins: list[Pin]
    ) -> None:
        head = [{"role": "system", "content": req.system}] if req.system else []
        if pins:
            text = PINS_HEADER + "\n" + "\n\n".join(p.text for p in pins)
            head.append({"role": "system", "content": text})
        # the event as build() frames it, without its content (a name may go into the content)
        name = req.event.name or ""
        bare = {"role": req.event.role, "content": f"[tool {name}]\n{name}: ", "name": name}
        need = count_messages(counter, [*head, bare])
        if need > budget:
            raise ValidationError(
                f"budget {budget} is too small: the system prompt and the protected items need "
                f"{need} tokens",
                field="budget",
            )

    def _record(self, who: Principal, ref: ThreadRef, event: EventIn) -> tuple[Thread, Any]:
        thread = self._writable(who, ref)
        with self.app.connection() as conn:
            appended = append_event(conn, thread, event, self._sensitivity(event))
        self.work_ring.offer(appended.job_id)
        return thread, appended.event

    # -- operations -------------------------------------------------------------------------------

    def prepare(self, who: Principal, req: PrepareRequest) -> dict[str, Any]:
        started = time.perf_counter()
        s = self.app.settings
        self._check_event(req.event)
        choice = self.counter_choice(req.counter, model=req.model)  # fails before storing
        counter = self.counted(choice.counter)
        budget = int(req.budget or s["governor.default_budget"])
        thread = self._writable(who, req.thread)
        desk_on = req.desk and int(s["governor.desk_items"]) > 0
        focus = None
        if desk_on:  # the query vector is computed while the event is stored and the ring read
            focus = FocusVector(self.app, self.cache, req.focus or req.event.content, self.pool)
        # One transaction: the pins (the budget must hold them), the event and its outbox job,
        # the ring and the previous desk. A refused budget rolls it back: nothing is stored.
        with self.app.connection() as conn:
            pins, _ = load_pins(conn, thread, who)
            self._check_budget(counter, budget, req, pins)
            appended = append_event(conn, thread, req.event, self._sensitivity(req.event))
            event = appended.event
            ring = recent_events(conn, thread.id, event.seq, int(s["governor.ring_events"]))
            row = conn.execute(
                "SELECT desk FROM context_threads WHERE id = %s", (thread.id,)
            ).fetchone()
        self.work_ring.offer(appended.job_id)
        recorded_ms = (time.perf_counter() - started) * 1000
        strict = None
        if req.strict:
            timeout = req.timeout_s if req.timeout_s is not None else s["governor.strict_timeout_s"]
            strict = self.wait(thread, event.seq, float(timeout))
        previous = [str(x) for x in (row["desk"] if row else [])]
        retrieved = Retrieved([], 0.0, [], [])
        if focus is not None:
            retrieved = retrieve(
                self.app,
                who,
                thread,
                focus,
                now=req.now or event.occurred_at.date(),
                exclude=[event.record_id],  # ring events stay candidates: the ring may not fit
            )
        built = build(
            counter,
            budget,
            system=req.system,
            pins=pins,
            event=event,
            ring=ring,
            desk=retrieved.items,
            ring_events=int(s["governor.ring_events"]),
            ring_share=float(s["governor.ring_share"]),
            desk_items=int(s["governor.desk_items"]),
            desk_header=DESK_HEADER,
            pins_header=PINS_HEADER,
        )
        now_ids = [i.id for i in built.desk]
        swap = {
            "swapped_in": [i for i in now_ids if i not in previous],
            "swapped_out": [i for i in previous if i not in now_ids],
            "retained": [i for i in now_ids if i in previous],
        }
        took = round((time.perf_counter() - started) * 1000, 2)
        report = {
            "tokens": built.tokens,
            "budget": budget,
            "parts": built.parts,
            "ring_events": len(built.ring),
            "desk_items": len(built.desk),
            "pins": len(pins),
            "truncated": built.truncated,
            "counter": counter.name,
            "at": event.occurred_at.isoformat(),
            "seq": event.seq,
            "took_ms": took,
        }
        with self.app.connection() as conn:
            conn.execute(
                "UPDATE context_threads SET desk = %s, last_envelope = %s WHERE id = %s",
                (Jsonb(now_ids), Jsonb(report), thread.id),
            )
            marks = watermarks(conn, thread.id)
        return {
            "thread": thread.ref(),
            "seq": event.seq,
            "record_id": event.record_id,
            "messages": built.messages,
            "tokens": built.tokens,
            "budget": budget,
            "counter": {
                "name": counter.name,
                "exact": counter.exact,
                "fallback": choice.fallback,
            },
            "parts": built.parts,
            "ring": {
                "events": len(built.ring),
                "seqs": [e.seq for e in reversed(built.ring)],
            },
            "desk": {
                "items": [
                    {
                        "id": i.id,
                        "score": round(i.score, 6),
                        "visibility": i.visibility,
                        **({"seq": i.seq} if i.seq is not None else {}),
                    }
                    for i in built.desk
                ],
                **swap,
                # where the desk is in ``messages`` (None: no desk), for a caller that must know
                # whether a backend was shown it
                "message": built.kinds.index("desk") if "desk" in built.kinds else None,
                "retrieval_ms": retrieved.took_ms,
            },
            "pins": len(pins),
            "truncated": built.truncated,
            "watermarks": marks,
            "strict": strict,
            "warnings": retrieved.warnings,
            "timings": {"record_ms": round(recorded_ms, 2), "total_ms": took},
            "sensitivities": built.sensitivities,
        }

    def commit(self, who: Principal, req: CommitRequest) -> dict[str, Any]:
        """Store the model's or a tool's result in the thread."""
        self._check_event(req.event)
        thread, event = self._record(who, req.thread, req.event)
        with self.app.connection() as conn:
            marks = watermarks(conn, thread.id)
        return {
            "thread": thread.ref(),
            "seq": event.seq,
            "record_id": event.record_id,
            "watermarks": marks,
        }

    def protect(self, who: Principal, req: ProtectRequest) -> dict[str, Any]:
        thread = self._writable(who, req.thread)
        with self.app.connection() as conn:
            ids = add_pins(conn, who, thread, req.items)
            _, listing = load_pins(conn, thread, who)
        return {"thread": thread.ref(), "pinned": ids, "pins": listing}

    def release(self, who: Principal, req: ReleaseRequest) -> dict[str, Any]:
        thread = self._writable(who, req.thread)
        with self.app.connection() as conn:
            n = remove_pins(conn, thread, req.pins, req.all)
            _, listing = load_pins(conn, thread, who)
        return {"thread": thread.ref(), "released": n, "pins": listing}

    def status(self, who: Principal, req: StatusRequest) -> dict[str, Any]:
        thread = self._readable(who, req.thread)
        with self.app.connection() as conn:
            marks = watermarks(conn, thread.id)
            health = queue_health(conn, INDEX_KIND, thread.id)
            row = conn.execute(
                "SELECT desk, last_envelope, created_at, updated_at FROM context_threads "
                "WHERE id = %s",
                (thread.id,),
            ).fetchone()
            _, pins = load_pins(conn, thread, who)
        assert row is not None
        return {
            "thread": thread.ref(),
            "category": thread.category,
            "watermarks": marks,
            "lag": {
                "indexed": marks["recorded"] - marks["indexed"],
                "embedded": marks["recorded"] - marks["embedded"],
            },
            "queue": health,
            "work_ring": self.work_ring.stats(),
            "cache": self.cache.stats(),
            "last_envelope": row["last_envelope"],
            "desk": list(row["desk"]),
            "pins": pins,
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
        }

    def flush(self, who: Principal, req: FlushRequest) -> dict[str, Any]:
        thread = self._readable(who, req.thread)
        timeout = req.timeout_s
        if timeout is None:
            timeout = float(self.app.settings["governor.flush_timeout_s"])
        with self.app.connection() as conn:
            target = watermarks(conn, thread.id)["recorded"]
        return {"thread": thread.ref(), **self.wait(thread, target, timeout)}

    def promote(self, who: Principal, req: PromoteRequest) -> dict[str, Any]:
        """Copy a record to the project or a team scope (read the thread, write the target)."""
        return promote(self.app, who, self._readable(who, req.thread), req)

    def ingest(self, who: Principal, req: IngestRequest) -> dict[str, Any]:
        """A document into the thread (its desk alone) or its project."""
        return {
            "thread": req.thread.model_dump(exclude_none=True),
            **ingest(self.app, who, self._writable(who, req.thread), req),
        }

    def list_threads(
        self, who: Principal, collection: str | None = None, limit: int = 50
    ) -> dict[str, Any]:
        scopes = who.scopes_for([collection] if collection else None)
        with self.app.connection() as conn:
            rows = list_threads(conn, scopes, limit)
        return {"threads": rows}

    # -- freshness ------------------------------------------------------------------------------

    def wait(self, thread: Thread, target: int, timeout: float) -> dict[str, Any]:
        """Until the thread is indexed (and, with an embedding generation, embedded) up to
        ``target``, or ``timeout`` seconds pass. This thread's queued index jobs run here, now;
        jobs another worker holds are waited for."""
        started = time.perf_counter()
        deadline = started + timeout
        with self.app.connection() as conn:
            dense = active_generation(conn) is not None
        while True:
            try:
                run_thread(self.app, thread.id)
            except Exception as exc:  # the jobs went back with backoff; report, keep waiting
                log.warning("inline indexing of thread %s failed: %s", thread.id, exc)
            with self.app.connection() as conn:
                marks = watermarks(conn, thread.id)
            done = marks["indexed"] >= target and (not dense or marks["embedded"] >= target)
            left = deadline - time.perf_counter()
            if done or left <= 0:
                return {
                    "target": target,
                    "watermarks": marks,
                    "waited_ms": round((time.perf_counter() - started) * 1000, 2),
                    "timed_out": not done,
                }
            with self._changed:
                self._changed.wait(min(0.05, left))
