"""Sustained mixed load, the bounded form (issue 19): a real ``ctxd`` under four clients for 15 s.

The same driver as ``bench/load.py`` (tests/support/load_kit.py), shorter and with fewer clients:
store, query, search, MCP search and store and governor turns all run, none fails, and every
acknowledged block and event is in the database afterwards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cluster_kit import Fleet
from load_kit import OPERATIONS, Load, client_keys, lift_rate_limits, memory_summary, op_rows

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

SECONDS = 15
CLIENTS = 4


def test_mixed_load_loses_nothing_and_fails_nothing(database_url: str, tmp_path: Path) -> None:
    fleet = Fleet(database_url, tmp_path, {})
    admin = fleet.init()
    server = fleet.server("ctxd")
    try:
        fleet.wait_ready(server)
        lift_rate_limits(server.url, admin)
        tokens = client_keys(server.url, admin, CLIENTS)
        load = Load(server.url, tokens, database_url, ctxd_pid=server.popen.pid, sample_s=3)
        result = load.run(SECONDS)
    finally:
        codes = fleet.stop_all()

    rows = {row["op"]: row for row in op_rows(result)}
    problems = {op: row["messages"] for op, row in rows.items() if row["errors"]}
    assert result.errors == 0, problems
    assert result.lost_blocks == [] and result.lost_events == []
    assert set(rows) == set(OPERATIONS)
    assert all(rows[op]["count"] >= 3 for op in OPERATIONS), {
        o: r["count"] for o, r in rows.items()
    }
    # every block a store acknowledged and every governor event was counted and found
    assert result.stored == rows["store"]["count"] + rows["mcp.store"]["count"]
    assert result.events == rows["governor.prepare"]["count"] + rows["governor.commit"]["count"]
    # the sampler saw the server's memory and the database the whole time
    memory = memory_summary(result, window_s=10)
    assert memory["ctxd_mib"]["min"] > 0 and memory["db_mib"]["end"] >= memory["db_mib"]["start"]
    assert len(result.samples) >= 3  # at the start, during and at the end, however slow
    assert codes == {"ctxd": 0}, server.log_text()[-3000:]
