"""An HTML page as Markdown-like text: headings as ``#`` lines, paragraphs and list items as lines.

The result goes through the same heading chunker as a Markdown document, so a page is cut at
its ``h1``-``h6`` the way a note is cut at its ``#`` headings. Site furniture (``nav``,
``header``, ``footer``) and what is no text at all (``script``, ``style``, ``template``, ``svg``)
are left out; what remains is what a reader of the page reads. The stdlib parser is forgiving, so
broken markup still gives text rather than an error.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED = {"script", "style", "nav", "header", "footer", "noscript", "template", "svg"}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BLOCKS = {
    "p", "div", "section", "article", "main", "aside", "blockquote", "pre", "ul", "ol", "dl",
    "dt", "dd", "table", "tr", "figure", "figcaption", "form", "fieldset", "address", "details",
    "summary", "hr",
}  # fmt: skip
SPACES = re.compile(r"\s+")
# A line of page text that would read as Markdown structure (a heading, a code fence) is escaped,
# so only real headings split the page.
MARKDOWN_START = re.compile(r"^(#|```|~~~)")


class PageText(HTMLParser):
    """Collects the page's ``<title>``, its first ``h1`` and its text as Markdown-like lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.skipping: list[str] = []
        self.title: str | None = None
        self.h1: str | None = None
        self.in_title = False
        self.heading: int | None = None
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and self.title is None and not self.skipping:
            self.in_title = True  # the page's first title; an <svg>'s own <title> is no page title
            self.title = ""
        if tag in SKIPPED:
            self.skipping.append(tag)
            return
        if self.skipping:
            return
        if tag in HEADINGS:
            self.flush()
            self.heading = HEADINGS[tag]
        elif tag == "li":
            self.drop_marker()
            self.flush(blank=False)
            self.line.append("- ")
        elif tag == "br":
            self.flush(blank=False)
        elif tag in BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre += 1
        elif tag in ("td", "th") and self.line:
            self.line.append(" | ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self.skipping:
            self.flush(blank=False)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in SKIPPED:
            # close the innermost skipped element of this name (and any left open inside it)
            if tag in self.skipping:
                while self.skipping and self.skipping.pop() != tag:
                    pass
            return
        if self.skipping:
            return
        if tag in HEADINGS and self.heading is not None:
            text = SPACES.sub(" ", "".join(self.line)).strip()
            self.line = []
            if text:
                if self.heading == 1 and self.h1 is None:
                    self.h1 = text
                self.lines += ["#" * self.heading + " " + text, ""]
            self.heading = None
        elif tag == "li":
            self.drop_marker()
            self.flush(blank=False)
        elif tag in BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.in_title and self.title is not None:
            self.title += data
        if self.skipping or self.in_title:
            return
        if self.pre:
            head, *rest = data.split("\n")
            self.line.append(head)
            for part in rest:
                self.flush(blank=False)
                self.line.append(part)
        else:
            self.line.append(data)

    def drop_marker(self) -> None:
        """Forget the marker of a list item that ended without text."""
        if "".join(self.line).strip() == "-":
            self.line = []

    def flush(self, blank: bool = True) -> None:
        """End the current line (and the paragraph, with ``blank``)."""
        raw = "".join(self.line)
        text = raw.rstrip() if self.pre else SPACES.sub(" ", raw).strip()
        if text == "-":  # a list item's marker before its <p>: it belongs to the next line
            return
        self.line = []
        if text:
            self.lines.append("\\" + text if MARKDOWN_START.match(text) else text)
        if blank and self.lines and self.lines[-1] != "":
            self.lines.append("")

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines).strip("\n") + "\n"


def html_text(html: str) -> tuple[str | None, str]:
    """(the page's title: ``<title>``, else its first ``h1``; its text as Markdown-like lines)."""
    page = PageText()
    page.feed(html)
    page.close()
    title = SPACES.sub(" ", page.title or "").strip() or page.h1
    return title, page.text()
