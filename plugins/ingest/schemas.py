"""Request shapes of ``/api/ingest``: the client parses and chunks, the server checks and stores."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, StringConstraints

from ctx.core import SOME_BASE64, IsoDateTime, Strict, shaped

VaultName = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=80, pattern=r"^[^/\\\x00-\x1f]+$"
    ),
]
NotePath = Annotated[
    str, StringConstraints(min_length=4, max_length=1000, pattern=r"^[^\x00-\x1f]+\.[mM][dD]$")
]
Line = Annotated[str, StringConstraints(max_length=500, pattern=r"^[^\r\n]*$")]
Raw = Annotated[str, StringConstraints(min_length=1, max_length=1000)]

#: characters no file name holds: control characters and line separators
_CONTROL = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
#: a file name as sent (folders allowed, 255 characters at most): something other than spaces
#: after its last '/' or '\\', and no control character anywhere
FILENAME = rf"^[^{_CONTROL}]*[^/\\\s{_CONTROL}][^/\\{_CONTROL}]*$"
FILENAME_RULE = "must be 1-255 characters with a name after the last '/', no control characters"


class Request(Strict):
    """Base of the ingest requests: ctx's input rule, unknown fields refused, strict types."""


class ChunkIn(Request):
    content: str = Field(max_length=900_000, description="The chunk's text.")
    heading: Line | None = Field(default=None, description="The heading the chunk starts under.")
    headings: list[Line] = Field(default_factory=list, max_length=2000)
    links: list[Raw] = Field(
        default_factory=list, max_length=5000, description="Wikilink targets: 'Note#Heading'."
    )
    embeds: list[Raw] = Field(default_factory=list, max_length=5000, description="Attachments.")


class NoteIn(Request):
    path: NotePath = Field(description="Vault-relative path with '/', ending in .md.")
    content_hash: Annotated[str, StringConstraints(min_length=8, max_length=128)]
    title: Line = Field(min_length=1)
    tags: list[Annotated[str, StringConstraints(max_length=100)]] = Field(
        default_factory=list, max_length=50
    )
    aliases: list[Line] = Field(default_factory=list, max_length=200)
    occurred_at: IsoDateTime | None = Field(
        default=None, description="ISO 8601, from date/created."
    )
    frontmatter: dict[str, Any] = Field(default_factory=dict)
    chunks: list[ChunkIn] = Field(min_length=1, max_length=1000)


class VaultQuery(Request):
    """``GET /api/ingest/state?vault=``: the vault's name as sent (the service strips it); other
    query parameters are ignored."""

    model_config = ConfigDict(extra="ignore")

    vault: str = Field(
        min_length=1, max_length=80, pattern=r"^[^/\\\x00-\x1f]+$", description="Vault."
    )


class NotesRequest(Request):
    vault: VaultName
    notes: list[NoteIn] = Field(min_length=1, max_length=1000)


class FinishRequest(Request):
    vault: VaultName
    paths: list[NotePath] = Field(max_length=1_000_000, description="Every note of the vault now.")


class DocumentRequest(Request):
    """One document, its bytes in base64; the server parses, chunks and stores it."""

    filename: str = shaped(
        FILENAME,
        FILENAME_RULE,
        max_length=255,
        description="The file's name; its suffix tells the type when `mime` is not given.",
    )
    content_base64: str = shaped(
        SOME_BASE64,  # an empty document is refused
        max_length=140_000_000,
        description="The file's bytes, base64 (standard alphabet).",
    )
    mime: Annotated[str, StringConstraints(max_length=200)] | None = Field(
        default=None, description="text/markdown, text/plain, text/html or application/pdf."
    )
    category: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = Field(
        default=None, description="Default: the setting ingest.document_category."
    )
    tags: list[Annotated[str, StringConstraints(max_length=100)]] = Field(
        default_factory=list, max_length=50
    )
    # "metadata" on the wire, ``meta`` in Python (as in every ctx model).
    meta: dict[str, Any] = Field(
        default_factory=dict,
        alias="metadata",
        description="Kept on every block; the provenance fields win.",
    )
