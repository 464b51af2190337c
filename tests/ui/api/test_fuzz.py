"""A bounded schemathesis run against a live server: no 5xx, a JSON error on every 4xx, every
answer as the schema documents it, and no request the schema allows refused.

Fixed seed, so a failure reproduces; bounded by time (``CTX_FUZZ_SECONDS``, default 20): most of
it shared out so every operation, key and mode gets its slice, the rest for the stateful phase
(sequences that feed one answer into the next request); ``bench/fuzz.py`` runs the same engine
much longer.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from fuzzing import fuzz, fuzz_stateful, schema_operations
from live import live_server

from ctx.core import App, Principal, StoreRequest, store_block
from ctx.core.runtime import set_setting

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

EXAMPLES = 15  # at most, per operation, key and mode; bench/fuzz.py runs the long form (500)
SECONDS = float(os.environ.get("CTX_FUZZ_SECONDS", "20"))
STATEFUL = 0.25  # of the time, for the stateful phase
#: Refusals of requests the schema allows that no schema states: they depend on what the server
#: holds (its block types, token counters, a document's text) or compare two fields. Every other
#: schema-valid request must be accepted. Keep this list short; each entry is a known gap.
STATEFUL_REFUSALS = (
    "unknown block_type",  # the block types are rows, changed at run time
    "unknown token counter",  # registered by plugins
    "unknown backend kind",  # registered by plugins
    "the document has no text",  # what a PDF or HTML page holds
    "unsupported document type",  # told by the file's bytes and name
    "must not be above duplicate",  # review <= duplicate: two fields compared
    "give exactly one of scope and block_id",  # a rule across query parameters
    "a GitHub repository is owner/name",  # the forge's own rule, picked by another field
    "type must be one of header, block, end",  # export records are lines of plugins' types
    "must be 1-255 printable characters",  # a file name's characters
    "sha256 does not match the data",  # a checksum of another field
    "candidate settings:",  # names and rules of the registered settings, plugins' included
)


def test_the_fuzzer_finds_nothing(app: App, keys: Any) -> None:
    # backends the fuzzer creates may only point at this machine: no request ever leaves it
    set_setting(app, "llm.allowed_hosts", ["127.0.0.0/8", "::1", "localhost"])
    # thousands of requests a minute per key: the rate limits (tested in test_limits.py) would
    # answer most of them with 429 and leave their input unexamined
    for kind in ("writes", "queries", "model_calls"):
        set_setting(app, f"limits.{kind}_per_minute", 0)
    admin = keys.make("default", admin=True)
    user = keys.make("alpha", allowed=["default"])
    owner = Principal(key_id="00000000-0000-0000-0000-0000000000f1", name="f", home_scope="alpha")
    ids = tuple(
        str(store_block(app, owner, StoreRequest(title=f"Note {i}", content=f"backup {i}"))["id"])
        for i in range(5)
    )
    with live_server(app) as url:
        report = fuzz(
            url,
            {"admin": admin, "user": user},
            examples=EXAMPLES,
            seed=7,
            block_ids=ids,
            seconds=SECONDS * (1 - STATEFUL),
        )
        before = report.requests
        fuzz_stateful(url, ("user", user), seconds=SECONDS * STATEFUL, seed=7, report=report)
        operations = {o.label for o in schema_operations(url)}
    assert set(report.operations) == operations  # every operation was exercised
    assert report.requests > len(operations) * 2
    assert len(report.statuses) > 2  # successes and refusals both happened
    assert report.stateful > 0 and report.requests > before  # the sequences ran
    found = [
        f for f in report.findings if not any(words in f.detail for words in STATEFUL_REFUSALS)
    ]
    assert not found, "\n".join(str(f) for f in found[:20])
