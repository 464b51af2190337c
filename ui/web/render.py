"""Rendering pages: one Jinja environment per server, the layout chosen by ``HX-Request``.

A page template extends ``base``: the whole ``_layout.html`` for a plain request (and for an
htmx history restore), ``_fragment.html`` for an htmx request (the title, the main content and
the navigation as an out-of-band swap). Partials (``_name.html``) render alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ctx.ui.version import VERSION
from ctx.ui.web.extend import Extensions
from ctx.ui.web.markdown import to_html

# resolved: a strict editable install links each file, so a template added later is found too
HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
STATIC_URL = "/static"


def swaps_region(request: Request, region: str) -> bool:
    """True for an htmx request that swaps ``#region`` alone (not a history restore): the page
    answers with that region's partial instead of the whole page."""
    headers = request.headers
    return (
        headers.get("hx-request") == "true"
        and headers.get("hx-history-restore-request") != "true"
        and headers.get("hx-target") == region
    )


def _as_datetime(value: datetime | str | None) -> datetime | str | None:
    """A datetime (naive ones taken as UTC), the text itself when it is no timestamp, or None."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return value
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _when(value: datetime | str | None) -> str:
    """A timestamp as people read it: '2 Dec 2026 06:40 UTC'."""
    at = _as_datetime(value)
    if not isinstance(at, datetime):
        return at or ""
    return at.astimezone(UTC).strftime("%-d %b %Y %H:%M") + " UTC"


def _ago(value: datetime | str | None) -> str:
    """How long ago: '5 min ago', '3 h ago', '12 days ago'."""
    at = _as_datetime(value)
    if not isinstance(at, datetime):
        return at or ""
    seconds = max(0.0, (datetime.now(UTC) - at).total_seconds())
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} days ago"


def _short(value: object, n: int = 8) -> str:
    return str(value)[:n]


class Pages:
    """The workbench's templates and navigation for one server."""

    def __init__(self, ext: Extensions) -> None:
        loaders = [FileSystemLoader(str(d)) for d in ext.template_dirs]
        self.env = Environment(
            loader=ChoiceLoader([*loaders, FileSystemLoader(str(TEMPLATES))]),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
        )
        self.env.filters.update(markdown=to_html, when=_when, ago=_ago, short=_short)
        self.env.globals.update(static=self.static, version=VERSION)
        self.nav = ext.nav

    @staticmethod
    def static(path: str) -> str:
        # the version busts browser caches across upgrades; vendored files carry their own
        return f"{STATIC_URL}/{path}?v={VERSION}"

    def render(
        self,
        request: Request,
        name: str,
        context: dict[str, Any] | None = None,
        *,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> HTMLResponse:
        htmx = request.headers.get("hx-request") == "true"
        restore = request.headers.get("hx-history-restore-request") == "true"
        user = getattr(request.state, "user", None)
        path = request.url.path
        nav = [n for n in self.nav if user is not None and (not n.admin or user.is_admin)]
        active = next(
            (n.href for n in sorted(nav, key=lambda n: -len(n.href)) if _under(path, n.href)), ""
        )
        values: dict[str, Any] = {
            "request": request,
            "user": user,
            "csrf": getattr(request.state, "csrf", ""),
            "nav": nav,
            "active": active,
            "base": "_fragment.html" if htmx and not restore else "_layout.html",
            "htmx": htmx,
        }
        values.update(context or {})
        html = self.env.get_template(name).render(values)
        response = HTMLResponse(html, status_code=status, headers=headers)
        response.headers["vary"] = "HX-Request"
        response.headers["cache-control"] = "no-store"
        return response


def _under(path: str, href: str) -> bool:
    if href == "/":
        return path == "/"
    return path == href or path.startswith(href.rstrip("/") + "/")


def pages(request: Request) -> Pages:
    web: Pages = request.app.state.web
    return web


def render(
    request: Request,
    name: str,
    context: dict[str, Any] | None = None,
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    """Render template ``name`` for ``request`` (the layout follows ``HX-Request``)."""
    return pages(request).render(request, name, context, status=status, headers=headers)
