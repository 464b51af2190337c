"""A bounded schemathesis run against a live server: no 5xx, and a JSON error on every 4xx.

Fixed seed, so a failure reproduces; bounded by time (``CTX_FUZZ_SECONDS``, default 40), shared
out so every operation, key and mode gets its slice; ``bench/fuzz.py`` runs the same engine much
longer.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from fuzzing import fuzz, schema_operations
from live import live_server

from ctx.core import App, Principal, StoreRequest, store_block
from ctx.core.runtime import set_setting

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

EXAMPLES = 15  # at most, per operation, key and mode; bench/fuzz.py runs the long form (500)
SECONDS = float(os.environ.get("CTX_FUZZ_SECONDS", "40"))


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
            seconds=SECONDS,
        )
        operations = {o.label for o in schema_operations(url)}
    assert set(report.operations) == operations  # every operation was exercised
    assert report.requests > len(operations) * 2
    assert len(report.statuses) > 2  # successes and refusals both happened
    assert not report.findings, "\n".join(str(f) for f in report.findings[:20])
