"""A file's MIME type from its leading bytes, for a blob stored without one: a PNG stored with no
type must not be served as ``application/octet-stream``."""

from __future__ import annotations

import codecs

UNKNOWN = "application/octet-stream"
TEXT = "text/plain"  # served with "; charset=utf-8"
LEADING = 8192  # how much is read for the text check: a prefix, as file(1) does

#: (offset, signature, type), first match wins
SIGNATURES = (
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (8, b"WEBP", "image/webp"),  # after "RIFF" and the size, checked below
    (0, b"%PDF-", "application/pdf"),
)
#: control characters text does not hold (tab, line feed, form feed and carriage return it does)
BINARY = frozenset(range(32)) - {9, 10, 12, 13}


def sniff(data: bytes) -> str:
    """The type ``data`` starts like, ``text/plain`` for UTF-8 text, else ``UNKNOWN``."""
    for offset, signature, mime in SIGNATURES:
        if data[offset : offset + len(signature)] == signature:
            if mime == "image/webp" and data[:4] != b"RIFF":
                continue
            return mime
    return TEXT if _is_text(data[:LEADING]) else UNKNOWN


def _is_text(head: bytes) -> bool:
    """UTF-8 (a character cut at the end of the prefix is fine) without binary control bytes."""
    if not head or any(b in BINARY for b in head):
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True
