from __future__ import annotations

from typing import Any

from ctx.core import App
from ctx.core.access import authenticate
from ctx.core.tools import call_tool


def test_an_agent_files_and_triages(app: App, keys: Any) -> None:
    with app.connection() as conn:
        who = authenticate(conn, keys.make("repo-a"))
    out = call_tool(app, who, "issue_create", {"title": "Flaky test", "labels": ["ci"]})
    assert out.error is None, out.error
    assert out.result["number"] == 1
    assert call_tool(app, who, "issue_comment", {"number": 1, "body": "Retry helps"}).error is None
    assert call_tool(app, who, "issue_close", {"number": 1, "reason": "completed"}).error is None
    shown = call_tool(app, who, "issue_show", {"number": 1}).result
    assert shown["state"] == "closed" and len(shown["comments"]) == 1
    listed = call_tool(app, who, "issue_list", {"state": "closed"}).result
    assert [i["number"] for i in listed["issues"]] == [1]
    missing = call_tool(app, who, "issue_show", {"number": 5})
    assert missing.code == "not_found" and "#5" in (missing.error or "")
    assert call_tool(app, who, "issue_suggest", {"title": "Flaky test"}).error is None
