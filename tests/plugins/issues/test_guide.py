"""docs/issues.md says what the plugin does: the Guard thresholds an issue is checked at, and
that issues sync with GitHub (the guide once called the sync "not part of this release" and gave
the type row's 0.97 / 0.88 as the thresholds, which the embedder's calibration overrides)."""

from __future__ import annotations

import importlib
from pathlib import Path

from ctx.core import App
from ctx.core.embed import active_generation
from ctx.core.guard import thresholds_for
from ctx.plugins.embed.local_models import E5Embedder

GUIDE = Path(__file__).parents[3] / "docs" / "issues.md"


def _guide() -> str:
    return " ".join(GUIDE.read_text().split())


def test_the_guide_gives_the_thresholds_an_issue_is_checked_at(app: App) -> None:
    spec = app.block_type("issue")
    assert spec is not None and (spec.guard_duplicate, spec.guard_review) == (0.97, 0.88)
    with app.connection() as conn:
        generation = active_generation(conn)
        assert generation is not None
        used = thresholds_for(app, conn, spec, generation)
    assert used.source == "embedder"  # the calibrated embedder comes before the type row
    guide = _guide()
    assert "(0.97 duplicate, 0.88 review), but a check uses them only when nothing comes" in guide
    duplicate, review = E5Embedder.guard_thresholds
    assert f"an issue is checked at e5's {duplicate} / {review}" in guide


def test_the_guide_says_issues_sync_with_github() -> None:
    importlib.import_module("ctx.plugins.forge_github")
    guide = _guide()
    assert "not part of this release" not in guide
    assert "GitHub is the forge plugin `plugins/forge_github/`" in guide
