"""Schema-driven fuzzing of a live ctxd: schemathesis generates requests from /openapi.json.

Every operation gets up to ``examples`` generated requests per key and generation mode (valid
data, and data that breaks the schema), sent over one keep-alive HTTP session to a real server on
loopback. With ``seconds``, the run is bounded by time instead: each operation, key and mode gets
an equal slice of it (and still at most ``examples``), so every operation is reached however slow
the machine.
A finding is any 5xx, a 4xx whose body is not a JSON error (``error`` and ``message``), or a
request the server dropped. Used by ``tests/ui/api/test_fuzz.py`` (a bounded run) and by
``bench/fuzz.py`` (a long one).
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
from schemathesis import GenerationMode
from schemathesis.specs.openapi import checks


@dataclass
class Finding:
    operation: str
    key: str
    status: int | None
    detail: str
    request: str

    def __str__(self) -> str:
        return f"{self.operation} [{self.key}] -> {self.status}: {self.detail}\n    {self.request}"


@dataclass
class Report:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    #: requests sent per operation label ("POST /api/store")
    operations: Counter[str] = field(default_factory=Counter)


def _describe(case: Any) -> str:
    body = getattr(case, "body", None)
    shown = repr(body)[:300] if body is not None else ""
    return f"{case.method} {case.formatted_path} query={case.query!r} body={shown}"


def _check(response: requests.Response) -> str | None:
    if response.status_code >= 500:
        return response.text[:300]
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            return f"4xx without a JSON body: {response.text[:200]!r}"
        if not isinstance(body, dict) or not {"error", "message"} <= set(body):
            return f"4xx without error/message: {str(body)[:200]}"
    return None


CONFORMANCE = (
    checks.status_code_conformance,
    checks.response_schema_conformance,
    checks.content_type_conformance,
)


def _conformance(case: Any, response: requests.Response) -> str | None:
    """The response is one the OpenAPI schema documents: status, content type and body shape
    (what a client generated from /openapi.json relies on)."""
    try:
        case.validate_response(response, checks=list(CONFORMANCE))
    except (Exception, BaseExceptionGroup) as exc:  # schemathesis groups its failures
        return "schema conformance: " + " ".join(str(exc).split())[:400]
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
        report.requests += 1
        report.operations[operation.label] += 1
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
            report.findings.append(
                Finding(operation.label, key_name, None, repr(exc), _describe(case))
            )
            return
        report.statuses[response.status_code] += 1
        problem = _check(response) or _conformance(case, response)
        if problem:
            report.findings.append(
                Finding(operation.label, key_name, response.status_code, problem, _describe(case))
            )

    # Unsatisfiable: nothing to generate in this mode (no parameters)
    with contextlib.suppress(Unsatisfiable, SliceSpent):
        run()
