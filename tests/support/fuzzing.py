"""Schema-driven fuzzing of a live ctxd: schemathesis generates requests from /openapi.json.

Every operation gets up to ``examples`` generated requests per key and generation mode (valid
data, and data that breaks the schema), sent over one keep-alive HTTP session to a real server on
loopback. With ``seconds``, the run is bounded by time instead: each operation, key and mode gets
an equal slice of it (and still at most ``examples``), so every operation is reached however slow
the machine.
A finding is any 5xx, a 4xx whose body is not a JSON error (``error`` and ``message``), a
request the server dropped, a response the schema does not document (status, content type, body
shape), or a request the schema allows that the server refuses (400, 413, 415, 422: what a
client generated from ``/openapi.json`` could send and still be turned away). ``fuzz_stateful``
runs schemathesis's state machine: sequences of calls that feed one answer's values (a block's
id) into the next request through the links schemathesis infers from the schema. Used by
``tests/ui/api/test_fuzz.py`` (a bounded run) and by ``bench/fuzz.py`` (a long one).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable
from hypothesis.stateful import run_state_machine_as_test
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks


@dataclass
class Finding:
    operation: str
    key: str
    status: int | None
    detail: str
    request: str
    #: what went wrong: "5xx", "4xx without a JSON error", "dropped", or the schemathesis
    #: failure's title ("Schema-valid request rejected", "Response violates schema", ...)
    kind: str = "5xx"

    def __str__(self) -> str:
        return (
            f"{self.operation} [{self.key}] -> {self.status}: {self.kind}: {self.detail}\n"
            f"    {self.request}"
        )


@dataclass
class Report:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    #: requests sent per operation label ("POST /api/store")
    operations: Counter[str] = field(default_factory=Counter)
    #: requests sent by the stateful phase (counted in ``requests`` too)
    stateful: int = 0

    def kinds(self) -> Counter[str]:
        """The findings by kind."""
        return Counter(f.kind for f in self.findings)

    def record(self, label: str, key: str, case: Any, response: Any) -> None:
        """Count one answered request and keep what is wrong with it, if anything."""
        self.requests += 1
        self.operations[label] += 1
        self.statuses[response.status_code] += 1
        problem = _check(response) or _conformance(case, response)
        if problem:
            kind, detail = problem
            self.findings.append(
                Finding(label, key, response.status_code, detail, _describe(case), kind)
            )


def _describe(case: Any) -> str:
    body = getattr(case, "body", None)
    shown = repr(body)[:300] if body is not None else ""
    return f"{case.method} {case.formatted_path} query={case.query!r} body={shown}"


def _check(response: Any) -> tuple[str, str] | None:
    if response.status_code >= 500:
        return "5xx", response.text[:300]
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            return "4xx without a JSON error", f"{response.text[:200]!r}"
        if not isinstance(body, dict) or not {"error", "message"} <= set(body):
            return "4xx without a JSON error", f"no error/message: {str(body)[:200]}"
    return None


CONFORMANCE = (
    checks.status_code_conformance,
    checks.response_schema_conformance,
    checks.content_type_conformance,
    # a request generated from the schema (positive mode) answered 400, 413, 415 or 422
    checks.positive_data_acceptance,
)


def _conformance(case: Any, response: Any) -> tuple[str, str] | None:
    """The response is one the OpenAPI schema documents (status, content type, body shape), and
    a request the schema allows was not refused: what a client generated from /openapi.json
    relies on."""
    try:
        case.validate_response(response, checks=list(CONFORMANCE))
    except (Exception, BaseExceptionGroup) as exc:  # schemathesis groups its failures
        failures = getattr(exc, "exceptions", None) or [exc]
        kind = str(getattr(failures[0], "title", None) or type(failures[0]).__name__)
        said = ""
        if response.status_code >= 400:
            with contextlib.suppress(ValueError, AttributeError):
                said = f" (the server said: {response.json().get('message')})"
        return kind, " ".join(str(exc).split())[:300] + said
    return None


def schema_operations(base_url: str) -> list[Any]:
    """The operations of the server's OpenAPI schema, as schemathesis sees them."""
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def fuzz(
    base_url: str,
    keys: dict[str, str],
    *,
    examples: int,
    seed: int = 0,
    modes: tuple[GenerationMode, ...] = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE),
    block_ids: tuple[str, ...] = (),
    seconds: float | None = None,
) -> Report:
    """Fuzz every operation of the server's schema with each key; return what happened.

    With ``block_ids`` (blocks the ``user`` key owns), the manage operation gets one more pass
    with that key: each generated body becomes an edit of a real block with the generated
    ``changes``, so they reach the write path instead of stopping at "no such block"."""
    report = Report()
    session = requests.Session()  # keep-alive: a dropped connection shows up as a finding
    operations = schema_operations(base_url)
    nothing: tuple[str, ...] = ()
    passes = [(op, key, examples, nothing) for op in operations for key in keys.items()]
    if block_ids and "user" in keys:
        edit = ("user", keys["user"])
        passes += [
            (op, edit, examples * 2, block_ids)
            for op in operations
            if op.method.upper() == "POST" and op.path == "/api/manage"
        ]
    share = None if seconds is None else seconds / (len(passes) * len(modes))
    for operation, key, count, ids in passes:
        for mode in modes:
            until = None if share is None else time.monotonic() + share
            _fuzz_one(report, session, base_url, operation, key, mode, count, seed, ids, until)
    return report


class SliceSpent(Exception):
    """An operation's slice of the time is spent: stops hypothesis drawing more cases (drawing
    a large body costs as much as sending it, so unsent draws would still eat the time)."""


def _fuzz_one(
    report: Report,
    session: requests.Session,
    base_url: str,
    operation: Any,
    key: tuple[str, str],
    mode: GenerationMode,
    examples: int,
    seed: int,
    block_ids: tuple[str, ...],
    until: float | None = None,
) -> None:
    key_name, token = key
    sent = 0

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        nonlocal sent
        if sent and until is not None and time.monotonic() > until:
            raise SliceSpent  # no shrink phase: hypothesis replays this draw once and stops
        sent += 1
        body = getattr(case, "body", None)
        if block_ids and isinstance(body, dict):  # the edit pass: generated changes, a real block
            changes = body.get("changes", body)
            ident = block_ids[report.requests % len(block_ids)]
            case.body = {"action": "update", "id": ident, "changes": changes}
        try:
            response = case.call(
                base_url=base_url,
                session=session,
                headers={"X-Context-Key": token},
                timeout=60,
            )
        except requests.RequestException as exc:
            report.requests += 1
            report.findings.append(
                Finding(operation.label, key_name, None, repr(exc), _describe(case), "dropped")
            )
            return
        report.record(operation.label, key_name, case, response)

    # Unsatisfiable: nothing to generate in this mode (no parameters)
    with contextlib.suppress(Unsatisfiable, SliceSpent):
        run()


class Dropped(Exception):
    """The server dropped a request of a sequence: recorded, and the sequence ends."""


def fuzz_stateful(
    base_url: str,
    key: tuple[str, str],
    *,
    seconds: float,
    seed: int = 0,
    report: Report | None = None,
    steps: int = 10,
) -> Report:
    """Sequences of calls with ``key`` for about ``seconds``: schemathesis's state machine
    follows the links it infers from the schema (a stored block's ``id`` into a get, an edit,
    a history, a delete), so requests reach real resources instead of stopping at "not found".
    Every answer is checked as in ``fuzz``. Runs of a few sequences each, with seeds from
    ``seed`` on, until the time is spent (a run stopped midway would not replay the same)."""
    report = report or Report()
    key_name, token = key
    session = requests.Session()
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")

    class Sequences(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {
                "base_url": base_url,
                "session": session,
                "headers": {"X-Context-Key": token},
                "timeout": 60,
            }

        def call(self, case: Any, **kwargs: Any) -> Any:
            try:
                return super().call(case, **kwargs)
            except requests.RequestException as exc:
                report.requests += 1
                report.stateful += 1
                label = case.operation.label
                report.findings.append(
                    Finding(label, key_name, None, repr(exc), _describe(case), "dropped")
                )
                raise Dropped from None

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            report.stateful += 1
            report.record(case.operation.label, key_name, case, response)

    settings_ = settings(
        max_examples=3,
        stateful_step_count=steps,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    until = time.monotonic() + seconds
    run = 0
    while time.monotonic() < until:
        Sequences._hypothesis_internal_use_seed = seed + run  # what hypothesis's @seed sets
        run += 1
        with contextlib.suppress(Dropped, Unsatisfiable):
            run_state_machine_as_test(Sequences, settings=settings_)
    return report
