"""OAuth for remote MCP clients, the mechanism: clients and their redirect URIs, the sign-in form,
single-use codes with PKCE (S256 only), and what the database holds (never a key in clear)."""

from __future__ import annotations

import hashlib
import secrets
import threading
from typing import Any

import pytest
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from cryptography.exceptions import InvalidTag

from ctx.core import App, NotFound, ValidationError, access
from ctx.core.access.oauth import unseal
from ctx.core.runtime import set_setting

REDIRECT = "https://claude.ai/api/mcp/auth_callback"


def _verifier() -> str:
    return secrets.token_urlsafe(48)


def _client(
    app: App, *, public: bool = True, uris: list[str] | None = None, registered_by: str = "cli"
) -> Any:
    with app.connection() as conn:
        return access.create_client(
            conn,
            name="Claude",
            redirect_uris=uris or [REDIRECT],
            public=public,
            registered_by=registered_by,
        )


def _params(client: access.OAuthClient, verifier: str, **extra: str) -> list[tuple[str, str]]:
    params = {
        "response_type": "code",
        "client_id": client.client_id,
        "redirect_uri": REDIRECT,
        "state": "s-1",
        "code_challenge": create_s256_code_challenge(verifier),
        "code_challenge_method": "S256",
        **extra,
    }
    return [(k, v) for k, v in params.items() if v != ""]


def _code(app: App, client: access.OAuthClient, key: str, verifier: str) -> str:
    with app.connection() as conn:
        request = access.check_authorization_request(conn, _params(client, verifier))
        token = access.open_form(conn, request)
    with app.connection() as conn:
        outcome = access.submit_form(conn, token, key)
    assert outcome.code is not None and outcome.retry_token is None
    return outcome.code


def _redeem(app: App, client: access.OAuthClient, code: str, verifier: str, **over: Any) -> str:
    with app.connection() as conn:
        return access.redeem_code(
            conn,
            client=client,
            code=code,
            redirect_uri=over.get("redirect_uri", REDIRECT),
            code_verifier=over.get("use_verifier", verifier),
        )


def _grant_error(app: App, *args: Any, **kwargs: Any) -> access.OAuthError:
    with pytest.raises(access.OAuthError) as err:
        _redeem(app, *args, **kwargs)
    return err.value


# -- redirect URIs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "uri",
    [
        REDIRECT,
        "https://chatgpt.com/connector_platform_oauth_redirect",
        "https://cursor.example/cb?x=1",
        "http://127.0.0.1:33418/callback",
        "http://localhost/cb",
        "http://[::1]:8080/cb",
        "https://xn--bcher-kva.example/cb",
        "https://Cursor.Example:8443/cb",
        "https://192.0.2.1/cb",
        "https://[2001:db8::1]:443/cb",
    ],
)
def test_acceptable_redirect_uris(uri: str) -> None:
    assert access.validate_redirect_uri(uri) == uri


@pytest.mark.parametrize(
    ("uri", "says"),
    [
        ("javascript:alert(1)", "must use https"),
        ("data:text/html,hi", "must use https"),
        ("cursor://anysphere.cursor-retrieval/oauth", "must use https"),
        ("ftp://example.com/cb", "must use https"),
        ("http://example.com/cb", "http only on 127.0.0.1"),
        ("http://127.0.0.1.evil.com/cb", "http only on 127.0.0.1"),
        ("https://example.com/cb#frag", "fragment"),
        ("https://user:pw@example.com/cb", "user name"),
        ("https://example.com\\@evil.com/", "printable ASCII"),
        ("https://exa mple.com/", "printable ASCII"),
        ("https:///cb", "no host"),
        ("https://example.com:99999/", "invalid host or port"),
        # what would inject into the sign-in page's CSP header, and other non-hosts
        ("https://a.example;sandbox;report-uri=https:/x/cb", "invalid host or port"),
        ("https://a.example,b.example/cb", "invalid host or port"),
        ("https://a.example'/cb", "invalid host or port"),
        ("https://a_b.example/cb", "invalid host or port"),
        ("https://-a.example/cb", "invalid host or port"),
        ("https://a..example/cb", "invalid host or port"),
        ("https://999.1.1.1/cb", "invalid host or port"),
        ("https://[::1%25eth0]/cb", "invalid host or port"),
        ("https://[not:an:ip]/cb", "invalid host or port"),
        ("https://[2001:db8::1]x/cb", "invalid host or port"),
        ("https://example.com:/cb", "invalid host or port"),
        ("https://example.com:443:1/cb", "invalid host or port"),
        ("", "non-empty"),
    ],
)
def test_unsafe_redirect_uris_are_refused(uri: str, says: str) -> None:
    with pytest.raises(access.OAuthError) as err:
        access.validate_redirect_uri(uri)
    assert err.value.error == "invalid_redirect_uri"
    assert says in err.value.message


# -- clients --------------------------------------------------------------------------------------


def test_a_client_secret_is_shown_once_and_stored_as_a_hash(app: App) -> None:
    client, secret = _client(app, public=False)
    assert client.client_id.startswith(access.CLIENT_PREFIX) and not client.public
    assert secret and len(secret) >= 43
    with app.connection() as conn:
        row = conn.execute(
            "SELECT secret_hash, registered_by FROM context_oauth_clients WHERE client_id = %s",
            (client.client_id,),
        ).fetchone()
        assert row == {
            "secret_hash": hashlib.sha256(secret.encode()).hexdigest(),
            "registered_by": "cli",
        }
        assert access.authenticate_client(conn, client.client_id, secret) == client
        for wrong in (None, "", secret + "x"):
            with pytest.raises(access.OAuthError) as err:
                access.authenticate_client(conn, client.client_id, wrong)
            assert (err.value.error, err.value.status_code) == ("invalid_client", 401)
        assert "client_secret" not in str(access.list_clients(conn))


def test_a_public_client_has_no_secret_and_may_not_send_one(app: App) -> None:
    client, secret = _client(app, public=True)
    assert secret is None and client.public
    with app.connection() as conn:
        assert access.authenticate_client(conn, client.client_id, None) == client
        for client_id, sent in ((client.client_id, "guess"), ("ctx_nobody1234567890", None)):
            with pytest.raises(access.OAuthError, match="unknown client"):
                access.authenticate_client(conn, client_id, sent)


def test_removing_a_client_ends_its_codes(app: App, keys: Any) -> None:
    client, _ = _client(app)
    verifier = _verifier()
    code = _code(app, client, keys.make("alpha"), verifier)
    with app.connection() as conn:
        access.remove_client(conn, client.client_id)
        assert access.list_clients(conn) == []
        assert conn.execute("SELECT count(*) AS n FROM context_oauth_codes").fetchone() == {"n": 0}
        with pytest.raises(NotFound, match="ctx mcp list"):
            access.remove_client(conn, client.client_id)
    assert _grant_error(app, client, code, verifier).error == "invalid_grant"


# -- /authorize -----------------------------------------------------------------------------------


def test_unknown_clients_and_unregistered_redirects_are_never_redirected(app: App) -> None:
    client, _ = _client(app)
    verifier = _verifier()
    cases = [
        _params(client, verifier, client_id="ctx_unknown_client_0000"),
        _params(client, verifier, client_id=""),
        _params(client, verifier, redirect_uri="https://evil.example/cb"),
        _params(client, verifier, redirect_uri=REDIRECT + "/"),
        [*_params(client, verifier), ("client_id", client.client_id)],
        # control characters never reach the database (a NUL made psycopg fail: HTTP 500)
        _params(client, verifier, client_id="ctx_\x00"),
        _params(client, verifier, client_id="ctx_\x01abc"),
        _params(client, verifier, state="a\x00b"),
    ]
    with app.connection() as conn:
        for params in cases:
            with pytest.raises(access.OAuthError) as err:
                access.check_authorization_request(conn, params)
            assert not isinstance(err.value, access.AuthorizeError), params


@pytest.mark.parametrize(
    ("extra", "error", "says"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request", "must be S256"),
        ({"code_challenge_method": ""}, "invalid_request", "must be S256"),
        ({"code_challenge": ""}, "invalid_request", "code_challenge is required"),
        ({"code_challenge": "short"}, "invalid_request", "not a valid S256"),
        ({"response_type": "token"}, "unsupported_response_type", "must be code"),
    ],
)
def test_bad_requests_of_a_known_client_go_back_to_it(
    app: App, extra: dict[str, str], error: str, says: str
) -> None:
    client, _ = _client(app)
    with app.connection() as conn, pytest.raises(access.AuthorizeError) as err:
        access.check_authorization_request(conn, _params(client, _verifier(), **extra))
    assert (err.value.error, err.value.redirect_uri, err.value.state) == (error, REDIRECT, "s-1")
    assert says in err.value.message


@pytest.mark.parametrize(
    "extra",
    [
        {"code_challenge_method": "plain"},
        {"code_challenge": ""},
        {"code_challenge": "short"},
        {"response_type": "token"},
        {"state": "s" * 2001},
    ],
)
def test_bad_requests_of_a_self_registered_client_are_never_redirected(
    app: App, extra: dict[str, str]
) -> None:
    # Anyone may register any https redirect URI: sending these errors there would make
    # /authorize an open redirector (RFC 9700 section 4.11.2).
    client, _ = _client(app, registered_by="dynamic", uris=["https://evil.example/phish"])
    params = _params(client, _verifier(), redirect_uri="https://evil.example/phish", **extra)
    with app.connection() as conn, pytest.raises(access.OAuthError) as err:
        access.check_authorization_request(conn, params)
    assert not isinstance(err.value, access.AuthorizeError)
    assert err.value.error in ("invalid_request", "unsupported_response_type")


def test_control_characters_in_a_client_id_are_an_unknown_client(app: App) -> None:
    with app.connection() as conn:
        for client_id in ("ctx_\x00", "ctx_a\x1fb", "ctx_\x7f"):
            assert access.get_client(conn, client_id) is None
            with pytest.raises(access.OAuthError) as err:
                access.authenticate_client(conn, client_id, "x")
            assert (err.value.error, err.value.status_code) == ("invalid_client", 401)


def test_the_only_registered_redirect_uri_is_the_default(app: App) -> None:
    client, _ = _client(app)
    with app.connection() as conn:
        request = access.check_authorization_request(
            conn, _params(client, _verifier(), redirect_uri="")
        )
    assert request.redirect_uri == REDIRECT


def test_a_form_token_is_single_use_and_a_wrong_key_gets_a_fresh_one(app: App, keys: Any) -> None:
    client, _ = _client(app)
    key = keys.make("alpha")
    with app.connection() as conn:
        request = access.check_authorization_request(conn, _params(client, _verifier()))
        first = access.open_form(conn, request)
    with app.connection() as conn:
        refused = access.submit_form(conn, first, "ctx_not_a_key")
    assert refused.code is None and refused.retry_token and refused.retry_token != first
    assert refused.request == request
    with app.connection() as conn, pytest.raises(access.OAuthError, match="already used"):
        access.submit_form(conn, first, key)
    with app.connection() as conn:
        accepted = access.submit_form(conn, refused.retry_token, key)
    assert accepted.code
    with app.connection() as conn, pytest.raises(access.OAuthError, match="already used"):
        access.submit_form(conn, refused.retry_token, key)


def test_an_expired_form_token_is_refused(app: App, keys: Any) -> None:
    client, _ = _client(app)
    with app.connection() as conn:
        request = access.check_authorization_request(conn, _params(client, _verifier()))
        token = access.open_form(conn, request)
        conn.execute("UPDATE context_oauth_requests SET expires_at = now() - interval '1 second'")
    with app.connection() as conn, pytest.raises(access.OAuthError, match="expired"):
        access.submit_form(conn, token, keys.make("alpha"))


# -- codes ----------------------------------------------------------------------------------------


def test_a_code_is_redeemed_once_for_the_key(app: App, keys: Any) -> None:
    client, _ = _client(app)
    key, verifier = keys.make("alpha"), _verifier()
    code = _code(app, client, key, verifier)
    assert _redeem(app, client, code, verifier) == key
    error = _grant_error(app, client, code, verifier)
    assert (error.error, error.status_code) == ("invalid_grant", 400)
    assert "already used" in error.message


def test_the_database_never_holds_the_key_or_the_code(app: App, keys: Any) -> None:
    client, _ = _client(app)
    key, verifier = keys.make("alpha"), _verifier()
    code = _code(app, client, key, verifier)
    with app.connection() as conn:
        row = conn.execute("SELECT * FROM context_oauth_codes").fetchone()
        dump = str(conn.execute("SELECT * FROM context_oauth_codes").fetchall())
    assert row is not None
    assert row["code_hash"] == hashlib.sha256(code.encode()).hexdigest()
    sealed = bytes(row["sealed_key"])
    assert key.encode() not in sealed and key not in dump and code not in dump
    assert key[4:].encode() not in sealed  # nor its random part
    # only the code opens it, and only for the client and redirect URI it was issued to
    aad = f"{client.client_id}\n{REDIRECT}".encode()
    assert unseal(code, sealed, aad) == key
    for wrong_code, wrong_aad in ((code + "x", aad), (code, aad + b"x")):
        with pytest.raises(InvalidTag):
            unseal(wrong_code, sealed, wrong_aad)


def test_a_code_redeemed_twice_at_once_gives_one_token(app: App, keys: Any) -> None:
    client, _ = _client(app)
    key, verifier = keys.make("alpha"), _verifier()
    code = _code(app, client, key, verifier)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def redeem() -> None:
        start.wait()
        try:
            outcomes.append(_redeem(app, client, code, verifier))
        except access.OAuthError as exc:
            outcomes.append(exc.error)

    threads = [threading.Thread(target=redeem) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == sorted([key, "invalid_grant"])


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"use_verifier": "w" * 43}, "code_verifier does not match"),
        ({"redirect_uri": "https://claude.ai/other"}, "redirect_uri does not match"),
        ({"redirect_uri": None}, "redirect_uri does not match"),
    ],
)
def test_a_wrong_verifier_or_redirect_spends_the_code(
    app: App, keys: Any, change: dict[str, Any], says: str
) -> None:
    client, _ = _client(app, uris=[REDIRECT, "https://claude.ai/other"])
    verifier = _verifier()
    code = _code(app, client, keys.make("alpha"), verifier)
    error = _grant_error(app, client, code, verifier, **change)
    assert error.error == "invalid_grant" and says in error.message
    # no second try, even with everything right
    assert "already used" in _grant_error(app, client, code, verifier).message


def test_missing_or_malformed_verifiers_are_invalid_requests(app: App, keys: Any) -> None:
    client, _ = _client(app)
    verifier = _verifier()
    code = _code(app, client, keys.make("alpha"), verifier)
    for bad in (None, "", "short", "x" * 129, "bad chars!" * 5):
        assert (
            _grant_error(app, client, code, verifier, use_verifier=bad).error == "invalid_request"
        )
    assert _redeem(app, client, code, verifier)  # a malformed request does not spend the code


def test_an_expired_code_is_refused(app: App, keys: Any) -> None:
    client, _ = _client(app)
    verifier = _verifier()
    code = _code(app, client, keys.make("alpha"), verifier)
    with app.connection() as conn:
        expires = conn.execute(
            "SELECT expires_at - created_at AS ttl FROM context_oauth_codes"
        ).fetchone()
        assert expires is not None and expires["ttl"].total_seconds() == access.CODE_TTL_SECONDS
        conn.execute("UPDATE context_oauth_codes SET expires_at = now() - interval '1 second'")
    assert "expired" in _grant_error(app, client, code, verifier).message


def test_another_clients_code_and_a_revoked_key_are_refused(app: App, keys: Any) -> None:
    client, _ = _client(app)
    other, _ = _client(app)
    verifier = _verifier()
    code = _code(app, client, keys.make("alpha"), verifier)
    assert "another client" in _grant_error(app, other, code, verifier).message
    key = keys.make("beta")
    code = _code(app, client, key, verifier)
    with app.connection() as conn:
        access.revoke_key(conn, access.list_keys(conn)[-1]["id"])
    assert "revoked" in _grant_error(app, client, code, verifier).message


# -- dynamic registration -------------------------------------------------------------------------


def _register(app: App, metadata: Any, addr: str = "198.51.100.7", per_hour: int = 20) -> Any:
    with app.connection() as conn:
        return access.register_dynamic(conn, metadata, remote_addr=addr, per_hour=per_hour)


def test_dynamic_registration_registers_what_the_server_supports(app: App) -> None:
    public = _register(
        app,
        {
            "client_name": "Claude",
            "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none",
        },
    )
    assert public["grant_types"] == ["authorization_code"] and "client_secret" not in public
    confidential = _register(app, {"redirect_uris": [REDIRECT]})
    assert confidential["token_endpoint_auth_method"] == "client_secret_basic"  # RFC 7591 default
    assert confidential["client_secret"] and confidential["client_secret_expires_at"] == 0
    with app.connection() as conn:
        listed = {c["client_id"]: c for c in access.list_clients(conn)}
    assert listed[public["client_id"]]["registered_by"] == "dynamic"
    assert listed[public["client_id"]]["remote_addr"] == "198.51.100.7"
    assert listed[confidential["client_id"]]["name"] == "unnamed MCP client"


@pytest.mark.parametrize(
    ("metadata", "error"),
    [
        ({}, "invalid_redirect_uri"),
        ({"redirect_uris": "https://a.example/cb"}, "invalid_redirect_uri"),
        ({"redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri"),
        (
            {"redirect_uris": [REDIRECT], "grant_types": ["client_credentials"]},
            "invalid_client_metadata",
        ),
        ({"redirect_uris": [REDIRECT], "response_types": ["token"]}, "invalid_client_metadata"),
        (
            {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "private_key_jwt"},
            "invalid_client_metadata",
        ),
        ({"redirect_uris": [REDIRECT], "client_name": "x" * 201}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT], "client_name": "a\nb"}, "invalid_client_metadata"),
        (["not", "an", "object"], "invalid_client_metadata"),
    ],
)
def test_dynamic_registration_validates_metadata(app: App, metadata: Any, error: str) -> None:
    with pytest.raises(access.OAuthError) as err:
        _register(app, metadata)
    assert (err.value.error, err.value.status_code) == (error, 400)
    with app.connection() as conn:
        assert access.list_clients(conn) == []


def test_dynamic_registration_is_rate_limited_per_address(app: App) -> None:
    metadata = {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"}
    for _ in range(3):
        _register(app, metadata, per_hour=3)
    with pytest.raises(access.OAuthError) as err:
        _register(app, metadata, per_hour=3)
    assert (err.value.error, err.value.status_code) == ("too_many_requests", 429)
    _register(app, metadata, addr="203.0.113.9", per_hour=3)  # another address is not limited
    with app.connection() as conn:
        conn.execute("UPDATE context_oauth_clients SET created_at = now() - interval '61 minutes'")
    _register(app, metadata, per_hour=3)  # an hour later


# -- settings and metadata ------------------------------------------------------------------------


def test_the_oauth_settings_are_registered_and_checked(app: App) -> None:
    assert app.settings["oauth.dynamic_registration"] is True
    assert app.settings["oauth.registrations_per_hour"] == 20
    assert app.settings["server.public_url"] == ""
    assert app.registry.owners["oauth.dynamic_registration"] == "core.access"
    assert set_setting(app, "server.public_url", "https://ctx.example.com") == (
        "https://ctx.example.com"
    )
    for bad in ("ctx.example.com", "https://ctx.example.com/?a=1", "javascript:x"):
        with pytest.raises(ValidationError, match=r"server\.public_url"):
            set_setting(app, "server.public_url", bad)
    assert set_setting(app, "server.public_url", "https://ctx.example.com/") == (
        "https://ctx.example.com/"
    )


@pytest.mark.parametrize("url", ["https://example.com/ctx", "https://example.com/ctx/"])
def test_a_public_url_with_a_path_is_refused(app: App, url: str) -> None:
    # RFC 8414: clients would look for https://example.com/.well-known/…/ctx, outside ctx
    with pytest.raises(ValidationError, match="root of its host"):
        set_setting(app, "server.public_url", url)


def test_metadata_offers_s256_and_no_refresh_grant() -> None:
    from authlib.oauth2.rfc8414 import AuthorizationServerMetadata

    meta = access.authorization_server_metadata("https://ctx.example.com", registration=True)
    AuthorizationServerMetadata(meta).validate()
    assert meta["grant_types_supported"] == ["authorization_code"]
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["registration_endpoint"] == "https://ctx.example.com/register"
    closed = access.authorization_server_metadata("https://ctx.example.com", registration=False)
    assert "registration_endpoint" not in closed
    resource = access.protected_resource_metadata("https://x.example", "https://x.example/mcp")
    assert resource["authorization_servers"] == ["https://x.example"]
