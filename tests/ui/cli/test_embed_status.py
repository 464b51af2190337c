"""``ctx embed status`` (``ctx.ui.cli.operator.embed``): the active generation's backlog in
words, with the rate and the time left once a worker has embedded."""

from __future__ import annotations

import re
from pathlib import Path

from ctxd import clean_env, ctx

from ctx.core import App, Principal, StoreRequest, blocks
from ctx.core.runtime import run_kind

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000c5", name="c", home_scope="cli")


def test_status_says_what_waits_at_what_rate_and_how_long(
    app: App, database_url: str, tmp_path: Path
) -> None:
    env = {**clean_env(tmp_path), "CTX_DATABASE_URL": database_url}
    for n in range(5):
        blocks.store_block(app, WHO, StoreRequest(title=f"Note {n}", content=f"fact {n}"))
    idle = ctx(env, "embed", "status")
    assert idle.returncode == 0, idle.stderr
    assert "5 blocks waiting for embedding; nothing was embedded in the last minute" in idle.stdout

    assert run_kind(app, app.job_handlers["embed"], 2) == 2
    busy = ctx(env, "embed", "status").stdout
    assert re.search(r"3 blocks waiting for embedding at [\d.]+/s, about \d+ s left", busy), busy
