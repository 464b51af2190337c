"""What plugins add to the workbench, through the ``register_web`` hook.

A plugin calls ``register(...)`` with any of:

- ``WebPage(router, nav=NavEntry(...))``: its own pages (a FastAPI ``APIRouter``; use
  ``ctx.ui``'s ``UserDep``/``AdminUserDep``, which check CSRF on changes, and ``render``), with an optional
  navigation entry;
- ``NavEntry(label, href)``: a navigation entry alone;
- ``TemplateDir(path)``: a folder searched before the built-in templates, so a file in it
  overrides the built-in one of the same name (``dashboard/index.html``, ``_layout.html``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fastapi import APIRouter

from ctx.core import PluginError


@dataclass(frozen=True)
class NavEntry:
    label: str
    href: str
    admin: bool = False  # shown to admin keys only
    order: int = 100  # the built-in entries use 10..90

    def __post_init__(self) -> None:
        if not self.label or not self.href.startswith("/") or self.href.startswith("//"):
            raise PluginError(f"a nav entry needs a label and a local path, not {self.href!r}")


@dataclass(frozen=True)
class WebPage:
    router: APIRouter
    nav: NavEntry | None = None


@dataclass(frozen=True)
class TemplateDir:
    path: Path

    def __post_init__(self) -> None:
        if not Path(self.path).is_dir():
            raise PluginError(f"template folder {self.path} does not exist")


@dataclass
class Extensions:
    pages: list[WebPage] = field(default_factory=list)
    nav: list[NavEntry] = field(default_factory=list)
    template_dirs: list[Path] = field(default_factory=list)


BUILTIN_NAV = [
    NavEntry("Dashboard", "/", order=10),
    NavEntry("Blocks", "/blocks", order=20),
    NavEntry("Ask", "/ask", order=30),
    NavEntry("Chat", "/chat", order=40),
    NavEntry("Graph", "/graph", order=50),
    NavEntry("Review", "/review", order=60),
    NavEntry("Eval", "/eval", order=70),
    NavEntry("Tenant", "/tenant", order=80),
    NavEntry("Admin", "/admin", admin=True, order=90),
]


def collect(registrations: list[tuple[str, tuple[object, ...]]]) -> Extensions:
    """The extensions plugins registered (plugin name, call arguments)."""
    ext = Extensions(nav=list(BUILTIN_NAV))
    for plugin, args in registrations:
        if len(args) != 1:
            raise PluginError(f"plugin {plugin} must call register(...) with one argument")
        item = args[0]
        if isinstance(item, WebPage):
            ext.pages.append(item)
            if item.nav is not None:
                ext.nav.append(item.nav)
        elif isinstance(item, NavEntry):
            ext.nav.append(item)
        elif isinstance(item, TemplateDir):
            ext.template_dirs.append(Path(item.path))
        else:
            raise PluginError(
                f"plugin {plugin} registered {type(item).__name__}; register_web takes "
                "WebPage, NavEntry or TemplateDir"
            )
    ext.nav.sort(key=lambda n: (n.order, n.label))
    return ext
