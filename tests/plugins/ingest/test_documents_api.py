from __future__ import annotations

import base64
from typing import Any

import pytest
from vault_kit import blocks, image_pdf, pdf_bytes

from ctx.core import App


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


class Docs:
    def __init__(self, client: Any, token: str) -> None:
        self.client = client
        self.headers = {"X-Context-Key": token}

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(path, json=body, headers=self.headers)

    def ingest(self, filename: str, raw: bytes, **fields: Any) -> dict[str, Any]:
        r = self.post("/api/ingest", {"filename": filename, "content_base64": b64(raw), **fields})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def search(self, query: str) -> list[dict[str, Any]]:
        r = self.post("/api/search", {"query": query})
        assert r.status_code == 200, r.text
        return list(r.json()["results"])

    def block(self, block_id: str) -> dict[str, Any]:
        r = self.post("/api/manage", {"action": "get", "id": block_id})
        assert r.status_code == 200, r.text
        return dict(r.json()["block"])


@pytest.fixture
def docs(client: Any, keys: Any) -> Docs:
    return Docs(client, keys.make("home-d"))


def three_pages() -> bytes:
    words = ["Walfang", "Gezeiten", "Leuchtturm"]
    return pdf_bytes(
        [f"Seite {n} über {w}. " + f"Der {w} ist das Thema dieser Seite. " * 90
         for n, w in enumerate(words, start=1)],
        title="Küstenbericht",
    )  # fmt: skip


def test_a_pdf_round_trip_unchanged_and_shrunk(app: App, docs: Docs) -> None:
    raw = three_pages()  # once: fpdf2 writes the creation time into every PDF
    first = docs.ingest("kueste.pdf", raw, tags=["meer"], metadata={"quelle": "Amt"})
    assert first["status"] == "stored" and first["archived"] == 0
    assert first["category"] == "documents" and first["filename"] == "kueste.pdf"
    assert [b["page"] for b in first["blocks"]] == [1, 2, 3]
    assert first["blocks"][1]["title"] == "Küstenbericht (2/3) · kueste.pdf"

    hits = docs.search("Gezeiten")
    assert hits and hits[0]["id"] == first["blocks"][1]["id"]
    found = docs.block(hits[0]["id"])
    meta = found["metadata"]
    assert (meta["source"], meta["filename"], meta["mime"]) == (
        "document",
        "kueste.pdf",
        "application/pdf",
    )
    assert (meta["page"], meta["pages"], meta["chunk"], meta["chunks"]) == (2, [2, 2], 2, 3)
    assert len(meta["sha256"]) == 64 and meta["quelle"] == "Amt"
    assert found["tags"] == ["meer"] and found["category"] == "documents"

    again = docs.ingest("kueste.pdf", raw, tags=["meer"], metadata={"quelle": "Amt"})
    assert again["status"] == "unchanged" and again["archived"] == 0
    assert [b["id"] for b in again["blocks"]] == [b["id"] for b in first["blocks"]]

    shorter = pdf_bytes(["Nur noch eine Seite über Walfang."], title="Küstenbericht")
    shrunk = docs.ingest("kueste.pdf", shorter)
    assert shrunk["status"] == "updated" and shrunk["archived"] == 3
    assert [b["title"] for b in shrunk["blocks"]] == ["Küstenbericht · kueste.pdf"]
    live = blocks(app, "home-d")
    assert [b["title"] for b in live] == ["Küstenbericht · kueste.pdf"]
    assert len(blocks(app, "home-d", archived=True)) == 3
    assert not docs.search("Leuchtturm")


def test_markdown_chunks_carry_their_heading_and_the_category_is_chosen(
    app: App, docs: Docs
) -> None:
    text = "# Betriebshandbuch\n\n" + "".join(
        f"## {h}\n\n" + f"Hinweise zu {h} im Alltag. " * 120 + "\n\n"
        for h in ("Wartung", "Störungen", "Ansprechpartner")
    )  # fmt: skip
    out = docs.ingest("handbuch.md", text.encode(), category="handbücher")
    assert out["status"] == "stored" and out["category"] == "handbücher"
    headings = [b["heading"] for b in out["blocks"]]
    assert "Störungen" in headings and "page" not in out["blocks"][0]
    hit = docs.search("Störungen")[0]
    meta = docs.block(hit["id"])["metadata"]
    assert meta["heading"] in headings and meta["mime"] == "text/markdown"
    assert meta["encoding"] == "utf-8"
    titles = [b["title"] for b in out["blocks"]]
    assert any(t.startswith("Betriebshandbuch: Störungen (") for t in titles)
    assert {b["category"] for b in blocks(app, "home-d")} == {"handbücher"}


def test_html_and_text_documents_and_the_same_name_in_two_categories(docs: Docs) -> None:
    page = b"<title>Seite</title><nav>Men\xc3\xbc</nav><p>Inhalt der Seite</p>"
    html = docs.ingest("s.html", page)
    assert html["title"] == "Seite" and html["blocks"][0]["heading"] is None
    txt = docs.ingest("s.txt", "Grüße".encode("cp1252"), mime="text/plain")
    assert txt["status"] == "stored"
    assert docs.block(txt["blocks"][0]["id"])["metadata"]["encoding"] == "cp1252"
    other = docs.ingest("s.txt", "Grüße".encode("cp1252"), category="anderswo")
    assert other["status"] == "stored"  # another category: another document


def test_another_scope_never_sees_or_replaces_the_document(
    client: Any, keys: Any, docs: Docs
) -> None:
    docs.ingest("a.txt", b"geheim")
    bob = Docs(client, keys.make("home-e"))
    assert bob.ingest("a.txt", b"geheim")["status"] == "stored"
    assert not bob.search("geheim") or all(h["scope"] == "home-e" for h in bob.search("geheim"))
    assert docs.ingest("a.txt", b"geheim")["status"] == "unchanged"


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        ({"filename": "bild.png", "content_base64": b64(b"\x89PNG")}, "filename", "'.png'"),
        ({"filename": "x", "content_base64": b64(b"x"), "mime": "image/gif"}, "mime", "image/gif"),
        ({"filename": "scan.pdf", "content_base64": b64(image_pdf())}, "content_base64", "no extractable text"),
        ({"filename": "kaputt.pdf", "content_base64": b64(b"%PDF-1.7 garbage")}, "content_base64", "not a readable PDF"),
        ({"filename": "x.txt", "content_base64": "***"}, "content_base64", "not base64"),
        ({"filename": "x.txt", "content_base64": ""}, "content_base64", "empty"),
        ({"filename": "x.txt", "content_base64": b64(b"x"), "tags": [" "]}, "tags", "tag"),
        ({"filename": "x.txt", "content_base64": b64(b"x"), "category": " "}, "category", "empty"),
        ({"filename": "x.txt"}, "content_base64", ""),
    ],
)  # fmt: skip
def test_bad_documents_are_a_422_naming_the_problem(
    docs: Docs, body: dict[str, Any], field: str, says: str
) -> None:
    r = docs.post("/api/ingest", body)
    assert r.status_code == 422, r.text
    error = r.json()
    assert error["field"].removeprefix("body.").startswith(field)
    assert says in error["message"]


def test_no_key_is_a_401(client: Any) -> None:
    r = client.post("/api/ingest", json={"filename": "a.txt", "content_base64": b64(b"x")})
    assert r.status_code == 401


def test_the_route_is_documented_with_every_status(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    answers = spec["paths"]["/api/ingest"]["post"]["responses"]
    assert {"200", "401", "403", "413", "415", "422"} <= set(answers)
