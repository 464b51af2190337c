"""Markdown for people to read: markdown-it-py renders (raw HTML off), nh3 sanitises.

Block content and model answers are untrusted text. markdown-it-py is run with ``html`` off, so
HTML in the source comes out escaped; nh3 (ammonia) then keeps only the tags and attributes
Markdown produces, only http(s)/mailto links and in-page anchors, and adds
``rel="noopener noreferrer nofollow"`` to every link.
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

_TAGS = {
    "a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
    "li", "ol", "p", "pre", "s", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}, "ol": {"start"}}
_SCHEMES = {"http", "https", "mailto"}


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(
        ["table", "strikethrough"]
    )


def to_html(text: str | None) -> Markup:
    """Safe HTML for ``text`` (Markdown)."""
    if not text:
        return Markup("")
    rendered = _parser().render(text)
    clean = nh3.clean(
        rendered,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return Markup(clean)
