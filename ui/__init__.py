"""ctx's surfaces: the REST API, the command line, MCP, the web workbench, the OpenAI-compatible
gateway and OAuth, each a package here; ``create_app`` builds the HTTP server.

Plugins import from here what their surfaces need: request dependencies of routes written by hand
(``AppDep``, ``PrincipalDep``, ``AdminDep``), the error body they document (``ErrorBody``,
``error_response``), workbench pages (``WebPage``, ``NavEntry``, ``TemplateDir``, ``UserDep``,
``AdminUserDep``, ``WebAppDep``, ``render``, ``to_html``, ``swaps_region``) and command-line
presentation (``presents``, ``RateColumn``). Names are imported on first use (``ctx.core.lazy``): a
command that talks to ctxd does not load the web framework by importing this package.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.ui.api.deps import AdminDep, AppDep, PrincipalDep, get_admin, get_app, get_principal
    from ctx.ui.api.errors import ErrorBody, error_response
    from ctx.ui.app import create_app
    from ctx.ui.cli.common import RateColumn
    from ctx.ui.cli.present import local, presents
    from ctx.ui.web import (
        AdminUserDep,
        NavEntry,
        TemplateDir,
        UserDep,
        WebAppDep,
        WebPage,
        render,
        swaps_region,
        to_html,
    )

__all__ = [
    "AdminDep",
    "AdminUserDep",
    "AppDep",
    "ErrorBody",
    "NavEntry",
    "PrincipalDep",
    "RateColumn",
    "TemplateDir",
    "UserDep",
    "WebAppDep",
    "WebPage",
    "create_app",
    "error_response",
    "get_admin",
    "get_app",
    "get_principal",
    "local",
    "presents",
    "render",
    "swaps_region",
    "to_html",
]

# Imported on first use (see ctx.core.lazy).
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
