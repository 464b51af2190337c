"""ctx's surfaces over HTTP: ``create_app`` builds the server; route plugins import the request
dependencies from here (``from ctx.ui import AppDep, PrincipalDep, AdminDep``), the error body
their routes document (``ErrorBody``, ``error_response``), and what workbench pages need (``WebPage``, ``NavEntry``,
``TemplateDir``, ``UserDep``, ``AdminUserDep``, ``WebAppDep``, ``render``, ``to_html``)."""

from ctx.ui.api.deps import AdminDep, AppDep, PrincipalDep, get_admin, get_app, get_principal
from ctx.ui.api.errors import ErrorBody, error_response
from ctx.ui.app import create_app
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
    "TemplateDir",
    "UserDep",
    "WebAppDep",
    "WebPage",
    "create_app",
    "error_response",
    "get_admin",
    "get_app",
    "get_principal",
    "render",
    "swaps_region",
    "to_html",
]
