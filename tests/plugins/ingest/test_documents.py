from __future__ import annotations

import hashlib

import pytest
from vault_kit import image_pdf, pdf_bytes

from ctx.core import ValidationError
from ctx.plugins.ingest.decode import decode_text
from ctx.plugins.ingest.documents import kind_of, parse_document
from ctx.plugins.ingest.html_text import html_text

NOISY_PAGE = """<!doctype html>
<html><head><title>  Die   Anleitung </title>
<style>body { color: red }</style><script>var tracking = "Seitenzähler";</script></head>
<body>
<header><a href="/">Startseite</a> Logo</header>
<nav><ul><li>Menü eins</li><li>Menü zwei</li></ul></nav>
<main>
<h1>Einrichtung</h1>
<p>Zuerst das   Paket <b>installieren</b> &amp; starten.</p>
<ul><li>Schritt eins</li><li>Schritt zwei</li></ul>
<h2>Betrieb</h2><p>Täglich prüfen.<br>Wöchentlich sichern.</p>
<h5>Kleingedrucktes</h5><p># keine Überschrift</p>
<script>document.write("nicht lesen")</script>
</main>
<footer>Impressum 2024</footer>
</body></html>
"""


def test_html_keeps_headings_and_text_and_drops_the_noise() -> None:
    title, text = html_text(NOISY_PAGE)
    assert title == "Die Anleitung"
    assert text.splitlines()[:7] == [
        "# Einrichtung",
        "",
        "Zuerst das Paket installieren & starten.",
        "",
        "- Schritt eins",
        "- Schritt zwei",
        "",
    ]
    assert "## Betrieb" in text and "Täglich prüfen.\nWöchentlich sichern." in text
    assert "##### Kleingedrucktes" in text and "\\# keine Überschrift" in text
    for noise in ("Menü", "Startseite", "Logo", "Impressum", "tracking", "nicht lesen", "color"):
        assert noise not in text


def test_list_items_holding_paragraphs_and_an_svg_title() -> None:
    page = "<svg><title>Symbol</title></svg><ul><li><p>eins</p></li><li></li><li>zwei</li></ul>"
    title, text = html_text(page + "<p>danach</p>")
    assert title is None and "Symbol" not in text
    assert text == "- eins\n\n- zwei\n\ndanach\n"


def test_a_long_html_page_is_cut_at_its_headings_of_every_level() -> None:
    section = "<p>" + "Ein Satz über den Betrieb der Anlage. " * 40 + "</p>"
    page = "".join(f"<h{level}>Teil {level}</h{level}>{section}" for level in (1, 2, 4, 6))
    doc = parse_document("teile.html", page.encode(), None, 2000, 100)
    assert [c.heading for c in doc.chunks] == ["Teil 1", "Teil 2", "Teil 4", "Teil 6"]
    assert doc.title == "Teil 1"  # no <title>: the first h1
    assert doc.mime == "text/html" and doc.encoding == "utf-8"


def test_markdown_title_from_the_first_h1_and_chunks_along_headings() -> None:
    body = "".join(f"## Kapitel {i}\n\n" + "Text des Kapitels. " * 150 + "\n\n" for i in range(3))
    raw = ("Vorwort ohne Überschrift.\n\n# Handbuch\n\n" + body).encode()
    doc = parse_document("handbuch.md", raw, None, 3000, 200)
    assert doc.title == "Handbuch" and doc.mime == "text/markdown"
    assert len(doc.chunks) == 3
    assert [c.heading for c in doc.chunks] == ["Handbuch", "Kapitel 1", "Kapitel 2"]
    assert doc.chunks[1].provenance() == {"heading": "Kapitel 1", "headings": ["Kapitel 1"]}
    assert doc.sha256 == hashlib.sha256(raw).hexdigest()


def test_markdown_front_matter_title_wins_and_a_short_file_is_one_chunk() -> None:
    doc = parse_document(
        "n.markdown", b"---\ntitle: Vorne\nDatum: 2024-01-02\n---\n# H\nx\n", None, 4000, 200
    )
    assert doc.title == "Vorne" and doc.frontmatter == {"title": "Vorne", "Datum": "2024-01-02"}
    assert len(doc.chunks) == 1 and doc.chunks[0].content == "# H\nx"


def test_text_in_cp1252_with_umlauts_is_read_and_its_encoding_recorded() -> None:
    raw = "Grüße aus Köln: Maße, Öl und Straße für 5 €.\n".encode("cp1252")
    doc = parse_document("brief.txt", raw, None, 4000, 200)
    assert doc.encoding == "cp1252" and doc.title == "brief.txt"
    assert doc.chunks[0].content == "Grüße aus Köln: Maße, Öl und Straße für 5 €."
    assert doc.chunks[0].heading is None


@pytest.mark.parametrize(
    ("raw", "encoding", "text"),
    [
        ("Grüße".encode(), "utf-8", "Grüße"),
        ("\ufeffGrüße".encode(), "utf-8-sig", "Grüße"),
        ("Grüße".encode("utf-16"), "utf-16", "Grüße"),
        (b"Gr\x81\xfc\xdfe", "latin-1", "Gr\x81üße"),  # 0x81 is undefined in cp1252
        ("Gru\u0308ße\r\nzwei\x00".encode(), "utf-8", "Grüße\nzwei"),  # NFC, LF, no NUL
    ],
)
def test_decoding(raw: bytes, encoding: str, text: str) -> None:
    assert decode_text(raw) == (text, encoding)


def test_plain_text_is_cut_at_paragraphs_never_at_hash_lines() -> None:
    para = "# kein Titel, nur eine Zeile mit Raute\n" + "wort " * 300
    doc = parse_document("notiz.txt", "\n\n".join([para] * 4).encode(), None, 2000, 0)
    assert len(doc.chunks) == 4 and all(c.heading is None for c in doc.chunks)


def test_a_pdf_of_three_pages_keeps_each_chunks_pages() -> None:
    pages = [f"Seite {n}: " + f"Inhalt der Seite {n} mit Umlauten äöü. " * 70 for n in (1, 2, 3)]
    raw = pdf_bytes(pages, title="Drei Seiten")
    doc = parse_document("bericht.pdf", raw, None, 3000, 150)
    assert doc.title == "Drei Seiten" and doc.mime == "application/pdf" and doc.encoding is None
    assert [c.pages for c in doc.chunks] == [(1, 1), (2, 2), (3, 3)]
    for number, chunk in enumerate(doc.chunks, start=1):
        assert f"Inhalt der Seite {number} mit Umlauten äöü." in chunk.content
        assert chunk.provenance() == {"page": number, "pages": [number, number]}
    assert doc.chunks[1].content.startswith("Inhalt der Seite 1")  # the overlap from page 1

    whole = parse_document("kurz.pdf", pdf_bytes(["eins", "zwei", "drei"]), None, 4000, 200)
    assert whole.title == "kurz.pdf" and [c.pages for c in whole.chunks] == [(1, 3)]


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (image_pdf(), "no extractable text"),
        (b"%PDF-1.4\n" + bytes(range(256)) * 20, "not a readable PDF"),
        (b"this is no pdf at all", "not a readable PDF"),
    ],
)
def test_pdfs_without_text_or_broken_are_422(raw: bytes, says: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_document("scan.pdf", raw, None, 4000, 200)
    assert caught.value.status_code == 422 and says in caught.value.message
    assert "scan.pdf" in caught.value.message


def test_an_encrypted_pdf_is_422() -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="geheim")
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.cell(0, 10, "vertraulich")
    with pytest.raises(ValidationError, match="encrypted"):
        parse_document("geheim.pdf", bytes(pdf.output()), None, 4000, 200)


@pytest.mark.parametrize(
    ("filename", "mime", "kind"),
    [
        ("a.MD", None, "markdown"),
        ("a.htm", None, "html"),
        ("a", "text/html; charset=utf-8", "html"),
        ("a.bin", "application/pdf", "pdf"),
        ("a.txt", "text/x-markdown", "markdown"),
    ],
)
def test_the_kind_comes_from_the_mime_else_the_suffix(
    filename: str, mime: str | None, kind: str
) -> None:
    assert kind_of(filename, mime) == kind


@pytest.mark.parametrize(
    ("filename", "mime", "says"),
    [
        ("bild.png", None, "'.png'"),
        ("x.md", "image/png", "'image/png'"),
        ("README", None, "no suffix"),
    ],
)
def test_an_unsupported_type_is_named(filename: str, mime: str | None, says: str) -> None:
    with pytest.raises(ValidationError) as caught:
        kind_of(filename, mime)
    assert says in caught.value.message and "unsupported document type" in caught.value.message


def test_an_empty_text_or_a_bad_name_is_422() -> None:
    with pytest.raises(ValidationError, match="holds no text"):
        parse_document("leer.md", b"\n \n", None, 4000, 200)
    with pytest.raises(ValidationError, match="file name"):
        parse_document("a/\x07.md", b"x", None, 4000, 200)


def test_a_file_name_loses_its_folders_and_is_nfc() -> None:
    doc = parse_document("C:\\Ablage\\Mu\u0308ller.txt", b"x", None, 4000, 200)
    assert doc.filename == "Müller.txt" and doc.title == "Müller.txt"
