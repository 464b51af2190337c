"""The temporal rule tests' parser with both languages (helpers: tests/support/temporal_nows.py)."""

from __future__ import annotations

import pytest

from ctx.core.runtime import PluginHost
from ctx.core.temporal import TemporalParser, parser_from_host


@pytest.fixture(scope="session")
def bilingual() -> TemporalParser:
    return parser_from_host(PluginHost(("temporal-en", "temporal-de"), load_entry_points=False))
