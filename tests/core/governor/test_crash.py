"""kill -9 between store and index: the outbox holds the work; a new process indexes every
event and nothing is lost or doubled."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from ctx.core import App
from ctx.core.runtime import drain

CHILD = """
import os, signal
from pathlib import Path
from ctx.core import App, Principal
from ctx.core.governor import CommitRequest
who = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
app = App(database_url={url!r}, home=Path({home!r}), load_entry_points=False,
          environ={{"CTX_GOVERNOR_INDEXERS": "0"}}).open()
for i in range(20):
    app.governor.commit(who, CommitRequest.model_validate(
        {{"thread": {{"session_id": "c"}}, "event": {{"content": f"event {{i}} before the crash"}}}}))
print("recorded", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_events_recorded_before_a_kill_are_indexed_after_it(
    database_url: str, tmp_path: Path
) -> None:
    code = CHILD.format(url=database_url, home=str(tmp_path / "child"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL and "recorded" in proc.stdout, proc.stderr
    with App(database_url=database_url, home=tmp_path / "after", load_entry_points=False) as app:
        with app.connection() as conn:
            row = conn.execute(
                "SELECT count(*) AS events, count(indexed_at) AS indexed FROM context_thread_events"
            ).fetchone()
        assert row == {"events": 20, "indexed": 0}
        assert drain(app, "governor.index") == 20
        with app.connection() as conn:
            row = conn.execute(
                "SELECT count(*) AS events, count(indexed_at) AS indexed, "
                "count(embedded_at) AS embedded, "
                "(SELECT count(*) FROM context_blocks WHERE block_type = 'event') AS records, "
                "(SELECT count(*) FROM context_jobs WHERE kind = 'governor.index') AS jobs "
                "FROM context_thread_events"
            ).fetchone()
        assert row == {"events": 20, "indexed": 20, "embedded": 20, "records": 20, "jobs": 0}
