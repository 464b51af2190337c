"""OAuth 2.1 for remote MCP clients over real HTTP: a ctxd on loopback, driven by authlib's
client the way claude.ai, ChatGPT and Cursor drive it (discovery, dynamic registration, the
sign-in form, the code exchange with PKCE), and every way the flow must refuse."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from live import live_server

from ctx.core import App, access
from ctx.core.runtime import set_setting

REDIRECT = "http://127.0.0.1:33418/callback"
STATE = "state with spaces/&=?é"


class Form(HTMLParser):
    """The sign-in page: its form's action and fields, its alert, whether it has inline code."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.action = ""
        self.fields: dict[str, str] = {}
        self.alert = ""
        self.stylesheets: list[str] = []
        self.inline = False
        self._in_alert = False
        self.text = html
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if "style" in a or tag in ("script", "style") or any(k.startswith("on") for k in a):
            self.inline = True
        if tag == "link" and a.get("rel") == "stylesheet":
            self.stylesheets.append(a.get("href") or "")
        if tag == "form":
            self.action = a.get("action") or ""
        if tag == "input" and a.get("name"):
            self.fields[str(a["name"])] = a.get("value") or ""
        self._in_alert = a.get("role") == "alert"

    def handle_data(self, data: str) -> None:
        if self._in_alert:
            self.alert += data.strip()
            self._in_alert = False


@pytest.fixture
def base(app: App) -> Iterator[str]:
    with live_server(app) as url:
        yield url


@pytest.fixture
def api_key(keys: Any) -> str:
    return str(keys.make("alpha"))


def _register(base: str, **metadata: Any) -> httpx.Response:
    body = {
        "client_name": "Claude",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_method": "none",
        **metadata,
    }
    return httpx.post(f"{base}/register", json=body)


def _public_client(base: str) -> OAuth2Client:
    registered = _register(base)
    assert registered.status_code == 201, registered.text
    return OAuth2Client(
        client_id=registered.json()["client_id"],
        redirect_uri=REDIRECT,
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )


def _operator_client(app: App, redirect_uri: str = REDIRECT) -> OAuth2Client:
    """A public client added with ``ctx mcp add``."""
    with app.connection() as conn:
        added, _ = access.create_client(
            conn, name="Cursor", redirect_uris=[redirect_uri], public=True
        )
    return OAuth2Client(
        client_id=added.client_id,
        redirect_uri=redirect_uri,
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )


def _form(client: OAuth2Client, browser: httpx.Client, base: str, verifier: str) -> Form:
    """The user's browser opens the client's authorization URL: the sign-in form."""
    url, _ = client.create_authorization_url(
        f"{base}/authorize", state=STATE, code_verifier=verifier
    )
    page = browser.get(url)
    assert page.status_code == 200, page.text
    return Form(page.text)


def _post(browser: httpx.Client, form: Form, **data: str) -> httpx.Response:
    return browser.post(
        form.action, data={"form_token": form.fields["form_token"], **data}, follow_redirects=False
    )


def _sign_in(client: OAuth2Client, base: str, api_key: str, verifier: str) -> httpx.Response:
    """A fresh browser opens the form and posts the key; the answer to the post (not followed)."""
    with httpx.Client() as browser:
        return _post(browser, _form(client, browser, base, verifier), api_key=api_key)


def _query(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def _code(client: OAuth2Client, base: str, api_key: str, verifier: str) -> str:
    answer = _sign_in(client, base, api_key, verifier)
    assert answer.status_code == 303, answer.text
    return _query(answer.headers["location"])["code"]


def _token(client_id: str, code: str, verifier: str, **extra: str) -> httpx.Response:
    return httpx.post(
        extra.pop("url"),
        data={
            "grant_type": "authorization_code",
            "client_id": client_id,
            "code": code,
            "redirect_uri": REDIRECT,
            "code_verifier": verifier,
            **extra,
        },
    )


def _assert_oauth_error(response: httpx.Response, status: int, error: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == error and body["error_description"], body
    assert response.headers["cache-control"] == "no-store"


# -- discovery ------------------------------------------------------------------------------------


def test_discovery_documents(app: App, base: str) -> None:
    server = httpx.get(f"{base}/.well-known/oauth-authorization-server")
    assert server.status_code == 200
    meta = server.json()
    AuthorizationServerMetadata(meta).validate()
    assert meta["issuer"] == base
    assert meta["authorization_endpoint"] == f"{base}/authorize"
    assert meta["token_endpoint"] == f"{base}/token"
    assert meta["registration_endpoint"] == f"{base}/register"
    assert meta["response_types_supported"] == ["code"]
    assert meta["grant_types_supported"] == ["authorization_code"]  # no refresh: keys don't expire
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert set(meta["token_endpoint_auth_methods_supported"]) == {
        "none",
        "client_secret_post",
        "client_secret_basic",
    }
    assert server.headers["access-control-allow-origin"] == "*"
    # the documents name the request's Host: no shared cache may keep a forged one
    assert server.headers["cache-control"] == "no-store"
    for path in (
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ):
        resource = httpx.get(base + path)
        assert resource.status_code == 200
        assert resource.headers["cache-control"] == "no-store"
        assert resource.json()["resource"] == f"{base}/mcp"
        assert resource.json()["authorization_servers"] == [base]
    preflight = httpx.options(f"{base}/token")
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"


def test_a_public_url_overrides_the_request_address(app: App, base: str) -> None:
    set_setting(app, "server.public_url", "https://ctx.example.com/")
    meta = httpx.get(f"{base}/.well-known/oauth-authorization-server").json()
    assert meta["issuer"] == "https://ctx.example.com"
    assert meta["token_endpoint"] == "https://ctx.example.com/token"
    resource = httpx.get(f"{base}/.well-known/oauth-protected-resource/mcp").json()
    assert resource["resource"] == "https://ctx.example.com/mcp"


# -- the whole flow -------------------------------------------------------------------------------


def test_the_whole_flow_with_dynamic_registration(base: str, api_key: str) -> None:
    meta = httpx.get(f"{base}/.well-known/oauth-authorization-server").json()
    registered = _register(base)
    assert registered.status_code == 201
    assert registered.headers["cache-control"] == "no-store"
    info = registered.json()
    assert info["client_id"].startswith("ctx_") and "client_secret" not in info
    assert info["grant_types"] == ["authorization_code"]  # registered without refresh_token
    verifier = generate_token(48)
    with (
        OAuth2Client(
            client_id=info["client_id"],
            redirect_uri=REDIRECT,
            code_challenge_method="S256",
            token_endpoint_auth_method="none",
        ) as client,
        httpx.Client() as browser,
    ):
        url, state = client.create_authorization_url(
            meta["authorization_endpoint"], state=STATE, code_verifier=verifier
        )
        page = browser.get(url)
        assert page.status_code == 200
        assert page.headers["cache-control"] == "no-store"
        csp = page.headers["content-security-policy"]
        assert "form-action 'self' http://127.0.0.1:33418" in csp
        assert "script-src 'self'" in csp and "style-src 'self'" in csp
        assert "unsafe-inline" not in csp
        form = Form(page.text)
        assert not form.inline  # the CSP would block inline code and styles
        (css,) = form.stylesheets
        assert css.startswith(f"{base}/-/static/oauth/")
        style = browser.get(css)
        assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
        assert "Claude" in page.text and "127.0.0.1:33418" in page.text
        assert "registered itself" in page.text
        assert form.action == meta["authorization_endpoint"]
        answer = _post(browser, form, api_key=api_key)
        assert answer.status_code == 303
        location = answer.headers["location"]
        assert location.startswith(REDIRECT + "?")
        back = _query(location)
        assert back["state"] == STATE == state  # unchanged
        assert back["iss"] == base
        token = client.fetch_token(
            meta["token_endpoint"],
            authorization_response=location,
            state=state,
            code_verifier=verifier,
        )
        assert token["access_token"] == api_key and token["token_type"] == "Bearer"
        whoami = client.get(f"{base}/api/whoami")
        assert whoami.status_code == 200
        assert whoami.json()["name"] == "test-alpha"
        assert whoami.json()["home_scope"] == "alpha"


def test_the_token_response_is_not_cached(base: str, api_key: str) -> None:
    client = _public_client(base)
    verifier = generate_token(48)
    code = _code(client, base, api_key, verifier)
    answer = _token(str(client.client_id), code, verifier, url=f"{base}/token")
    assert answer.status_code == 200
    assert answer.json() == {"access_token": api_key, "token_type": "Bearer"}
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["pragma"] == "no-cache"


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_a_confidential_client_added_by_the_operator(
    app: App, base: str, api_key: str, method: str
) -> None:
    with app.connection() as conn:
        added, secret = access.create_client(
            conn, name="Cursor", redirect_uris=[REDIRECT], public=False
        )
    verifier = generate_token(48)
    with OAuth2Client(
        client_id=added.client_id,
        client_secret=secret,
        redirect_uri=REDIRECT,
        code_challenge_method="S256",
        token_endpoint_auth_method=method,
    ) as client:
        with httpx.Client() as browser:
            form = _form(client, browser, base, verifier)
            assert "added by the operator" in form.text
            answer = _post(browser, form, api_key=api_key)
        token = client.fetch_token(
            f"{base}/token",
            authorization_response=answer.headers["location"],
            code_verifier=verifier,
        )
        assert token["access_token"] == api_key
    # the same code flow with a wrong secret is invalid_client
    with OAuth2Client(
        client_id=added.client_id,
        client_secret="wrong",
        redirect_uri=REDIRECT,
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
    ) as client:
        code = _code(client, base, api_key, verifier)
    basic = base64.b64encode(f"{added.client_id}:wrong".encode()).decode()
    refused = httpx.post(
        f"{base}/token",
        headers={"authorization": f"Basic {basic}"},
        data={"grant_type": "authorization_code", "code": code, "code_verifier": verifier},
    )
    _assert_oauth_error(refused, 401, "invalid_client")
    assert refused.headers["www-authenticate"].startswith("Basic")


# -- the token endpoint refuses -------------------------------------------------------------------


def test_wrong_verifier_reused_and_expired_codes(app: App, base: str, api_key: str) -> None:
    client = _public_client(base)
    client_id, token_url = str(client.client_id), f"{base}/token"
    verifier = generate_token(48)

    code = _code(client, base, api_key, verifier)
    wrong = _token(client_id, code, generate_token(48), url=token_url)
    _assert_oauth_error(wrong, 400, "invalid_grant")
    assert "code_verifier" in wrong.json()["error_description"]
    _assert_oauth_error(_token(client_id, code, verifier, url=token_url), 400, "invalid_grant")

    code = _code(client, base, api_key, verifier)
    assert _token(client_id, code, verifier, url=token_url).status_code == 200
    reused = _token(client_id, code, verifier, url=token_url)
    _assert_oauth_error(reused, 400, "invalid_grant")
    assert "already used" in reused.json()["error_description"]

    code = _code(client, base, api_key, verifier)
    with app.connection() as conn:
        conn.execute("UPDATE context_oauth_codes SET expires_at = now() - interval '1 second'")
    expired = _token(client_id, code, verifier, url=token_url)
    _assert_oauth_error(expired, 400, "invalid_grant")
    assert "expired" in expired.json()["error_description"]

    code = _code(client, base, api_key, verifier)
    _assert_oauth_error(
        _token(client_id, code, verifier, url=token_url, redirect_uri="http://127.0.0.1:1/x"),
        400,
        "invalid_grant",
    )
    missing = _token(client_id, _code(client, base, api_key, verifier), "", url=token_url)
    _assert_oauth_error(missing, 400, "invalid_request")
    assert "code_verifier is required" in missing.json()["error_description"]


@pytest.mark.parametrize(
    ("request_kwargs", "status", "error"),
    [
        (
            {"data": {"grant_type": "refresh_token", "refresh_token": "x"}},
            400,
            "unsupported_grant_type",
        ),
        ({"data": {"code": "x"}}, 400, "invalid_request"),
        ({"json": {"grant_type": "authorization_code"}}, 400, "invalid_request"),
        (
            {
                "content": b"grant_type=authorization_code&grant_type=x",
                "headers": {"content-type": "application/x-www-form-urlencoded"},
            },
            400,
            "invalid_request",
        ),
        (
            {
                "content": b"\xff\xfe",
                "headers": {"content-type": "application/x-www-form-urlencoded"},
            },
            400,
            "invalid_request",
        ),
        ({"data": {"grant_type": "authorization_code", "code": "x"}}, 401, "invalid_client"),
        (
            {
                "data": {
                    "grant_type": "authorization_code",
                    "client_id": "ctx_nobody_000000000",
                    "code": "x",
                }
            },
            401,
            "invalid_client",
        ),
        (
            {
                "data": {"grant_type": "authorization_code"},
                "headers": {"authorization": "Basic !!!"},
            },
            401,
            "invalid_client",
        ),
        # a NUL in the client id, raw or percent-encoded, made psycopg fail (HTTP 500)
        (
            {
                "data": {"grant_type": "authorization_code", "code": "x"},
                "headers": {"authorization": "Basic " + base64.b64encode(b"ctx_\x00:x").decode()},
            },
            401,
            "invalid_client",
        ),
        (
            {
                "data": {"grant_type": "authorization_code", "code": "x"},
                "headers": {"authorization": "Basic " + base64.b64encode(b"ctx_%00:x").decode()},
            },
            401,
            "invalid_client",
        ),
        (
            {
                "data": {"grant_type": "authorization_code", "code": "x"},
                "headers": {"authorization": "Basic " + base64.b64encode(b"ctx_a:%01").decode()},
            },
            401,
            "invalid_client",
        ),
    ],
)
def test_the_token_endpoint_answers_rfc_errors_never_a_500(
    base: str, request_kwargs: dict[str, Any], status: int, error: str
) -> None:
    _assert_oauth_error(httpx.post(f"{base}/token", **request_kwargs), status, error)


# -- /authorize refuses ---------------------------------------------------------------------------


def _authorize(base: str, **params: str) -> httpx.Response:
    return httpx.get(f"{base}/authorize", params=params, follow_redirects=False)


def test_unknown_clients_and_unregistered_redirects_get_a_page_not_a_redirect(
    base: str,
) -> None:
    client_id = str(_public_client(base).client_id)
    challenge = create_s256_code_challenge(generate_token(48))
    good = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": "x",
    }
    for change in (
        {"redirect_uri": "https://evil.example/steal"},
        {"redirect_uri": "http://127.0.0.1:33418/callback/../evil"},
        {"client_id": "ctx_unknown_client_00000"},
        {"client_id": ""},
    ):
        answer = _authorize(base, **{**good, **change})
        assert answer.status_code == 400, change
        assert "location" not in answer.headers
        assert answer.headers["content-type"].startswith("text/html")
        assert "Nothing was shared" in answer.text
        assert "evil.example" not in answer.text
    # control characters: a NUL is refused before /authorize (HTTP 422), others are an unknown
    # client; never a 500, never a redirect
    for change, status in (
        ({"client_id": "ctx_\x00"}, 422),
        ({"state": "a\x00"}, 422),
        ({"client_id": "ctx_\x01abc"}, 400),
        ({"client_id": "ctx_\x7f"}, 400),
    ):
        answer = _authorize(base, **{**good, **change})
        assert answer.status_code == status and "location" not in answer.headers, change


BAD_REQUESTS = [
    ({"code_challenge_method": "plain"}, "S256"),
    ({"code_challenge": None, "code_challenge_method": None}, "code_challenge is required"),
    ({"response_type": "token"}, "response_type"),
]


def _bad_request(
    client_id: str, redirect_uri: str, change: dict[str, str | None]
) -> dict[str, str]:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "code_challenge": create_s256_code_challenge(generate_token(48)),
        "code_challenge_method": "S256",
        "state": STATE,
        **change,
    }
    return {k: v for k, v in params.items() if v is not None}


@pytest.mark.parametrize(("change", "says"), BAD_REQUESTS)
def test_bad_requests_of_an_operator_client_go_back_as_errors(
    app: App, base: str, change: dict[str, str | None], says: str
) -> None:
    client_id = str(_operator_client(app).client_id)
    answer = _authorize(base, **_bad_request(client_id, REDIRECT, change))
    assert answer.status_code == 303
    back = _query(answer.headers["location"])
    assert answer.headers["location"].startswith(REDIRECT + "?")
    assert back["error"] in ("invalid_request", "unsupported_response_type")
    assert says in back["error_description"]
    assert back["state"] == STATE and "code" not in back


@pytest.mark.parametrize(("change", "says"), BAD_REQUESTS)
def test_bad_requests_of_a_self_registered_client_get_a_page_not_a_redirect(
    base: str, change: dict[str, str | None], says: str
) -> None:
    # Anyone may register https://evil.example/phish: redirecting there before the user acted
    # would make /authorize an open redirector (RFC 9700 section 4.11.2).
    phish = "https://evil.example/phish"
    registered = _register(base, redirect_uris=[phish])
    assert registered.status_code == 201, registered.text
    answer = _authorize(base, **_bad_request(registered.json()["client_id"], phish, change))
    assert answer.status_code == 400
    assert "location" not in answer.headers
    assert answer.headers["content-type"].startswith("text/html")
    assert says in answer.text and "Nothing was shared" in answer.text


def test_a_stored_redirect_uri_never_injects_into_the_csp(app: App, base: str) -> None:
    # one registered before hosts were checked: the page's CSP must stay one policy
    injected = "https://a.example;sandbox;report-uri=https:/x/cb"
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_oauth_clients (client_id, name, redirect_uris, registered_by) "
            "VALUES ('ctx_old_client_000000', 'Old', %s, 'cli')",
            ([injected],),
        )
    client = OAuth2Client(
        client_id="ctx_old_client_000000",
        redirect_uri=injected,
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )
    with client, httpx.Client() as browser:
        url, _ = client.create_authorization_url(
            f"{base}/authorize", state=STATE, code_verifier=generate_token(48)
        )
        page = browser.get(url)
    assert page.status_code == 200, page.text
    csp = page.headers["content-security-policy"]
    assert "sandbox" not in csp and "report-uri" not in csp
    assert csp.endswith("form-action 'self'")


def test_a_wrong_api_key_shows_the_form_again(base: str, api_key: str) -> None:
    verifier = generate_token(48)
    with _public_client(base) as client, httpx.Client() as browser:
        first = _form(client, browser, base, verifier)
        answer = _post(browser, first, api_key="ctx_wrong_key")
        assert answer.status_code == 400
        assert "location" not in answer.headers
        form = Form(answer.text)
        assert "not accepted" in form.alert
        assert form.fields["form_token"] != first.fields["form_token"]
        assert _post(browser, first, api_key=api_key).status_code == 400  # spent
        retry = _post(browser, form, api_key=api_key)
        assert retry.status_code == 303 and "code" in _query(retry.headers["location"])


def test_wrong_keys_are_throttled_per_address_without_locking_out_the_user(
    app: App, base: str, api_key: str
) -> None:
    set_setting(app, "limits.key_guesses_per_minute", 3)
    verifier = generate_token(48)
    with _public_client(base) as client, httpx.Client() as browser:
        form = _form(client, browser, base, verifier)
        for _ in range(3):
            answer = _post(browser, form, api_key="ctx_wrong_key")
            assert answer.status_code == 400
            form = Form(answer.text)
        # over the limit: every key from this address is refused, the right one too, on a page
        # that says why and brings the form back
        throttled = _post(browser, form, api_key=api_key)
        assert throttled.status_code == 429 and "location" not in throttled.headers
        assert int(throttled.headers["retry-after"]) >= 1
        form = Form(throttled.text)
        assert "Too many wrong API keys" in form.alert and form.fields["form_token"]
        # another address is not held back by this one's guesses
        elsewhere = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=elsewhere) as other:
            signed_in = _post(other, _form(client, other, base, verifier), api_key=api_key)
            assert signed_in.status_code == 303, signed_in.text
        # once the minute has passed (the counts moved back), the right key works here again
        with app.connection() as conn:
            conn.execute(
                "UPDATE context_rate_counts SET window_start = window_start - interval '2 minutes'"
            )
        answer = _post(browser, form, api_key=api_key)
        assert answer.status_code == 303 and "code" in _query(answer.headers["location"])


def _cookie(token: str) -> str:
    """The name of a form's cookie (one per open form)."""
    return "ctx_oauth_form_" + hashlib.sha256(token.encode()).hexdigest()[:16]


def test_two_sign_ins_at_once_in_one_browser_both_go_through(base: str, api_key: str) -> None:
    with _public_client(base) as client, httpx.Client() as browser:
        first = _form(client, browser, base, generate_token(48))
        second = _form(client, browser, base, generate_token(48))  # a second tab
        for form in (second, first):
            answer = _post(browser, form, api_key=api_key)
            assert answer.status_code == 303 and "code" in _query(answer.headers["location"])


def test_the_form_is_protected_against_cross_site_posts(base: str, api_key: str) -> None:
    verifier = generate_token(48)
    with _public_client(base) as client, httpx.Client() as browser:
        form = _form(client, browser, base, verifier)
        token = form.fields["form_token"]
        # another browser (no cookie) posting a real token: refused, and the token survives
        stranger = httpx.post(
            form.action, data={"form_token": token, "api_key": api_key}, follow_redirects=False
        )
        assert stranger.status_code == 400 and "location" not in stranger.headers
        assert "not opened in this browser" in Form(stranger.text).alert
        # a forged token with a matching cookie: refused
        forged = httpx.post(
            form.action,
            data={"form_token": "forged", "api_key": api_key},
            cookies={_cookie("forged"): "forged"},
            follow_redirects=False,
        )
        assert forged.status_code == 400 and "location" not in forged.headers
        # the real browser goes through once; a replay of its token is refused
        data = {"form_token": token, "api_key": api_key}
        assert _post(browser, form, api_key=api_key).status_code == 303
        replay = httpx.post(
            form.action, data=data, cookies={_cookie(token): token}, follow_redirects=False
        )
        assert replay.status_code == 400 and "already used" in Form(replay.text).alert


def test_cancel_sends_access_denied(base: str) -> None:
    with _public_client(base) as client, httpx.Client() as browser:
        answer = _post(browser, _form(client, browser, base, generate_token(48)), decision="deny")
    assert answer.status_code == 303
    back = _query(answer.headers["location"])
    assert back["error"] == "access_denied" and back["state"] == STATE and "code" not in back


# -- registration ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metadata", "error"),
    [
        ({"redirect_uris": ["javascript:alert(document.cookie)"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["data:text/html,<script>x</script>"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["http://evil.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://ok.example/cb#x"]}, "invalid_redirect_uri"),
        (
            {"redirect_uris": ["https://a.example;sandbox;report-uri=https:/x/cb"]},
            "invalid_redirect_uri",
        ),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        ({"token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata"),
    ],
)
def test_registration_refuses_unsafe_metadata(
    app: App, base: str, metadata: dict[str, Any], error: str
) -> None:
    _assert_oauth_error(_register(base, **metadata), 400, error)
    with app.connection() as conn:
        assert access.list_clients(conn) == []


def test_registration_needs_a_json_object(base: str) -> None:
    for kwargs in (
        {"data": {"redirect_uris": REDIRECT}},
        {"content": b"{", "headers": {"content-type": "application/json"}},
        {"json": [1]},
    ):
        _assert_oauth_error(
            httpx.post(f"{base}/register", **kwargs), 400, "invalid_client_metadata"
        )


def test_registration_can_be_turned_off(app: App, base: str) -> None:
    set_setting(app, "oauth.dynamic_registration", False)
    answer = _register(base)
    _assert_oauth_error(answer, 403, "access_denied")
    assert "ctx mcp add" in answer.json()["error_description"]
    meta = httpx.get(f"{base}/.well-known/oauth-authorization-server").json()
    assert "registration_endpoint" not in meta


def test_registration_is_rate_limited(app: App, base: str) -> None:
    set_setting(app, "oauth.registrations_per_hour", 2)
    assert [_register(base).status_code for _ in range(2)] == [201, 201]
    limited = _register(base)
    _assert_oauth_error(limited, 429, "too_many_requests")
    assert limited.headers["retry-after"] == "3600"
    with app.connection() as conn:
        clients = access.list_clients(conn)
    assert len(clients) == 2 and {c["remote_addr"] for c in clients} == {"127.0.0.1"}


# -- the admin's list -----------------------------------------------------------------------------


def test_the_admin_lists_and_removes_clients(base: str, keys: Any) -> None:
    client_id = str(_public_client(base).client_id)
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    user = {"X-Context-Key": keys.make("alpha")}
    assert httpx.get(f"{base}/api/oauth/clients", headers=user).status_code == 403
    assert httpx.get(f"{base}/api/oauth/clients").status_code == 401
    listed = httpx.get(f"{base}/api/oauth/clients", headers=admin)
    assert listed.status_code == 200
    (only,) = listed.json()["clients"]
    assert only["client_id"] == client_id and only["registered_by"] == "dynamic"
    assert not [field for field in only if "secret" in field]
    gone = httpx.delete(f"{base}/api/oauth/clients/{client_id}", headers=admin)
    assert gone.json() == {"client_id": client_id, "removed": True}
    assert httpx.delete(f"{base}/api/oauth/clients/{client_id}", headers=admin).status_code == 404
