"""docs/agents.md lists every MCP tool a server with the built-in plugins offers, with its
annotations: it once listed 8 of 25, and nothing noticed."""

from __future__ import annotations

import re
from pathlib import Path

from ctx.core import App

DOC = Path(__file__).resolve().parents[1] / "docs" / "agents.md"
ROW = re.compile(r"^\| `([a-z_]+)` \|\s*([a-z, -]*?)\s*\| (.+) \|$")


def _documented() -> dict[str, str]:
    text = DOC.read_text()
    table = text[text.index("| tool | annotations | what it does |") :].split("\n\n")[0]
    rows = [ROW.match(line) for line in table.splitlines()[2:]]
    assert all(rows), "a row of the tool table is not `| `name` | annotations | what |`"
    return {m.group(1): m.group(2).strip() for m in rows if m}


def test_the_tool_table_lists_every_declared_tool_with_its_annotations(app: App) -> None:
    declared = {}
    for name, tool in app.tools.items():
        marks = [("read-only", tool.read_only), ("destructive", tool.destructive),
                 ("idempotent", tool.idempotent)]  # fmt: skip
        declared[name] = ", ".join(label for label, on in marks if on)
    assert _documented() == declared
