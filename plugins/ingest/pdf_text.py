"""The text of a PDF, page by page, with pypdf.

A PDF comes from anywhere, so every way pypdf can fail on one (broken cross-references, a stream
that does not decompress, an encryption it cannot open, a recursion in the page tree) is a
``ValidationError`` naming the problem: the caller sent a document ctx cannot read, which is a
422, never a 500. A PDF whose pages hold no text (a scan) is refused too: storing empty blocks
would only hide that it needs OCR first.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

from ctx.core import ValidationError
from ctx.plugins.ingest.decode import clean_text

MAX_PAGES = 5000


@dataclass(frozen=True)
class PdfText:
    title: str | None
    pages: list[str]


def pdf_text(raw: bytes, filename: str) -> PdfText:
    """The title from the PDF's metadata and each page's text (1-based page = index + 1)."""
    from pypdf import PdfReader  # only documents need it; the vault ingest never loads it

    # pypdf logs every repaired cross-reference as a warning; a broken file is reported once, here
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValidationError(
                f"{filename} is an encrypted PDF: remove the password and send it again",
                field="content_base64",
            )
        if len(reader.pages) > MAX_PAGES:
            raise ValidationError(
                f"{filename} has {len(reader.pages)} pages; at most {MAX_PAGES} are read",
                field="content_base64",
            )
        pages = [clean_text(page.extract_text() or "") for page in reader.pages]
        title = reader.metadata.title if reader.metadata is not None else None
    except ValidationError:
        raise
    except Exception as exc:
        # pypdf raises its own errors (PyPdfError) for most broken files and plain Python ones
        # (KeyError, RecursionError, zlib.error, ...) for the rest: all mean "cannot read this"
        raise ValidationError(
            f"{filename} is not a readable PDF ({type(exc).__name__}: {str(exc)[:200]})",
            field="content_base64",
        ) from None
    if not any(page.strip() for page in pages):
        raise ValidationError(
            f"{filename} has no extractable text ({len(pages)} pages, none with text: a scanned "
            "PDF? run OCR on it first)",
            field="content_base64",
        )
    shown = " ".join(clean_text(str(title)).split()) if title else ""
    return PdfText(title=shown[:200] or None, pages=pages)
