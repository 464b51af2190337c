"""The tenant pages: the root admin creates a tenant and its owner key from the browser, the owner
manages its tenant (scopes, keys, sharing), a member sees only its own access, and another
tenant's page is the 404 page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from web_kit import Browser, make_key

from ctx.core import App, Principal, StoreRequest, access, store_block
from ctx.ui import create_app


def access_principal(app: App, token: str) -> Principal:
    with app.connection() as conn:
        return access.authenticate(conn, token)


TOKEN_RE = re.compile(r'id="new-token"[^>]*value="(ctx_[^"]+)"')


@pytest.fixture
def browsers(app: App) -> Iterator[dict[str, TestClient]]:
    with (
        TestClient(create_app(app), raise_server_exceptions=False) as a,
        TestClient(create_app(app), raise_server_exceptions=False) as b,
        TestClient(create_app(app), raise_server_exceptions=False) as c,
    ):
        yield {"admin": a, "owner": b, "member": c}


def test_tenants_are_run_from_the_workbench(app: App, browsers: dict[str, TestClient]) -> None:
    admin = Browser(browsers["admin"], make_key(app, "ops", admin=True))
    admin.sign_in()
    assert 'href="/tenant"' in admin.get("/").text  # in the navigation
    listed = admin.get("/tenant")
    assert listed.status_code == 200 and "every unclaimed scope" in listed.text
    for name in ("acme", "globex"):
        r = admin.post("/tenant", {"name": name, "display_name": name.title()})
        assert r.status_code == 303 and r.headers["location"] == f"/tenant/{name}"
    again = admin.post("/tenant", {"name": "acme"})
    assert again.status_code == 409 and "exists already" in again.text
    made = admin.post(
        "/tenant/acme/keys", {"key_name": "acme owner", "home_scope": "acme", "role": "owner"}
    )
    assert made.status_code == 200
    found = TOKEN_RE.search(made.text)
    assert found, made.text

    owner = Browser(browsers["owner"], found.group(1))
    owner.sign_in()
    page = owner.get("/tenant")
    assert page.status_code == 200 and "Tenant acme" in page.text and "Create key" in page.text
    assert owner.post("/tenant/acme/scopes", {"scope": "acme-research"}).status_code == 303
    made = owner.post("/tenant/acme/keys", {"home_scope": "acme-research", "role": "member"})
    member_token = TOKEN_RE.search(made.text)
    assert member_token, made.text
    # a scope another tenant uses is refused, with the reason on the page and the form kept
    refused = owner.post("/tenant/acme/keys", {"key_name": "sneaky", "home_scope": "ops"})
    assert refused.status_code == 409 and "is not free" in refused.text
    assert 'value="sneaky"' in refused.text
    r = owner.post("/tenant/acme/share", {"to": "globex", "scope": "acme-research"})
    assert r.status_code == 303
    shown = owner.get("/tenant/acme").text
    assert "acme-research" in shown and "with globex" in shown
    assert owner.post("/tenant/acme/share", {"to": "globex", "scope": "acme-research",
                                             "revoke": "yes"}).status_code == 303  # fmt: skip
    assert "with globex" not in owner.get("/tenant/acme").text
    # a block offered to globex waits there until globex accepts it
    who = access_principal(app, found.group(1))
    block = str(store_block(app, who, StoreRequest(title="Acme roadmap", content="Q3 plans"))["id"])
    assert owner.post("/tenant/acme/share", {"to": "globex", "block_id": block}).status_code == 303
    assert "not accepted yet" in owner.get("/tenant/acme").text
    offered = admin.get("/tenant/globex").text
    assert "Acme roadmap" in offered and "offered" in offered
    r = admin.post("/tenant/globex/share", {"to": "globex", "block_id": block, "accept": "yes"})
    assert r.status_code == 303
    assert "not accepted yet" not in owner.get("/tenant/acme").text
    # another tenant is the 404 page, and the list of tenants is the root admin's only
    assert owner.get("/tenant/globex").status_code == 404
    assert owner.post("/tenant", {"name": "initech"}).status_code == 403
    assert owner.post("/tenant/globex/scopes", {"scope": "x1"}).status_code == 404
    # every form needs the session's CSRF token
    assert owner.post("/tenant/acme/scopes", {"scope": "x2"}, csrf=False).status_code == 403

    member = Browser(browsers["member"], member_token.group(1))
    member.sign_in()
    mine = member.get("/tenant")
    assert mine.status_code == 200 and "Tenant acme" in mine.text
    assert "acme-research" in mine.text and "Create key" not in mine.text
    assert member.post("/tenant/acme/scopes", {"scope": "x3"}).status_code == 404


def test_a_refused_claim_shows_why_on_the_page(app: App, browsers: dict[str, TestClient]) -> None:
    admin = Browser(browsers["admin"], make_key(app, "ops", admin=True))
    admin.sign_in()
    admin.post("/tenant", {"name": "acme"})
    r = admin.post("/tenant/acme/scopes", {"scope": "ops"})  # the admin's own home scope
    assert r.status_code == 409
    assert 'role="alert"' in r.text and "home scope" in r.text
