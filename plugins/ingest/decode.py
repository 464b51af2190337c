"""Bytes of a text document to clean text, and the encoding that was used.

Documents arrive from everywhere: UTF-8 (with or without the BOM Windows editors write), UTF-16
with its BOM, and old Windows files in cp1252. cp1252 leaves five bytes undefined, so a file that
fails it too is read as latin-1, which maps every byte; a document is never refused for its
encoding, and ``encoding`` in its metadata says how it was read.

Text is NFC-normalised: macOS and some PDF producers write umlauts decomposed (``u`` + U+0308),
which neither the German full-text stemmer nor a search for the composed word would match.
"""

from __future__ import annotations

import re
import unicodedata

BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
# C0 controls but tab, newline and carriage return: PostgreSQL text refuses NUL, and the others
# are noise from PDF text extraction or binary junk.
CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def decode_text(raw: bytes) -> tuple[str, str]:
    """(text, encoding): a BOM's encoding, else UTF-8, else cp1252, else latin-1."""
    for bom, encoding in BOMS:
        if raw.startswith(bom):
            try:
                return clean_text(raw.decode(encoding)), encoding
            except UnicodeDecodeError:
                break
    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            return clean_text(raw.decode(encoding)), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover


def clean_text(text: str) -> str:
    """NFC, ``\\n`` line ends, no control characters, no lone surrogates, no BOM left inside."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    text = CONTROLS.sub("", text)
    text = text.encode("utf-8", errors="replace").decode("utf-8")
    return unicodedata.normalize("NFC", text)
