"""Plugins extend the workbench through ``register_web``: a page with a nav entry, a nav entry
alone, and a template folder overriding a built-in template."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.testclient import TestClient
from plugin_kit import registers
from web_kit import Browser, make_key

from ctx.core import App, PluginError
from ctx.ui import create_app
from ctx.ui.web import NavEntry, TemplateDir, UserDep, WebPage, render


def _page_router(folder: Path) -> APIRouter:
    router = APIRouter()

    @router.get("/reports")
    def reports(request: Request, who: UserDep) -> HTMLResponse:
        return render(request, "reports/index.html", {"home": who.home_scope})

    return router


def test_a_plugin_adds_a_page_a_nav_entry_and_a_template_override(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    (folder / "reports").mkdir(parents=True)
    (folder / "reports" / "index.html").write_text(
        "{% extends base %}{% block title %}Reports{% endblock %}"
        "{% block content %}<h1>Reports for {{ home }}</h1>{% endblock %}"
    )
    (folder / "errors").mkdir()
    (folder / "errors" / "error.html").write_text(
        "{% extends base %}{% block content %}<h1>Custom {{ status }}</h1>{% endblock %}"
    )
    page = WebPage(_page_router(folder), nav=NavEntry("Reports", "/reports", order=55))
    app.host.register(
        registers(
            "register_web", page, NavEntry("Ops", "/admin/llmlog", admin=True), TemplateDir(folder)
        ),
        "reports",
    )
    with TestClient(create_app(app), raise_server_exceptions=False) as client:
        b = Browser(client, make_key(app, "team"))
        b.sign_in()
        home = b.get("/")
        assert 'href="/reports"' in home.text  # the nav entry, between Graph and Review
        assert home.text.index('href="/graph"') < home.text.index('href="/reports"')
        assert home.text.index('href="/reports"') < home.text.index('href="/review"')
        assert 'href="/admin/llmlog"' not in home.text  # admin-only entry, plain key
        reports = b.get("/reports")
        assert reports.status_code == 200 and "<h1>Reports for team</h1>" in reports.text
        assert 'aria-current="page"' in reports.text
        assert "<!doctype" not in b.get("/reports", htmx=True).text
        assert "<h1>Custom 404</h1>" in b.get("/nothing-here").text  # the override wins


@pytest.mark.parametrize("item", ["a string", 42])
def test_registering_something_else_is_a_plugin_error(app: App, item: object) -> None:
    app.host.register(registers("register_web", item), "odd")
    with pytest.raises(PluginError, match="register_web takes"):
        create_app(app)


def test_a_nav_entry_must_be_a_local_path() -> None:
    with pytest.raises(PluginError):
        NavEntry("Evil", "https://evil.example/")
    with pytest.raises(PluginError):
        NavEntry("Evil", "//evil.example/")
