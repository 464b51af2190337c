"""Long notes split into blocks along their headings, each with a little of what came before.

A block is what search returns and what an embedding describes, so one block per note works only
while notes are short. A longer note is cut at its ``#``, ``##`` and ``###`` headings (never inside
code), sections still too long at paragraph breaks, and small neighbours are joined again up to
the limit. Each chunk after the first starts with the end of the previous chunk's last paragraph
(the overlap), so a sentence that leans on the paragraph before it keeps its context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ctx.plugins.ingest.links import Wikilink, mask_code, wikilinks

SPLIT_HEADING = re.compile(r"^#{1,3}[ \t]+(\S[^\n]*?)[ \t#]*$", re.M)
ANY_HEADING = re.compile(r"^#{1,6}[ \t]+(\S[^\n]*?)[ \t#]*$", re.M)
PARAGRAPH = re.compile(r"\n[ \t]*\n")


@dataclass
class Chunk:
    """One block's text, the heading it starts under and every heading inside it."""

    content: str
    heading: str | None
    headings: list[str] = field(default_factory=list)
    links: list[Wikilink] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    #: where the chunk's own text (without the overlap) lies in the body: a PDF's chunk finds
    #: its pages by these offsets
    start: int = 0
    end: int = 0


@dataclass
class Span:
    start: int
    end: int
    heading: str | None


def sections(masked: str, depth: int = 3) -> list[Span]:
    """Spans from one splitting heading (``#`` to ``depth`` ``#``) to the next (the first may
    have no heading)."""
    pattern = SPLIT_HEADING if depth == 3 else ANY_HEADING
    marks: list[tuple[int, str | None]] = [
        (m.start(), m.group(1).strip()) for m in pattern.finditer(masked)
    ]
    if not marks or marks[0][0] > 0:
        marks.insert(0, (0, None))
    ends = [start for start, _ in marks[1:]] + [len(masked)]
    return [Span(s, e, h) for (s, h), e in zip(marks, ends, strict=True) if masked[s:e].strip()]


def cut(span: Span, masked: str, limit: int) -> list[Span]:
    """A span over ``limit`` cut at paragraph breaks, a paragraph over it every ``limit`` chars."""
    if span.end - span.start <= limit:
        return [span]
    points = [m.end() for m in PARAGRAPH.finditer(masked, span.start, span.end)] + [span.end]
    out: list[Span] = []
    start = fits = span.start
    for point in points:
        if point - start > limit:
            if fits > start:
                out.append(Span(start, fits, span.heading))
                start = fits
            while point - start > limit:
                out.append(Span(start, start + limit, span.heading))
                start += limit
        fits = point
    if span.end > start:
        out.append(Span(start, span.end, span.heading))
    return [s for s in out if masked[s.start : s.end].strip()]


def joined(spans: list[Span], limit: int) -> list[Span]:
    """Neighbouring spans joined while they fit in ``limit`` together."""
    out: list[Span] = []
    for span in spans:
        if out and span.end - out[-1].start <= limit:
            out[-1] = Span(out[-1].start, span.end, out[-1].heading)
        else:
            out.append(span)
    return out


def tail(text: str, overlap: int) -> str:
    """The end of ``text``'s last paragraph, at most ``overlap`` characters, from a word start."""
    last = PARAGRAPH.split(text.strip())[-1].strip()
    if len(last) <= overlap:
        return last
    piece = last[-overlap:]
    space = piece.find(" ")
    return piece[space + 1 :] if 0 <= space < len(piece) - 1 else piece


def split(
    body: str, limit: int, overlap: int, headings: bool = True, depth: int = 3
) -> list[Chunk]:
    """The note's chunks: one for a body of at most ``limit`` characters, else along headings
    of up to ``depth`` ``#`` (3 or 6; ``headings=False``: plain text, where a line starting with
    ``#`` is no heading, is cut at paragraph breaks only)."""
    masked = mask_code(body)
    if len(body) <= limit:
        spans = [Span(0, len(body), None)]
    else:
        whole = sections(masked, depth) if headings else [Span(0, len(body), None)]
        spans = joined([p for s in whole for p in cut(s, masked, limit)], limit)
    chunks: list[Chunk] = []
    previous = ""
    for span in spans:
        text = body[span.start : span.end].strip("\n")
        part = masked[span.start : span.end]
        links, attachments = wikilinks(part)
        lead = tail(previous, overlap) if previous and overlap > 0 else ""
        chunks.append(
            Chunk(
                content=f"{lead}\n\n{text}" if lead else text,
                heading=span.heading,
                headings=[m.group(1).strip() for m in ANY_HEADING.finditer(part)]
                if headings
                else [],
                links=links,
                attachments=attachments,
                start=span.start,
                end=span.end,
            )
        )
        previous = text
    return chunks or [Chunk(content="", heading=None)]
