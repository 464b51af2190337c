"""ctx's surfaces over HTTP: ``create_app`` builds the server; route plugins import the request
dependencies from here (``from ctx.ui import AppDep, PrincipalDep, AdminDep``)."""

from ctx.ui.api.deps import AdminDep, AppDep, PrincipalDep, get_admin, get_app, get_principal
from ctx.ui.app import create_app

__all__ = [
    "AdminDep",
    "AppDep",
    "PrincipalDep",
    "create_app",
    "get_admin",
    "get_app",
    "get_principal",
]
