"""Bad input gets a clear 4xx JSON answer and changes nothing; hostile text is stored verbatim."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from fastapi.dependencies.models import Dependant
from pydantic import BaseModel

from ctx.core import App
from ctx.core.validation import NO_NUL, NOT_BLANK, Strict


class Probe:
    """A client with a key, plus a fingerprint of every table a write could touch."""

    def __init__(self, app: App, keys: Any, client: Any) -> None:
        self.app = app
        self.client = client
        self.headers = {"X-Context-Key": keys.make("alpha")}

    def post(self, path: str, **kwargs: Any) -> Any:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.post(path, headers=headers, **kwargs)

    def state(self) -> dict[str, Any]:
        with self.app.connection() as conn:
            return {
                "blocks": conn.execute(
                    "SELECT id, title, content, updated_at FROM context_blocks ORDER BY id"
                ).fetchall(),
                "log": conn.execute("SELECT count(*) AS n FROM context_write_log").fetchone(),
                "jobs": conn.execute("SELECT count(*) AS n FROM context_jobs").fetchone(),
            }


@pytest.fixture
def probe(app: App, keys: Any, client: Any) -> Iterator[Probe]:
    p = Probe(app, keys, client)
    r = p.post("/api/store", json={"title": "Existing", "content": "keep me"})
    assert r.status_code == 200
    before = p.state()
    yield p
    assert p.state() == before, "a refused request changed the database"


def _assert_clear_error(r: Any, status: int, *words: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] and body["request_id"] == r.headers["x-request-id"]
    for word in words:
        assert word in body["message"], (word, body["message"])


def test_malformed_store_fields_are_refused(probe: Probe) -> None:
    ok = {"title": "Existing", "content": "replacement"}
    cases: list[tuple[Any, str]] = [
        ({}, "title"),
        ({"title": "Existing"}, "content"),
        ({"content": "c"}, "title"),
        ({**ok, "title": 5}, "title"),
        ({**ok, "title": None}, "title"),
        ({**ok, "content": ["a"]}, "content"),
        ({**ok, "title": ""}, "title"),
        ({**ok, "title": "   "}, "title: must be one line, not empty or only spaces"),
        ({**ok, "title": "two\nlines"}, "one line"),
        ({**ok, "title": "x" * 501}, "title"),
        ({**ok, "title": "nul\x00"}, "NUL"),
        ({**ok, "content": "nul\x00"}, "NUL"),
        ({**ok, "category": " "}, "category: must not be empty"),
        ({**ok, "tags": "ops"}, "tags"),
        ({**ok, "tags": [""]}, "tag"),
        ({**ok, "tags": [1]}, "tags"),
        ({**ok, "metadata": "x"}, "metadata"),
        ({**ok, "sensitivity": "secret"}, "sensitivity"),
        ({**ok, "block_type": "ghost"}, "unknown block_type 'ghost'"),
        ({**ok, "scope": "Not A Scope"}, "scope"),
        ({**ok, "colour": "red"}, "colour"),
        ([ok], "request body must be a JSON object"),
        (None, "request body is missing"),
        ("just a string", "request body must be a JSON object"),
    ]
    for body, words in cases:
        _assert_clear_error(probe.post("/api/store", json=body), 422, words)


def test_empty_content_is_refused_on_store_and_on_update(probe: Probe) -> None:
    """A block without content holds nothing: refused by the request model every path shares."""
    existing = probe.post("/api/manage", json={"action": "list"}).json()["blocks"][0]["id"]
    for content in ("", "   ", "\n\t \n"):
        r = probe.post("/api/store", json={"title": "Empty", "content": content})
        _assert_clear_error(r, 422, "content", "must not be empty")
        assert r.json()["field"] == "content"
        change = {"action": "update", "id": existing, "changes": {"content": content}}
        _assert_clear_error(probe.post("/api/manage", json=change), 422, "must not be empty")


def test_content_over_the_field_limit_is_refused(probe: Probe) -> None:
    r = probe.post("/api/store", json={"title": "Existing", "content": "x" * 900_001})
    _assert_clear_error(r, 422, "content")


def test_a_2mb_body_gets_413(probe: Probe) -> None:
    body = b'{"title": "Existing", "content": "' + b"x" * 2_000_000 + b'"}'
    declared = probe.post("/api/store", content=body, headers={"content-type": "application/json"})
    _assert_clear_error(declared, 413, "exceeds 1048576 bytes")
    assert declared.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no content-length: the limit applies while streaming
        for i in range(0, len(body), 65536):
            yield body[i : i + 65536]

    streamed = probe.post(
        "/api/store", content=chunks(), headers={"content-type": "application/json"}
    )
    _assert_clear_error(streamed, 413, "exceeds")


def test_invalid_utf8_and_broken_json_are_refused(probe: Probe) -> None:
    json_header = {"content-type": "application/json"}
    bad_utf8 = b'{"title": "Existing", "content": "caf\xe9 \xff"}'
    r = probe.post("/api/store", content=bad_utf8, headers=json_header)
    _assert_clear_error(r, 422, "UTF-8")  # like every other invalid body
    for raw in (b'{"title": "Existing", "content": ', b"not json"):
        r = probe.post("/api/store", content=raw, headers=json_header)
        _assert_clear_error(r, 422, "request body is not valid JSON")
        assert r.json()["errors"][0]["field"] == "body"
    r = probe.post("/api/store", content=b"", headers=json_header)
    _assert_clear_error(r, 422, "request body is missing")


def test_a_huge_number_or_a_deep_nesting_is_named_not_called_broken_json(probe: Probe) -> None:
    json_header = {"content-type": "application/json"}
    huge = b'{"title": "n", "content": "x", "metadata": {"n": ' + b"7" * 5000 + b"}}"
    r = probe.post("/api/store", content=huge, headers=json_header)
    _assert_clear_error(r, 422, "digits")
    assert "not valid JSON" not in r.json()["message"]
    deep = b'{"title": "n", "content": "x", "metadata": {"n": ' + b"[" * 100_000
    deep += b"]" * 100_000 + b"}}"
    r = probe.post("/api/store", content=deep, headers=json_header)
    _assert_clear_error(r, 422, "nested more than 64 levels deep")
    assert "not valid JSON" not in r.json()["message"]


def test_a_whole_number_written_with_a_point_is_a_whole_number(probe: Probe) -> None:
    # JSON has one kind of number; the schema's "integer" includes 20.0
    listed = probe.post("/api/manage", json={"action": "list", "limit": 1.0, "offset": 0.0})
    assert listed.status_code == 200 and listed.json()["count"] == 1
    _assert_clear_error(
        probe.post("/api/manage", json={"action": "list", "limit": 1.5}), 422, "whole number"
    )


def test_the_schema_states_the_input_rule(probe: Probe) -> None:
    # what a client generated from /openapi.json may send is what the server takes: no NUL in
    # text, whole numbers within 64 bits, free-form values of such text and numbers
    models = probe.client.get("/openapi.json").json()["components"]["schemas"]
    store = models["StoreRequest"]["properties"]
    assert store["content"]["pattern"] == NOT_BLANK  # no NUL, not empty or only spaces
    tag = store["tags"]["items"]["pattern"]
    assert re.search(tag, "ops") and not re.search(tag, "o\x00ps") and not re.search(tag, "  ")
    assert store["metadata"]["propertyNames"] == {"pattern": NO_NUL}
    number = next(
        k for k in store["metadata"]["additionalProperties"]["anyOf"] if k["type"] == "number"
    )
    assert -(2**63) <= number["minimum"] < number["maximum"] < 2**63  # as doubles, too
    offset = models["ManageRequest"]["properties"]["offset"]
    assert (offset["minimum"], offset["maximum"]) == (0, 1_000_000_000)


def test_the_schema_states_what_the_validators_check(probe: Probe, keys: Any) -> None:
    # the constraints a generated client must know, stated in /openapi.json from the models
    models = probe.client.get("/openapi.json").json()["components"]["schemas"]

    def pattern(node: dict[str, Any]) -> str:
        return str(
            next(o for o in node.get("anyOf", [node]) if o.get("type") == "string")["pattern"]
        )

    store = models["StoreRequest"]["properties"]
    assert re.search(pattern(store["scope"]), "alpha") and not re.search(
        pattern(store["scope"]), ""
    )
    assert not re.search(pattern(store["title"]), "two\nlines")
    assert not re.search(pattern(store["category"]), "   ")
    ids = models["QueryRequest"]["properties"]["exclude_ids"]["items"]
    assert not re.search(ids["pattern"], "") and re.search(ids["pattern"], str(uuid.uuid4()))
    manage = models["ManageRequest"]
    assert {"required": ["action", "id", "changes"]}.items() <= manage["anyOf"][1].items()
    assert len(models["Grant"]["anyOf"]) == 2  # a scope or a block, not both
    # a rule across fields is said in its own words, not "must be a JSON object"
    admin = {"X-Context-Key": keys.make("default", admin=True)}
    r = probe.client.post("/api/tenants/acme/grants", headers=admin, json={})
    _assert_clear_error(r, 422, "give exactly one of scope and block_id")


def test_bad_ids_and_manage_requests(probe: Probe) -> None:
    existing = probe.post("/api/manage", json={"action": "list"}).json()["blocks"][0]["id"]
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"action": "get", "id": "00000000-0000-4000-8000-000000000000"}, 404, "no block"),
        ({"action": "delete", "id": "00000000"}, 404, "no block"),
        ({"action": "get", "id": "zzzz"}, 422, "at least 4 hex"),
        ({"action": "delete", "id": "ab"}, 422, "at least 4 hex"),
        ({"action": "delete", "id": "%"}, 422, "hex"),
        ({"action": "delete", "id": "'; DELETE FROM context_blocks; --"}, 422, "id"),
        ({"action": "delete", "id": existing + "0"}, 422, "id"),
        ({"action": "get"}, 422, "needs an id"),
        ({"action": "delete", "id": ""}, 422, "id: must be an id or a prefix"),
        ({"action": "drop"}, 422, "action"),
        ({"action": "list", "limit": 0}, 422, "limit"),
        ({"action": "list", "limit": 201}, 422, "limit"),
        ({"action": "list", "offset": -1}, 422, "offset"),
        ({"action": "list", "extra": 1}, 422, "extra"),
        ({}, 422, "action"),
    ]
    for body, status, words in cases:
        _assert_clear_error(probe.post("/api/manage", json=body), status, words)


def test_an_ambiguous_prefix_is_a_409_that_deletes_nothing(
    app: App, keys: Any, client: Any
) -> None:
    probe = Probe(app, keys, client)
    with app.connection() as conn:
        for n in (1, 2):
            conn.execute(
                "INSERT INTO context_blocks (id, scope, category, title, content, block_type, "
                "content_hash) VALUES (%s, 'alpha', 'general', %s, 'c', 'knowledge', 'h')",
                (f"cafe000{n}-0000-4000-8000-00000000000{n}", f"twin {n}"),
            )
    before = probe.state()
    for action in ("delete", "get"):
        r = probe.post("/api/manage", json={"action": action, "id": "cafe"})
        _assert_clear_error(r, 409, "matches several blocks", "cafe0001", "more characters")
        assert r.json()["error"] == "ambiguous"
    assert probe.state() == before
    r = probe.post("/api/manage", json={"action": "delete", "id": "cafe0002"})
    assert r.status_code == 200
    assert [b["title"] for b in probe.state()["blocks"]] == ["twin 1"]


def test_bad_search_requests(probe: Probe) -> None:
    for body, words in (
        ({}, "query"),
        ({"query": ""}, "query"),
        ({"query": "   "}, "query: must not be empty"),
        ({"query": "x" * 2001}, "query"),
        ({"query": "ok", "limit": 0}, "limit"),
        ({"query": "ok", "limit": 101}, "limit"),
        ({"query": "ok", "tags": "a"}, "tags"),
        ({"query": "ok", "scopes": "alpha"}, "scopes"),
    ):
        _assert_clear_error(probe.post("/api/search", json=body), 422, words)


def test_sql_and_html_are_stored_and_returned_verbatim(app: App, keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha")}
    hostile = [
        ("Robert'); DROP TABLE context_blocks; --", "' OR '1'='1'; DELETE FROM context_api_keys;"),
        ("<script>alert('t')</script>", '<img src=x onerror="alert(1)"> &amp; </textarea>'),
        ("%_\\ $1 {{ 7*7 }} ${7*7}", "unicode: café, 東京, emoji 🎉, rtl \u202e"),
    ]
    ids = []
    for title, content in hostile:
        r = client.post(
            "/api/store", json={"title": title, "content": content, "category": title}, headers=h
        )
        assert r.status_code == 200 and r.json()["title"] == title
        ids.append(r.json()["id"])
    for block_id, (title, content) in zip(ids, hostile, strict=True):
        r = client.post("/api/manage", json={"action": "get", "id": block_id}, headers=h)
        assert r.headers["content-type"] == "application/json"
        assert r.headers["x-content-type-options"] == "nosniff"
        block = r.json()["block"]
        assert (block["title"], block["content"], block["category"]) == (title, content, title)

    for query in ("'; DROP TABLE context_blocks; --", "<script>", "%", "\\", "OR 1=1"):
        r = client.post("/api/search", json={"query": query}, headers=h)
        assert r.status_code == 200, query
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone() == {"n": 3}
        assert conn.execute("SELECT count(*) AS n FROM context_api_keys").fetchone() == {"n": 1}
    listed = client.post("/api/manage", json={"action": "categories"}, headers=h).json()
    assert sorted(c["category"] for c in listed["categories"]) == sorted(t for t, _ in hostile)


def _request_models(app: App) -> dict[type[BaseModel], str]:
    """Every pydantic model a REST route reads its body into, nested models included, with the
    route that reaches it first."""
    from fastapi.routing import _IncludedRouter  # type: ignore[attr-defined]

    from ctx.ui import create_app

    def routes(found: list[Any]) -> Iterator[Any]:
        for r in found:
            if isinstance(r, _IncludedRouter):
                yield from routes(r.effective_candidates())
            else:
                yield r

    def params(dependant: Dependant) -> Iterator[Any]:
        yield from dependant.body_params
        for sub in dependant.dependencies:
            yield from params(sub)

    def models(annotation: Any) -> Iterator[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            yield annotation
            for field in annotation.model_fields.values():
                yield from models(field.annotation)
        for arg in get_args(annotation):
            yield from models(arg)

    found: dict[type[BaseModel], str] = {}
    for route in routes(list(create_app(app).routes)):
        dependant = getattr(route, "dependant", None)  # an APIRoute, or its included copy
        if isinstance(dependant, Dependant):
            for param in params(dependant):
                for model in models(param.field_info.annotation):
                    found.setdefault(model, f"{sorted(route.methods)} {route.path}")
    return found


def test_every_request_model_obeys_the_input_rule(app: App) -> None:
    found = _request_models(app)
    assert len(found) > 40, "the route walk found too few request models to mean anything"
    loose = {f"{m.__module__}.{m.__qualname__} ({route})" for m, route in found.items()
             if not issubclass(m, Strict)}  # fmt: skip
    assert not loose, "request models not built on ctx.core.validation.Strict: " + ", ".join(
        sorted(loose)
    )
