"""Wikilinks, embeds and inline tags of a note's text, with code left out.

Obsidian does not treat ``[[x]]`` or ``#tag`` inside code fences or inline code as links or tags,
so the text is first masked: code is replaced by spaces of the same length, which keeps every
offset (the chunker splits the masked text and the real text at the same places).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[^\n]*\n.*?(?:^(?P=fence)[ \t]*$|\Z)", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.S)
WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
TAG = re.compile(r"(?<![\w/&#])#([^\W\d_][\w/-]*|\d[\w/-]*[^\W\d][\w/-]*)")
ATTACHMENT_SUFFIXES = {
    "png", "jpg", "jpeg", "gif", "bmp", "svg", "webp", "avif", "heic", "tif", "tiff",
    "pdf", "mp3", "wav", "ogg", "m4a", "flac", "mp4", "webm", "mov", "mkv", "ogv",
    "canvas", "excalidraw", "zip", "csv", "docx", "xlsx", "pptx",
}  # fmt: skip


@dataclass(frozen=True)
class Wikilink:
    """``[[target#heading|shown]]``: ``target`` is empty for a link into the same note."""

    target: str
    heading: str | None
    embed: bool

    @property
    def raw(self) -> str:
        """The form kept in metadata ``links``: target and heading, without the shown text."""
        return self.target + (f"#{self.heading}" if self.heading else "")


def mask_code(text: str) -> str:
    """``text`` with fenced and inline code blanked out (newlines kept), same length."""

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    return INLINE_CODE.sub(blank, FENCE.sub(blank, text))


def is_attachment(target: str) -> bool:
    suffix = target.rsplit(".", 1)[-1].lower() if "." in target else ""
    return suffix in ATTACHMENT_SUFFIXES


def parse_target(inner: str) -> tuple[str, str | None]:
    """``Folder/Note.md#Heading^block|shown`` -> (``Folder/Note``, ``Heading``)."""
    target = inner.split("|", 1)[0].strip()
    name, _, heading = target.partition("#")
    name = name.strip()
    if name.lower().endswith(".md"):
        name = name[:-3]
    heading = heading.split("#")[-1].strip()
    return name, (heading if heading and not heading.startswith("^") else None)


def wikilinks(masked: str) -> tuple[list[Wikilink], list[str]]:
    """Note links and attachment references (embedded or linked files) in masked text."""
    found: list[Wikilink] = []
    attachments: list[str] = []
    for m in WIKILINK.finditer(masked):
        embed, inner = m.group(1) == "!", m.group(2)
        target, heading = parse_target(inner)
        if is_attachment(target):
            attachments.append(target)
        elif target or heading:
            found.append(Wikilink(target, heading, embed))
    return found, attachments


def inline_tags(masked: str) -> list[str]:
    """``#tags`` of the text (not headings, not URL fragments, not pure numbers)."""
    return [m.group(1).rstrip("/") for m in TAG.finditer(masked)]
