"""Error answers for people: pages where the API answers JSON.

A request is a page request unless its path belongs to a machine surface (the REST API, the
gateway, MCP, OAuth, static files). The API's error handlers ask ``ErrorPages.handles`` first,
so an unknown API path stays a JSON 404/405 and an unknown page is a 404 page. A page whose
session is missing sends the browser to the sign-in page, coming back afterwards.
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from ctx.ui.web.deps import SignInRequired
from ctx.ui.web.render import pages

MACHINE_PREFIXES = (
    "/api/",
    "/v1/",
    "/mcp",
    "/oauth",
    "/.well-known/",
    "/-/",
    "/static/",
    "/openapi.json",
    "/token",
    "/register",
    "/authorize",
    "/health",
    "/docs",
)
TITLES = {
    400: "Bad request",
    401: "Sign in needed",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed here",
    409: "Conflict",
    413: "Too large",
    422: "Invalid input",
    429: "Too many requests",
    502: "Model unavailable",
    503: "Unavailable",
    504: "Model timed out",
    507: "Storage full",
}


def is_page(path: str) -> bool:
    return path != "/api" and not path.startswith(MACHINE_PREFIXES)


class ErrorPages:
    """Consulted by the API's error handlers (``app.state.error_pages``)."""

    def handles(self, request: Request) -> bool:
        return is_page(request.url.path)

    def respond(self, request: Request, status: int, message: str) -> Response:
        if status == 401:
            return sign_in_redirect(request)
        headers = {}
        if request.headers.get("hx-request") == "true":
            # a failed partial swap shows the error where the page's content goes
            headers = {"HX-Retarget": "#main", "HX-Reswap": "innerHTML"}
        return pages(request).render(
            request,
            "errors/error.html",
            {"status": status, "title": TITLES.get(status, "Error"), "message": message},
            status=status,
            headers=headers,
        )


def sign_in_redirect(request: Request) -> Response:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    if request.method != "GET":  # a form posted after the session ended: start over at home
        here = "/"
    target = "/signin" if here in ("/", "/signin") else f"/signin?next={quote(here, safe='/')}"
    if request.headers.get("hx-request") == "true":
        return Response(status_code=200, headers={"HX-Redirect": target})
    return RedirectResponse(target, status_code=303)


def install(server: FastAPI) -> None:
    server.state.error_pages = ErrorPages()

    @server.exception_handler(SignInRequired)
    async def signin_required(request: Request, exc: SignInRequired) -> Response:
        if not is_page(request.url.path):  # a web endpoint under a machine prefix: JSON 401
            return JSONResponse({"error": "unauthorized", "message": "not signed in"}, 401)
        return sign_in_redirect(request)
